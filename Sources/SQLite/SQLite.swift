// SQLite — the one module that imports the SQLite C library.
//
// What lives here: `Database` (a connection, owned and closed), `Statement` (a prepared
// statement: bind, step, read columns), `SQLiteError` (the result code, the library's message
// and the SQL or file it concerns) and `Value`. Read-only workspace readers and the journal both
// go through it; no C type leaves it.
// What it may import: CSQLite (internal), and Glibc (internal) to look at a file before SQLite
// opens it: its header, its `-wal` and `-shm`, its stamp (`Database.ReadAccess`).

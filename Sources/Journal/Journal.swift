// Journal — what the board received, kept in SQLite so that it survives a restart.
//
// What lives here: `JournalFile` (one connection to a journal: its versioned schema, rows of
// inputs, board snapshots, compaction), `JournalWriter` (the recorder a `BoardStore` hands
// inputs to; batches them on a thread of its own, so drawing never waits for the disk),
// `Retention` (what compaction always keeps), `JournalFile.play` (a journal read back as inputs,
// for restore and replay) and `JournalError`.
// What it may import: WallboardCore, SQLite (the one module that imports the C library),
// Foundation for threads and files.

#ifndef WALLBOARD_CSQLITE_SHIM_H
#define WALLBOARD_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: bound text and blobs are copied.
static inline sqlite3_destructor_type wallboard_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif

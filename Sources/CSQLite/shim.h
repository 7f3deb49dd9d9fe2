#ifndef GPSTRACK_CSQLITE_SHIM_H
#define GPSTRACK_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro Swift cannot import: bind text that SQLite copies. */
static inline int gpstrack_bind_text(sqlite3_stmt *stmt, int index, const char *text) {
    return sqlite3_bind_text(stmt, index, text, -1, SQLITE_TRANSIENT);
}
#endif

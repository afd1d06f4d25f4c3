#include "CSQLiteSettings.h"

// sqlite-nio's SQLite (the VaporCSQLite module, every function prefixed `sqlite_nio_`), which
// SplitStore links; declared here so this target needs no header of another package.
typedef struct sqlite3 sqlite3;
extern int sqlite_nio_sqlite3_db_config(sqlite3 *db, int op, ...);

enum { SPLITTER_SQLITE_DBCONFIG_ENABLE_QPSG = 1007 };  // SQLITE_DBCONFIG_ENABLE_QPSG

int splitter_sqlite_enable_qpsg(void *db) {
    int enabled = 0;
    int code = sqlite_nio_sqlite3_db_config((sqlite3 *)db, SPLITTER_SQLITE_DBCONFIG_ENABLE_QPSG, 1, &enabled);
    return code != 0 ? code : (enabled == 1 ? 0 : 1);
}

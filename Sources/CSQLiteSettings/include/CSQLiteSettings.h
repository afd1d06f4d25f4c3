#ifndef CSQLITESETTINGS_H
#define CSQLITESETTINGS_H

/// Turns on SQLite's query planner stability guarantee (SQLITE_DBCONFIG_ENABLE_QPSG) for the
/// connection `db` (a `sqlite3 *` of sqlite-nio's SQLite). Without it, a cached statement whose
/// plan looked at a bound value (a partial index checked against `role = ?`, a `LIKE ?`) is
/// parsed and planned again every time it gets new values. Returns SQLite's result code.
///
/// C, because `sqlite3_db_config` is variadic and Swift cannot call variadic C functions.
int splitter_sqlite_enable_qpsg(void *db);

#endif

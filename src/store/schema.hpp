#pragma once
// The schema as a numbered list of migration steps. Step i (from 1) brings a
// database from version i-1 to version i; the version lives in
// `PRAGMA user_version`. The list is append-only: a shipped step is never
// edited, a schema change is a new step plus a test that the previous
// version opens and migrates.
#include <string>
#include <vector>

#include "jgrid/util/result.hpp"
#include "store/sqlite.hpp"

namespace jgrid::store {

struct MigrationStep {
  std::string description;
  std::string sql;  // one or more statements
};

// The steps this binary knows; schema_version() is their count.
const std::vector<MigrationStep>& migration_steps();

// Brings the database of `conn` to version steps.size(), all pending steps in
// one transaction. Errors: STORE_TOO_NEW when the file's version is higher
// than steps.size() (the message names both versions and the way out);
// STORE_OPEN_FAILED when the file is not a database or a step fails (nothing
// of the pending steps is then applied).
Status migrate(sql::Connection& conn, const std::vector<MigrationStep>& steps);

// The file's current `user_version`. Throws SqliteError.
int read_schema_version(sql::Connection& conn);

}  // namespace jgrid::store

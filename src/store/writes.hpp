#pragma once
// The statements one WriteBatch runs. The caller owns the transaction.
#include "jgrid/store/store.hpp"
#include "store/sqlite.hpp"

namespace jgrid::store {

// Upserts the jobs, artifacts, inputs and settings of `batch` and inserts its
// events and logs. Throws SqliteError (e.g. a duplicate event seq or log
// sequence) part way: the caller rolls back.
void apply_batch(sql::Connection& conn, const WriteBatch& batch);

}  // namespace jgrid::store

#pragma once
#include <vector>
// The statements one WriteBatch runs. The caller owns the transaction.
#include "jgrid/store/store.hpp"
#include "store/sqlite.hpp"

namespace jgrid::store {

// Upserts the jobs, artifacts, inputs and settings of `batch` and inserts its
// events and logs. Throws SqliteError (e.g. a duplicate event seq or log
// sequence) part way: the caller rolls back.
void apply_batch(sql::Connection& conn, const WriteBatch& batch);

// Applies the batches of one group in order inside the caller's transaction.
// A job staged several times in the group is written once, in its last
// state: the earlier upserts would be overwritten before the commit anyway.
void apply_group(sql::Connection& conn, const std::vector<const WriteBatch*>& batches);

}  // namespace jgrid::store

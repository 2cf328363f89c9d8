#pragma once
// A store that keeps nothing: each batch committed to it is handed, in
// commit order, to an observer on the store's own thread, and reads answer
// as an empty store would (no jobs, events, logs, settings). For `simulate`,
// which builds its summary and event log from the batches as they come and
// must not grow with the number of jobs it has run. What the engine reads
// back from a store still holds: spent_usd() sums the cost of the ended jobs
// written, per workspace; counters() give the highest event seq written.
// Thread-safe.
#include <functional>
#include <memory>

#include "jgrid/store/store.hpp"

namespace jgrid::store {

// `observer` runs on the store's thread, one batch at a time, in commit
// order. The thread takes the batches over in groups of 256 (or whatever is
// queued when someone flushes), so spent_usd() and counters() may lag the
// last commits until flush(); commit_async() waits while 1024 batches are
// queued, so a slow observer slows the writer down instead of growing the
// queue.
std::unique_ptr<Store> make_stream_store(std::function<void(const WriteBatch&)> observer);

}  // namespace jgrid::store

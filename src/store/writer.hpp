#pragma once
// The store's one writer: a thread that owns the write connection and
// applies queued batches with group commit. Everything queued while a
// transaction runs goes into the next one, so N concurrent durable commits
// cost about one fsync instead of N.
//
// Invariants: batches are applied in the order they were queued; a batch is
// applied whole or not at all; when a group's transaction fails, each of its
// batches is retried alone so only the bad ones fail.
//
// Thread-safe. The destructor applies everything queued, then stops.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "jgrid/store/store.hpp"
#include "store/sqlite.hpp"

namespace jgrid::store {

class Writer {
 public:
  // Runs on the writer thread after a transaction, with the batches it
  // committed (never empty), before their committers return. It may move
  // from them.
  using OnCommit = std::function<void(std::vector<WriteBatch*>& committed)>;

  // `conn` outlives the writer. `conn_mutex`, when set, is held around each
  // transaction (readers share the connection).
  Writer(sql::Connection& conn, std::mutex* conn_mutex, OnCommit on_commit);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Batches queued by commit_async beyond which it waits for the writer.
  static constexpr std::size_t k_max_queued = 1024;

  // See Store::commit / commit_async / flush.
  Status commit(WriteBatch batch);
  void commit_async(WriteBatch batch);
  void flush();
  // Runs `operation` on the write connection in a transaction of its own,
  // after every batch queued before it and before any queued after it;
  // returns once that is committed. Error STORE_WRITE_FAILED when it throws
  // (rolled back: nothing of it applied).
  using Operation = std::function<void(sql::Connection&)>;
  Status run_alone(Operation operation);
  // Batches queued and not yet taken by the writer thread (for tests).
  std::size_t queued() const;

 private:
  struct Pending {
    WriteBatch batch;
    std::optional<std::promise<Status>> done;  // empty for commit_async
    std::uint64_t ticket = 0;
    Operation operation;  // set by run_alone (batch empty)
  };

  std::uint64_t enqueue(WriteBatch batch, std::optional<std::promise<Status>> done, Operation operation = {});
  void run();
  // The queue cut into groups written one after the other: runs of
  // batches, and each operation alone.
  static std::vector<std::vector<Pending>> split_operations(std::vector<Pending> queue);
  std::vector<Status> write_group(const std::vector<Pending>& group);
  Status transaction(const std::function<void()>& body);
  void finish(std::vector<Pending>& group, std::vector<Status>& results);

  sql::Connection& m_conn;
  std::mutex* m_conn_mutex;
  OnCommit m_on_commit;

  mutable std::mutex m_mutex;
  std::condition_variable m_wake;  // work queued or stopping
  std::condition_variable m_done;  // m_done_ticket moved
  std::condition_variable m_room;  // the queue was taken: commit_async may add again
  std::vector<Pending> m_queue;
  std::uint64_t m_last_ticket = 0;  // of the newest queued batch
  std::uint64_t m_done_ticket = 0;  // every batch up to this one is finished
  bool m_stopping = false;
  std::thread m_thread;  // last: starts after everything above exists
};

}  // namespace jgrid::store

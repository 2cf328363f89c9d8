#pragma once
// Store: the SQLite file of jobs, events, logs, artifacts, inputs and
// settings. The only module that includes sqlite3.h.
//
// Thread-safe. Writes go to one writer thread and one connection; concurrent
// commit() calls are merged into one transaction (group commit), and each
// returns only after its batch is durable (WAL, synchronous=FULL by default).
// Reads use a connection per reading thread (file databases) or share the
// writer's connection under a lock (":memory:"). Recently used jobs are also
// kept decoded in memory (updated by every commit before it returns), so
// get_job of a hot job does not touch SQLite.
//
// Reads return values: "not found" is an empty optional or list. A SQLite
// failure while reading (I/O error, corrupt file) is not an expected outcome
// and is thrown as std::runtime_error. Workload text (output tails, log
// lines) is stored as valid UTF-8: invalid bytes become U+FFFD.
//
// The store does not decide anything: ids, sequence numbers and statuses come
// from the caller (the engine), which owns the lifecycle.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/model/artifact.hpp"
#include "jgrid/model/delivery.hpp"
#include "jgrid/model/event.hpp"
#include "jgrid/model/job.hpp"
#include "jgrid/model/job_input.hpp"
#include "jgrid/model/log_entry.hpp"
#include "jgrid/util/notifier.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::store {

// A place in the order of pending outbox rows: the rows after (next_attempt_ms, id).
struct DeliveryCursor {
  std::int64_t next_attempt_ms = INT64_MIN;
  std::string id;
};

struct StoreOptions {
  std::string path = ":memory:";  // a file path, or ":memory:"
  bool synchronous_full = true;   // false: synchronous=NORMAL
  int busy_timeout_ms = 5000;
};

// Everything one logical change writes. Applied atomically.
struct WriteBatch {
  std::vector<model::Job> jobs;            // upserted by id
  std::vector<model::Event> events;        // inserted (seq/sequence set by caller)
  std::vector<model::LogEntry> logs;       // inserted
  std::vector<model::Artifact> artifacts;  // upserted by id
  std::vector<model::JobInput> inputs;     // upserted by id
  std::vector<std::pair<std::string, std::string>> settings;  // upserted key -> value
  // Callback outbox rows, upserted by id (an existing row keeps its body).
  std::vector<model::Delivery> deliveries;
  bool empty() const;
};

struct JobQuery {
  std::string workspace = "local";
  std::vector<model::JobStatus> statuses;  // empty: any
  std::string workload_type;               // "" any
  std::string gpu_vendor;                  // "" any (matches effective_vendor)
  std::string before_id;                   // cursor: only ids < this (newest-first paging)
  int limit = 20;
};

struct JobPage {
  std::vector<model::Job> jobs;
  bool has_more = false;
};

struct EventQuery {
  std::string job_id;             // "" = all jobs and nodes
  std::int64_t after_seq = 0;     // by Event::seq when job_id == "", else by Event::sequence
  std::string type;               // "" any
  std::int64_t since_ms = 0;      // created_ms >= since_ms
  int limit = 100;
};

struct LogQuery {
  std::string job_id;
  std::int64_t after_sequence = 0;
  std::string stream = "all";     // stdout | stderr | all
  int limit = 100;
  std::optional<int> tail;        // last N lines (ignores after_sequence)
};

struct InputQuery {
  std::string workspace = "local";
  std::string kind;               // "" any
  std::string status;             // "" any
  std::string after_id;           // cursor: ids > this (oldest first)
  int limit = 20;
};

// Highest numbers in use, so the engine can continue them after a restart.
struct Counters {
  std::int64_t max_event_seq = 0;
};

// What Store::delete_all_jobs removed, in rows.
struct DeletedRows {
  std::int64_t jobs = 0;
  std::int64_t events = 0;
  std::int64_t log_lines = 0;
  std::int64_t artifacts = 0;
  std::int64_t inputs = 0;
  std::int64_t deliveries = 0;  // callback outbox rows
};

// Encodes the member of `job` that never changes after submit (the spec) now,
// on the calling thread, so that the writer thread, which
// every commit goes through, does not have to at the job's first write.
// Optional: a speed-up for callers that create jobs on many threads.
void warm_job_encoding(const model::Job& job);

class Store {
 public:
  // Opens or creates the database and runs pending migrations. Errors:
  // STORE_OPEN_FAILED (cannot open/create), STORE_TOO_NEW (the file's schema
  // version is newer than this binary knows: message names both versions).
  static Result<std::unique_ptr<Store>> open(const StoreOptions& options);
  virtual ~Store() = default;

  // Applies `batch` in one transaction; returns after it is durable.
  // Error STORE_WRITE_FAILED (disk full, I/O, or a constraint: an event seq,
  // a log sequence or an idempotency key already used) with nothing of the
  // batch applied; other batches committed alongside are unaffected.
  virtual Status commit(WriteBatch batch) = 0;
  // Queues `batch` for the next transaction and returns at once (log lines),
  // or after the writer has taken the queue when 1024 batches wait already.
  // A later commit() is applied after it, so commit() also makes it durable.
  // A failure is written to the server log (there is no one to return it to).
  virtual void commit_async(WriteBatch batch) = 0;
  // Blocks until everything queued so far is committed.
  virtual void flush() = 0;
  // False for a store that keeps nothing of a job before its end (the
  // stream store of `simulate`): the engine then writes a job's document
  // only once it has ended, and its events as always.
  virtual bool keeps_job_states() const { return true; }

  // Incremented after every committed transaction (live followers wait on it).
  virtual const util::Notifier& committed() const = 0;

  virtual std::optional<model::Job> get_job(const std::string& job_id) const = 0;
  virtual JobPage list_jobs(const JobQuery& query) const = 0;
  // Every job whose status is not terminal (for recovery at start).
  virtual std::vector<model::Job> live_jobs() const = 0;
  // The job created with this idempotency key in this workspace, if any.
  virtual std::optional<model::Job> find_by_idempotency_key(const std::string& workspace,
                                                            const std::string& key) const = 0;

  // Lists return at most `limit` items (oldest first); ask for limit + 1 to
  // learn whether there are more.
  virtual std::vector<model::Event> list_events(const EventQuery& query) const = 0;
  virtual std::vector<model::LogEntry> list_logs(const LogQuery& query) const = 0;
  virtual std::int64_t max_log_sequence(const std::string& job_id) const = 0;
  virtual std::int64_t max_event_sequence(const std::string& job_id) const = 0;

  virtual std::vector<model::Artifact> list_artifacts(const std::string& job_id) const = 0;
  virtual std::optional<model::Artifact> get_artifact(const std::string& artifact_id) const = 0;

  virtual std::optional<model::JobInput> get_input(const std::string& input_id) const = 0;
  // At most `limit` inputs, oldest first (as list_events).
  virtual std::vector<model::JobInput> list_inputs(const InputQuery& query) const = 0;

  // Outbox rows in state "pending", soonest next_attempt_ms first (then by
  // id), at most `limit`, starting after `after` (the default: the first).
  // Listing page after page, each after the last row of the one before,
  // visits every pending row once.
  virtual std::vector<model::Delivery> pending_deliveries(int limit, const DeliveryCursor& after = {}) const = 0;
  // Every outbox row of one job, oldest first.
  virtual std::vector<model::Delivery> list_deliveries(const std::string& job_id) const = 0;

  virtual std::optional<std::string> get_setting(const std::string& key) const = 0;
  virtual Counters counters() const = 0;
  virtual std::int64_t count_jobs() const = 0;
  // Jobs per status name ("queued" -> 3); statuses without jobs are absent.
  virtual std::map<std::string, std::int64_t> count_jobs_by_status() const = 0;

  // What the stored jobs of `workspace` cost, summed (their actual_cost_usd;
  // 0 without any). Kept by the store as jobs are written (schema step 6),
  // so this reads one row however many jobs there are.
  virtual double spent_usd(const std::string& workspace) const = 0;

  // Whether the store answers now, for /readyz and /v1/health: a small real
  // query on a read connection (not answered from memory), and a check that
  // the database file is still the one opened (SQLite goes on writing to a
  // deleted or replaced file, so everything after would be lost). Error
  // STORE_UNAVAILABLE naming the database and what failed; never throws.
  virtual Status ping() const = 0;

  // Deletes every job with its events, log lines, artifact rows, callback
  // outbox rows and idempotency keys, and every input, in one transaction
  // that runs after every batch queued before it; returns once it is
  // durable, with the recently used jobs forgotten too. Job counts read
  // zero after it; counters().max_event_seq does not go back, so event seqs
  // are never given out twice. Files under the data dir are the caller's,
  // and so is making sure that nothing writes a deleted job afterwards.
  // Error STORE_WRITE_FAILED, with nothing deleted.
  virtual Result<DeletedRows> delete_all_jobs() = 0;
  // Deletes every input still pending whose upload slot expired at or
  // before `now_ms` (a ready input stays: jobs use it); returns their ids,
  // once durable. The blobs under the data dir are the caller's.
  // Error STORE_WRITE_FAILED, with nothing deleted.
  virtual Result<std::vector<std::string>> delete_expired_inputs(std::int64_t now_ms) = 0;

  // The schema version this binary writes.
  static int schema_version();
};

}  // namespace jgrid::store

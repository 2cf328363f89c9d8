#include "jgrid/store/stream_store.hpp"

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "jgrid/util/threads.hpp"

namespace jgrid::store {
namespace {

// The engine waits for the observer thread only once this many batches wait
// (a bound on memory; a batch holds a few events).
constexpr std::size_t k_max_queued = 8192;
// The observer thread is woken once this many batches wait (or on flush):
// one hand-off between threads per batch cost more than the batch itself.
constexpr std::size_t k_wake_after = 256;

class StreamStore final : public Store {
 public:
  explicit StreamStore(std::function<void(const WriteBatch&)> observer) : m_observer(std::move(observer)) {
    m_thread = std::thread([this] { run(); });
  }
  ~StreamStore() override {
    {
      std::lock_guard lock(m_mutex);
      m_stopping = true;
    }
    m_work.notify_one();
    m_thread.join();
  }

  Status commit(WriteBatch batch) override {
    commit_async(std::move(batch));
    flush();
    return Ok{};
  }
  void commit_async(WriteBatch batch) override {
    if (batch.empty()) return;
    std::unique_lock lock(m_mutex);
    m_room.wait(lock, [&] { return m_queue.size() < k_max_queued; });
    m_queue.push_back(std::move(batch));
    ++m_queued;
    bool wake = m_queue.size() >= k_wake_after;
    lock.unlock();
    if (wake) m_work.notify_one();  // unlocked: the woken thread would only wait for the mutex
  }
  void flush() override {
    std::unique_lock lock(m_mutex);
    std::uint64_t target = m_queued;
    ++m_flushes_waiting;
    m_work.notify_one();
    m_done_cv.wait(lock, [&] { return m_done >= target; });
    --m_flushes_waiting;
  }
  const util::Notifier& committed() const override { return m_committed; }
  bool keeps_job_states() const override { return false; }

  std::optional<model::Job> get_job(const std::string&) const override { return std::nullopt; }
  JobPage list_jobs(const JobQuery&) const override { return {}; }
  std::vector<model::Job> live_jobs() const override { return {}; }
  std::optional<model::Job> find_by_idempotency_key(const std::string&, const std::string&) const override {
    return std::nullopt;
  }
  std::vector<model::Event> list_events(const EventQuery&) const override { return {}; }
  std::vector<model::LogEntry> list_logs(const LogQuery&) const override { return {}; }
  std::int64_t max_log_sequence(const std::string&) const override { return 0; }
  std::int64_t max_event_sequence(const std::string&) const override { return 0; }
  std::vector<model::Artifact> list_artifacts(const std::string&) const override { return {}; }
  std::optional<model::Artifact> get_artifact(const std::string&) const override { return std::nullopt; }
  std::optional<model::JobInput> get_input(const std::string&) const override { return std::nullopt; }
  std::vector<model::JobInput> list_inputs(const InputQuery&) const override { return {}; }
  std::vector<model::Delivery> pending_deliveries(int, const DeliveryCursor&) const override { return {}; }
  std::vector<model::Delivery> list_deliveries(const std::string&) const override { return {}; }
  std::optional<std::string> get_setting(const std::string&) const override { return std::nullopt; }
  Counters counters() const override {
    std::lock_guard lock(m_mutex);
    return Counters{m_max_event_seq};
  }
  std::int64_t count_jobs() const override { return 0; }
  std::map<std::string, std::int64_t> count_jobs_by_status() const override { return {}; }
  double spent_usd(const std::string& workspace) const override {
    std::lock_guard lock(m_mutex);
    auto it = m_spent.find(workspace);
    return it == m_spent.end() ? 0 : it->second;
  }
  Status ping() const override { return Ok{}; }
  Result<DeletedRows> delete_all_jobs() override {
    flush();
    return DeletedRows{};
  }
  Result<std::vector<std::string>> delete_expired_inputs(std::int64_t) override { return std::vector<std::string>{}; }

 private:
  // Only taking the queue and counting what was done hold the mutex: the
  // engine's thread queues the next batches meanwhile, and waits for this
  // thread only when k_max_queued batches wait.
  void run() {
    util::become_helper_thread("stream store");
    while (true) {
      std::deque<WriteBatch> batches;
      {
        std::unique_lock lock(m_mutex);
        m_work.wait(lock, [&] {
          return m_queue.size() >= k_wake_after || (!m_queue.empty() && m_flushes_waiting > 0) || m_stopping;
        });
        if (m_queue.empty()) return;
        batches.swap(m_queue);
      }
      m_room.notify_all();
      for (const auto& batch : batches) m_observer(batch);
      Tally tally = count(batches);
      batches.clear();  // freeing the events costs about as much as observing them
      {
        std::lock_guard lock(m_mutex);
        m_max_event_seq = std::max(m_max_event_seq, tally.max_event_seq);
        for (const auto& [workspace, usd] : tally.spent) m_spent[workspace] += usd;
        m_done += tally.batches;
      }
      m_done_cv.notify_all();
      m_committed.notify();
    }
  }

  struct Tally {
    std::uint64_t batches = 0;
    std::int64_t max_event_seq = 0;
    std::map<std::string, double> spent;
  };
  // An ended job is written once with its final cost (the engine forgets it then).
  static Tally count(const std::deque<WriteBatch>& batches) {
    Tally tally;
    tally.batches = batches.size();
    for (const auto& batch : batches) {
      for (const auto& event : batch.events) tally.max_event_seq = std::max(tally.max_event_seq, event.seq);
      for (const auto& job : batch.jobs)
        if (model::is_terminal(job.status)) tally.spent[job.workspace] += job.actual_cost_usd.value_or(0);
    }
    return tally;
  }

  std::function<void(const WriteBatch&)> m_observer;
  mutable std::mutex m_mutex;
  std::condition_variable m_work, m_room, m_done_cv;
  std::deque<WriteBatch> m_queue;
  std::uint64_t m_queued = 0, m_done = 0;
  int m_flushes_waiting = 0;
  std::int64_t m_max_event_seq = 0;
  std::map<std::string, double> m_spent;
  bool m_stopping = false;
  util::Notifier m_committed;
  std::thread m_thread;
};

}  // namespace

std::unique_ptr<Store> make_stream_store(std::function<void(const WriteBatch&)> observer) {
  return std::make_unique<StreamStore>(std::move(observer));
}

}  // namespace jgrid::store

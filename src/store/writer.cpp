#include "store/writer.hpp"

#include <algorithm>

#include "jgrid/util/log.hpp"
#include "store/writes.hpp"

namespace jgrid::store {

Writer::Writer(sql::Connection& conn, std::mutex* conn_mutex, OnCommit on_commit)
    : m_conn(conn), m_conn_mutex(conn_mutex), m_on_commit(std::move(on_commit)), m_thread([this] { run(); }) {}

Writer::~Writer() {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_one();
  m_thread.join();
}

Status Writer::commit(WriteBatch batch) {
  if (batch.empty()) {
    flush();
    return Ok{};
  }
  std::promise<Status> done;
  auto result = done.get_future();
  enqueue(std::move(batch), std::move(done));
  return result.get();
}

void Writer::commit_async(WriteBatch batch) {
  if (!batch.empty()) enqueue(std::move(batch), std::nullopt);
}

Status Writer::run_alone(Operation operation) {
  std::promise<Status> done;
  auto result = done.get_future();
  enqueue(WriteBatch{}, std::move(done), std::move(operation));
  return result.get();
}

void Writer::flush() {
  std::unique_lock lock(m_mutex);
  const std::uint64_t ticket = m_last_ticket;
  m_done.wait(lock, [&] { return m_done_ticket >= ticket; });
}

std::size_t Writer::queued() const {
  std::lock_guard lock(m_mutex);
  return m_queue.size();
}

std::uint64_t Writer::enqueue(WriteBatch batch, std::optional<std::promise<Status>> done, Operation operation) {
  std::uint64_t ticket;
  {
    std::unique_lock lock(m_mutex);
    // Back-pressure: a producer that outruns the disk (a batch simulation)
    // waits here instead of piling up batches in memory.
    if (!done) m_room.wait(lock, [&] { return m_queue.size() < k_max_queued || m_stopping; });
    ticket = ++m_last_ticket;
    m_queue.push_back(Pending{std::move(batch), std::move(done), ticket, std::move(operation)});
  }
  m_wake.notify_one();
  return ticket;
}

void Writer::run() {
  for (;;) {
    std::vector<Pending> group;
    {
      std::unique_lock lock(m_mutex);
      m_wake.wait(lock, [&] { return !m_queue.empty() || m_stopping; });
      if (m_queue.empty()) return;
      group.swap(m_queue);
    }
    m_room.notify_all();
    for (auto& part : split_operations(std::move(group))) {
      auto results = write_group(part);
      finish(part, results);
    }
  }
}

std::vector<std::vector<Writer::Pending>> Writer::split_operations(std::vector<Pending> queue) {
  std::vector<std::vector<Pending>> parts;
  auto is_operation = [](const Pending& pending) { return static_cast<bool>(pending.operation); };
  if (std::none_of(queue.begin(), queue.end(), is_operation)) {  // the usual case: one group
    parts.push_back(std::move(queue));
    return parts;
  }
  parts.emplace_back();
  for (auto& pending : queue) {
    bool alone = static_cast<bool>(pending.operation);
    if (alone && !parts.back().empty()) parts.emplace_back();
    parts.back().push_back(std::move(pending));
    if (alone) parts.emplace_back();
  }
  if (parts.back().empty()) parts.pop_back();
  return parts;
}

std::vector<Status> Writer::write_group(const std::vector<Pending>& group) {
  std::unique_lock<std::mutex> lock;
  if (m_conn_mutex) lock = std::unique_lock(*m_conn_mutex);
  if (group.front().operation) return {transaction([&] { group.front().operation(m_conn); })};
  std::vector<const WriteBatch*> batches;
  batches.reserve(group.size());
  for (const auto& pending : group) batches.push_back(&pending.batch);
  Status all = transaction([&] { apply_group(m_conn, batches); });
  if (all.ok() || group.size() == 1) return std::vector<Status>(group.size(), all);
  // One bad batch must not fail the others that happened to share its group.
  std::vector<Status> results;
  results.reserve(group.size());
  for (const auto& pending : group) results.push_back(transaction([&] { apply_batch(m_conn, pending.batch); }));
  return results;
}

Status Writer::transaction(const std::function<void()>& body) {
  try {
    m_conn.exec("BEGIN IMMEDIATE");
    body();
    m_conn.exec("COMMIT");
    return Ok{};
  } catch (const std::exception& e) {
    m_conn.rollback();
    return make_error("STORE_WRITE_FAILED", "write to database " + m_conn.path() + " failed: " + e.what(),
                      {{"path", m_conn.path()}});
  }
}

void Writer::finish(std::vector<Pending>& group, std::vector<Status>& results) {
  // Followers hear of the commit before the committers return, so a caller
  // that saw commit() succeed also sees committed() moved.
  std::vector<WriteBatch*> committed;
  for (std::size_t i = 0; i < group.size(); ++i)
    if (results[i].ok()) committed.push_back(&group[i].batch);
  if (!committed.empty() && m_on_commit) m_on_commit(committed);
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (group[i].done) {
      group[i].done->set_value(std::move(results[i]));
    } else if (!results[i].ok()) {
      util::log(util::LogLevel::error, "store", "queued write was lost", {{"error", results[i].error().message}});
    }
  }
  {
    std::lock_guard lock(m_mutex);
    m_done_ticket = group.back().ticket;
  }
  m_done.notify_all();
}

}  // namespace jgrid::store

#include "trace_prefetch.hpp"

#include <algorithm>

#include "jgrid/util/threads.hpp"

namespace jgrid::cli {
namespace {

// Decoded lines are handed over in groups: one lock and one wake per group,
// not per line.
constexpr std::size_t k_group = 256;

DecodedEntry decode(const Trace& trace, const TraceEntry& entry, const TracePrefetch::Prepare& prepare) {
  DecodedEntry decoded;
  if (entry.fault) {
    decoded.fault = trace.fault(entry);
  } else if (auto spec = trace.job(entry)) {
    decoded.job = prepare(std::move(*spec));
  } else {
    decoded.job = spec.error();
  }
  return decoded;
}

}  // namespace

TracePrefetch::TracePrefetch(const Trace& trace, Prepare prepare, std::size_t ahead)
    : m_trace(trace), m_prepare(std::move(prepare)), m_ahead(std::max(ahead, k_group)) {
  m_thread = std::thread([this] { run(); });
}

TracePrefetch::~TracePrefetch() {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_room.notify_all();
  m_thread.join();
}

void TracePrefetch::run() {
  util::become_helper_thread("trace reader");
  const auto& entries = m_trace.entries();
  std::deque<DecodedEntry> group;
  for (std::size_t index = 0; index < entries.size();) {
    group.push_back(decode(m_trace, entries[index++], m_prepare));
    if (group.size() < k_group && index < entries.size()) continue;
    std::unique_lock lock(m_mutex);
    m_room.wait(lock, [&] { return m_stopping || m_ready.size() + group.size() <= m_ahead; });
    if (m_stopping) return;
    for (auto& decoded : group) m_ready.push_back(std::move(decoded));
    group.clear();
    m_decoded.notify_one();
  }
}

DecodedEntry TracePrefetch::next() {
  if (m_taking.empty()) {
    std::unique_lock lock(m_mutex);
    m_decoded.wait(lock, [&] { return !m_ready.empty(); });
    m_taking.swap(m_ready);
    m_room.notify_one();
  }
  DecodedEntry decoded = std::move(m_taking.front());
  m_taking.pop_front();
  return decoded;
}

}  // namespace jgrid::cli

#include "recorder.hpp"

#include "jgrid/util/ids.hpp"

namespace jgrid::engine {

Recorder::Recorder(const util::Clock& clock, std::int64_t max_log_bytes)
    : m_clock(clock), m_max_log_bytes(max_log_bytes) {}

void Recorder::continue_after(std::int64_t max_seq) { m_next_seq = max_seq + 1; }

// Built in place in the batch, and without its title (the store's encoding
// and event_to_api give it one): this runs for every step of a simulation.
void Recorder::event(LiveJob& live, store::WriteBatch& batch, EventSpec spec) {
  if (batch.events.capacity() == 0) batch.events.reserve(4);  // a step's batch holds one to four
  if (live.ordinal == 0) live.ordinal = ++m_ordinals;
  const std::int64_t now = m_clock.now_ms();
  // Every member given: a default Event would allocate an empty data object
  // only for it to be replaced. (Braces: not every compiler here builds an
  // aggregate from emplace_back's parentheses.)
  const model::Event& event = batch.events.emplace_back(model::Event{
      m_next_seq++, util::new_id("evt", now), live.job.id, ++live.event_sequence, std::move(spec.type),
      std::string(model::to_string(live.job.phase)), std::string(), std::move(spec.message), std::move(spec.source),
      std::move(spec.level), now, std::move(spec.data), live.ordinal});
  if (m_keep_digest) m_digest.add(event);
}

void Recorder::reset_digest() {
  m_digest.reset();
  m_ordinals = 0;
}

model::LogEntry Recorder::log_entry(LiveJob& live, const std::string& stream, const std::string& message) {
  model::LogEntry entry;
  entry.job_id = live.job.id;
  entry.sequence = ++live.log_sequence;
  entry.stream = stream;
  entry.message = message;
  entry.created_ms = m_clock.now_ms();
  if (stream == "system") {
    entry.category = "platform";
    entry.source = "platform";
  } else {
    entry.category = stream == "stderr" ? "workload_stderr" : "workload_stdout";
  }
  return entry;
}

void Recorder::output(LiveJob& live, store::WriteBatch& batch, const std::string& stream, const std::string& line) {
  auto size = static_cast<std::int64_t>(line.size()) + 1;
  if (live.dropped_lines == 0 && live.log_bytes + size <= m_max_log_bytes) {
    live.log_bytes += size;
    batch.logs.push_back(log_entry(live, stream, line));
    if (reads_for_diagnosis(live)) live.output_scan.line(stream, batch.logs.back().sequence, line);
    return;
  }
  // Past the bound: one platform line says so, every later line is only counted.
  if (live.dropped_lines++ == 0) {
    live.job.log_truncated = true;
    batch.logs.push_back(log_entry(live, "system",
                                   "log limit of " + std::to_string(m_max_log_bytes) +
                                       " bytes reached: further output lines are dropped"));
  }
}

}  // namespace jgrid::engine

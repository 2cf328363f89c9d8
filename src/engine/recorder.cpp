#include "recorder.hpp"

#include <charconv>

#include "jgrid/util/crypto.hpp"
#include "jgrid/util/ids.hpp"

namespace jgrid::engine {

Recorder::Recorder(const util::Clock& clock, std::int64_t max_log_bytes)
    : m_clock(clock), m_max_log_bytes(max_log_bytes) {}

void Recorder::continue_after(std::int64_t max_seq) { m_next_seq = max_seq + 1; }

// Built in place in the batch, and without its title (the store's encoding
// and event_to_api give it one): this runs for every step of a simulation.
void Recorder::event(LiveJob& live, store::WriteBatch& batch, EventSpec spec) {
  if (batch.events.capacity() == 0) batch.events.reserve(4);  // a step's batch holds one to four
  model::Event& event = batch.events.emplace_back();
  event.created_ms = m_clock.now_ms();
  event.seq = m_next_seq++;
  event.id = util::new_id("evt", event.created_ms);
  event.job_id = live.job.id;
  event.sequence = ++live.event_sequence;
  event.type = std::move(spec.type);
  event.phase = model::to_string(live.job.phase);
  event.message = std::move(spec.message);
  event.source = std::move(spec.source);
  event.level = std::move(spec.level);
  event.data = std::move(spec.data);
  digest(live, event);
}

// One line per event: "\n<ms> #<ordinal> <type> <source> <level> <message>",
// the job's id in the message written as its ordinal. Built in one buffer
// kept between events: this runs for every event of a simulation.
void Recorder::digest(LiveJob& live, const model::Event& event) {
  if (live.ordinal == 0) live.ordinal = ++m_ordinals;
  char ms[24], tag_text[24];
  tag_text[0] = '#';
  const std::string_view tag(tag_text, std::to_chars(tag_text + 1, tag_text + sizeof tag_text, live.ordinal).ptr - tag_text);
  std::string& line = m_digest_line;
  line.assign("\n").append(ms, std::to_chars(ms, ms + sizeof ms, event.created_ms).ptr);
  line.append(" ").append(tag);
  for (const std::string* part : {&event.type, &event.source, &event.level}) line.append(" ").append(*part);
  line.append(" ");
  const std::string& message = event.message;
  std::size_t from = 0;
  for (auto at = message.find(event.job_id); !event.job_id.empty() && at != std::string::npos;
       at = message.find(event.job_id, from)) {
    line.append(message, from, at - from).append(tag);
    from = at + event.job_id.size();
  }
  line.append(message, from);
  m_digest.update(line);
  ++m_digest_events;
}

void Recorder::reset_digest() {
  m_digest.reset();
  m_digest_events = 0;
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

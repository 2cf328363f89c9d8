#include "jgrid/engine/event_digest.hpp"

#include <charconv>
#include <string_view>

namespace jgrid::engine {

// Built in one buffer kept between events: this runs for every event of a
// simulation.
void EventDigest::add(const model::Event& event) {
  char ms[24], tag_text[24];
  tag_text[0] = '#';
  const std::string_view tag(tag_text,
                             std::to_chars(tag_text + 1, tag_text + sizeof tag_text, event.ordinal).ptr - tag_text);
  std::string& line = m_line;
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
  m_sha.update(line);
  ++m_events;
}

void EventDigest::reset() {
  m_sha.reset();
  m_events = 0;
}

}  // namespace jgrid::engine

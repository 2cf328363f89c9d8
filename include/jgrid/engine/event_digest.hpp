#pragma once
// The event log digest (docs/simulation.md §3): sha256 over one line per
// event, "\n<ms> #<ordinal> <type> <source> <level> <message>", where the
// ordinal is the order of the job's first event and stands in for the job's
// id in the message too. Ids are random; nothing else is, on a virtual clock,
// so one input gives one digest. The engine keeps one (GET /v1/sim/digest);
// `simulate` feeds its own from the event stream, off the clock's thread.
#include <cstdint>
#include <string>

#include "jgrid/model/event.hpp"
#include "jgrid/util/crypto.hpp"

namespace jgrid::engine {

class EventDigest {
 public:
  // Adds `event`'s line; event.ordinal must be set (the engine sets it).
  void add(const model::Event& event);
  // The digest so far; "" before the first event.
  std::string hex() const { return m_events == 0 ? "" : m_sha.hex_digest_so_far(); }
  std::int64_t events() const { return m_events; }
  void reset();

 private:
  util::Sha256 m_sha;  // running: O(1) per event whenever the digest is read
  std::int64_t m_events = 0;
  std::string m_line;  // add()'s buffer, kept between events
};

}  // namespace jgrid::engine

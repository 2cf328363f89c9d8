#pragma once
// Reads and decodes a trace's lines on a thread of its own, ahead of the
// virtual clock that submits them, and prepares their submits there
// (engine::Engine::prepare: screening). Decoding and screening a job line
// cost about a fifth of the clock thread's time (perf, 300,000-job trace),
// and that thread is the one every simulated job waits for; the reading
// thread has a core to itself.
// At most `ahead` decoded lines wait, so memory stays bounded whatever the
// trace's length.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "jgrid/engine/engine.hpp"
#include "trace.hpp"

namespace jgrid::cli {

// What one entry of the trace holds, decoded: a job line's prepared submit
// or a fault line's rule (each with the error of a line that changed since
// it was loaded, or of its preparation).
struct DecodedEntry {
  std::optional<Result<engine::PreparedSubmit>> job;
  std::optional<Result<exec::FaultRule>> fault;
};

class TracePrefetch {
 public:
  // Turns a job line's spec into its submit's first half; called on the reading thread.
  using Prepare = std::function<Result<engine::PreparedSubmit>(model::JobSpec)>;
  TracePrefetch(const Trace& trace, Prepare prepare, std::size_t ahead = 4096);
  ~TracePrefetch();
  TracePrefetch(const TracePrefetch&) = delete;
  TracePrefetch& operator=(const TracePrefetch&) = delete;

  // The next entry in the trace's order (entries() order): the first call
  // gives entry 0, the next entry 1, and so on. Blocks until it is decoded.
  // Called from one thread.
  DecodedEntry next();

 private:
  void run();

  const Trace& m_trace;
  const Prepare m_prepare;
  const std::size_t m_ahead;
  std::mutex m_mutex;
  std::condition_variable m_decoded, m_room;
  std::deque<DecodedEntry> m_ready;  // decoded, not yet taken
  std::deque<DecodedEntry> m_taking;  // taken over from m_ready in one go, consumer's own
  bool m_stopping = false;
  std::thread m_thread;
};

}  // namespace jgrid::cli

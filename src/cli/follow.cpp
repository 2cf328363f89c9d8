#include "follow.hpp"

#include <atomic>
#include <chrono>
#include <iostream>
#include <thread>

#include "term.hpp"

namespace jgrid::cli {
namespace {

constexpr int k_reconnects = 5;

using SteadyClock = std::chrono::steady_clock;

// Keeps a terminal status line's elapsed time moving between events.
class Ticker {
 public:
  // `active`: redraw every 200 ms (a terminal); else only on set().
  Ticker(StatusLine& line, bool active) : m_line(line) {
    if (active) m_thread = std::thread([this] { run(); });
  }
  ~Ticker() { stop(); }
  void set(const std::string& text) {
    std::lock_guard lock(m_mutex);
    m_text = text;
    m_line.set(m_text, elapsed());
  }
  void stop() {
    m_stop = true;
    if (m_thread.joinable()) m_thread.join();
  }
  std::string elapsed() const {
    auto seconds = std::chrono::duration_cast<std::chrono::seconds>(SteadyClock::now() - m_start).count();
    return format_duration(seconds);
  }

 private:
  void run() {
    while (!m_stop) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      std::lock_guard lock(m_mutex);
      if (!m_text.empty() && !m_stop) m_line.set(m_text, elapsed());
    }
  }
  StatusLine& m_line;
  SteadyClock::time_point m_start = SteadyClock::now();
  std::mutex m_mutex;
  std::string m_text;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

struct FollowState {
  std::string last_id;
  bool ended = false;
  Json terminal;
};

std::string chomp(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

bool wants(const FollowOptions& options, const std::string& stream) {
  return options.stream == "all" || options.stream == stream;
}

void show_text(const api::SseMessage& message, const FollowOptions& options, StatusLine& line, Ticker& ticker,
               const std::string& job_id) {
  const Json& data = message.data;
  if (message.event == "status" && options.progress)
    ticker.set(job_id + "  " + text_of(data, "status") + "  phase " + text_of(data, "phase"));
  else if ((message.event == "stdout" || message.event == "stderr") && wants(options, message.event))
    line.print(chomp(text_of(data, "text")));
  else if (message.event == "notice" && options.stream == "all")
    line.print("-- " + text_of(data, "message"));
}

}  // namespace

int exit_code_for(const std::string& status, const Json& exit_code, bool timed_out) {
  if (exit_code.is_number_integer() && exit_code.get<int>() != 0) return exit_code.get<int>();
  if (timed_out) return 124;
  return status == "completed" ? 0 : 1;
}

int follow_job(api::Client& client, const std::string& job_id, const FollowOptions& options) {
  bool tty = stdout_is_tty() && !options.json;
  StatusLine line(tty);
  Ticker ticker(line, tty && options.progress);
  FollowState state;
  auto on_event = [&](const api::SseMessage& message) {
    if (!message.id.empty()) state.last_id = message.id;
    if (options.json && message.event != "heartbeat")
      print_json(Json{{"event", message.event}, {"id", message.id}, {"data", message.data}});
    else if (!options.json)
      show_text(message, options, line, ticker, job_id);
    if (message.event == "terminal") state.ended = true, state.terminal = message.data;
    return !state.ended;
  };
  Status result = Ok{};
  for (int attempt = 0; attempt <= k_reconnects && !state.ended; ++attempt) {
    result = client.stream("/v1/jobs/" + path_segment(job_id) + "/logs/live", on_event, state.last_id);
    if (!result && result.error().code != "CONNECTION_FAILED") break;
  }
  ticker.stop();
  line.clear();
  if (!state.ended) return report(result ? make_error("STREAM_ENDED", "the live log stream of " + job_id +
                                                                         " ended before the job did")
                                         : result.error(),
                                  options.json);
  std::string status = text_of(state.terminal, "status");
  bool timed_out = state.terminal.value("timed_out", false);
  int code = exit_code_for(status, state.terminal.value("exit_code", Json()), timed_out);
  if (options.summary && !options.json)
    line.print("job " + job_id + " " + status + " (exit " + text_of(state.terminal, "exit_code") + ")" +
               (timed_out ? ", timed out" : "") + " after " + ticker.elapsed());
  return code;
}

}  // namespace jgrid::cli

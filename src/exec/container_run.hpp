#pragma once
// One job's container on a thread of its own: from `image inspect` to `rm`
// (Mode::start) or from following an existing container (Mode::reattach).
// Every sink call goes through one guard, so stop() can promise that no call
// starts after it returns. Output is read from the container's log file
// (container_log_follower.hpp) when it has one, else through `logs -f`;
// the container is removed after finished(), off the path to the job's end.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "exec/container_image_cache.hpp"
#include "exec/container_log_follower.hpp"
#include "exec/container_process.hpp"
#include "jgrid/exec/container_executor.hpp"

namespace jgrid::exec {

class ContainerRun {
 public:
  enum class Mode { start, reattach };
  enum class Stop { none, cancel, detach };

  // `options` and `images` must outlive the run. `on_retire` is called on
  // the run's thread right before finished() (the executor forgets the job then).
  ContainerRun(RunRequest request, RunSink& sink, const ContainerOptions& options, ImageCache& images,
               std::shared_ptr<util::Clock> clock, Mode mode, LogSkip skip,
               std::function<void(ContainerRun&)> on_retire);
  ~ContainerRun();  // join()

  void launch();
  // After it returns no sink call starts for this run. The thread then stops
  // and removes the container (cancel) or leaves it running (detach). Safe
  // to call from within a sink call of this run, and more than once (the
  // first wins).
  void stop(Stop how);
  // Waits for the thread to end (not when called on that thread).
  void join();
  bool done() const { return m_done; }
  const std::string& job_id() const { return m_request.job.id; }

 private:
  std::optional<RunOutcome> begin();
  RunOutcome follow();
  std::unique_ptr<LogFileFollower> follow_log_file();
  std::unique_ptr<StreamedProcess> follow_engine_logs();
  void end_of_output(LogFileFollower* file, StreamedProcess* logs, bool exited);
  void catch_up_logs();
  void drain(StreamedProcess& logs);
  void discard_log_file();
  void finish(const RunOutcome& outcome);
  void clean_up_after_stop();

  Result<InspectedImage> obtain_image();
  Result<InspectedImage> inspect_or_pull();
  Result<CommandResult> run_detached(const std::vector<std::string>& argv);
  std::optional<RunOutcome> prepare_workspace();
  std::optional<RunOutcome> run_container();
  std::optional<int> wait_for_exit(StreamedProcess& waiter, bool& timed_out);
  RunOutcome outcome_of(std::optional<int> exit_code, bool timed_out, const std::string& wait_error);
  void stop_container();
  void remove_container();
  bool oom_killed();

  // An engine command that is killed when stop() is called meanwhile.
  Result<CommandResult> engine(const std::vector<std::string>& args, std::chrono::milliseconds timeout);
  std::vector<std::string> engine_argv(const std::vector<std::string>& args) const;

  bool stopping() const { return m_stop.load() != Stop::none; }
  template <typename Call>
  void report(Call&& call);
  void step(model::Phase phase, const std::string& type, const std::string& message, nlohmann::json data);
  void on_log_line(const std::string& stream, const std::string& line);
  void on_log_lines(std::vector<LogLine>& lines);
  bool skip_line(const std::string& stream);

  RunRequest m_request;
  RunSink& m_sink;
  const ContainerOptions& m_options;
  ImageCache& m_images;
  std::shared_ptr<util::Clock> m_clock;
  const Mode m_mode;
  // Counted down by the log readers: the follower's thread, or the two
  // reader threads of `logs -f`, one field each.
  LogSkip m_skip;
  LogSkip m_read;  // lines read per stream, skipped ones included; same threads, same fields
  std::function<void(ContainerRun&)> m_on_retire;
  const std::string m_name;
  // The file the engine writes the container's output to, when it has one
  // (container_log_path; on reattach only when the file is there).
  std::optional<std::filesystem::path> m_log_file;
  std::int64_t m_running_at_ms = 0;
  bool m_container_made = false;  // `run` was attempted (or reattached): a container may exist
  bool m_pulled = false;          // the image was not local

  std::atomic<Stop> m_stop{Stop::none};
  std::mutex m_sink_mutex;                       // held during every sink call
  std::atomic<std::thread::id> m_sink_thread{};  // the thread inside a sink call
  std::atomic<bool> m_done{false};
  std::atomic<std::size_t> m_lines_seen{0};  // output lines the follower delivered
  std::thread m_thread;
};

template <typename Call>
void ContainerRun::report(Call&& call) {
  std::lock_guard lock(m_sink_mutex);
  if (stopping()) return;
  m_sink_thread = std::this_thread::get_id();
  call(m_sink);
  m_sink_thread = std::thread::id();
}

}  // namespace jgrid::exec

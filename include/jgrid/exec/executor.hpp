#pragma once
// Executors run a placed job somewhere (a simulated node, a local container)
// and report what happens through a RunSink. One small abstract class plus a
// registry keyed by Node::source.
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/model/job.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::exec {

// What a run ended with.
struct RunOutcome {
  std::optional<int> exit_code;  // nullopt when the workload never started
  bool timed_out = false;
  std::string failure_code;      // "" on success; else a model::Failure code
  std::string message;           // human summary
  bool rejected = false;         // late screening refused it: nothing ran
  std::string rejected_rule;     // rule id when rejected
  // Set when the node, not the workload, ended the run (a lost node, an ECC
  // error, a preemption): the engine requeues the job (job.retrying) or,
  // past max attempts, fails it NODE_LOST. `preempted` requeues without
  // counting the attempt against the limit.
  std::string lost_reason;
  bool preempted = false;
  std::string node_status;       // "offline" | "draining" | "": the node's state from now on
  // False when the executor knows the run left no file in the job's
  // artifacts dir: the engine then does not look there.
  bool may_have_artifacts = true;
};

class FaultBook;

// One line of workload output.
struct LogLine {
  std::string stream;  // "stdout" | "stderr"
  std::string text;    // without its newline
};

// The engine's side of a run, called from executor threads; thread-safe, never blocking on I/O for long (but
// output calls wait for the store while output comes faster than it is stored: back-pressure). After finished()
// (or after cancel() returned) an executor makes no more calls for that job.
class RunSink {
 public:
  virtual ~RunSink() = default;
  // A lifecycle step: `event_type` is a job.* type of docs/api.md §2.7
  // (job.provisioning, job.image_inspected, job.inputs_prepared,
  // job.container_starting, job.running); `data` goes into the event.
  virtual void step(const std::string& job_id, model::Phase phase, const std::string& event_type,
                    const std::string& message, nlohmann::json data = nlohmann::json::object()) = 0;
  // One line of workload output; `stream` is "stdout" or "stderr".
  virtual void output(const std::string& job_id, const std::string& stream, const std::string& line) = 0;
  // Lines of workload output that came together, in the order they were
  // written: the same as output() for each in turn, but a sink may store
  // them at once. The default does just that.
  virtual void output_lines(const std::string& job_id, const std::vector<LogLine>& lines) {
    for (const auto& line : lines) output(job_id, line.stream, line.text);
  }
  // The image digest once known.
  virtual void image_digest(const std::string& job_id, const std::string& digest) = 0;
  // The run is over. Artifacts are whatever is in the job's artifacts dir now.
  virtual void finished(const std::string& job_id, const RunOutcome& outcome) = 0;
  // The id the run has in the executor's own scheduler (a Slurm job id),
  // once it has one: kept in the job's placement. Default: ignored.
  virtual void scheduler_job_id(const std::string& job_id, const std::string& id) {
    (void)job_id;
    (void)id;
  }
  // The run waits in the executor's own scheduler (a Slurm job PENDING):
  // the job shows `queued` with this delay reason (a model::DelayReason
  // code and message) until the next step(). A repeat of the same code and
  // message changes nothing. Default: ignored.
  virtual void held(const std::string& job_id, const std::string& delay_code, const std::string& message,
                    nlohmann::json data) {
    (void)job_id;
    (void)delay_code;
    (void)message;
    (void)data;
  }
};

// What an executor learned about one of its nodes from outside the grid:
// a Slurm node's state, and the GPUs that other users' jobs hold on it.
struct NodeObservation {
  std::string node_id;
  model::NodeStatus status = model::NodeStatus::online;  // online, draining or offline
  int gpus_held_elsewhere = 0;  // allocated by others than this grid
};

// The engine's side of node observations; thread-safe.
class NodeSink {
 public:
  virtual ~NodeSink() = default;
  virtual void nodes_observed(const std::vector<NodeObservation>& observations) = 0;
};

// Lines of a job's output already stored, per stream, so that reattach()
// does not report them again (`logs -f` replays from the start).
struct LogSkip {
  std::size_t stdout_lines = 0;
  std::size_t stderr_lines = 0;
};

struct RunRequest {
  model::Job job;                       // snapshot at start (spec, attempt, placement)
  model::Node node;                     // the node it was placed on
  // <data-dir>/jobs/<id>: inputs/, scripts/, artifacts/ exist when the
  // executor mounts_workspace(); otherwise nothing of an earlier attempt is left.
  std::filesystem::path workspace_dir;
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual std::string kind() const = 0;  // "sim", "podman", "docker"
  // Begins the run and returns at once. Error START_FAILED when it could not
  // even begin (the engine then fails the job).
  virtual Status start(RunRequest request, RunSink& sink) = 0;
  // Stops the run as fast as it can. Returns once no more sink calls will
  // come for the job. Unknown ids are ignored.
  virtual void cancel(const std::string& job_id) = 0;
  // Stops every run without reporting (server shutdown); the engine requeues
  // them at next start.
  virtual void shutdown() = 0;
  // True when runs may outlive the server process (containers): after a
  // restart the engine keeps their GPUs and offers them to reattach()
  // instead of retrying them at once.
  virtual bool outlives_server() const { return false; }
  // True when runs read the workspace the engine prepares (folders made,
  // inputs and scripts copied in): a container mounts it. A simulated node
  // reads none and makes the folders of what it writes itself, so a million
  // simulated jobs cost no file-system work.
  virtual bool mounts_workspace() const { return true; }
  // Takes over a run that an earlier process of the server began and left
  // going (after a restart): its output minus `skip`, then its end, are
  // reported to `sink` as for a run begun by start(), from job.running on.
  // Errors: UNSUPPORTED (the default: this executor's runs end with the
  // process, the engine retries them), NOT_FOUND (the run is gone),
  // START_FAILED (it cannot be followed).
  virtual Status reattach(const RunRequest& request, RunSink& sink, LogSkip skip) {
    (void)sink;
    (void)skip;
    return make_error("UNSUPPORTED", kind() + " runs do not outlive the server: " + request.job.id);
  }
  // True when a run waits in a scheduler of the executor's own (Slurm)
  // before it starts: after a restart a job placed on it is offered to
  // reattach() in any placed status, not only `running`.
  virtual bool queues_runs() const { return false; }
  // Begins reporting what it learns about its nodes to `sink`, until
  // shutdown(); the engine calls it once, from start(). Default: nothing.
  virtual void watch_nodes(NodeSink& sink) { (void)sink; }
  // The fault rules this executor obeys (docs/simulation.md §4), or nullptr when it
  // takes none (real executors).
  virtual FaultBook* faults() { return nullptr; }
  // Forgets per-node state such as pulled images (sim reset). Default: nothing.
  virtual void reset() {}
};

// Executors by Node::source ("simulated", "local", "slurm").
using ExecutorRegistry = std::map<std::string, std::shared_ptr<Executor>>;

}  // namespace jgrid::exec

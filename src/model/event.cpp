#include "jgrid/model/event.hpp"

#include <map>

#include "jgrid/util/time.hpp"

namespace jgrid::model {
namespace {

const std::map<std::string, std::string, std::less<>>& titles() {
  static const std::map<std::string, std::string, std::less<>> k_titles = {
      {"job.submitted", "Job submitted"},
      {"job.screened", "Screening finished"},
      {"job.queued", "Job queued"},
      {"job.capacity_waiting", "Waiting for capacity"},
      {"job.route_selected", "Route selected"},
      {"job.assigned", "Node assigned"},
      {"job.provisioning", "Provisioning"},
      {"job.image_inspected", "Image inspected"},
      {"job.inputs_prepared", "Inputs prepared"},
      {"job.container_starting", "Container starting"},
      {"job.running", "Job running"},
      {"job.retrying", "Retrying"},
      {"job.artifacts_collected", "Artifacts collected"},
      {"job.callback_delivered", "Callback delivered"},
      {"job.callback_failed", "Callback failed"},
      {"job.completed", "Job completed"},
      {"job.failed", "Job failed"},
      {"job.rejected", "Job rejected"},
      {"job.cancel_requested", "Cancel requested"},
      {"job.cancelled", "Job cancelled"},
      {"job.timed_out", "Job timed out"},
      {"job.delayed", "Start delayed"},
      {"node.online", "Node online"},
      {"node.offline", "Node offline"},
      {"node.draining", "Node draining"},
      {"node.busy", "Node busy"},
      {"node.lost", "Node lost"},
  };
  return k_titles;
}

// "node.gpu_reset" -> "Node gpu reset": readable for types without a title.
std::string generic_title(const std::string& type) {
  std::string out = type;
  for (char& c : out)
    if (c == '.' || c == '_') c = ' ';
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

}  // namespace

std::string event_title(const std::string& type) {
  auto it = titles().find(type);
  return it != titles().end() ? it->second : generic_title(type);
}

nlohmann::json event_to_api(const Event& event) {
  std::string title = event.title.empty() ? event_title(event.type) : event.title;
  nlohmann::json out = {{"id", event.id},
                        {"sequence", event.sequence},
                        {"type", event.type},
                        {"title", title},
                        {"message", event.message.empty() ? title : event.message},
                        {"source", event.source},
                        {"level", event.level},
                        {"created_at", util::format_time(event.created_ms)},
                        {"data", event.data.is_object() ? event.data : nlohmann::json::object()}};
  if (!event.phase.empty()) out["phase"] = event.phase;
  if (!event.job_id.empty()) out["job_id"] = event.job_id;
  return out;
}

}  // namespace jgrid::model

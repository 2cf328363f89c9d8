#include "jgrid/model/job_spec.hpp"

#include <array>

namespace jgrid::model {
namespace {

constexpr std::array<std::string_view, 4> k_type_names = {"inference", "training", "fine-tuning", "batch"};

Json optional_number(const std::optional<double>& value) { return value ? Json(*value) : Json(); }

std::optional<double> number_or_none(const Json& doc, const char* key) {
  auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return std::nullopt;
  return it->get<double>();
}

Json callback_doc(const std::optional<CallbackSpec>& callback) {
  if (!callback) return nullptr;
  return Json{{"url", callback->url}, {"auth_token", callback->auth_token}, {"metadata", callback->metadata}};
}

std::optional<CallbackSpec> callback_from(const Json& doc) {
  if (doc.is_null()) return std::nullopt;
  return CallbackSpec{doc.at("url").get<std::string>(), doc.at("auth_token").get<std::string>(), doc.at("metadata")};
}

bool is_rocm_framework(const std::string& framework) {
  return framework.find("rocm") != std::string::npos;
}

}  // namespace

std::string_view to_string(WorkloadType type) { return k_type_names[static_cast<std::size_t>(type)]; }

std::optional<WorkloadType> parse_workload_type(std::string_view text) {
  if (text == "fine_tuning") return WorkloadType::fine_tuning;
  for (std::size_t i = 0; i < k_type_names.size(); ++i)
    if (k_type_names[i] == text) return static_cast<WorkloadType>(i);
  return std::nullopt;
}

Json spec_to_doc(const JobSpec& spec) {
  return Json{{"name", spec.name},
              {"workload_type", to_string(spec.workload_type)},
              {"image", spec.image},
              {"command", spec.command},
              {"environment", spec.environment},
              {"gpu_vendor", spec.gpu_vendor},
              {"runtime", spec.runtime},
              {"framework", spec.framework},
              {"labels", spec.labels},
              {"gpu_count", spec.gpu_count},
              {"requires_gpu", spec.requires_gpu},
              {"gpu_type", spec.gpu_type},
              {"gpu_class", spec.gpu_class},
              {"min_vram_gb", optional_number(spec.min_vram_gb)},
              {"model_size_gb", optional_number(spec.model_size_gb)},
              {"disk_gb", optional_number(spec.disk_gb)},
              {"constraints", spec.constraints},
              {"optimize_for", spec.optimize_for},
              {"priority", spec.priority},
              {"latency_priority", spec.latency_priority},
              {"cost_priority", spec.cost_priority},
              {"timeout_seconds", optional_number(spec.timeout_seconds)},
              {"input_files", spec.input_files},
              {"script_files", spec.script_files},
              {"expected_artifacts", spec.expected_artifacts},
              {"metadata", spec.metadata},
              {"callback", callback_doc(spec.callback)},
              {"echoed", spec.echoed},
              {"sim", spec.sim}};
}

Result<JobSpec> spec_from_doc(const Json& doc) {
  try {
    JobSpec spec;
    auto type = parse_workload_type(doc.at("workload_type").get<std::string>());
    if (!type) return make_error("INTERNAL", "stored job spec has an unknown workload_type");
    spec.workload_type = *type;
    doc.at("name").get_to(spec.name);
    doc.at("image").get_to(spec.image);
    doc.at("command").get_to(spec.command);
    doc.at("environment").get_to(spec.environment);
    doc.at("gpu_vendor").get_to(spec.gpu_vendor);
    doc.at("runtime").get_to(spec.runtime);
    doc.at("framework").get_to(spec.framework);
    doc.at("labels").get_to(spec.labels);
    doc.at("gpu_count").get_to(spec.gpu_count);
    doc.at("requires_gpu").get_to(spec.requires_gpu);
    doc.at("gpu_type").get_to(spec.gpu_type);
    doc.at("gpu_class").get_to(spec.gpu_class);
    spec.min_vram_gb = number_or_none(doc, "min_vram_gb");
    spec.model_size_gb = number_or_none(doc, "model_size_gb");
    spec.disk_gb = number_or_none(doc, "disk_gb");
    spec.constraints = doc.at("constraints");
    doc.at("optimize_for").get_to(spec.optimize_for);
    doc.at("priority").get_to(spec.priority);
    doc.at("latency_priority").get_to(spec.latency_priority);
    doc.at("cost_priority").get_to(spec.cost_priority);
    spec.timeout_seconds = number_or_none(doc, "timeout_seconds");
    doc.at("input_files").get_to(spec.input_files);
    doc.at("script_files").get_to(spec.script_files);
    doc.at("expected_artifacts").get_to(spec.expected_artifacts);
    spec.metadata = doc.at("metadata");
    spec.callback = callback_from(doc.at("callback"));
    spec.echoed = doc.at("echoed");
    spec.sim = doc.at("sim");
    return spec;
  } catch (const Json::exception& error) {
    return make_error("INTERNAL", std::string("stored job spec is not readable: ") + error.what());
  }
}

std::string effective_vendor(const JobSpec& spec) {
  if (spec.gpu_vendor == "amd" || spec.gpu_vendor == "nvidia") return spec.gpu_vendor;
  if (spec.runtime == "rocm" || is_rocm_framework(spec.framework)) return "amd";
  return "any";
}

}  // namespace jgrid::model

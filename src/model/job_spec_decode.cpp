// decode_job_spec: one small reader per group of docs/api.md §2.2 fields, run in
// table order. Later readers may rely on what earlier ones set.
#include <array>

#include "jgrid/model/image_ref.hpp"
#include "jgrid/model/job_spec.hpp"
#include "jgrid/util/strings.hpp"
#include "model/decode_helpers.hpp"
#include "model/spec_decode_parts.hpp"

namespace jgrid::model {
namespace {

using namespace decode;

#define JGRID_READ(var, expr) \
  auto var = (expr);          \
  if (!var.ok()) return var.error()

const std::vector<std::string> k_workload_types = {"inference", "training", "fine-tuning", "batch"};

std::size_t utf8_length(const std::string& text) {
  std::size_t count = 0;
  for (unsigned char c : text)
    if ((c & 0xC0) != 0x80) ++count;
  return count;
}

Status read_name(const Json& body, JobSpec& spec, SpecMode) {
  JGRID_READ(name, opt_string(body, "name", "name"));
  if (!*name) return Ok{};
  std::string value = util::trim(**name);
  if (utf8_length(value) > k_max_name_chars)
    return invalid("name", "expected at most " + std::to_string(k_max_name_chars) + " characters");
  if (util::has_control_char(value)) return invalid("name", "must not contain control characters");
  spec.name = value;
  return Ok{};
}

Status read_workload_type(const Json& body, JobSpec& spec, SpecMode) {
  std::string expected = "expected one of " + join_choices(k_workload_types);
  const Json* value = member(body, "workload_type");
  if (!value) return invalid("workload_type", "is required; " + expected);
  if (!value->is_string()) return invalid("workload_type", expected + ", got " + value->type_name());
  auto type = parse_workload_type(util::to_lower(util::trim(value->get<std::string>())));
  if (!type) return invalid("workload_type", expected + ", got \"" + value->get<std::string>() + "\"");
  spec.workload_type = *type;
  return Ok{};
}

Status read_image(const Json& body, JobSpec& spec, SpecMode mode) {
  JGRID_READ(image, opt_string(body, "image", "image"));
  bool empty = !*image || (*image)->empty();
  if (empty && mode == SpecMode::submit) return invalid("image", "is required; expected an OCI image reference");
  if (empty) return Ok{};
  if ((*image)->size() > k_max_image_bytes) return check_image_ref(**image, "image").error();
  for (unsigned char c : **image)
    if (c <= 0x20 || c == 0x7f) return invalid("image", "expected an OCI image reference without whitespace");
  // A reference never starts with '-'; one that did would read as an option of the container engine.
  if ((**image)[0] == '-') return invalid("image", "expected an OCI image reference, not one starting with '-'");
  if (auto valid = check_image_ref(**image, "image"); !valid) return valid.error();
  spec.image = **image;
  return Ok{};
}

Status read_command(const Json& body, JobSpec& spec, SpecMode) {
  const Json* command = member(body, "command");
  if (command && command->is_string()) {
    auto words = util::split_shell_words(command->get<std::string>());
    if (!words.ok()) return invalid("command", "unterminated quote in the command string");
    spec.command = std::move(words.value());
  } else {
    JGRID_READ(list, opt_strings(body, "command", "command"));
    if (*list) spec.command = std::move(**list);
  }
  JGRID_READ(args, opt_strings(body, "args", "args"));
  if (*args) spec.command.insert(spec.command.end(), (*args)->begin(), (*args)->end());
  std::size_t total = 0;
  for (const auto& word : spec.command) total += word.size() + 1;
  if (total > k_max_command_bytes)
    return make_error("INVALID_REQUEST", "command or args too long (limit " + std::to_string(k_max_command_bytes) +
                                             " bytes)", Json{{"field", "command"}});
  return Ok{};
}

Status read_environment(const Json& body, JobSpec& spec, SpecMode) {
  const char* key = member(body, "environment") ? "environment" : "env";
  JGRID_READ(env, opt_string_map(body, key, key, k_max_env_keys));
  if (!*env) return Ok{};
  std::size_t total = 0;
  for (const auto& [name, value] : **env) {
    if (name.empty() || name.find('=') != std::string::npos || util::has_control_char(name))
      return invalid(path(key, name), "expected a variable name without '=' or control characters");
    total += name.size() + value.size();
  }
  if (total > k_max_env_bytes)
    return invalid(key, "expected at most " + std::to_string(k_max_env_bytes) + " bytes of names and values");
  spec.environment = std::move(**env);
  return Ok{};
}

Status read_accelerator(const Json& body, JobSpec& spec, SpecMode) {
  const std::vector<std::string> vendors = {"amd", "nvidia", "any"};
  bool top = member(body, "gpu_vendor") != nullptr;
  const Json* resources = member(body, "resources");
  if (resources && !resources->is_object()) return invalid("resources", "expected an object");
  JGRID_READ(vendor, top ? opt_enum(body, "gpu_vendor", "gpu_vendor", vendors)
                         : opt_enum(resources ? *resources : body, "gpu_vendor", "resources.gpu_vendor", vendors));
  if (*vendor) spec.gpu_vendor = **vendor;
  JGRID_READ(runtime, opt_enum(body, "runtime", "runtime", {"rocm", "cuda", "auto"}));
  if (*runtime) spec.runtime = **runtime;
  JGRID_READ(framework, opt_string(body, "framework", "framework"));
  if (*framework) spec.framework = util::to_lower(util::trim(**framework));
  return Ok{};
}

Status read_labels(const Json& body, JobSpec& spec, SpecMode) {
  JGRID_READ(labels, opt_string_map(body, "labels", "labels", k_max_labels));
  if (!*labels) return Ok{};
  std::size_t total = 0;
  for (const auto& [name, value] : **labels) total += name.size() + value.size();
  if (total > k_max_labels_bytes)
    return invalid("labels", "expected at most " + std::to_string(k_max_labels_bytes) + " bytes of names and values");
  spec.labels = std::move(**labels);
  return Ok{};
}

Status read_gpu_count(const Json& body, JobSpec& spec, SpecMode) {
  constexpr long long k_max_gpus = k_max_gpu_count;
  const Json* resources = member(body, "resources");
  bool top = member(body, "gpu_count") != nullptr;
  JGRID_READ(count, top || !resources ? opt_count(body, "gpu_count", "gpu_count", k_max_gpus)
                                      : opt_count(*resources, "gpu_count", "resources.gpu_count", k_max_gpus));
  if (*count) spec.gpu_count = static_cast<int>(**count);
  JGRID_READ(requires_gpu, opt_bool(body, "requires_gpu", "requires_gpu"));
  if (*requires_gpu) spec.requires_gpu = **requires_gpu;
  return Ok{};
}

Status read_timeout(const Json& body, JobSpec& spec, SpecMode) {
  JGRID_READ(timeout, opt_bounded(body, "timeout_seconds", "timeout_seconds", {0, true, k_max_timeout_seconds, "30 days"}));
  if (*timeout) spec.timeout_seconds = **timeout;
  return Ok{};
}

Status read_metadata(const Json& body, JobSpec& spec, SpecMode) {
  const Json* metadata = member(body, "metadata");
  if (!metadata) return Ok{};
  if (!metadata->is_object()) return invalid("metadata", std::string("expected an object, got ") + metadata->type_name());
  if (metadata->dump().size() > k_max_metadata_bytes)
    return invalid("metadata", "expected at most " + std::to_string(k_max_metadata_bytes) + " bytes when serialized");
  spec.metadata = *metadata;
  return Ok{};
}

Status read_echoed(const Json& body, JobSpec& spec, SpecMode) {
  for (const char* key : {"template", "notes", "huggingface_credential_id", "registry_credential_id"})
    if (const Json* value = member(body, key)) spec.echoed[key] = *value;
  return Ok{};
}

// The numbers of `sim` that become durations or an exit code are held to
// their range here; any other problem of a `sim` member fails the run
// START_FAILED (docs/simulation.md §2).
Status check_sim_numbers(const Json& sim) {
  const NumberBounds week{0, false, k_max_sim_duration_s, "a week"};
  if (const Json* value = member(sim, "duration_s"); value && value->is_number())
    if (auto ok = opt_bounded(sim, "duration_s", "sim.duration_s", week); !ok) return ok.error();
  if (const Json* value = member(sim, "stdout_every_s"); value && value->is_number())
    if (auto ok = opt_bounded(sim, "stdout_every_s", "sim.stdout_every_s", {0, true, k_max_sim_duration_s, "a week"}); !ok)
      return ok.error();
  if (const Json* value = member(sim, "exit_code"); value && value->is_number())
    if (auto ok = opt_count(sim, "exit_code", "sim.exit_code", 255); !ok) return ok.error();
  return Ok{};
}

Status read_sim(const Json& body, JobSpec& spec, SpecMode) {
  const Json* sim = member(body, "sim");
  if (!sim) return Ok{};
  if (!sim->is_object()) return invalid("sim", std::string("expected an object, got ") + sim->type_name());
  if (auto numbers = check_sim_numbers(*sim); !numbers) return numbers;
  spec.sim = *sim;
  return Ok{};
}

using Reader = Status (*)(const Json&, JobSpec&, SpecMode);

constexpr std::array<Reader, 16> k_readers = {
    read_name,        read_workload_type, read_image,       read_command,       read_environment, read_accelerator,
    read_labels,      read_gpu_count,     read_constraints, read_routing_hints, read_priorities,  read_timeout,
    read_input_files, read_artifacts,     read_metadata,    read_callback,
};

}  // namespace

Result<JobSpec> decode_job_spec(const Json& body, SpecMode mode) {
  if (!body.is_object())
    return make_error("INVALID_REQUEST", std::string("request body: expected a JSON object, got ") + body.type_name(),
                      Json{{"field", "body"}});
  JobSpec spec;
  for (Reader reader : k_readers)
    if (auto status = reader(body, spec, mode); !status.ok()) return status.error();
  for (Reader reader : {read_echoed, read_sim})
    if (auto status = reader(body, spec, mode); !status.ok()) return status.error();
  return spec;
}

}  // namespace jgrid::model

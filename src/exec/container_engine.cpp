#include "exec/container_engine.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

using Json = nlohmann::json;

constexpr std::chrono::seconds k_query_timeout{30};

std::map<std::string, std::string> string_map(const Json& object) {
  std::map<std::string, std::string> out;
  if (!object.is_object()) return out;
  for (const auto& [key, value] : object.items())
    if (value.is_string()) out[key] = value.get<std::string>();
  return out;
}

std::map<std::string, std::string> env_map(const Json& list) {
  std::map<std::string, std::string> out;
  if (!list.is_array()) return out;
  for (const Json& item : list) {
    if (!item.is_string()) continue;
    const std::string& pair = item.get_ref<const std::string&>();
    auto equals = pair.find('=');
    out[pair.substr(0, equals)] = equals == std::string::npos ? "" : pair.substr(equals + 1);
  }
  return out;
}

std::string string_at(const Json& object, const char* key) {
  return object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : "";
}

std::string repo_digest(const Json& image) {
  if (!image.contains("RepoDigests") || !image["RepoDigests"].is_array()) return "";
  for (const Json& repo : image["RepoDigests"]) {
    std::string text = repo.is_string() ? repo.get<std::string>() : "";
    if (auto at = text.find('@'); at != std::string::npos) return text.substr(at + 1);
  }
  return "";
}

// Podman has "Digest"; docker only "RepoDigests" ("repo@sha256:…"); a local
// image without either is known by its id.
std::string digest_of(const Json& image) {
  std::string digest = string_at(image, "Digest");
  if (digest.empty()) digest = repo_digest(image);
  if (!digest.empty()) return digest;
  std::string id = string_at(image, "Id");
  return id.empty() || id.rfind("sha256:", 0) == 0 ? id : "sha256:" + id;
}

bool contains_amd_kind(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str().find("amd.com/gpu") != std::string::npos;
}

bool is_spec_file(const std::filesystem::path& file) {
  auto ext = file.extension().string();
  return ext == ".json" || ext == ".yaml" || ext == ".yml";
}

Error unavailable(const std::string& message) { return make_error("ENGINE_UNAVAILABLE", message); }

}  // namespace

std::optional<InspectedImage> parse_image_inspect(const std::string& json_text, const std::string& reference) {
  Json doc = Json::parse(json_text, nullptr, false);
  if (doc.is_array() && doc.size() == 1) doc = doc[0];
  if (!doc.is_object()) return std::nullopt;
  InspectedImage image;
  image.reference = reference;
  image.id = string_at(doc, "Id");
  image.digest = digest_of(doc);
  const Json& config = doc.contains("Config") ? doc["Config"] : Json::object();
  image.labels = string_map(config.is_object() && config.contains("Labels") ? config["Labels"] : Json());
  image.env = env_map(config.is_object() && config.contains("Env") ? config["Env"] : Json());
  return image;
}

std::string container_state_format() {
  return "{{.Name}}\t{{.State.Status}}\t{{index .Config.Labels \"io.jgrid.job\"}}";
}

std::vector<JobContainer> parse_container_states(const std::string& text) {
  std::vector<JobContainer> containers;
  for (const auto& line : util::split(text, '\n')) {
    auto fields = util::split(util::trim(line), '\t');
    if (fields.size() < 3 || fields[2].empty()) continue;
    std::string name = fields[0].rfind('/', 0) == 0 ? fields[0].substr(1) : fields[0];  // docker: "/name"
    containers.push_back({fields[2], name, fields[1]});
  }
  return containers;
}

std::string engine_kind(const std::string& engine) { return std::filesystem::path(engine).filename().string(); }

std::string engine_failure(const std::string& engine, const std::string& verb, const std::string& job_id,
                           const CommandResult& result) {
  std::string how = result.timed_out ? "timed out" : "exit " + std::to_string(result.exit_code);
  std::string line = result.last_error_line();
  return engine_kind(engine) + " " + verb + " failed for " + job_id + ": " + how + (line.empty() ? "" : ": " + line);
}

bool selinux_enforcing() {
  std::ifstream in("/sys/fs/selinux/enforce");
  char flag = '0';
  return in.get(flag) && flag == '1';
}

bool amd_cdi_spec_present(const std::vector<std::filesystem::path>& dirs) {
  for (const auto& dir : dirs) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error))
      if (entry.is_regular_file(error) && is_spec_file(entry.path()) && contains_amd_kind(entry.path())) return true;
  }
  return false;
}

std::optional<InspectedImage> inspect_image(const std::string& engine, const std::string& image) {
  auto result = run_command({engine, "image", "inspect", "--", image}, k_query_timeout);
  if (!result.ok() || result->exit_code != 0) return std::nullopt;
  return parse_image_inspect(result->out, image);
}

Result<std::string> resolve_engine(const std::string& requested) {
  std::vector<std::string> candidates =
      requested == "auto" ? std::vector<std::string>{"podman", "docker"} : std::vector<std::string>{requested};
  std::string why;
  for (const auto& engine : candidates) {
    auto result = run_command({engine, "version"}, k_query_timeout);
    if (result.ok() && result->exit_code == 0) return engine;
    why += (why.empty() ? "" : "; ") +
           (result.ok() ? engine_kind(engine) + " version: " + result->last_error_line() : result.error().message);
  }
  return unavailable("no container engine answers (" + why +
                     "): install podman (apt-get install -y podman runc) "
                     "or start the docker daemon");
}

Result<std::vector<JobContainer>> list_job_containers(const std::string& engine) {
  auto names =
      run_command({engine, "ps", "-a", "--filter", "label=io.jgrid.job", "--format", "{{.Names}}"}, k_query_timeout);
  if (!names.ok()) return unavailable(names.error().message);
  if (names->exit_code != 0) return unavailable(engine_failure(engine, "ps", "jgrid containers", names.value()));
  std::vector<std::string> argv{engine, "container", "inspect", "--format", container_state_format()};
  for (const auto& name : util::split(names->out, '\n'))
    if (!util::trim(name).empty()) argv.push_back(util::trim(name));
  if (argv.size() == 5) return std::vector<JobContainer>{};
  auto states = run_command(argv, k_query_timeout);
  if (!states.ok()) return unavailable(states.error().message);
  // A container removed between the two calls makes inspect fail for it only.
  return parse_container_states(states->out);
}

}  // namespace jgrid::exec

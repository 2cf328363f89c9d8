#include "remote.hpp"

#include <cstdlib>
#include <iostream>
#include <iterator>

#include "jgrid/util/files.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::cli {
namespace {

std::string first_env(std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (const char* value = std::getenv(name); value && *value) return value;
  return "";
}

Result<std::string> read_source(const std::string& path) {
  if (path != "-") return util::read_file(path);
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

}  // namespace

void add_remote_flags(CLI::App* command, RemoteFlags& flags) {
  command->add_option("--url", flags.url,
                      "Server URL, http:// or https:// (else $JUNGLE_GRID_API, $JUNGLE_GRID_API_URL, "
                      "$JUNGLE_GRID_API_BASE, $JUNGLEGRID_API_BASE, else " +
                          std::string(k_default_url) + ")");
  command->add_option("--ca-file", flags.ca_file,
                      "CA bundle (PEM) to verify an https:// server with (else $JGRID_CA_FILE, else the system store)");
  command->add_option("--api-key", flags.api_key, "Bearer key (else $JUNGLE_GRID_API_KEY, $JUNGLEGRID_API_KEY)");
  command->add_flag("--json", flags.json, "Print JSON for scripts instead of text");
}

std::string resolve_url(const RemoteFlags& flags) {
  if (!flags.url.empty()) return flags.url;
  std::string env =
      first_env({"JUNGLE_GRID_API", "JUNGLE_GRID_API_URL", "JUNGLE_GRID_API_BASE", "JUNGLEGRID_API_BASE"});
  return env.empty() ? k_default_url : env;
}

std::string resolve_api_key(const RemoteFlags& flags) {
  return flags.api_key.empty() ? first_env({"JUNGLE_GRID_API_KEY", "JUNGLEGRID_API_KEY"}) : flags.api_key;
}

Result<api::Client> connect(const RemoteFlags& flags) {
  api::ClientOptions options;
  options.url = resolve_url(flags);
  options.api_key = resolve_api_key(flags);
  options.ca_file = flags.ca_file.empty() ? first_env({"JGRID_CA_FILE"}) : flags.ca_file;
  return api::Client::create(options);
}

int report(const Error& error, bool json) {
  if (json) {
    Json body{{"ok", false}, {"error", {{"code", error.code}, {"message", error.message}, {"details", error.details}}}};
    print_json(body);
    return 1;
  }
  std::cerr << "jgrid-local: " << error.code << ": " << error.message << "\n";
  if (error.details.is_object() && error.details.contains("fixes") && error.details["fixes"].is_array())
    for (const auto& fix : error.details["fixes"])
      if (fix.is_string()) std::cerr << "  fix: " << fix.get<std::string>() << "\n";
  return 1;
}

int print_json(const Json& value) {
  std::cout << value.dump() << "\n";
  return 0;
}

Result<Json> read_request(const std::string& path) {
  std::string name = path == "-" ? "stdin" : path;
  auto text = read_source(path);
  if (!text) return make_error("INVALID_REQUEST", "cannot read " + name + ": " + text.error().message);
  auto json = Json::parse(*text, nullptr, false);
  if (json.is_discarded()) return make_error("INVALID_REQUEST", name + " is not valid JSON");
  if (!json.is_object()) return make_error("INVALID_REQUEST", name + " must hold a JSON object (a job request)");
  return json;
}

std::string path_segment(const std::string& id) { return util::percent_encode(id); }

std::string text_of(const Json& object, const std::string& key) {
  if (!object.is_object() || !object.contains(key) || object[key].is_null()) return "-";
  const Json& value = object[key];
  return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace jgrid::cli

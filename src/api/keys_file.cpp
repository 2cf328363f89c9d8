// Reading and validating --keys-file (docs/api.md §4).
#include <algorithm>
#include <set>

#include "jgrid/api/auth.hpp"
#include "jgrid/util/files.hpp"
#include <nlohmann/json.hpp>

namespace jgrid::api {
namespace {

using Json = nlohmann::json;

Error bad(const std::filesystem::path& path, const std::string& field, const std::string& problem) {
  return make_error("INVALID_KEYS_FILE", path.string() + ": " + field + ": " + problem,
                    Json{{"path", path.string()}, {"field", field}});
}

bool is_known_scope(const std::string& scope) {
  const auto& known = known_scopes();
  return std::find(known.begin(), known.end(), scope) != known.end();
}

Result<std::vector<std::string>> read_scopes(const std::filesystem::path& path, const std::string& where,
                                             const Json& entry) {
  std::string field = where + ".scopes";
  if (!entry.contains("scopes") || !entry["scopes"].is_array()) return bad(path, field, "expected an array of strings");
  std::vector<std::string> scopes;
  for (std::size_t i = 0; i < entry["scopes"].size(); ++i) {
    const Json& scope = entry["scopes"][i];
    std::string at = field + "[" + std::to_string(i) + "]";
    if (!scope.is_string()) return bad(path, at, "expected a string");
    if (!is_known_scope(scope.get<std::string>()))
      return bad(path, at, "unknown scope '" + scope.get<std::string>() + "'");
    scopes.push_back(scope.get<std::string>());
  }
  return scopes;
}

Result<ApiKey> read_key(const std::filesystem::path& path, std::size_t index, const Json& entry) {
  std::string where = "keys[" + std::to_string(index) + "]";
  if (!entry.is_object()) return bad(path, where, "expected an object");
  ApiKey key;
  if (!entry.contains("key") || !entry["key"].is_string() || entry["key"].get<std::string>().size() < 8)
    return bad(path, where + ".key", "expected a string of at least 8 characters");
  key.key = entry["key"].get<std::string>();
  if (!entry.contains("workspace") || !entry["workspace"].is_string() || entry["workspace"].get<std::string>().empty())
    return bad(path, where + ".workspace", "expected a non-empty string");
  key.workspace = entry["workspace"].get<std::string>();
  auto scopes = read_scopes(path, where, entry);
  if (!scopes) return scopes.error();
  key.scopes = std::move(*scopes);
  if (entry.contains("revoked") && !entry["revoked"].is_boolean())
    return bad(path, where + ".revoked", "expected true or false");
  key.revoked = entry.value("revoked", false);
  return key;
}

}  // namespace

const std::vector<std::string>& known_scopes() {
  static const std::vector<std::string> k_scopes = {"jobs:read", "jobs:write", "jobs:submit", "jobs:estimate",
                                                    "logs:read", "sim:reset"};
  return k_scopes;
}

Result<std::vector<ApiKey>> load_keys_file(const std::filesystem::path& path) {
  auto text = util::read_file(path);
  if (!text) return make_error("INVALID_KEYS_FILE", path.string() + ": cannot read: " + text.error().message);
  Json doc = Json::parse(*text, nullptr, false);
  if (doc.is_discarded()) return bad(path, "(file)", "not valid JSON");
  if (!doc.is_object() || !doc.contains("keys") || !doc["keys"].is_array())
    return bad(path, "keys", "expected an array of key objects");
  std::vector<ApiKey> keys;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < doc["keys"].size(); ++i) {
    auto key = read_key(path, i, doc["keys"][i]);
    if (!key) return key.error();
    if (!seen.insert(key->key).second) return bad(path, "keys[" + std::to_string(i) + "].key", "duplicate key");
    keys.push_back(std::move(*key));
  }
  return keys;
}

}  // namespace jgrid::api

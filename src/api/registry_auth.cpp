#include "registry_auth.hpp"

#include <cctype>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "jgrid/util/files.hpp"

namespace jgrid::api {
namespace {

constexpr std::string_view k_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string ascii_lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

void skip_spaces(const std::string& text, std::size_t& at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == ',')) ++at;
}

// key=value or key="value with \" escapes"; false at the end or on garbage.
bool read_param(const std::string& text, std::size_t& at, std::string& key, std::string& value) {
  skip_spaces(text, at);
  std::size_t eq = text.find('=', at);
  if (eq == std::string::npos) return false;
  key = ascii_lower(text.substr(at, eq - at));
  while (!key.empty() && key.back() == ' ') key.pop_back();
  at = eq + 1;
  value.clear();
  if (at < text.size() && text[at] == '"') {
    for (++at; at < text.size() && text[at] != '"'; ++at) {
      if (text[at] == '\\' && at + 1 < text.size()) ++at;
      value += text[at];
    }
    if (at >= text.size()) return false;  // unterminated quote
    ++at;
  } else {
    while (at < text.size() && text[at] != ',') value += text[at++];
  }
  return !key.empty();
}

std::vector<std::string> auth_keys(const std::string& registry) {
  if (registry == "docker.io")
    return {"docker.io", "index.docker.io", "https://index.docker.io/v1/", "registry-1.docker.io"};
  return {registry, "https://" + registry, "http://" + registry};
}

std::optional<Credentials> credentials_in(const nlohmann::json& doc, const std::string& registry) {
  if (!doc.is_object() || !doc.contains("auths") || !doc["auths"].is_object()) return std::nullopt;
  for (const auto& key : auth_keys(registry)) {
    auto entry = doc["auths"].find(key);
    if (entry == doc["auths"].end() || !entry->is_object() || !entry->contains("auth") || !(*entry)["auth"].is_string())
      continue;
    auto decoded = base64_decode((*entry)["auth"].get<std::string>());
    if (!decoded) continue;
    auto colon = decoded->find(':');
    if (colon == std::string::npos) continue;
    return Credentials{decoded->substr(0, colon), decoded->substr(colon + 1)};
  }
  return std::nullopt;
}

}  // namespace

std::optional<AuthChallenge> parse_auth_challenge(const std::string& header) {
  std::size_t space = header.find(' ');
  AuthChallenge challenge{ascii_lower(header.substr(0, space)), {}};
  if (challenge.scheme != "bearer" && challenge.scheme != "basic") return std::nullopt;
  if (space == std::string::npos) return challenge;
  std::size_t at = space + 1;
  std::string key, value;
  while (read_param(header, at, key, value)) challenge.params[key] = value;
  if (challenge.scheme == "bearer" && !challenge.params.count("realm")) return std::nullopt;
  return challenge;
}

std::optional<Credentials> read_credentials(const std::vector<std::filesystem::path>& files,
                                            const std::string& registry) {
  for (const auto& file : files) {
    auto text = util::read_file(file);
    if (!text.ok()) continue;
    auto found = credentials_in(nlohmann::json::parse(*text, nullptr, false), registry);
    if (found) return found;
  }
  return std::nullopt;
}

std::vector<std::filesystem::path> default_auth_files() {
  std::vector<std::filesystem::path> files;
  if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime && *runtime)
    files.emplace_back(std::filesystem::path(runtime) / "containers" / "auth.json");
  if (const char* home = std::getenv("HOME"); home && *home) {
    files.emplace_back(std::filesystem::path(home) / ".config" / "containers" / "auth.json");
    files.emplace_back(std::filesystem::path(home) / ".docker" / "config.json");
  }
  return files;
}

std::string base64_encode(const std::string& data) {
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < data.size(); i += 3) {
    unsigned n = (static_cast<unsigned char>(data[i]) << 16) | (static_cast<unsigned char>(data[i + 1]) << 8) |
                 static_cast<unsigned char>(data[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += k_alphabet[(n >> shift) & 63];
  }
  if (i < data.size()) {
    unsigned n = static_cast<unsigned char>(data[i]) << 16;
    if (i + 1 < data.size()) n |= static_cast<unsigned char>(data[i + 1]) << 8;
    out += k_alphabet[(n >> 18) & 63];
    out += k_alphabet[(n >> 12) & 63];
    out += i + 1 < data.size() ? k_alphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> base64_decode(const std::string& text) {
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=' || c == '\n' || c == '\r') continue;
    auto index = k_alphabet.find(c);
    if (index == std::string_view::npos) return std::nullopt;
    buffer = (buffer << 6) | static_cast<unsigned>(index);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  return out;
}

}  // namespace jgrid::api

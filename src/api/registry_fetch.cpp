#include "registry_fetch.hpp"

#include <httplib.h>

#include <nlohmann/json.hpp>

#include "jgrid/util/crypto.hpp"
#include "api/tls.hpp"
#include "jgrid/util/url.hpp"

namespace jgrid::api {
namespace {

using Json = nlohmann::json;

constexpr std::size_t k_max_manifest_bytes = 4 << 20;
constexpr std::size_t k_max_config_bytes = 8 << 20;
constexpr int k_max_redirects = 3;
const char* const k_manifest_types =
    "application/vnd.oci.image.index.v1+json, application/vnd.docker.distribution.manifest.list.v2+json, "
    "application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json";

Error registry_failed(const RegistryRef& ref, const std::string& what) {
  return make_error("REGISTRY_FAILED", ref.registry + ": " + what, {{"registry", ref.registry}});
}

Error image_not_found(const RegistryRef& ref, const std::string& what) {
  return make_error("IMAGE_NOT_FOUND", ref.registry + ": " + what, {{"registry", ref.registry}});
}

struct RegistryReply {
  int status = 0;
  std::string body;
  httplib::Headers headers;
  std::string header(const std::string& key) const {
    auto it = headers.find(key);
    return it == headers.end() ? "" : it->second;
  }
};

std::string transport_error(const httplib::Client& client, httplib::Error error, const std::string& origin) {
  switch (error) {
    case httplib::Error::Connection: return "connection refused or unreachable";
    case httplib::Error::Read: return "no answer in time (read timed out)";
    case httplib::Error::SSLConnection: return "TLS handshake failed (is it a plain-HTTP registry? see --insecure-registry)";
    case httplib::Error::Canceled: return "answer larger than a manifest or config may be";
    case httplib::Error::SSLServerVerification:
    case httplib::Error::SSLLoadingCerts: {
      auto url = util::parse_http_url(origin);
      return transport_failure(client, error, url ? url->host : origin);
    }
    default: return "request failed (" + httplib::to_string(error) + ")";
  }
}

// One GET with a size cap; redirects followed by hand so a bearer token is
// never sent to the storage host a blob redirects to.
Result<RegistryReply> http_get(const std::string& origin, const std::string& path, httplib::Headers headers,
                  const FetchSettings& settings, std::size_t max_bytes, const RegistryRef& ref) {
  std::string current_origin = origin, current_path = path;
  for (int hop = 0; hop <= k_max_redirects; ++hop) {
    auto verified = make_verified_client(current_origin, settings.ca_file);
    httplib::Client& client = *verified;
    client.set_connection_timeout(settings.timeout);
    client.set_read_timeout(settings.timeout);
    client.set_write_timeout(settings.timeout);
    RegistryReply reply;
    auto result = client.Get(
        current_path, headers, [](const httplib::Response&) { return true; },
        [&](const char* data, std::size_t length) {
          if (reply.body.size() + length > max_bytes) return false;
          reply.body.append(data, length);
          return true;
        });
    if (!result) return registry_failed(ref, transport_error(client, result.error(), current_origin));
    reply.status = result->status;
    reply.headers = result->headers;
    if (reply.status < 300 || reply.status >= 400 || reply.header("Location").empty()) return reply;
    auto target = util::parse_http_url(reply.header("Location"));
    if (!target) {  // a relative redirect stays on the same host
      current_path = reply.header("Location");
    } else {
      if (target->host != util::parse_http_url(current_origin)->host) headers.erase("Authorization");
      current_origin = util::origin_of(*target);
      current_path = target->target;
    }
  }
  return registry_failed(ref, "too many redirects");
}

class Session {
 public:
  Session(const RegistryRef& ref, const FetchSettings& settings)
      : m_ref(ref), m_settings(settings), m_origin((settings.plain_http ? "http://" : "https://") + ref.api_host) {}

  // GET a /v2/ path, answering one bearer challenge on the way.
  Result<RegistryReply> get_v2(const std::string& path, const std::string& accept, std::size_t max_bytes) {
    auto reply = http_get(m_origin, path, headers(accept), m_settings, max_bytes, m_ref);
    if (!reply || reply->status != 401 || !m_token.empty()) return reply;
    auto challenge = parse_auth_challenge(reply->header("WWW-Authenticate"));
    if (!challenge) return registry_failed(m_ref, "401 without a usable WWW-Authenticate challenge");
    if (auto authorized = authorize(*challenge); !authorized) return authorized.error();
    return http_get(m_origin, path, headers(accept), m_settings, max_bytes, m_ref);
  }

 private:
  httplib::Headers headers(const std::string& accept) const {
    httplib::Headers out{{"Accept", accept}, {"User-Agent", "jgrid-local"}};
    if (!m_token.empty()) out.emplace("Authorization", m_token);
    return out;
  }

  Status authorize(const AuthChallenge& challenge) {
    const auto& credentials = m_settings.credentials;
    if (challenge.scheme == "basic") {
      if (!credentials) return image_not_found(m_ref, "the registry wants credentials and none are in the auth files");
      m_token = "Basic " + base64_encode(credentials->user + ":" + credentials->password);
      return Ok{};
    }
    auto realm = util::parse_http_url(challenge.params.at("realm"));
    if (!realm) return registry_failed(m_ref, "token realm " + challenge.params.at("realm") + " is not an http(s) URL");
    if (realm->scheme != "https" && !m_settings.plain_http)  // credentials never travel in clear from an HTTPS registry
      return registry_failed(m_ref, "token realm " + challenge.params.at("realm") + " is plain HTTP for an HTTPS registry");
    httplib::Params query{{"scope", "repository:" + m_ref.repository + ":pull"}};
    if (challenge.params.count("service")) query.emplace("service", challenge.params.at("service"));
    httplib::Headers headers{{"User-Agent", "jgrid-local"}};
    if (credentials)
      headers.emplace("Authorization", "Basic " + base64_encode(credentials->user + ":" + credentials->password));
    std::string path = realm->target + (realm->target.find('?') == std::string::npos ? "?" : "&") +
                       httplib::detail::params_to_query_str(query);
    auto reply = http_get(util::origin_of(*realm), path, headers, m_settings, 64 << 10, m_ref);
    if (!reply) return reply.error();
    if (reply->status == 401 || reply->status == 403)
      return image_not_found(m_ref, std::string("the token service refused ") + (credentials ? "the credentials" : "anonymous access") +
                                  " for " + m_ref.repository + " (HTTP " + std::to_string(reply->status) + ")");
    Json doc = Json::parse(reply->body, nullptr, false);
    std::string token = doc.is_object() ? doc.value("token", doc.value("access_token", "")) : "";
    if (reply->status != 200 || token.empty())
      return registry_failed(m_ref, "the token service answered HTTP " + std::to_string(reply->status) + " without a token");
    m_token = "Bearer " + token;
    return Ok{};
  }

  const RegistryRef& m_ref;
  const FetchSettings& m_settings;
  std::string m_origin;
  std::string m_token;  // the Authorization header value once authorized
};

Error http_error(const RegistryRef& ref, const RegistryReply& reply, const std::string& what, bool has_credentials) {
  if (reply.status == 404) return image_not_found(ref, what + " not found (HTTP 404)");
  if (reply.status == 401 || reply.status == 403)
    return image_not_found(ref, "no access to " + what + " (HTTP " + std::to_string(reply.status) + ") " +
                                    (has_credentials ? "with the credentials of the auth file"
                                                     : "with anonymous access: `podman login " + ref.registry +
                                                           "` stores credentials where they are read"));
  return registry_failed(ref, what + ": HTTP " + std::to_string(reply.status));
}

bool is_index(const Json& doc) {
  std::string type = doc.value("mediaType", "");
  return type.find("index") != std::string::npos || type.find("manifest.list") != std::string::npos ||
         (type.empty() && doc.contains("manifests"));
}

Result<std::string> config_digest(const RegistryRef& ref, const Json& manifest) {
  if (!manifest.contains("config") || !manifest["config"].is_object() || !manifest["config"].contains("digest") ||
      !manifest["config"]["digest"].is_string())
    return registry_failed(ref, "the manifest has no config digest (not an image manifest)");
  return manifest["config"]["digest"].get<std::string>();
}

}  // namespace

std::optional<std::string> pick_platform(const std::string& index_body, const std::string& os,
                                         const std::string& architecture) {
  Json doc = Json::parse(index_body, nullptr, false);
  if (!doc.is_object() || !doc.contains("manifests") || !doc["manifests"].is_array()) return std::nullopt;
  for (const Json& entry : doc["manifests"]) {
    if (!entry.is_object() || !entry.contains("platform") || !entry["platform"].is_object()) continue;
    const Json& platform = entry["platform"];
    if (platform.value("os", "") == os && platform.value("architecture", "") == architecture &&
        entry.contains("digest") && entry["digest"].is_string())
      return entry["digest"].get<std::string>();
  }
  return std::nullopt;
}

Result<exec::ImageInfo> parse_image_config(const std::string& body) {
  Json doc = Json::parse(body, nullptr, false);
  if (!doc.is_object()) return make_error("REGISTRY_FAILED", "the config blob is not a JSON object");
  exec::ImageInfo image;
  image.source = "registry";
  const Json config = doc.contains("config") && doc["config"].is_object() ? doc["config"] : Json::object();
  if (config.contains("Labels") && config["Labels"].is_object())
    for (const auto& [key, value] : config["Labels"].items())
      if (value.is_string()) image.labels[key] = value.get<std::string>();
  if (config.contains("Env") && config["Env"].is_array())
    for (const Json& item : config["Env"]) {
      if (!item.is_string()) continue;
      std::string entry = item.get<std::string>();
      auto eq = entry.find('=');
      if (eq != std::string::npos && eq > 0) image.env[entry.substr(0, eq)] = entry.substr(eq + 1);
    }
  return image;
}

Result<exec::ImageInfo> fetch_image_metadata(const RegistryRef& ref, const FetchSettings& settings) {
  Session session(ref, settings);
  std::string manifests = "/v2/" + ref.repository + "/manifests/";
  auto top = session.get_v2(manifests + ref.reference, k_manifest_types, k_max_manifest_bytes);
  if (!top) return top.error();
  if (top->status != 200) return http_error(ref, *top, ref.repository + ":" + ref.reference, settings.credentials.has_value());
  std::string digest = top->header("Docker-Content-Digest");
  if (digest.empty()) digest = "sha256:" + util::sha256_hex(top->body);
  Json manifest = Json::parse(top->body, nullptr, false);
  if (!manifest.is_object()) return registry_failed(ref, "the manifest of " + ref.repository + " is not JSON");
  if (is_index(manifest)) {
    auto platform = pick_platform(top->body, settings.os, settings.architecture);
    if (!platform) return image_not_found(ref, "no " + settings.os + "/" + settings.architecture + " image in the index");
    auto chosen = session.get_v2(manifests + *platform, k_manifest_types, k_max_manifest_bytes);
    if (!chosen) return chosen.error();
    if (chosen->status != 200) return http_error(ref, *chosen, "platform manifest " + *platform, settings.credentials.has_value());
    manifest = Json::parse(chosen->body, nullptr, false);
    if (!manifest.is_object()) return registry_failed(ref, "the platform manifest is not JSON");
  }
  auto blob = config_digest(ref, manifest);
  if (!blob) return blob.error();
  auto config = session.get_v2("/v2/" + ref.repository + "/blobs/" + *blob, "*/*", k_max_config_bytes);
  if (!config) return config.error();
  if (config->status != 200) return http_error(ref, *config, "config blob " + *blob, settings.credentials.has_value());
  if ("sha256:" + util::sha256_hex(config->body) != *blob)
    return registry_failed(ref, "the config blob does not match its digest " + *blob);
  auto image = parse_image_config(config->body);
  if (!image) return registry_failed(ref, image.error().message);
  image->digest = digest;
  return image;
}

}  // namespace jgrid::api

// api::Client: JSON requests and the error envelope.
#include <fstream>

#include "api/client_impl.hpp"
#include "api/tls.hpp"
#include "jgrid/util/strings.hpp"
#include "jgrid/util/url.hpp"

namespace jgrid::api {
namespace {

using Json = nlohmann::json;

std::string query_string(const std::map<std::string, std::string>& query) {
  std::string out;
  for (const auto& [key, value] : query)
    out += (out.empty() ? "?" : "&") + util::percent_encode(key) + "=" + util::percent_encode(value);
  return out;
}

Result<Json> json_result(const httplib::Result& result, const std::string& url, const httplib::Client& http) {
  if (!result) return connection_error(url, http, result.error());
  if (result->status < 200 || result->status >= 300) return response_error(result->status, result->body);
  if (result->body.empty()) return Json::object();
  auto json = Json::parse(result->body, nullptr, false);
  if (json.is_discarded())
    return make_error("BAD_RESPONSE", "the server at " + url + " answered with a body that is not JSON");
  return json;
}

}  // namespace

Result<std::pair<std::string, std::string>> split_url(const std::string& url) {
  std::string scheme = url.rfind("https://", 0) == 0 ? "https://" : "http://";
  if (url.rfind(scheme, 0) != 0)
    return make_error("INVALID_URL",
                      "invalid server URL '" + url + "': expected http(s)://host[:port][/path]");
  auto slash = url.find('/', scheme.size());
  std::string origin = url.substr(0, slash);
  std::string path = slash == std::string::npos ? "" : url.substr(slash);
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (origin.size() == scheme.size())
    return make_error("INVALID_URL", "invalid server URL '" + url + "': no host");
  return std::make_pair(origin, path);
}

std::unique_ptr<httplib::Client> make_http(const std::string& origin, const ClientOptions& options) {
  auto http = make_verified_client(origin, options.ca_file);
  http->set_connection_timeout(options.connect_timeout_s, 0);
  http->set_read_timeout(options.read_timeout_s, 0);
  http->set_write_timeout(options.read_timeout_s, 0);
  http->set_url_encode(false);  // paths are encoded by the callers
  http->set_keep_alive(true);
  return http;
}

Error connection_error(const std::string& url, const httplib::Client& http, httplib::Error error) {
  auto parsed = util::parse_http_url(url);
  std::string host = parsed ? parsed->host : url;
  return make_error("CONNECTION_FAILED", "cannot reach " + url + ": " + transport_failure(http, error, host),
                    Json{{"url", url}});
}

Error response_error(int status, const std::string& body) {
  auto json = Json::parse(body, nullptr, false);
  if (!json.is_discarded() && json.is_object() && json.contains("error") && json["error"].is_object()) {
    const Json& error = json["error"];
    Json details = error.value("details", Json::object());
    if (!details.is_object()) details = Json{{"value", details}};
    details["http_status"] = status;
    return make_error(error.value("code", "HTTP_" + std::to_string(status)), error.value("message", ""), details);
  }
  return make_error("HTTP_" + std::to_string(status),
                    "the server answered " + std::to_string(status) + ": " + body.substr(0, 200),
                    Json{{"http_status", status}});
}

httplib::Headers Client::Impl::headers() const {
  httplib::Headers out{{"Accept", "application/json"}, {"User-Agent", "jgrid-local-cli/" JGRID_VERSION}};
  if (!options.api_key.empty()) out.emplace("Authorization", "Bearer " + options.api_key);
  return out;
}

Result<Client> Client::create(ClientOptions options) {
  auto parts = split_url(options.url);
  if (!parts) return parts.error();
  if (!options.ca_file.empty() && !std::ifstream(options.ca_file))
    return make_error("INVALID_CA_FILE", "CA file " + options.ca_file + " cannot be read");
  auto impl = std::make_unique<Impl>();
  impl->origin = parts->first;
  impl->base_path = parts->second;
  impl->options = std::move(options);
  impl->options.url = impl->origin + impl->base_path;
  impl->http = make_http(impl->origin, impl->options);
  return Client(std::move(impl));
}

Client::Client(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Client::~Client() = default;
Client::Client(Client&&) noexcept = default;
Client& Client::operator=(Client&&) noexcept = default;

const std::string& Client::url() const { return m_impl->options.url; }

Result<Json> Client::get(const std::string& path, const std::map<std::string, std::string>& query) {
  auto result = m_impl->http->Get(m_impl->full_path(path) + query_string(query), m_impl->headers());
  return json_result(result, url(), *m_impl->http);
}

Result<Json> Client::post(const std::string& path, const Json& body, const std::map<std::string, std::string>& headers) {
  auto all = m_impl->headers();
  for (const auto& [key, value] : headers) all.emplace(key, value);
  auto result = m_impl->http->Post(m_impl->full_path(path), all, body.dump(), "application/json");
  return json_result(result, url(), *m_impl->http);
}

Result<RawResponse> Client::get_raw(const std::string& path) {
  auto result = m_impl->http->Get(m_impl->full_path(path), m_impl->headers());
  if (!result) return connection_error(url(), *m_impl->http, result.error());
  return RawResponse{result->status, result->body, result->get_header_value("Content-Type")};
}

}  // namespace jgrid::api

#include "jgrid/api/callback_transport.hpp"

#include <httplib.h>

#include <atomic>
#include <mutex>

#include "api/tls.hpp"
#include "jgrid/util/url.hpp"

namespace jgrid::api {
namespace {

constexpr int k_connect_timeout_s = 5;
constexpr int k_read_timeout_s = 10;

class HttpCallbackTransport final : public engine::CallbackTransport {
 public:
  explicit HttpCallbackTransport(std::string ca_file) : m_ca_file(std::move(ca_file)) {}

  engine::CallbackResponse post(const engine::CallbackRequest& request) override {
    auto url = util::parse_http_url(request.url);
    if (!url) return {0, "not an http(s) URL: " + request.url};
    auto verified = make_verified_client(util::origin_of(*url), m_ca_file);
    httplib::Client& client = *verified;
    client.set_connection_timeout(k_connect_timeout_s, 0);
    client.set_read_timeout(k_read_timeout_s, 0);
    client.set_write_timeout(k_read_timeout_s, 0);
    client.set_url_encode(false);
    if (!enter(client)) return {0, "cancelled"};
    httplib::Headers headers(request.headers.begin(), request.headers.end());
    auto result = client.Post(url->target.c_str(), headers, request.body, "application/json");
    leave();
    if (!result) return {0, transport_failure(client, result.error(), url->host)};
    return {result->status, ""};
  }

  void cancel() override {
    std::lock_guard lock(m_mutex);
    m_cancelled = true;
    if (m_active) m_active->stop();
  }

  void resume() override {
    std::lock_guard lock(m_mutex);
    m_cancelled = false;
  }

 private:
  bool enter(httplib::Client& client) {
    std::lock_guard lock(m_mutex);
    if (m_cancelled) return false;
    m_active = &client;
    return true;
  }
  void leave() {
    std::lock_guard lock(m_mutex);
    m_active = nullptr;
  }

  const std::string m_ca_file;  // "" : the system store
  std::mutex m_mutex;
  bool m_cancelled = false;
  httplib::Client* m_active = nullptr;  // the POST in flight, if any
};

}  // namespace

std::shared_ptr<engine::CallbackTransport> make_http_callback_transport(std::string ca_file) {
  return std::make_shared<HttpCallbackTransport>(std::move(ca_file));
}

}  // namespace jgrid::api

#include "jgrid/api/callback_transport.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include "api/attempt_watch.hpp"
#include "api/self_address.hpp"
#include "api/tls.hpp"
#include "jgrid/util/url.hpp"

namespace jgrid::api {
namespace {

constexpr int k_connect_timeout_s = 5;
constexpr int k_io_timeout_s = 10;             // each read and write; the watch bounds the whole attempt
constexpr int k_receive_buffer = 32 * 1024;    // what the kernel holds unread: keeps the head watch exact

using engine::CallbackResponse;

CallbackResponse final_failure(std::string error) { return {0, std::move(error), "", false, false}; }

// The start of a reply body, up to a cap; past it the read stops.
struct ReplyBody {
  std::size_t cap;
  std::string kept;
  bool over = false;
  bool take(const char* data, std::size_t size) {
    std::size_t room = cap - kept.size();
    kept.append(data, std::min(size, room));
    over = size > room;
    return !over;
  }
};

class HttpCallbackTransport final : public engine::CallbackTransport {
 public:
  explicit HttpCallbackTransport(CallbackTransportOptions options)
      : m_options(std::move(options)), m_watch({m_options.attempt_deadline, m_options.max_reply_head}) {}

  CallbackResponse post(const engine::CallbackRequest& request) override {
    auto url = util::parse_http_url(request.url);
    if (!url) return final_failure("not an http(s) URL: " + request.url);
    auto attempt = m_watch.begin();
    if (!attempt) return {0, "cancelled"};
    auto addresses = resolve_host(url->host);
    if (addresses.empty()) return {0, "cannot resolve host " + url->host};
    if (auto self = self_target(*url, addresses)) return final_failure(*self);
    CallbackResponse response;
    for (const auto& address : addresses) {
      bool refused = false;
      response = post_to(request, *url, address, *attempt, refused);
      if (!refused || attempt->end() != AttemptWatch::End::none) break;
    }
    return response;
  }

  void cancel() override { m_watch.cancel_all(); }
  void resume() override { m_watch.resume(); }

 private:
  // Why `url` (resolved to `addresses`) is this server, or nullopt.
  std::optional<std::string> self_target(const util::HttpUrl& url, const std::vector<std::string>& addresses) const {
    int port = m_options.server_port ? m_options.server_port() : 0;
    if (port == 0 || url.port != port) return std::nullopt;
    for (const auto& address : addresses)
      if (is_this_machine(address))
        return "not sent: " + url.host + " is " + address + ", an address of this machine, and port " +
               std::to_string(port) + " is this server";
    return std::nullopt;
  }

  // One POST to `address`; `refused` when no connection was made there.
  CallbackResponse post_to(const engine::CallbackRequest& request, const util::HttpUrl& url,
                           const std::string& address, AttemptWatch::Attempt& attempt, bool& refused) {
    auto client = make_verified_client(util::origin_of(url), m_options.ca_file);
    client->set_hostname_addr_map({{url.host, address}});
    client->set_connection_timeout(k_connect_timeout_s, 0);
    client->set_read_timeout(k_io_timeout_s, 0);
    client->set_write_timeout(k_io_timeout_s, 0);
    client->set_socket_options([&attempt](socket_t fd) {
      ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &k_receive_buffer, sizeof(k_receive_buffer));
      attempt.adopt(fd);
    });
    ReplyBody body{m_options.max_reply_body};
    httplib::Request req;
    req.method = "POST";
    req.path = url.target;
    req.headers = httplib::Headers(request.headers.begin(), request.headers.end());
    req.headers.emplace("Content-Type", "application/json");
    req.body = request.body;
    req.response_handler = [&attempt](const httplib::Response&) {
      attempt.head_done();
      return true;
    };
    req.content_receiver = [&body](const char* data, std::size_t size, std::uint64_t, std::uint64_t) {
      return body.take(data, size);
    };
    httplib::Response res;
    httplib::Error error = httplib::Error::Success;
    bool done = client->send(req, res, error);
    if (done || attempt.head_complete()) return {res.status, "", std::move(body.kept), !done};
    refused = error == httplib::Error::Connection;
    return {0, failure(attempt.end(), *client, error, url.host)};
  }

  std::string failure(AttemptWatch::End end, const httplib::Client& client, httplib::Error error,
                      const std::string& host) const {
    switch (end) {
      case AttemptWatch::End::deadline:
        return "timed out: no complete reply head within " + std::to_string(m_options.attempt_deadline.count()) +
               " ms";
      case AttemptWatch::End::head_too_large:
        return "the reply head is over " + std::to_string(m_options.max_reply_head) + " bytes";
      case AttemptWatch::End::cancelled:
        return "cancelled";
      case AttemptWatch::End::none:
        break;
    }
    return transport_failure(client, error, host);
  }

  const CallbackTransportOptions m_options;
  AttemptWatch m_watch;
};

}  // namespace

std::shared_ptr<engine::CallbackTransport> make_http_callback_transport(CallbackTransportOptions options) {
  return std::make_shared<HttpCallbackTransport>(std::move(options));
}

}  // namespace jgrid::api

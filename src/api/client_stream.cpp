// api::Client: Server-Sent Events and byte downloads.
#include "api/client_impl.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::api {
namespace {

using Json = nlohmann::json;

// Cuts a byte stream into SSE messages (LF or CRLF line endings).
class SseParser {
 public:
  // Feeds bytes; calls `emit` per complete message. False when emit said stop.
  bool feed(const char* data, std::size_t size, const std::function<bool(const SseMessage&)>& emit) {
    m_buffer.append(data, size);
    std::size_t newline;
    while ((newline = m_buffer.find('\n')) != std::string::npos) {
      std::string line = m_buffer.substr(0, newline);
      m_buffer.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) {
        if (m_has_data && !emit(m_message)) return false;
        m_message = SseMessage{};
        m_has_data = false;
      } else {
        take(line);
      }
    }
    return true;
  }

 private:
  void take(const std::string& line) {
    auto colon = line.find(':');
    std::string field = line.substr(0, colon);
    std::string value = colon == std::string::npos ? "" : line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.erase(0, 1);
    if (field == "id") m_message.id = value;
    if (field == "event") m_message.event = value;
    if (field == "data") {
      m_message.data = Json::parse(value, nullptr, false);
      if (m_message.data.is_discarded()) m_message.data = nullptr;
      m_has_data = true;
    }
  }

  std::string m_buffer;
  SseMessage m_message;
  bool m_has_data = false;
};

}  // namespace

Status Client::stream(const std::string& path, const std::function<bool(const SseMessage&)>& on_event,
                      const std::string& last_event_id) {
  auto headers = m_impl->headers();
  headers.erase("Accept");
  headers.emplace("Accept", "text/event-stream");
  if (!last_event_id.empty()) headers.emplace("Last-Event-ID", last_event_id);
  // A stream gets its own connection: the shared one may be reused meanwhile.
  auto http = make_http(m_impl->origin, m_impl->options);
  int status = 0;
  std::string error_body;
  SseParser parser;
  bool stopped = false;
  auto result = http->Get(
      m_impl->full_path(path), headers,
      [&](const httplib::Response& response) {
        status = response.status;
        return true;
      },
      [&](const char* data, std::size_t size) {
        if (status != 200) return error_body.append(data, size), true;
        stopped = !parser.feed(data, size, on_event);
        return !stopped;
      });
  if (stopped) return Ok{};
  if (status != 0 && status != 200) return response_error(status, error_body);
  if (!result) return connection_error(url(), *http, result.error());
  return Ok{};
}

Status Client::download(const std::string& absolute_url, const std::function<bool(const char*, std::size_t)>& sink,
                        const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  auto parts = split_url(absolute_url);
  if (!parts) return parts.error();
  auto http = make_http(parts->first, m_impl->options);
  int status = 0;
  std::uint64_t total = 0, received = 0;
  std::string error_body;
  auto result = http->Get(
      parts->second.empty() ? "/" : parts->second, httplib::Headers{},
      [&](const httplib::Response& response) {
        status = response.status;
        auto length = util::parse_int(response.get_header_value("Content-Length"));
        total = length && *length > 0 ? static_cast<std::uint64_t>(*length) : 0;
        return true;
      },
      [&](const char* data, std::size_t size) {
        if (status < 200 || status >= 300) return error_body.append(data, size), true;
        received += size;
        if (progress) progress(received, total);
        return sink(data, size);
      });
  if (status != 0 && (status < 200 || status >= 300)) {
    Error error = response_error(status, error_body);
    return make_error("DOWNLOAD_FAILED", "download failed with " + std::to_string(status) + " " + error.code + ": " +
                                             error.message, error.details);
  }
  if (!result) return connection_error(parts->first, *http, result.error());
  return Ok{};
}

}  // namespace jgrid::api

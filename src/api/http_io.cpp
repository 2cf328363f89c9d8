#include "api/http_io.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <set>

#include "api/errors.hpp"
#include "jgrid/util/log.hpp"

namespace jgrid::api {
namespace {

constexpr std::int64_t k_max_drain = 64LL << 20;
constexpr std::size_t k_file_chunk = 64 * 1024;

// Response::set_content copies; the bodies here are built once and moved.
void set_body(httplib::Response& res, std::string body, std::string_view content_type) {
  res.body = std::move(body);
  res.headers.erase("Content-Type");
  res.set_header("Content-Type", std::string(content_type));
}

// The library drops a header whose value has CR or LF; any other control
// character (a Host header's echoed into Location, say) is dropped here, so
// no reply header carries one. Tab is allowed, as in HTTP field values.
void set_reply_header(httplib::Response& res, const std::string& name, const std::string& value) {
  auto control = [](unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; };
  if (std::none_of(value.begin(), value.end(), control)) return res.set_header(name, value);
  util::log(util::LogLevel::warn, "api", "reply header dropped: its value has a control character", {{"header", name}});
}

// nlohmann's messages start with "[json.exception.parse_error.101] ".
std::string parse_problem(const std::string& what) {
  auto end = what.find("] ");
  return end == std::string::npos ? what : what.substr(end + 2);
}

Result<std::string> read_raw(const httplib::Request& req, const httplib::ContentReader* reader, std::int64_t limit,
                             bool& consumed) {
  if (!reader) return req.body;
  consumed = true;
  std::string body;
  std::int64_t seen = 0;
  bool complete = (*reader)([&](const char* data, std::size_t size) {
    seen += static_cast<std::int64_t>(size);
    if (seen <= limit) body.append(data, size);
    return seen <= limit + k_max_drain;
  });
  if (seen > limit)
    return make_error("PAYLOAD_TOO_LARGE", "request body larger than the limit of " + std::to_string(limit) + " bytes",
                      Json{{"limit_bytes", limit}});
  if (!complete) return invalid_request("request body ended before its declared length");
  return body;
}

Result<Json> parse_object(const std::string& text, BodyKind kind) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    if (kind == BodyKind::optional_json) return Json::object();
    return invalid_request("request body is empty: expected a JSON object");
  }
  Json body;
  try {
    body = Json::parse(text);
  } catch (const Json::exception& error) {  // parse_error, or out_of_range for a number like 1e999
    return invalid_request("request body is not valid JSON: " + parse_problem(error.what()));
  }
  if (!body.is_object())
    return invalid_request(std::string("request body must be a JSON object, got ") + body.type_name());
  return body;
}

// Range support for file replies: the HTTP library slices a provider with a
// known length; unsatisfiable ranges are answered here.
bool range_satisfiable(const httplib::Request& req, std::int64_t size) {
  for (const auto& [first, last] : req.ranges) {
    if (first < 0 && last <= 0) return false;
    if (first >= size || (last >= 0 && last < first)) return false;
  }
  return true;
}

void write_file(const httplib::Request& req, httplib::Response& res, const Reply& reply) {
  if (!range_satisfiable(req, reply.file_size)) {
    write_error(res, make_error("RANGE_NOT_SATISFIABLE", "Range outside the " + std::to_string(reply.file_size) +
                                                             "-byte file"));
    res.set_header("Content-Range", "bytes */" + std::to_string(reply.file_size));
    return;
  }
  if (reply.file_size == 0) return res.set_content("", reply.content_type);
  std::shared_ptr<std::FILE> file(std::fopen(reply.file.c_str(), "rb"), [](std::FILE* f) {
    if (f) std::fclose(f);
  });
  if (!file) return write_error(res, make_error("IO_ERROR", "cannot open " + reply.file.string()));
  if (!req.ranges.empty()) res.status = 206;
  res.set_content_provider(static_cast<std::size_t>(reply.file_size), reply.content_type,
                           [file](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                             char buffer[k_file_chunk];
                             std::size_t want = std::min(length, k_file_chunk);
                             if (std::fseek(file.get(), static_cast<long>(offset), SEEK_SET) != 0) return false;
                             std::size_t got = std::fread(buffer, 1, want, file.get());
                             return got > 0 && sink.write(buffer, got);
                           });
}

void write_stream(const httplib::Request& req, httplib::Response& res, const Reply& reply) {
  if (req.method == "HEAD") return res.set_header("Content-Type", reply.content_type);
  res.set_chunked_content_provider(reply.content_type, [stream = reply.stream](std::size_t, httplib::DataSink& sink) {
    // An empty chunk is the stream asking whether its client is still there.
    stream([&sink](std::string_view chunk) {
      return chunk.empty() ? sink.is_writable() : sink.write(chunk.data(), chunk.size());
    });
    sink.done();
    return true;
  });
}

struct LibraryError {
  int status;
  const char* code;
  const char* message;
};

// What the HTTP library answers by itself, before any handler runs.
constexpr LibraryError k_library_errors[] = {
    {400, "INVALID_REQUEST", "malformed HTTP request"},
    {404, "NOT_FOUND", "no such route"},
    {413, "PAYLOAD_TOO_LARGE", "request body too large"},
    {414, "URI_TOO_LONG", "request URI too long"},
    {416, "RANGE_NOT_SATISFIABLE", "malformed Range header"},
};

}  // namespace

int json_depth(std::string_view text) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
    else if (c == ']' || c == '}') --depth;
  }
  return deepest;
}

Result<Json> read_json_body(BodyKind kind, const httplib::Request& req, const httplib::ContentReader* reader,
                            BodyLimits limits, bool& consumed) {
  auto text = read_raw(req, reader, limits.max_bytes, consumed);
  if (!text) return text.error();
  if (int depth = json_depth(*text); depth > limits.max_depth)
    return invalid_request("request body nests " + std::to_string(depth) + " levels deep; the limit is " +
                           std::to_string(limits.max_depth));
  return parse_object(*text, kind);
}

bool drain_body(const httplib::ContentReader& reader) {
  std::int64_t seen = 0;
  return reader([&](const char*, std::size_t size) {
    seen += static_cast<std::int64_t>(size);
    return seen <= k_max_drain;
  });
}

void write_error(httplib::Response& res, const Error& error) {
  HttpError http = to_http_error(error);
  res.status = http.status;
  for (const auto& [name, value] : http.headers) set_reply_header(res, name, value);
  set_body(res, dump_json(http.body), k_json_type);
}

void write_reply(const httplib::Request& req, httplib::Response& res, Reply reply, model::Framing framing) {
  res.status = reply.status;
  for (const auto& [name, value] : reply.headers) set_reply_header(res, name, value);
  switch (reply.kind) {
    case Reply::Kind::json:
      if (reply.status < 400) reply.json = framed(std::move(reply.json), framing);
      return set_body(res, dump_json(reply.json), k_json_type);
    case Reply::Kind::bytes:
      return set_body(res, std::move(reply.bytes), reply.content_type);
    case Reply::Kind::file:
      return write_file(req, res, reply);
    case Reply::Kind::stream:
      return write_stream(req, res, reply);
  }
}

bool fill_library_error(const httplib::Request& req, httplib::Response& res) {
  if (!res.body.empty() || res.status < 400) return false;
  static const std::set<std::string> k_methods = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"};
  if (res.status == 400 && !req.method.empty() && !k_methods.count(req.method)) {
    write_error(res, make_error("METHOD_NOT_ALLOWED", "method " + req.method + " is not supported",
                                Json{{"allowed_methods", {"GET", "HEAD", "POST", "PUT"}}}));
    res.set_header("Connection", "close");
    return true;
  }
  int status = res.status;
  // What follows a head the library could not read is not a request: the
  // connection ends with this reply rather than parse its rest as one.
  if (status != 404 && status != 416) res.set_header("Connection", "close");
  Error error = invalid_request("request refused by the HTTP layer (status " + std::to_string(status) + ")");
  for (const auto& known : k_library_errors)
    if (known.status == status) error = make_error(known.code, known.message);
  write_error(res, error);
  res.status = status;  // the library's status stands; only the body is added
  return true;
}

}  // namespace jgrid::api

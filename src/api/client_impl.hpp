#pragma once
// Private parts of api::Client shared by its two source files.
#include <httplib.h>

#include <memory>
#include <string>

#include "jgrid/api/client.hpp"

namespace jgrid::api {

struct Client::Impl {
  ClientOptions options;
  std::string origin;     // http://host:port
  std::string base_path;  // "" or "/prefix"
  std::unique_ptr<httplib::Client> http;

  httplib::Headers headers() const;
  std::string full_path(const std::string& path) const { return base_path + path; }
};

// A fresh connection to `origin` with the options' timeouts.
std::unique_ptr<httplib::Client> make_http(const std::string& origin, const ClientOptions& options);

// CONNECTION_FAILED naming the URL and the reason (for TLS, which check failed).
Error connection_error(const std::string& url, const httplib::Client& http, httplib::Error error);

// The server's error from a non-2xx response (the envelope of docs/api.md §1.1),
// or HTTP_<status> with the body's start when it is not one.
Error response_error(int status, const std::string& body);

}  // namespace jgrid::api

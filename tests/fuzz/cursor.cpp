// The resume points of log and event reads (docs/api.md §2.5–2.7): the
// Last-Event-ID header and the `cursor`, `after`, `since`, `tail` and `limit`
// query parameters, parsed exactly as the routes parse them. The input is
// split at newlines into those values. Every value must parse or give
// INVALID_REQUEST naming the parameter; results stay in range.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "api/params.hpp"
#include "api/sse.hpp"
#include "jgrid/util/time.hpp"

namespace {

const char* const k_params[] = {"limit", "cursor", "tail", "since", "after"};

jgrid::api::Call call_from(std::string_view input) {
  jgrid::api::Call call;
  call.method = "GET";
  std::size_t field = 0;
  while (field <= std::size(k_params)) {
    auto end = input.find('\n');
    std::string value(input.substr(0, end));
    if (field == std::size(k_params)) call.last_event_id = value;
    else call.query[k_params[field]] = value;
    ++field;
    if (end == std::string_view::npos) break;
    input.remove_prefix(end + 1);
  }
  return call;
}

void require(bool ok) {
  if (!ok) __builtin_trap();
}

// A failed parse is INVALID_REQUEST naming the parameter.
template <typename T>
void check(const jgrid::Result<T>& result, const char* param) {
  if (result) return;
  require(result.error().code == "INVALID_REQUEST");
  require(result.error().message.rfind(std::string(param) + ":", 0) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto call = call_from(std::string_view(reinterpret_cast<const char*>(data), size));
  auto limit = jgrid::api::limit_param(call, 100, 1000);
  check(limit, "limit");
  if (limit) require(*limit >= 1 && *limit <= 1000);
  auto cursor = jgrid::api::sequence_cursor(call, "cursor");
  check(cursor, "cursor");
  if (cursor) require(*cursor >= 0);
  auto tail = jgrid::api::tail_param(call, 1000);
  check(tail, "tail");
  if (tail && *tail) require(**tail >= 0 && **tail <= 1000);
  auto since = jgrid::api::since_param(call);
  check(since, "since");
  if (since && *since) (void)jgrid::util::format_time(*since);
  require(jgrid::api::parse_event_id(call.last_event_id) >= 0);
  require(jgrid::api::parse_event_id(call.param("after").value_or("")) >= 0);
  return 0;
}

#include "jgrid/model/log_entry.hpp"

#include "jgrid/util/time.hpp"

namespace jgrid::model {

nlohmann::json log_entry_to_api(const LogEntry& entry) {
  std::string time = util::format_time(entry.created_ms);
  return {{"entry_id", std::to_string(entry.sequence)},
          {"sequence", entry.sequence},
          {"stream", entry.stream},
          {"category", entry.category},
          {"source", entry.source},
          {"level", entry.stream == "stderr" ? "error" : "info"},
          {"message", entry.message},
          {"truncated", entry.truncated},
          {"created_at", time},
          {"timestamp", time}};
}

}  // namespace jgrid::model

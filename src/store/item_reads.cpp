#include <algorithm>

#include "store/codec.hpp"
#include "store/reads.hpp"
#include "store/select.hpp"

namespace jgrid::store::reads {
namespace {

const std::string k_list_artifacts = "SELECT doc FROM artifacts WHERE job_id = ?1 ORDER BY id";
const std::string k_get_artifact = "SELECT doc FROM artifacts WHERE id = ?1";
const std::string k_get_input = "SELECT doc FROM inputs WHERE id = ?1";
const std::string k_get_setting = "SELECT value FROM settings WHERE key = ?1";

}  // namespace

std::vector<model::Artifact> list_artifacts(sql::Connection& conn, const std::string& job_id) {
  return collect(std::move(conn.query(k_list_artifacts).bind(1, job_id)), decode_artifact);
}

std::optional<model::Artifact> get_artifact(sql::Connection& conn, const std::string& artifact_id) {
  return first(std::move(conn.query(k_get_artifact).bind(1, artifact_id)), decode_artifact);
}

std::optional<model::JobInput> get_input(sql::Connection& conn, const std::string& input_id) {
  return first(std::move(conn.query(k_get_input).bind(1, input_id)), decode_input);
}

std::vector<model::JobInput> list_inputs(sql::Connection& conn, const InputQuery& query) {
  Select select("SELECT doc FROM inputs WHERE workspace = ?", {query.workspace});
  select.where_set("id > ?", query.after_id)
      .where_set("kind = ?", query.kind)
      .where_set("status = ?", query.status)
      .order_limit("id", std::max(query.limit, 0));
  return collect(select.run(conn), decode_input);
}

std::optional<std::string> get_setting(sql::Connection& conn, const std::string& key) {
  auto query = conn.query(k_get_setting);
  query.bind(1, key);
  if (!query.next()) return std::nullopt;
  return std::string(query.text(0));
}

}  // namespace jgrid::store::reads

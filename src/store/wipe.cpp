#include "store/wipe.hpp"

#include <string>
#include <vector>

namespace jgrid::store {
namespace {

// The floor only rises: MAX over the old floor and every seq still stored.
const std::string k_keep_event_seq_floor =
    std::string("INSERT OR REPLACE INTO settings (key, value) SELECT '") + k_event_seq_floor_key +
    "', CAST(MAX(COALESCE((SELECT MAX(seq) FROM events), 0), COALESCE((SELECT CAST(value AS INTEGER) FROM settings "
    "WHERE key = '" + k_event_seq_floor_key + "'), 0)) AS TEXT)";

std::int64_t delete_rows(sql::Connection& conn, const std::string& table) {
  conn.exec("DELETE FROM " + table);
  return sqlite3_changes64(conn.handle());
}

}  // namespace

// Jobs go first: their delete triggers (schema steps 4 and 6) count them
// down, and the rows they leave at zero (or at a rounding residue of a
// cost) go with job_counts and workspace_spend.
DeletedRows delete_all_jobs(sql::Connection& conn) {
  conn.exec(k_keep_event_seq_floor);
  DeletedRows deleted;
  deleted.jobs = delete_rows(conn, "jobs");
  delete_rows(conn, "job_counts");
  delete_rows(conn, "workspace_spend");
  deleted.events = delete_rows(conn, "events");
  deleted.log_lines = delete_rows(conn, "logs");
  deleted.artifacts = delete_rows(conn, "artifacts");
  deleted.inputs = delete_rows(conn, "inputs");
  deleted.deliveries = delete_rows(conn, "callback_outbox");
  return deleted;
}

std::vector<std::string> delete_expired_inputs(sql::Connection& conn, std::int64_t now_ms) {
  auto query = conn.query(
      "DELETE FROM inputs WHERE status = 'pending' AND json_extract(doc, '$.expires_ms') BETWEEN 1 AND ?1 "
      "RETURNING id");
  query.bind(1, now_ms);
  std::vector<std::string> ids;
  while (query.next()) ids.emplace_back(query.text(0));
  return ids;
}

}  // namespace jgrid::store

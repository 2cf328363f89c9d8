// The callback outbox (docs/api.md §5): pending rows for the sender, all rows of a job.
#include <algorithm>

#include "store/reads.hpp"

namespace jgrid::store::reads {
namespace {

const std::string k_columns =
    "SELECT id, job_id, event, state, attempts, next_attempt_ms, created_ms, last_error, body FROM callback_outbox ";
const std::string k_pending = k_columns +
                              "WHERE state = 'pending' AND (next_attempt_ms > ?2 OR (next_attempt_ms = ?2 AND id > ?3)) "
                              "ORDER BY next_attempt_ms, id LIMIT ?1";
const std::string k_of_job = k_columns + "WHERE job_id = ?1 ORDER BY created_ms, id";

model::Delivery row(const sql::Query& q) {
  model::Delivery d;
  d.id = std::string(q.text(0));
  d.job_id = std::string(q.text(1));
  d.event = std::string(q.text(2));
  d.state = std::string(q.text(3));
  d.attempts = static_cast<int>(q.integer(4));
  d.next_attempt_ms = q.integer(5);
  d.created_ms = q.integer(6);
  d.last_error = std::string(q.text(7));
  d.body = std::string(q.text(8));
  return d;
}

std::vector<model::Delivery> rows(sql::Query query) {
  std::vector<model::Delivery> out;
  while (query.next()) out.push_back(row(query));
  return out;
}

}  // namespace

std::vector<model::Delivery> pending_deliveries(sql::Connection& conn, int limit, const DeliveryCursor& after) {
  return rows(std::move(
      conn.query(k_pending).bind(1, std::int64_t{std::max(limit, 0)}).bind(2, after.next_attempt_ms).bind(3, after.id)));
}

std::vector<model::Delivery> list_deliveries(sql::Connection& conn, const std::string& job_id) {
  return rows(std::move(conn.query(k_of_job).bind(1, job_id)));
}

}  // namespace jgrid::store::reads

#include "store/schema.hpp"

#include "jgrid/store/store.hpp"

namespace jgrid::store {
namespace {

const char* const k_schema_v1 = R"sql(
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  workspace TEXT NOT NULL,
  status TEXT NOT NULL,
  workload_type TEXT NOT NULL,
  gpu_vendor TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  idempotency_key TEXT NOT NULL DEFAULT '',
  doc TEXT NOT NULL,
  stdout_tail TEXT NOT NULL DEFAULT '',
  stderr_tail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX jobs_by_workspace ON jobs (workspace, id);
CREATE INDEX jobs_by_status ON jobs (status);
CREATE UNIQUE INDEX jobs_by_idempotency_key ON jobs (workspace, idempotency_key)
  WHERE idempotency_key <> '';

CREATE TABLE events (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  job_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  type TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX events_by_job ON events (job_id, sequence);

CREATE TABLE logs (
  job_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  stream TEXT NOT NULL,
  category TEXT NOT NULL,
  source TEXT NOT NULL,
  message TEXT NOT NULL,
  truncated INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  PRIMARY KEY (job_id, sequence)
) WITHOUT ROWID;

CREATE TABLE artifacts (
  id TEXT PRIMARY KEY,
  job_id TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX artifacts_by_job ON artifacts (job_id, id);

CREATE TABLE inputs (
  id TEXT PRIMARY KEY,
  workspace TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX inputs_by_workspace ON inputs (workspace, id);

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
)sql";

// Step 2: the callback outbox (docs/api.md §5). One row per job terminal event,
// written with the transition; the sender updates its attempt columns.
const char* const k_schema_v2_outbox = R"sql(
CREATE TABLE callback_outbox (
  id TEXT PRIMARY KEY,
  job_id TEXT NOT NULL,
  event TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  next_attempt_ms INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  last_error TEXT NOT NULL DEFAULT '',
  body TEXT NOT NULL
);
CREATE UNIQUE INDEX callback_outbox_by_job_event ON callback_outbox (job_id, event);
CREATE INDEX callback_outbox_by_state ON callback_outbox (state, next_attempt_ms);
)sql";

// Step 3: job list pages filtered by status walk (workspace, status, id) in
// id order instead of every job of the workspace (a rare status among a
// million stored jobs was a full scan).
const char* const k_schema_v3_status_pages = R"sql(
CREATE INDEX jobs_by_workspace_status ON jobs (workspace, status, id);
)sql";

// Step 4: jobs counted per status as they are written, so /v1/health and
// /metrics read a few rows instead of counting every stored job per call.
const char* const k_schema_v4_job_counts = R"sql(
CREATE TABLE job_counts (
  status TEXT PRIMARY KEY,
  n INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO job_counts (status, n) SELECT status, COUNT(*) FROM jobs GROUP BY status;
CREATE TRIGGER job_counts_insert AFTER INSERT ON jobs BEGIN
  INSERT INTO job_counts (status, n) VALUES (new.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER job_counts_update AFTER UPDATE OF status ON jobs WHEN old.status <> new.status BEGIN
  UPDATE job_counts SET n = n - 1 WHERE status = old.status;
  INSERT INTO job_counts (status, n) VALUES (new.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER job_counts_delete AFTER DELETE ON jobs BEGIN
  UPDATE job_counts SET n = n - 1 WHERE status = old.status;
END;
)sql";

// Step 5: the same for pages filtered by workload type or by vendor alone
// (a type or vendor absent from a million stored jobs was a 15 s walk).
const char* const k_schema_v5_filter_pages = R"sql(
CREATE INDEX jobs_by_workspace_workload ON jobs (workspace, workload_type, id);
CREATE INDEX jobs_by_workspace_vendor ON jobs (workspace, gpu_vendor, id);
)sql";

// Step 6: what each workspace's jobs cost, summed as they are written
// (account_billing.lifetime_total_spent_usd is in every job object, so a
// SUM over a workspace's jobs per GET would walk every stored job). A job's
// cost is a column, set when it ends; triggers keep the per-workspace total
// in step with inserts, updates and deletes in the same transaction, so it
// holds after a restart and after a reset. Existing jobs get their cost
// from their documents once: that rewrites each ended job's row (about 20 s
// for a synthetic file of 1,000,000 jobs with 1.2 KB documents), where a
// trigger reading the document instead would parse it at every write.
const char* const k_schema_v6_workspace_spend = R"sql(
ALTER TABLE jobs ADD COLUMN cost_usd REAL NOT NULL DEFAULT 0;
UPDATE jobs SET cost_usd = json_extract(doc, '$.actual_cost_usd')
  WHERE json_extract(doc, '$.actual_cost_usd') IS NOT NULL;
CREATE TABLE workspace_spend (
  workspace TEXT PRIMARY KEY,
  usd REAL NOT NULL
) WITHOUT ROWID;
INSERT INTO workspace_spend (workspace, usd)
  SELECT workspace, SUM(cost_usd) FROM jobs WHERE cost_usd <> 0 GROUP BY workspace;
CREATE TRIGGER workspace_spend_insert AFTER INSERT ON jobs WHEN new.cost_usd <> 0 BEGIN
  INSERT INTO workspace_spend (workspace, usd) VALUES (new.workspace, new.cost_usd)
    ON CONFLICT (workspace) DO UPDATE SET usd = usd + excluded.usd;
END;
CREATE TRIGGER workspace_spend_update AFTER UPDATE OF cost_usd ON jobs WHEN old.cost_usd <> new.cost_usd BEGIN
  INSERT INTO workspace_spend (workspace, usd) VALUES (new.workspace, new.cost_usd - old.cost_usd)
    ON CONFLICT (workspace) DO UPDATE SET usd = usd + excluded.usd;
END;
CREATE TRIGGER workspace_spend_delete AFTER DELETE ON jobs WHEN old.cost_usd <> 0 BEGIN
  UPDATE workspace_spend SET usd = usd - old.cost_usd WHERE workspace = old.workspace;
END;
)sql";

Error too_new(const std::string& path, int found, int known) {
  return make_error("STORE_TOO_NEW",
                    "database " + path + " has schema version " + std::to_string(found) +
                        ", newer than version " + std::to_string(known) +
                        " that this jgrid-local knows: upgrade jgrid-local or use another --data-dir",
                    {{"path", path}, {"found_version", found}, {"supported_version", known}});
}

void apply_steps(sql::Connection& conn, const std::vector<MigrationStep>& steps, int from) {
  for (std::size_t i = static_cast<std::size_t>(from); i < steps.size(); ++i) conn.exec(steps[i].sql);
  conn.exec("PRAGMA user_version = " + std::to_string(steps.size()));
}

}  // namespace

const std::vector<MigrationStep>& migration_steps() {
  static const std::vector<MigrationStep> steps = {
      {"jobs, events, logs, artifacts, inputs, settings", k_schema_v1},
      {"callback outbox", k_schema_v2_outbox},
      {"job pages by status", k_schema_v3_status_pages},
      {"job counts per status", k_schema_v4_job_counts},
      {"job pages by workload type and by vendor", k_schema_v5_filter_pages},
      {"job costs summed per workspace", k_schema_v6_workspace_spend},
  };
  return steps;
}

int Store::schema_version() { return static_cast<int>(migration_steps().size()); }

int read_schema_version(sql::Connection& conn) { return static_cast<int>(conn.scalar("PRAGMA user_version")); }

Status migrate(sql::Connection& conn, const std::vector<MigrationStep>& steps) {
  const int known = static_cast<int>(steps.size());
  try {
    // IMMEDIATE: the version is read and raised under one write lock, so two
    // processes opening one file cannot both run a step.
    conn.exec("BEGIN IMMEDIATE");
    int found = read_schema_version(conn);
    if (found > known) {
      conn.rollback();
      return too_new(conn.path(), found, known);
    }
    if (found < known) apply_steps(conn, steps, found);
    conn.exec("COMMIT");
    return Ok{};
  } catch (const sql::SqliteError& e) {
    conn.rollback();
    return make_error("STORE_OPEN_FAILED",
                      "cannot migrate database " + conn.path() + " to schema version " + std::to_string(known) +
                          ": " + e.what(),
                      {{"path", conn.path()}});
  }
}

}  // namespace jgrid::store

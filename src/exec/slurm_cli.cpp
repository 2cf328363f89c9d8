#include "exec/slurm_cli.hpp"

#include <sstream>

#include "exec/container_process.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

constexpr auto k_query_timeout = std::chrono::seconds(30);
constexpr char k_separator = '|';

Error unavailable(const std::string& tool, const std::string& why) {
  return make_error("SLURM_UNAVAILABLE", tool + " failed: " + why +
                                             " (is this a Slurm submit host? install slurm-client and set SLURM_CONF "
                                             "if slurm.conf is not in /etc/slurm)");
}

Result<CommandResult> slurm_tool(const std::vector<std::string>& argv) {
  if (!on_path(argv[0])) return unavailable(argv[0], "not found on PATH");
  auto result = run_command(argv, k_query_timeout);
  if (!result) return unavailable(argv[0], result.error().message);
  if (result->timed_out) return unavailable(argv[0], "no answer within 30 s");
  return result;
}

// squeue's exit_code is a wait status: "exit:signal" as scontrol prints it.
std::string exit_signal(const std::string& raw) {
  auto status = util::parse_int(util::trim(raw));
  if (!status) return "";
  return std::to_string((*status >> 8) & 0xff) + ":" + std::to_string(*status & 0x7f);
}

std::string field(const std::string& text, const std::string& key) {
  auto at = text.find(" " + key + "=");
  if (at == std::string::npos) at = text.rfind(key + "=", 0) == 0 ? 0 : std::string::npos;
  if (at == std::string::npos) return "";
  at = text.find('=', at) + 1;
  auto end = text.find(' ', at);
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

}  // namespace

std::string squeue_format() { return "JobID:24|,Name:200|,State:24|,Reason:200|,NodeList:200|,exit_code:16"; }

std::vector<SlurmJobRow> parse_squeue_rows(const std::string& text) {
  std::vector<SlurmJobRow> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    auto parts = util::split(line, k_separator);
    if (parts.size() != 6) continue;
    std::string state = util::trim(parts[2]);
    SlurmJobRow row{util::trim(parts[0]), util::trim(parts[1]), state.substr(0, state.find(' ')),
                    util::trim(parts[3]), util::trim(parts[4]), exit_signal(parts[5])};
    if (!row.id.empty() && util::parse_int(row.id)) rows.push_back(std::move(row));
  }
  return rows;
}

std::optional<SlurmJobRow> parse_scontrol_job(const std::string& text) {
  SlurmJobRow row{field(text, "JobId"),  field(text, "JobName"),  field(text, "JobState"),
                  field(text, "Reason"), field(text, "NodeList"), field(text, "ExitCode")};
  if (row.id.empty() || row.state.empty()) return std::nullopt;
  if (row.nodes == "(null)") row.nodes.clear();
  return row;
}

Result<std::string> slurm_sinfo_json() {
  auto result = slurm_tool({"sinfo", "--json"});
  if (!result) return result.error();
  if (result->exit_code != 0) return unavailable("sinfo --json", result->last_error_line());
  return result->out;
}

Result<std::vector<SlurmJobRow>> slurm_queue() {
  auto result = slurm_tool({"squeue", "--me", "--noheader", "--states=all", "--Format=" + squeue_format()});
  if (!result) return result.error();
  if (result->exit_code != 0) return unavailable("squeue", result->last_error_line());
  return parse_squeue_rows(result->out);
}

Result<std::optional<SlurmJobRow>> slurm_job(const std::string& id) {
  auto result = slurm_tool({"scontrol", "show", "job", "-o", id});
  if (!result) return result.error();
  if (result->exit_code != 0) {
    if (result->err.find("Invalid job id") != std::string::npos) return std::optional<SlurmJobRow>{};
    return unavailable("scontrol show job", result->last_error_line());
  }
  return parse_scontrol_job(result->out);
}

Result<std::string> slurm_submit(const std::vector<std::string>& sbatch_argv) {
  auto result = slurm_tool(sbatch_argv);
  if (!result) return result.error();
  std::string id = util::trim(result->out.substr(0, result->out.find(';')));
  if (result->exit_code != 0 || !util::parse_int(id))
    return make_error("SLURM_SUBMIT_FAILED", "sbatch failed: " + result->last_error_line());
  return id;
}

Status slurm_cancel(const std::string& id) {
  auto result = slurm_tool({"scancel", id});
  if (!result) return result.error();
  if (result->exit_code != 0 && result->err.find("Invalid job id") == std::string::npos &&
      result->err.find("already completing or completed") == std::string::npos)
    return unavailable("scancel " + id, result->last_error_line());
  return Ok{};
}

Result<std::optional<int>> slurm_run_on(const std::string& partition, const std::string& node,
                                        const std::vector<std::string>& argv) {
  std::vector<std::string> srun{"srun",     "--immediate=10", "--job-name", "jgrid-check", "-N1", "-n1",
                                "--partition", partition,     "--nodelist", node,          "--quiet"};
  srun.insert(srun.end(), argv.begin(), argv.end());
  auto result = slurm_tool(srun);
  if (!result) return result.error();
  if (result->err.find("Unable to allocate resources") != std::string::npos ||
      result->err.find("Immediate") != std::string::npos)
    return std::optional<int>{};
  return std::optional<int>{result->exit_code};
}

}  // namespace jgrid::exec

// `download ID NAME [-o PATH]`: asks for a signed URL and fetches the bytes,
// with a progress bar on a terminal for large files. Writes to PATH.part and
// renames, so a failed download leaves no half-written file.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "remote.hpp"
#include "term.hpp"

namespace jgrid::cli {
namespace {

constexpr std::uint64_t k_progress_min_bytes = 1 << 20;

struct DownloadFlags {
  RemoteFlags remote;
  std::string id, name, output;
};

Result<Json> find_artifact(api::Client& client, const DownloadFlags& f) {
  auto reply = client.get("/v1/jobs/" + path_segment(f.id) + "/artifacts");
  if (!reply) return reply.error();
  std::string names;
  for (const auto& artifact : (*reply)["artifacts"]) {
    for (const char* key : {"filename", "name", "artifact_id", "path"})
      if (text_of(artifact, key) == f.name) return artifact;
    names += (names.empty() ? "" : ", ") + text_of(artifact, "filename");
  }
  return make_error("NOT_FOUND", "job " + f.id + " has no artifact '" + f.name + "' (has: " +
                                     (names.empty() ? "none" : names) + ")");
}

std::string output_path(const DownloadFlags& f, const Json& artifact) {
  if (!f.output.empty()) return f.output;
  return std::filesystem::path(text_of(artifact, "filename")).filename().string();
}

Status fetch_to(api::Client& client, const std::string& url, const std::string& path, std::uint64_t size) {
  bool to_stdout = path == "-";
  std::string part = path + ".part";
  std::ofstream file;
  if (!to_stdout) file.open(part, std::ios::binary | std::ios::trunc);
  if (!to_stdout && !file) return make_error("WRITE_FAILED", "cannot write " + part);
  std::ostream& out = to_stdout ? std::cout : file;
  ProgressBar bar(!to_stdout && size >= k_progress_min_bytes && stdout_is_tty(), path);
  auto status = client.download(
      url, [&](const char* data, std::size_t n) { return static_cast<bool>(out.write(data, static_cast<std::streamsize>(n))); },
      [&](std::uint64_t done, std::uint64_t total) { bar.update(done, total ? total : size); });
  bar.finish();
  if (to_stdout) return status;
  file.close();
  if (status && !file) status = make_error("WRITE_FAILED", "cannot write " + part);
  if (!status) return std::remove(part.c_str()), status;
  std::error_code error;
  std::filesystem::rename(part, path, error);
  if (error) return make_error("WRITE_FAILED", "cannot rename " + part + " to " + path + ": " + error.message());
  return Ok{};
}

int run(const DownloadFlags& f) {
  auto client = connect(f.remote);
  if (!client) return report(client.error(), f.remote.json);
  auto artifact = find_artifact(*client, f);
  if (!artifact) return report(artifact.error(), f.remote.json);
  auto link = client->post("/v1/jobs/" + path_segment(f.id) + "/artifacts/" +
                               path_segment(text_of(*artifact, "artifact_id")) + "/download",
                           Json::object());
  if (!link) return report(link.error(), f.remote.json);
  std::string path = output_path(f, *artifact);
  auto size = artifact->value("size_bytes", Json(0));
  auto status = fetch_to(*client, text_of(*link, "url"), path, size.is_number() ? size.get<std::uint64_t>() : 0);
  if (!status) return report(status.error(), f.remote.json);
  if (path == "-") return 0;
  if (f.remote.json) return print_json(Json{{"path", path}, {"artifact", *artifact}});
  std::cout << "saved " << path << " (" << format_bytes(size.is_number() ? size.get<std::uint64_t>() : 0) << ")\n";
  return 0;
}

}  // namespace

Runner add_download_command(CLI::App& app) {
  auto* command = app.add_subcommand("download", "Download one artifact of a job");
  auto flags = std::make_shared<DownloadFlags>();
  command->add_option("id", flags->id, "Job id")->required();
  command->add_option("name", flags->name, "Artifact filename (as `artifacts` lists it) or id")->required();
  command->add_option("-o,--output", flags->output, "Where to write it ('-' for stdout; default: its base name)");
  add_remote_flags(command, flags->remote);
  return [flags] { return run(*flags); };
}

}  // namespace jgrid::cli

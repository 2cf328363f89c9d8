// `wait [--timeout]`: polls GET /readyz until the server is ready (for CI).
#include <chrono>
#include <iostream>
#include <thread>

#include "commands.hpp"
#include "remote.hpp"

namespace jgrid::cli {
namespace {

struct WaitFlags {
  RemoteFlags remote;
  double timeout_s = 60;
};

int run(const WaitFlags& f) {
  auto client = connect(f.remote);
  if (!client) return report(client.error(), f.remote.json);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<long>(f.timeout_s * 1000));
  std::string last = "no answer yet";
  while (true) {
    auto reply = client->get_raw("/readyz");
    if (reply && reply->status == 200) break;
    last = reply ? "readyz answered " + std::to_string(reply->status) + ": " + reply->body : reply.error().message;
    if (std::chrono::steady_clock::now() >= deadline)
      return report(make_error("NOT_READY", client->url() + " not ready after " + std::to_string(int(f.timeout_s)) +
                                                "s: " + last),
                    f.remote.json);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (f.remote.json) return print_json(Json{{"ok", true}, {"url", client->url()}});
  std::cout << "ready " << client->url() << "\n";
  return 0;
}

}  // namespace

Runner add_wait_command(CLI::App& app) {
  auto* command = app.add_subcommand("wait", "Wait until the server answers /readyz (for CI scripts)");
  auto flags = std::make_shared<WaitFlags>();
  command->add_option("--timeout", flags->timeout_s, "Seconds to wait before giving up (default 60)");
  add_remote_flags(command, flags->remote);
  return [flags] { return run(*flags); };
}

}  // namespace jgrid::cli

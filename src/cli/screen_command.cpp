// `jgrid-local screen FILE.json`: the submit path's screening (docs/rocm.md §2),
// offline by default. Reads a job request, screens it against the image
// catalog of the built-in fleet (or --fleet FILE), or with --registry-lookup
// on against the image's registry, prints the checks, the intent and the
// evidence that decided it, and exits 0 when the request is submittable, 3
// when screening blocks it, 2 when the input cannot be read or is not a
// valid request.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "commands.hpp"
#include "jgrid/api/registry_lookup.hpp"
#include "jgrid/exec/fleet.hpp"
#include "jgrid/model/job_spec.hpp"
#include "jgrid/screen/screen.hpp"

namespace jgrid::cli {
namespace {

constexpr int k_exit_ok = 0;
constexpr int k_exit_input = 2;
constexpr int k_exit_blocked = 3;

struct ScreenOptions {
  std::string file;
  std::string fleet;
  bool json = false;
  bool problems_only = false;
  std::string registry_lookup = "off";
  std::vector<std::string> insecure_registries;
  double registry_timeout_s = 10;
};

int fail(const std::string& message) {
  std::cerr << "jgrid-local screen: " << message << "\n";
  return k_exit_input;
}

Result<std::string> read_input(const std::string& file) {
  if (file == "-") return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  std::ifstream in(file, std::ios::binary);
  if (!in) return make_error("INVALID_INPUT", file + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Result<model::JobSpec> read_spec(const std::string& file) {
  auto text = read_input(file);
  if (!text) return text.error();
  std::string source = file == "-" ? "stdin" : file;
  nlohmann::json body = nlohmann::json::parse(*text, nullptr, false);
  if (body.is_discarded()) return make_error("INVALID_INPUT", source + ": not valid JSON");
  if (!body.is_object()) return make_error("INVALID_INPUT", source + ": expected a JSON object (a job request)");
  auto spec = model::decode_job_spec(body, model::SpecMode::submit);
  if (!spec) return make_error("INVALID_INPUT", source + ": " + spec.error().message);
  return spec;
}

Result<exec::Fleet> catalog(const std::string& fleet) {
  return fleet.empty() ? Result<exec::Fleet>(exec::default_fleet()) : exec::load_fleet_files({fleet});
}

// What the catalog (or, when asked, the registry) knows about the image, as
// the server's screening sees it.
screen::ImageMetadata screen_metadata(const exec::Fleet& fleet, const std::string& image, const ScreenOptions& o) {
  if (const exec::ImageInfo* info = fleet.find_image(image))
    return screen::ImageMetadata{info->labels, info->env, info->digest, true, info->source};
  if (o.registry_lookup != "on" || image.empty()) return {};
  api::RegistryOptions registry;
  registry.insecure_hosts = o.insecure_registries;
  registry.fetch_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(o.registry_timeout_s * 1000));
  auto found = api::make_registry_lookup(std::move(registry))->lookup(image, registry.fetch_timeout * 4);
  if (found.state != exec::ImageLookupResult::State::found) {
    screen::ImageMetadata none;
    none.source = "name only (registry: " + found.note + ")";
    return none;
  }
  return screen::ImageMetadata{found.image.labels, found.image.env, found.image.digest, true, "registry"};
}

std::string intent_text(const screen::Intent& intent) {
  if (intent.unknown_cuda_heavy) return "nvidia (no declared intent, looks CUDA-only: NVIDIA capacity only)";
  if (intent.explicit_rocm) return "amd + rocm (explicit ROCm intent)";
  if (intent.explicit_nvidia) return "nvidia + cuda (explicit NVIDIA intent)";
  if (intent.unknown_stack) return "nvidia (no ROCm evidence: NVIDIA capacity only)";
  if (!intent.vendor.empty()) return intent.vendor + " (inferred from the image)";
  return "any vendor (no intent declared; the fleet lets unknown stacks use any vendor)";
}

std::string verdict_text(const screen::Screening& screening) {
  std::size_t warnings = screening.warnings().size();
  if (!screening.blocked())
    return "submittable" + (warnings ? " with " + std::to_string(warnings) + " warning(s)" : std::string());
  std::string rules;
  for (const auto& rule : screening.blocked_rules()) rules += (rules.empty() ? "" : ", ") + rule;
  return "blocked by " + rules;
}

void print_table(const screen::Screening& screening, bool problems_only) {
  std::size_t rule_w = 4, field_w = 5;
  for (const auto& c : screening.checks) {
    rule_w = std::max(rule_w, c.rule.size());
    field_w = std::max(field_w, c.field.size());
  }
  auto row = [&](const std::string& rule, const std::string& status, const std::string& field,
                 const std::string& message) {
    std::cout << rule << std::string(rule_w - rule.size() + 2, ' ') << status
              << std::string(status.size() < 7 ? 7 - status.size() : 1, ' ') << field
              << std::string(field_w - field.size() + 2, ' ') << message << "\n";
  };
  row("RULE", "STATUS", "FIELD", "MESSAGE / FIX");
  for (const auto& c : screening.checks) {
    if (problems_only && c.status == "pass") continue;
    row(c.rule, c.status, c.field, c.message);
    if (!c.fix.empty()) row("", "", "", "fix: " + c.fix);
  }
}

std::string join(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += (text.empty() ? "" : "; ") + line;
  return text.empty() ? "-" : text;
}

int print(const screen::Screening& screening, const ScreenOptions& o) {
  if (o.json) {
    nlohmann::json out = screen::screening_to_json(screening);
    out["verdict"] = screening.blocked() ? "blocked" : "submittable";
    out["intent"] = {{"gpu_vendor", screening.intent.vendor.empty() ? "any" : screening.intent.vendor},
                     {"runtime", screening.intent.runtime.empty() ? "auto" : screening.intent.runtime},
                     {"unknown_cuda_heavy", screening.intent.unknown_cuda_heavy},
                     {"unknown_stack", screening.intent.unknown_stack},
                     {"image_source", screening.intent.image_source},
                     {"confidence", screening.intent.confidence},
                     {"reasons", screening.intent.reasons}};
    std::cout << out.dump(2) << "\n";
  } else {
    print_table(screening, o.problems_only);
    std::cout << "\nintent:   " << intent_text(screening.intent) << "\nevidence: " << join(screening.intent.reasons)
              << "\nimage:    " << screening.intent.image_source << " (what screening read about the image)\nverdict:  " << verdict_text(screening) << "\n";
  }
  return screening.blocked() ? k_exit_blocked : k_exit_ok;
}

int run_screen(const ScreenOptions& o) {
  auto spec = read_spec(o.file);
  if (!spec) return fail(spec.error().message);
  auto fleet = catalog(o.fleet);
  if (!fleet) return fail(fleet.error().message);
  screen::ScreenOptions options{fleet->unknown_stack_any_vendor};
  return print(screen::screen(*spec, screen_metadata(*fleet, spec->image, o), options), o);
}

}  // namespace

Runner add_screen_command(CLI::App& app) {
  auto* command = app.add_subcommand(
      "screen",
      "Screen a job request offline (no server): prints every check (rule, status, field, message, fix); "
      "exit 0 when submittable, 3 when blocked, 2 when the input is unreadable or invalid");
  auto o = std::make_shared<ScreenOptions>();
  command->add_option("file", o->file, "Job request (JSON, the body of POST /v1/jobs), or - for stdin")->required();
  command->add_flag("--json", o->json, "Print {can_submit, verdict, blocked_checks, checks, warnings, fixes, intent}");
  command->add_flag("--problems", o->problems_only, "Show only warn and block checks in the table");
  command->add_option("--fleet", o->fleet, "Take image metadata from this fleet file's catalog (default: built-in)");
  command->add_option("--registry-lookup", o->registry_lookup,
                      "on: read labels and env of an image the catalog does not list from its registry; off: "
                      "offline, the name only")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  command->add_option("--insecure-registry", o->insecure_registries,
                      "A registry (host[:port]) spoken to over plain HTTP (repeatable)")
      ->allow_extra_args(false);
  command->add_option("--registry-timeout", o->registry_timeout_s, "Seconds per registry request")
      ->check(CLI::Range(1.0, 300.0))
      ->capture_default_str();
  return [o] { return run_screen(*o); };
}

}  // namespace jgrid::cli

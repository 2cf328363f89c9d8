#pragma once
// A fleet as its documents (the parsed YAML/JSON trees of its files, before
// they are checked and expanded into nodes), so a setting can be changed by
// a dotted path and the fleet built again: what `simulate --sweep` does for
// each point. Plain values; not thread-safe; copies are independent.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jgrid/exec/fleet.hpp"
#include "jgrid/util/result.hpp"

namespace jgrid::exec {

struct FleetSource {
  std::string name;      // the file's path, or "built-in fleet"
  nlohmann::json doc;    // the document as read (YAML turned into JSON)
  bool builtin = false;  // the built-in fleet under files that hold only images
};

struct FleetDocument {
  std::vector<FleetSource> sources;  // in file order; empty: no simulated nodes ("none")
};

// The built-in fleet's document (what default_fleet() parses).
nlohmann::json default_fleet_document();

// One fleet file read into its document: YAML (.yaml, .yml) or JSON (any
// other name). Errors INVALID_FLEET (unreadable, not YAML/JSON with line and
// column), naming the file. Nothing is checked beyond the syntax.
Result<nlohmann::json> read_fleet_file(const std::string& path);

// No paths: the built-in fleet; {"none"}: no nodes; else the files, read
// but not checked (that is build_fleet's job). When every file lacks both
// `pools` and `slurm`, the built-in fleet is added as a last, builtin source.
// Errors INVALID_FLEET (unreadable, not YAML/JSON), naming the file.
Result<FleetDocument> read_fleet_document(const std::vector<std::string>& paths);

// The fleet the documents describe, merged as load_fleet_files() merges
// files (same rules, same errors: INVALID_FLEET naming file and path).
Result<Fleet> build_fleet(const FleetDocument& document);

// Sets the setting at `path` to the value written in `text`.
// `path` is dotted: `seed`, `pools.<pool name or index>.count`,
// `pools.<pool>.faults.node_lost_per_hour`, `images.<ref or index>.size_mb`
// (sweepable_settings() lists them). Members absent from the document
// (`faults` of a pool that has none) are created. The value must read as
// the setting's kind (integer, number or text); ranges are checked later by
// build_fleet. The first source that has the pool, image or member is
// edited. Errors INVALID_SWEEP with a message naming the path and what was
// expected, e.g. "pools.mi300x-eats.count: no pool mi300x-eats (pools:
// mi300x-east, h100-west)" or "pools.mi300x-east.count: expected an
// integer, got 2.5". On error the document is unchanged.
Status set_fleet_value(FleetDocument& document, const std::string& path, const std::string& text);

// "seed, pools.<pool>.count, …": the paths set_fleet_value() accepts.
std::string sweepable_settings();

}  // namespace jgrid::exec

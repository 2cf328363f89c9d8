#pragma once
// GPU accounting of the fleet: which GPU indices of which node are taken.
// Keeps the router's FleetIndex in step on every reserve and release, so
// placing a job never copies or scans the whole fleet.
// Not synchronised; the engine mutex guards it.
#include <optional>
#include <string>
#include <vector>

#include "jgrid/engine/fleet_history.hpp"
#include "jgrid/model/node.hpp"
#include "jgrid/route/fleet_index.hpp"

namespace jgrid::engine {

class NodePool {
 public:
  // Every node starts with all its GPUs free; `seed` keys the router's tie-break.
  NodePool(std::vector<model::Node> nodes, std::uint64_t seed);

  // The live fleet for route::place().
  const route::FleetIndex& index() const { return m_index; }

  // Nodes with gpus_free and running_jobs from the accounting, and status
  // busy when an online node has no GPU free.
  std::vector<model::Node> snapshot() const;
  // The same for up to `limit` nodes from position `offset`.
  std::vector<model::Node> snapshot(std::size_t offset, std::size_t limit) const;
  std::optional<model::Node> find(const std::string& node_id) const;

  // Takes the `count` lowest free GPU indices of the node; empty (and
  // nothing taken) when the node is unknown or has fewer free.
  std::vector<int> reserve(const std::string& node_id, int count);
  // Takes exactly `indices` (a placement made by an earlier process); false
  // (and nothing taken) when the node is unknown or one of them is not free.
  bool take(const std::string& node_id, const std::vector<int>& indices);
  // Gives back indices taken by reserve(). Unknown nodes/indices are ignored.
  void release(const std::string& node_id, const std::vector<int>& indices);
  // Sets a node's own status (online, draining, offline); false when unknown.
  bool set_status(const std::string& node_id, model::NodeStatus status);
  // GPUs of the node that others than this grid hold (another Slurm user's
  // jobs): not free, but no index of ours. Clamped to the GPUs this grid
  // does not hold. False when the node is unknown.
  bool set_held_elsewhere(const std::string& node_id, int count);
  // Tells `history` (nullptr: nobody) of every GPU taken or given back and
  // of every node going offline or coming back. GPUs held elsewhere are
  // not ours and not told.
  void watch(FleetHistory* history) { m_history = history; }

 private:
  static model::Node view(model::Node node);
  static std::vector<model::Node> all_free(std::vector<model::Node> nodes);

  route::FleetIndex m_index;
  int unused(std::size_t slot) const;  // GPUs neither ours nor held elsewhere

  std::vector<std::vector<bool>> m_used;  // by index slot
  std::vector<int> m_elsewhere;           // by index slot: GPUs held by others
  FleetHistory* m_history = nullptr;
};

}  // namespace jgrid::engine

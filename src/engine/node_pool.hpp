#pragma once
// GPU accounting of the fleet: which GPU indices of which node are taken.
// Not synchronised; the engine mutex guards it.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "jgrid/model/node.hpp"

namespace jgrid::engine {

class NodePool {
 public:
  explicit NodePool(std::vector<model::Node> nodes);

  // Nodes with gpus_free and running_jobs from the accounting, and status
  // busy when an online node has no GPU free.
  std::vector<model::Node> snapshot() const;
  std::optional<model::Node> find(const std::string& node_id) const;

  // Takes the `count` lowest free GPU indices of the node; empty (and
  // nothing taken) when the node is unknown or has fewer free.
  std::vector<int> reserve(const std::string& node_id, int count);
  // Gives back indices taken by reserve(). Unknown nodes/indices are ignored.
  void release(const std::string& node_id, const std::vector<int>& indices);

 private:
  struct Slot {
    model::Node node;
    std::vector<bool> used;
    int running_jobs = 0;
  };
  model::Node view(const Slot& slot) const;

  std::vector<Slot> m_slots;
  std::map<std::string, std::size_t> m_index;
};

}  // namespace jgrid::engine

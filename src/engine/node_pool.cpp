#include "node_pool.hpp"

#include <algorithm>

namespace jgrid::engine {

NodePool::NodePool(std::vector<model::Node> nodes) {
  for (auto& node : nodes) {
    m_index[node.id] = m_slots.size();
    std::size_t count = static_cast<std::size_t>(std::max(node.gpu_count, 0));
    m_slots.push_back(Slot{std::move(node), std::vector<bool>(count, false), 0});
  }
}

model::Node NodePool::view(const Slot& slot) const {
  model::Node node = slot.node;
  node.gpus_free = static_cast<int>(std::count(slot.used.begin(), slot.used.end(), false));
  node.running_jobs = slot.running_jobs;
  if (node.status == model::NodeStatus::online && node.gpus_free == 0) node.status = model::NodeStatus::busy;
  return node;
}

std::vector<model::Node> NodePool::snapshot() const {
  std::vector<model::Node> nodes;
  nodes.reserve(m_slots.size());
  for (const auto& slot : m_slots) nodes.push_back(view(slot));
  return nodes;
}

std::optional<model::Node> NodePool::find(const std::string& node_id) const {
  auto it = m_index.find(node_id);
  if (it == m_index.end()) return std::nullopt;
  return view(m_slots[it->second]);
}

std::vector<int> NodePool::reserve(const std::string& node_id, int count) {
  auto it = m_index.find(node_id);
  if (it == m_index.end()) return {};
  Slot& slot = m_slots[it->second];
  std::vector<int> indices;
  for (std::size_t i = 0; i < slot.used.size() && static_cast<int>(indices.size()) < count; ++i)
    if (!slot.used[i]) indices.push_back(static_cast<int>(i));
  if (static_cast<int>(indices.size()) < count) return {};
  for (int index : indices) slot.used[static_cast<std::size_t>(index)] = true;
  ++slot.running_jobs;
  return indices;
}

void NodePool::release(const std::string& node_id, const std::vector<int>& indices) {
  auto it = m_index.find(node_id);
  if (it == m_index.end()) return;
  Slot& slot = m_slots[it->second];
  for (int index : indices)
    if (index >= 0 && static_cast<std::size_t>(index) < slot.used.size()) slot.used[static_cast<std::size_t>(index)] = false;
  slot.running_jobs = std::max(slot.running_jobs - 1, 0);
}

}  // namespace jgrid::engine

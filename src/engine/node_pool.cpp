#include "node_pool.hpp"

#include <algorithm>

namespace jgrid::engine {

std::vector<model::Node> NodePool::all_free(std::vector<model::Node> nodes) {
  for (auto& node : nodes) {
    node.gpus_free = std::max(node.gpu_count, 0);
    node.running_jobs = 0;
  }
  return nodes;
}

NodePool::NodePool(std::vector<model::Node> nodes, std::uint64_t seed) : m_index(all_free(std::move(nodes)), seed) {
  m_used.reserve(m_index.size());
  for (const auto& node : m_index.nodes()) m_used.emplace_back(static_cast<std::size_t>(node.gpu_count), false);
  m_elsewhere.assign(m_index.size(), 0);
}

int NodePool::unused(std::size_t slot) const {
  const std::vector<bool>& used = m_used[slot];
  return static_cast<int>(std::count(used.begin(), used.end(), false)) - m_elsewhere[slot];
}

model::Node NodePool::view(model::Node node) {
  if (node.status == model::NodeStatus::online && node.gpus_free == 0) node.status = model::NodeStatus::busy;
  return node;
}

std::vector<model::Node> NodePool::snapshot() const { return snapshot(0, m_index.size()); }

std::vector<model::Node> NodePool::snapshot(std::size_t offset, std::size_t limit) const {
  const auto& all = m_index.nodes();
  std::size_t end = offset < all.size() ? offset + std::min(limit, all.size() - offset) : offset;
  std::vector<model::Node> nodes;
  nodes.reserve(end > offset ? end - offset : 0);
  for (std::size_t i = offset; i < end; ++i) nodes.push_back(view(all[i]));
  return nodes;
}

std::optional<model::Node> NodePool::find(const std::string& node_id) const {
  auto slot = m_index.slot_of(node_id);
  if (!slot) return std::nullopt;
  return view(m_index.node(*slot));
}

std::vector<int> NodePool::reserve(const std::string& node_id, int count) {
  auto slot = m_index.slot_of(node_id);
  if (!slot) return {};
  std::vector<bool>& used = m_used[*slot];
  std::vector<int> indices;
  if (unused(*slot) < count) return {};
  for (std::size_t i = 0; i < used.size() && static_cast<int>(indices.size()) < count; ++i)
    if (!used[i]) indices.push_back(static_cast<int>(i));
  if (static_cast<int>(indices.size()) < count) return {};
  for (int index : indices) used[static_cast<std::size_t>(index)] = true;
  const model::Node& node = m_index.node(*slot);
  m_index.set_load(*slot, node.gpus_free - count, node.running_jobs + 1);
  if (m_history) m_history->add_running(node, count);
  return indices;
}

bool NodePool::take(const std::string& node_id, const std::vector<int>& indices) {
  auto slot = m_index.slot_of(node_id);
  if (!slot) return false;
  std::vector<bool>& used = m_used[*slot];
  for (int index : indices)
    if (index < 0 || static_cast<std::size_t>(index) >= used.size() || used[static_cast<std::size_t>(index)]) return false;
  for (int index : indices) used[static_cast<std::size_t>(index)] = true;
  int held = m_elsewhere[*slot];
  m_elsewhere[*slot] = std::min(held, std::max(unused(*slot) + held, 0));  // ours win over a stale count
  const model::Node& node = m_index.node(*slot);
  m_index.set_load(*slot, node.gpus_free - static_cast<int>(indices.size()) + held - m_elsewhere[*slot],
                   node.running_jobs + 1);
  if (m_history) m_history->add_running(node, static_cast<std::int64_t>(indices.size()));
  return true;
}

void NodePool::release(const std::string& node_id, const std::vector<int>& indices) {
  auto slot = m_index.slot_of(node_id);
  if (!slot) return;
  std::vector<bool>& used = m_used[*slot];
  int freed = 0;
  for (int index : indices) {
    if (index < 0 || static_cast<std::size_t>(index) >= used.size() || !used[static_cast<std::size_t>(index)]) continue;
    used[static_cast<std::size_t>(index)] = false;
    ++freed;
  }
  const model::Node& node = m_index.node(*slot);
  m_index.set_load(*slot, node.gpus_free + freed, std::max(node.running_jobs - 1, 0));
  if (m_history) m_history->add_running(node, -freed);
}

bool NodePool::set_held_elsewhere(const std::string& node_id, int count) {
  auto slot = m_index.slot_of(node_id);
  if (!slot) return false;
  int before = m_elsewhere[*slot];
  int limit = unused(*slot) + before;
  m_elsewhere[*slot] = std::clamp(count, 0, std::max(limit, 0));
  const model::Node& node = m_index.node(*slot);
  m_index.set_load(*slot, node.gpus_free + before - m_elsewhere[*slot], node.running_jobs);
  return true;
}

bool NodePool::set_status(const std::string& node_id, model::NodeStatus status) {
  auto slot = m_index.slot_of(node_id);
  if (!slot) return false;
  bool was_offline = m_index.node(*slot).status == model::NodeStatus::offline;
  m_index.set_status(*slot, status);
  bool offline = status == model::NodeStatus::offline;
  if (m_history && was_offline != offline) {
    const model::Node& node = m_index.node(*slot);
    m_history->add_total(node, offline ? -node.gpu_count : node.gpu_count);
  }
  return true;
}

}  // namespace jgrid::engine

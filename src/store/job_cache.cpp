#include "store/job_cache.hpp"

#include <algorithm>
#include <functional>
#include <utility>

namespace jgrid::store {

std::uint64_t JobCache::generation() const {
  std::lock_guard lock(m_mutex);
  return m_generation;
}

std::shared_ptr<const model::Job> JobCache::find(const std::string& job_id) const {
  std::lock_guard lock(m_mutex);
  auto found = m_index.find(job_id);
  if (found == m_index.end()) return nullptr;
  m_order.splice(m_order.begin(), m_order, found->second);
  return found->second->second;
}

void JobCache::put(model::Job job) {
  auto shared = std::make_shared<const model::Job>(std::move(job));
  std::lock_guard lock(m_mutex);
  ++m_generation;
  insert(std::move(shared));
}

void JobCache::clear() {
  std::lock_guard lock(m_mutex);
  ++m_generation;
  m_order.clear();
  m_index.clear();
  std::fill(m_offers.begin(), m_offers.end(), 0);
}

void JobCache::put_if_unchanged(const model::Job& job, std::uint64_t seen) {
  {
    std::lock_guard lock(m_mutex);
    if (m_generation != seen || m_capacity == 0 || !offered_before(job.id)) return;
  }
  // Copied outside the lock; the generation is checked again before inserting.
  auto shared = std::make_shared<const model::Job>(job);
  std::lock_guard lock(m_mutex);
  if (m_generation == seen) insert(std::move(shared));
}

std::size_t JobCache::size() const {
  std::lock_guard lock(m_mutex);
  return m_index.size();
}

bool JobCache::offered_before(const std::string& job_id) {
  const std::size_t hash = std::hash<std::string>{}(job_id) | 1;
  std::size_t& slot = m_offers[hash % m_offers.size()];
  return std::exchange(slot, hash) == hash;
}

void JobCache::insert(std::shared_ptr<const model::Job> job) {
  if (m_capacity == 0) return;
  auto found = m_index.find(job->id);
  if (found != m_index.end()) {
    found->second->second = std::move(job);
    m_order.splice(m_order.begin(), m_order, found->second);
    return;
  }
  std::string id = job->id;
  m_order.emplace_front(std::move(id), std::move(job));
  m_index.emplace(m_order.front().first, m_order.begin());
  if (m_index.size() <= m_capacity) return;
  m_index.erase(m_order.back().first);
  m_order.pop_back();
}

}  // namespace jgrid::store

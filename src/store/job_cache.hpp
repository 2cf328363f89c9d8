#pragma once
// Decoded jobs kept in memory, most recently used first, so GET of a job
// does not parse its JSON document each time (the parse costs far more than
// the query). Bounded by a count of jobs.
//
// Consistency: the writer puts every job it committed, before the committer
// is woken, so a read after commit() never sees an older job. A reader that
// missed may add what it read from the database only if no job was put since
// it started reading (the generation did not move); otherwise its copy could
// be older than the one the writer just put.
//
// Admission: a job read from the database enters on its second offer (within
// a window of recent offers), so reads that never repeat (random lookups over
// millions of stored jobs, paging through history) do not pay a copy and an
// eviction each and do not push out the jobs that are read again. Jobs put by
// the writer always enter.
//
// Thread-safe.
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "jgrid/model/job.hpp"

namespace jgrid::store {

class JobCache {
 public:
  explicit JobCache(std::size_t capacity) : m_capacity(capacity), m_offers(capacity * k_offer_slots_per_job) {}

  // Read before a database read whose result may go to put_if_unchanged().
  std::uint64_t generation() const;
  // The cached job, or null.
  std::shared_ptr<const model::Job> find(const std::string& job_id) const;
  // A job as just committed; moves the generation.
  void put(model::Job job);
  // A job as read from the database when generation() was `seen`; dropped
  // when a put() happened since, and the first time its id is offered.
  void put_if_unchanged(const model::Job& job, std::uint64_t seen);
  // Forgets every job (they were deleted); moves the generation, so a read
  // that started before is not added afterwards.
  void clear();

  std::size_t size() const;

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const model::Job>>;
  static constexpr std::size_t k_offer_slots_per_job = 4;
  void insert(std::shared_ptr<const model::Job> job);  // m_mutex held
  bool offered_before(const std::string& job_id);       // m_mutex held; records the offer

  const std::size_t m_capacity;
  mutable std::mutex m_mutex;
  mutable std::list<Entry> m_order;  // front: most recently used
  std::unordered_map<std::string, std::list<Entry>::iterator> m_index;
  std::vector<std::size_t> m_offers;  // id hashes of recent offers (0: free slot), by hash
  std::uint64_t m_generation = 0;
};

}  // namespace jgrid::store

#pragma once
// Frozen<T>: a value that copies share instead of duplicating. Copying a
// Frozen costs one reference count, whatever the size of T, so a large value
// that rarely changes (a job's request with its maps and JSON trees) can sit
// in many copies of its owner (queues, caches, replies) for free.
//
// Reads go through `*`, `->` or the implicit conversion to `const T&`.
// edit() returns a mutable reference after copying the value if any other
// Frozen shares it (copy on write), so a change never shows in other copies.
//
// memo(make) returns a value derived from T (e.g. its stored encoding),
// computed by `make` on first use and kept alongside the value until the next
// edit(). One memo type per Frozen: its first call fixes it.
//
// Thread-safety: like a shared_ptr. Distinct Frozen objects sharing one value
// may be read and copied from different threads at once, and memo() may be
// called on them concurrently; edit() of one object must not race with any
// other use of that same object.
#include <any>
#include <memory>
#include <mutex>
#include <utility>

namespace jgrid::util {

template <typename T>
class Frozen {
 public:
  Frozen() : m_cell(std::make_shared<Cell>()) {}
  Frozen(T value) : m_cell(std::make_shared<Cell>(std::move(value))) {}  // NOLINT: implicit by design

  const T& operator*() const { return m_cell->value; }
  const T* operator->() const { return &m_cell->value; }
  operator const T&() const { return m_cell->value; }  // NOLINT: implicit by design
  const T& get() const { return m_cell->value; }

  T& edit() {
    if (m_cell.use_count() != 1) m_cell = std::make_shared<Cell>(m_cell->value);
    m_cell->memo_ready = false;
    m_cell->memo.reset();
    return m_cell->value;
  }

  template <typename Make>
  const auto& memo(Make make) const {
    using M = std::decay_t<decltype(make(std::declval<const T&>()))>;
    Cell& cell = *m_cell;
    std::lock_guard lock(cell.memo_mutex);
    if (!cell.memo_ready) {
      cell.memo = make(cell.value);
      cell.memo_ready = true;
    }
    return *std::any_cast<M>(&cell.memo);
  }

  // True when both share one value (for tests).
  bool shares_with(const Frozen& other) const { return m_cell == other.m_cell; }

 private:
  struct Cell {
    Cell() = default;
    explicit Cell(T v) : value(std::move(v)) {}
    T value;
    std::mutex memo_mutex;
    bool memo_ready = false;
    std::any memo;
  };
  std::shared_ptr<Cell> m_cell;
};

}  // namespace jgrid::util

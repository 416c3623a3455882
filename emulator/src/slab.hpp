#pragma once
// Records addressed by 32-bit index, for the general engine core (worker.hpp): its messages in
// flight, computations and timers, posted receives. Private to the emulator library.

#include <starnet/core/error.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace starnet::emulator {

/// No record: the end of a list, or a free list that is empty.
inline constexpr std::uint32_t SLAB_NIL = ~std::uint32_t{0};

/// Records addressed by 32-bit index, with a free list and one link per record for the per-node
/// queues of the engine. Released records keep their storage for the next ones: a run allocates
/// nothing per event once warm (millions of Monte-Carlo runs, or S_10's big steps).
template <class T>
class Slab {
 public:
  /// A record built from @p args. @throws ScheduleError past 2^32 − 1 records.
  template <class... Args>
  [[nodiscard]] std::uint32_t add(Args&&... args) {
    // Rebuilding a released record in place must not fail half-way (it would be destroyed twice).
    static_assert(std::is_nothrow_constructible_v<T, Args&&...>);
    std::uint32_t i = free_;
    if (i != SLAB_NIL) {
      free_ = items_[i].next;
      // Rebuilt in place by Item's constructors, as a new one is: a payload moves once from the
      // sender's hands into the record.
      std::destroy_at(&items_[i]);
      ::new (static_cast<void*>(&items_[i])) Item(std::forward<Args>(args)...);
    } else {
      if (items_.size() >= SLAB_NIL) throw ScheduleError("more than 2^32 - 1 records in flight on one worker");
      i = static_cast<std::uint32_t>(items_.size());
      items_.emplace_back(std::forward<Args>(args)...);
    }
    return i;
  }
  void release(std::uint32_t i) {
    items_[i].next = free_;
    free_ = i;
  }
  [[nodiscard]] T& operator[](std::uint32_t i) { return items_[i].value; }
  [[nodiscard]] const T& operator[](std::uint32_t i) const { return items_[i].value; }
  [[nodiscard]] std::uint32_t& next(std::uint32_t i) { return items_[i].next; }
  void reset(std::size_t expected) {
    items_.clear();
    items_.reserve(expected);  // address space only: pages are touched as records are used
    free_ = SLAB_NIL;
  }

 private:
  struct Item {
    // Built in place in the array, new or reused (add): an Item assembled elsewhere and copied in
    // is read back whole before its parts are stored. Without arguments, no zeroing before the
    // defaults.
    Item() {}  // NOLINT(modernize-use-equals-default): = default would zero the record first
    template <class A, class... Args>
    explicit Item(A&& a, Args&&... args) : value(std::forward<A>(a), std::forward<Args>(args)...) {}
    T value;
    std::uint32_t next = SLAB_NIL;
  };
  std::vector<Item> items_;
  std::uint32_t free_ = SLAB_NIL;
};

/// A first-in first-out list of records of one slab, linked through it: a node's queued
/// computations, the senders it posted.
struct SlabList {
  std::uint32_t head = SLAB_NIL;
  std::uint32_t tail = SLAB_NIL;
  bool used = false;  ///< something was appended since the list was made (posted receives)

  template <class T>
  void push(Slab<T>& slab, std::uint32_t item) {
    slab.next(item) = SLAB_NIL;
    (tail == SLAB_NIL ? head : slab.next(tail)) = item;
    tail = item;
    used = true;
  }
  /// Unlinks @p item, which follows @p before (SLAB_NIL: it is the head).
  template <class T>
  void unlink(Slab<T>& slab, std::uint32_t before, std::uint32_t item) {
    const auto after = slab.next(item);
    (before == SLAB_NIL ? head : slab.next(before)) = after;
    if (tail == item) tail = before;
  }
};

}  // namespace starnet::emulator

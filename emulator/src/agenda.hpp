#pragma once
// The general engine core's agenda (worker.hpp): what ends when, as events naming a slab record.
// Private to the emulator library.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace starnet::emulator {

/// ARRIVAL: a message's transit after its transfer ended (asynchronous runs, asynchrony.hpp).
enum class Due : std::uint8_t { TRANSFER_END, COMPUTE_END, TIMER, ARRIVAL };

/// What ends, and its record in the worker's messages (transfers) or tasks: one word, stored and
/// read in one piece (see Item in slab.hpp).
class Event {
 public:
  Event(Due kind, std::uint32_t ref) : bits_(std::uint64_t{ref} << 8U | static_cast<std::uint8_t>(kind)) {}
  [[nodiscard]] Due kind() const { return static_cast<Due>(bits_ & 0xFFU); }
  [[nodiscard]] std::uint32_t ref() const { return static_cast<std::uint32_t>(bits_ >> 8U); }

 private:
  std::uint64_t bits_;
};

/// The event times ahead, each with the events that end then, in the order they were scheduled.
/// Zero-duration work ends in the next round of the current time: those events wait beside the
/// times (soon()), not among them. Nothing is freed between runs: buckets keep their storage.
template <class Time>
class Agenda {
 public:
  /// Past this many times ahead, a new time's place is found by binary search instead of a scan.
  static constexpr std::size_t SCAN_LIMIT = 64;

  void clear() {
    for (const auto& slot : times_) {
      buckets_[slot.bucket].clear();
      free_buckets_.push_back(slot.bucket);
    }
    times_.clear();
    soon_.clear();
  }

  /// Files the event @p kind of record @p ref, ending at @p at (≥ @p now).
  void schedule(const Time& now, const Time& at, Due kind, std::uint32_t ref) {
    if (at == now) {
      soon_.emplace_back(kind, ref);
      return;
    }
    buckets_[slot_for(at).bucket].emplace_back(kind, ref);
  }

  /// Events are due in the next round of the current time.
  [[nodiscard]] bool has_soon() const { return !soon_.empty(); }
  /// No time ahead.
  [[nodiscard]] bool empty() const { return times_.empty(); }
  /// The soonest time ahead; only when !empty().
  [[nodiscard]] const Time& next() const { return times_.back().at; }

  /// The events of this round at @p now, in the order they were scheduled: those of a
  /// zero-duration end first, else those of @p now's time ahead, which leaves the agenda (its
  /// first round). Valid until the next call.
  const std::vector<Event>& take_due(const Time& now) {
    due_.clear();
    if (!soon_.empty()) {
      std::swap(due_, soon_);
    } else if (!times_.empty() && times_.back().at == now) {
      const auto bucket = times_.back().bucket;
      times_.pop_back();
      std::swap(due_, buckets_[bucket]);
      free_buckets_.push_back(bucket);
    }
    return due_;
  }

 private:
  struct Slot {
    Time at;
    std::uint32_t bucket;
  };

  /// The slot of time @p at, made if it is new. Latest first, so that the next time is at the
  /// back; most events fall on the time scheduled last (a unit step), checked first.
  Slot& slot_for(const Time& at) {
    if (!times_.empty() && times_.back().at == at) return times_.back();
    auto it = times_.end();
    // Sooner than every time ahead: the new back; otherwise its place among them.
    if (!times_.empty() && times_.back().at < at) {
      if (times_.size() <= SCAN_LIMIT) {
        // Few times ahead (sparse timed runs): a scan from the soonest, whose one unpredictable
        // branch is the exit, beats a binary search's five.
        it = times_.end() - 1;
        while (it != times_.begin() && (it - 1)->at <= at) --it;
      } else {
        it = std::lower_bound(times_.begin(), times_.end(), at, [](const Slot& s, const Time& t) { return t < s.at; });
      }
    }
    if (it != times_.end() && it->at == at) return *it;
    std::uint32_t bucket = 0;
    if (free_buckets_.empty()) {
      bucket = static_cast<std::uint32_t>(buckets_.size());
      buckets_.emplace_back();
    } else {
      bucket = free_buckets_.back();
      free_buckets_.pop_back();
    }
    // Filled in place (the note at the top of worker.cpp).
    it = times_.emplace(it);
    it->at = at;
    it->bucket = bucket;
    return *it;
  }

  std::vector<Slot> times_;  // times ahead, latest first (now too, until its first round takes it)
  std::vector<Event> soon_;  // events at now for the next round (zero-duration work)
  std::vector<std::vector<Event>> buckets_;
  std::vector<std::uint32_t> free_buckets_;
  std::vector<Event> due_;
};

}  // namespace starnet::emulator

#pragma once
/// @file
/// A periodic steady-state schedule (schedule.hpp) executed on the timed emulator, with real
/// messages, for a horizon of K time units: the emulator counts the scatters, gossips or reduces
/// that complete and checks every result.
///
/// Paper: Legrand, Marchal, Robert 2004, Section 3.3 (matchings run back to back), Section 3.4
/// (start-up, steady state, clean-up; Lemma 1: no schedule completes more than TP·K operations
/// in K time units; Proposition 1: the periodic schedule completes at least r·T·TP with
/// r = ⌊(K − 2I − T)/T⌋) and Section 4.3 (the messages of one reduce follow one tree).
///
/// What runs. R = ⌊K/T⌋ − D repetitions (plan_phases()), periods 0 … R+D−1, all done by K.
/// - Every node holds the schedule as its own agenda: in period q, at the start offset of each
///   matching in which it sends (a timer), it sends that matching's transfers on its one link one
///   after the other; at the start of the period it starts its computations (they run one after
///   the other and overlap the transfers). An item with start period s runs in periods s … s+R−1
///   on batch b = q − s.
/// - Operations are numbered: batch b of tree T carries operations b·ops + off(T) + j, 0 ≤ j <
///   w(T), where ops = operations_per_period and off(T) sums the weights of the earlier trees of
///   the same sink. A message instance is (type, operation), with a value: scatter and gossip
///   m_t carry {op, t, t, h(op, t)}; a reduce's v[k,m] carries {op, k, m, Σ_{i=k..m} h(op, i)}
///   (h a 64-bit hash). T_{k,l,m} accepts only v[k,l] ⊕ v[l+1,m] of one operation (adjacent
///   intervals, left first), so a combination out of order or across operations is caught.
/// - Fractional amounts are emulated exactly, without rounding: a transfer of `amount` messages
///   covers the instance range [lo, lo + amount) of its batch (its fragments in matching order
///   tile [0, w(T))) and is one emulator message of size amount·size(type), taking exactly its
///   share of the link time. Its payload lists every instance it touches with its value; the
///   receiver accumulates each instance's fractions, and an instance counts as received (may be
///   forwarded, combined or delivered) only when they sum to 1. A sender must hold every
///   instance it sends whole. with_whole_messages() schedules give every transfer whole
///   instances; their period is L times longer, hence a start-up L times longer: fewer
///   operations at a given K, the same limit.
/// - An operation completes when every sink holds its message with the expected value (reduce:
///   the target holds v[0,N] = {op, 0, N, Σ_{i=0..N} h(op, i)}).
///
/// Run parameters: TIMED, STRICT checking, single-port full duplex (the matchings guarantee one
/// port; a schedule that breaks it is a ModelViolation), horizon K.
///
/// Complexity: O((R + D)·(transfers + computations)) events, each O(instances it touches);
/// bounded by MAX_EMULATION_WORK.
///
/// IMPORTANT: the emulation checks what the nodes do (messages held when due, values, one port,
/// buffers empty after the clean-up), not the schedule's optimality — check_schedule() and the
/// LP certificate do that.

#include <starnet/algorithms/steady_state/emulation.hpp>
#include <starnet/algorithms/steady_state/problem.hpp>
#include <starnet/algorithms/steady_state/schedule.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/platform.hpp>

#include <gmpxx.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starnet::algorithms::steady_state {

/// Most work one emulation may take: periods × (message instances, transfers and computations
/// per period). About 10^8 is ten seconds of emulation.
inline constexpr std::int64_t MAX_EMULATION_WORK = 100'000'000;

/// The value a message carries: v[first, last] of operation `op` (scatter and gossip: first =
/// last = the message type), with sum = Σ_{i=first..last} h(op, i).
struct IntervalValue {
  std::uint64_t op = 0;
  std::int32_t first = 0;
  std::int32_t last = 0;
  std::uint64_t sum = 0;
  friend bool operator==(const IntervalValue&, const IntervalValue&) = default;
};

/// v[first, last] of operation @p op as it must be: h(op, first) + … + h(op, last) (mod 2^64).
[[nodiscard]] IntervalValue expected_value(std::uint64_t op, std::int32_t first, std::int32_t last);

/// @p left ⊕ @p right: the concatenation of two adjacent intervals of one operation, or nothing
/// when they are of different operations or not adjacent with @p left first (not commutative).
[[nodiscard]] std::optional<IntervalValue> combine(const IntervalValue& left, const IntervalValue& right);

/// Usage:
/// @code
///   SteadyStatePlanner planner(problem);
///   planner.run();
///   ScheduleEmulator emulator(problem, planner.schedule());
///   emulator.optimal_throughput(planner.throughput());
///   const ScheduleEmulation& e = emulator.run(mpq_class(100) * planner.schedule().period);
///   if (e.verified()) fmt::print("{} of at most {}\n", e.report.completed.get_str(), e.plan.bound.get_str());
/// @endcode
class ScheduleEmulator {
 public:
  /// @p problem and @p schedule must outlive the emulator; @p schedule is a schedule of
  /// @p problem (check_schedule()).
  /// @throws ScheduleError naming the sink when the sinks are not all served
  ///   operations_per_period times per period.
  ScheduleEmulator(const SteadyStateProblem& problem, const PeriodicSchedule& schedule);
  ~ScheduleEmulator();
  ScheduleEmulator(const ScheduleEmulator&) = delete;
  ScheduleEmulator& operator=(const ScheduleEmulator&) = delete;

  /// TP of the LP, for the bound TP·K (default: the schedule's own throughput).
  ScheduleEmulator& optimal_throughput(mpq_class throughput);
  /// Record every event (RunResult::trace), e.g. for a Gantt chart (default off).
  ScheduleEmulator& trace(bool on);

  /// Runs R = ⌊K/T⌋ − D repetitions of the schedule on the emulator, horizon K.
  /// @param horizon K > 0, time units.
  /// @throws InputError naming the horizon when K ≤ 0; ScheduleError naming the horizon when the
  ///   run would exceed MAX_EMULATION_WORK. Times and periods of any size are exact (Rational).
  /// @throws ModelViolation when a transfer breaks the single-port model (a schedule whose
  ///   matchings are not matchings).
  /// Complexity: see the file comment.
  const ScheduleEmulation& run(const mpq_class& horizon);

  /// The emulator's view of the platform (node ids = vertex descriptors): for traces and charts.
  [[nodiscard]] const topology::PlatformTopology& topology() const { return topology_; }
  /// @pre run() returned.
  [[nodiscard]] const ScheduleEmulation& result() const { return result_; }

  /// The schedule as the nodes see it (schedule_program.cpp).
  struct Script;

 private:
  const SteadyStateProblem& problem_;
  const PeriodicSchedule& schedule_;
  topology::PlatformTopology topology_;
  std::optional<mpq_class> throughput_;
  bool trace_ = false;
  std::unique_ptr<Script> script_;
  ScheduleEmulation result_;
};

}  // namespace starnet::algorithms::steady_state

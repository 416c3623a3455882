#pragma once
/// @file
/// What a periodic steady-state schedule guarantees over a horizon and what its emulation did
/// (schedule.hpp plans the phases, schedule_program.hpp runs them): data only, so that results
/// can carry an emulation without the planner and the emulator (api/steady.hpp).

#include <starnet/core/rational.hpp>
#include <starnet/emulator/run_result.hpp>

#include <gmpxx.h>

#include <cstdint>
#include <string>

namespace starnet::algorithms::steady_state {

/// What a schedule guarantees over a horizon of K time units (Section 3.4).
struct PhasePlan {
  mpq_class horizon;         ///< K
  mpz_class whole_periods;   ///< ⌊K / period⌋
  int startup_periods = 0;   ///< D
  mpz_class repetitions;     ///< R = max(0, ⌊K / period⌋ − D)
  mpz_class completed;       ///< R·operations_per_period, all finished by time K
  mpq_class bound;           ///< TP·K: no schedule completes more (Lemma 1)
  mpq_class ratio;           ///< completed / bound, → 1 as K → ∞ for an optimal schedule
};

/// What the emulated nodes did, summed over the run.
struct ScheduleRunReport {
  mpz_class completed;           ///< operations whose every sink received the expected value
  std::uint64_t delivered = 0;   ///< messages received whole at a sink
  std::uint64_t verified = 0;    ///< of those, with the expected value
  std::uint64_t failures = 0;    ///< messages missing when due, wrong values, inconsistent fragments
  std::uint64_t left_over = 0;   ///< messages still held by a node after the clean-up
  std::string first_failure;     ///< the first failure seen, naming node, task, period, operation
};

/// One emulation of a schedule over a horizon.
struct ScheduleEmulation {
  PhasePlan plan;            ///< plan_phases(): K, R, D, the predicted count, bound TP·K (Lemma 1)
  /// Proposition 1 with I = D·T (the start-up length, docs/steady_state.md typo 6):
  /// max(0, ⌊(K − 2I − T)/T⌋)·operations_per_period, what the paper guarantees.
  mpz_class guaranteed;
  ScheduleRunReport report;  ///< what the emulated nodes counted
  mpq_class ratio;           ///< report.completed / plan.bound (0 when the bound is 0)
  emulator::RunResult<Rational> run;  ///< counters, and the trace when asked for
  /// No failure, nothing left over, every delivered value right, and the emulated count equal to
  /// plan.completed (the schedule did what it promised).
  [[nodiscard]] bool verified() const { return failure().empty(); }
  /// Why verified() is false ("" when it is true).
  [[nodiscard]] std::string failure() const;
};

}  // namespace starnet::algorithms::steady_state

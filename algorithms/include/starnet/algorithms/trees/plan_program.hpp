#pragma once
/// @file
/// The one generic node program that executes any reduction plan on the emulator: a machine
/// receives its children's partial results in the plan's order, reduces each on arrival
/// (acc ← acc ⊕ received), and sends its complete partial result to its parent.
///
/// Two ways to run a plan:
/// - AT_PLANNED_TIMES (Canon–Antoniu, Section 3): every transfer starts exactly at the plan's
///   start time; receptions are posted all at once so reductions overlap the next transfers.
///   Run with strict checking and the half-duplex single-port model: a plan that breaks the
///   one-transfer-at-a-time rule is a ModelViolation, and the emulated length must equal the
///   plan's predicted length exactly.
/// - AS_SOON_AS_READY (Benoit–Canon–Marchal's static algorithms, non-clairvoyant): a machine
///   sends as soon as its partial result is complete and posts its next reception as soon as the
///   previous value has arrived, so receiving overlaps reducing (Fibonacci-stat: "during the last
///   computation of FS_(k−1), the root of FS_(k−2) sends its value"; Theorem 2 relies on it).
///   Run with arbitrated checking: the costs, unknown to the plan, are revealed by the emulator.
///
/// IMPORTANT: a machine whose partial result is not complete at its planned start time is a
/// failed verification (reported), not a delay: the plan's times are a contract.

#include <starnet/algorithms/trees/plan.hpp>
#include <starnet/algorithms/trees/reduction_plan.hpp>
#include <starnet/emulator/program.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace starnet::algorithms::trees {

/// An associative operator on encoded values (message payloads).
class Operator {
 public:
  virtual ~Operator() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  [[nodiscard]] virtual bool commutative() const = 0;
  /// Machine i's value v_i.
  [[nodiscard]] virtual std::string initial(std::uint64_t i) const = 0;
  /// left ⊕ right.
  [[nodiscard]] virtual std::string combine(const std::string& left, const std::string& right) const = 0;
  /// A readable form of a value, for reports.
  [[nodiscard]] virtual std::string show(const std::string& value) const = 0;
  /// v_0 ⊕ v_1 ⊕ … ⊕ v_(n−1), folded left to right: what a right run ends with.
  [[nodiscard]] std::string sequential(std::uint64_t n) const;
};

/// `sum` (64-bit words, + mod 2^64, v_i = i + 1) or `concat` (strings, v_i = "[i]"; not
/// commutative). @throws UsageError naming @p what otherwise.
[[nodiscard]] std::unique_ptr<Operator> make_operator(std::string_view name, std::string_view what);

enum class Timing : std::uint8_t { AT_PLANNED_TIMES, AS_SOON_AS_READY };

/// The program for all machines of @p range (any partition of 0..n−1 works: machines only
/// message their parents). @p plan and @p op must outlive the run.
[[nodiscard]] std::unique_ptr<emulator::NodeProgram> make_plan_program(const ReductionPlan& plan, const Operator& op,
                                                                       Timing timing, emulator::NodeRange range);

}  // namespace starnet::algorithms::trees

#pragma once
/// @file
/// The value a processor holds during a verified reduction, in one 8-byte message: a 32-bit sum
/// (commutative check: + mod 2^32 of every processor's word) and the interval [lo, hi] of
/// processors whose values it combines (non-commutative check: interval concatenation,
/// [a, b] ⊕ [b+1, c] = [a, c], is associative but not commutative; combining anything else
/// marks the value broken). The result is right when the sum equals the sequential sum and,
/// for a non-commutative reduction, the interval is [0, n−1] and never broke.
///
/// IMPORTANT: intervals are 16-bit, so non-commutative checks need n ≤ 65,535.

#include <cstdint>
#include <string>

namespace starnet::algorithms::nonclairvoyant {

struct ReduceValue {
  static constexpr std::uint16_t BROKEN = 0xFFFF;
  std::uint32_t sum = 0;
  std::uint16_t lo = 0;
  std::uint16_t hi = 0;

  /// Processor i's initial value.
  static ReduceValue initial(std::uint64_t i);
  /// left ⊕ right, in this order. Inline: every reduction of every run calls it.
  static ReduceValue combine(const ReduceValue& left, const ReduceValue& right) {
    const bool adjacent = left.lo != BROKEN && right.lo != BROKEN && left.hi + 1U == right.lo;
    return {left.sum + right.sum, adjacent ? left.lo : BROKEN, adjacent ? right.hi : BROKEN};
  }
  /// The sum every right result carries for n processors.
  static std::uint32_t expected_sum(std::uint64_t n);
  [[nodiscard]] bool is_whole(std::uint64_t n) const { return lo == 0 && hi + 1U == n && lo != BROKEN; }

  [[nodiscard]] std::string encode() const;
  static ReduceValue decode(const std::string& bytes);
};

}  // namespace starnet::algorithms::nonclairvoyant

#include <starnet/algorithms/trees/plan_program.hpp>

namespace starnet::algorithms::nonclairvoyant {

/// ReduceValue as a plan-program operator (both checks at once; not commutative).
class CheckedOperator final : public trees::Operator {
 public:
  [[nodiscard]] std::string name() const override { return "checked"; }
  [[nodiscard]] bool commutative() const override { return false; }
  [[nodiscard]] std::string initial(std::uint64_t i) const override { return ReduceValue::initial(i).encode(); }
  [[nodiscard]] std::string combine(const std::string& a, const std::string& b) const override {
    return ReduceValue::combine(ReduceValue::decode(a), ReduceValue::decode(b)).encode();
  }
  [[nodiscard]] std::string show(const std::string& v) const override;
};

}  // namespace starnet::algorithms::nonclairvoyant

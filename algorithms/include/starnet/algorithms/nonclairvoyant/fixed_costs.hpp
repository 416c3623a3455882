#pragma once
/// @file
/// The fixed heterogeneous costs of a non-clairvoyant reduction (Benoit, Canon, Marchal, CCPE
/// 2014, Sections 3–4): d_ij and c_i as the emulator takes them, for the single runs
/// (single_run.hpp) and the worst-case instances (worst_case_instance.hpp).

#include <starnet/core/rational.hpp>
#include <starnet/emulator/costs.hpp>

#include <functional>
#include <vector>

namespace starnet::algorithms::nonclairvoyant {

/// Fixed costs: d_ij given by a function (a dense matrix, or a rule for instances too large to
/// store n² entries) and c_i by a vector. Transfers of size s take s·d_ij, w reductions w·c_i.
class FixedCosts final : public emulator::CostModel<Rational> {
 public:
  using TransferRule = std::function<Rational(int from, int to)>;

  /// @param transfer d(i, j) for i ≠ j in 0..n−1; it must return a value ≥ 0.
  /// @param compute c_0..c_(n−1), each ≥ 0; n = compute.size() ≥ 1.
  /// @throws InputError naming the processor when a c_i is negative, or when there is none.
  FixedCosts(TransferRule transfer, std::vector<Rational> compute);

  /// From matrices: @p d is n×n (the diagonal is ignored), @p c has n entries.
  /// @throws InputError naming the row and column of the first entry that is negative or of a
  ///         row of the wrong length, or naming n when the sizes differ.
  static FixedCosts from_matrices(std::vector<std::vector<Rational>> d, std::vector<Rational> c);

  [[nodiscard]] int n() const { return static_cast<int>(compute_.size()); }
  [[nodiscard]] Rational d(int from, int to) const { return transfer_(from, to); }
  [[nodiscard]] const Rational& c(int i) const { return compute_.at(static_cast<std::size_t>(i)); }

  /// @throws ScheduleError naming the pair when d(from, to) is negative.
  [[nodiscard]] Rational transfer(emulator::NodeId from, emulator::Port port, emulator::NodeId to,
                                  const Rational& size) const override;
  [[nodiscard]] Rational compute(emulator::NodeId node, const Rational& work) const override;

 private:
  TransferRule transfer_;
  std::vector<Rational> compute_;
};

}  // namespace starnet::algorithms::nonclairvoyant

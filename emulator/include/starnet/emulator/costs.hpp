#pragma once
/// @file
/// How long transfers and computations take. The engine is instantiated for two time types:
/// Rational (exact: unit steps, platform costs) and double (stochastic costs, Monte-Carlo).

#include <starnet/emulator/config.hpp>
#include <starnet/emulator/program.hpp>
#include <starnet/topology/topology.hpp>

#include <optional>
#include <utility>

namespace starnet::emulator {

template <class Time>
class CostModel {
 public:
  virtual ~CostModel() = default;
  /// Duration of a transfer of @p size unit-size messages from @p from through @p port to @p to.
  [[nodiscard]] virtual Time transfer(NodeId from, Port port, NodeId to, const Rational& size) const = 0;
  /// Duration of @p work unit tasks on @p node.
  [[nodiscard]] virtual Time compute(NodeId node, const Rational& work) const = 0;
};

/// Converts an exact duration to the engine's time type.
template <class Time>
[[nodiscard]] Time time_from(const Rational& r);
template <>
[[nodiscard]] inline Rational time_from<Rational>(const Rational& r) { return r; }
template <>
[[nodiscard]] inline double time_from<double>(const Rational& r) { return r.to_double(); }

/// Unit time: one step per transfer whatever its size; computations are free.
template <class Time>
class UnitCosts final : public CostModel<Time> {
 public:
  [[nodiscard]] Time transfer(NodeId, Port, NodeId, const Rational&) const override { return Time(1); }
  [[nodiscard]] Time compute(NodeId, const Rational&) const override { return Time(0); }
};

/// Homogeneous: every transfer of size s takes s·d, every computation of w tasks takes w·c (the
/// reduction-tree model of Canon and Antoniu).
template <class Time>
class UniformCosts final : public CostModel<Time> {
 public:
  UniformCosts(Rational d, Rational c) : d_(std::move(d)), c_(std::move(c)) {}
  [[nodiscard]] Time transfer(NodeId, Port, NodeId, const Rational& size) const override {
    return time_from<Time>(size * d_);
  }
  [[nodiscard]] Time compute(NodeId, const Rational& work) const override { return time_from<Time>(work * c_); }

 private:
  Rational d_;
  Rational c_;
};

/// The one rule for what a message costs on a link, that every engine, bound and algorithm uses
/// (Hockney's α + m/β): a message of `size` units on link (v, p) takes alpha + units, alpha the
/// link's latency unless one α is given for every link, units size·cost(link) unless one β is
/// given for every link (then size/β). Nothing given: the topology's own latencies and costs.
struct AlphaBeta {
  /// α on every link; none: each link's latency.
  std::optional<Rational> latency;
  /// β on every link; none: each link's cost per unit.
  std::optional<Rational> bandwidth;
  [[nodiscard]] Rational alpha(const topology::Topology& t, NodeId v, Port p) const {
    return latency ? *latency : t.link_latency(v, p);
  }
  [[nodiscard]] Rational units(const topology::Topology& t, NodeId v, Port p, const Rational& size) const {
    return bandwidth ? size / *bandwidth : size * t.link_cost(v, p);
  }
  [[nodiscard]] Rational time(const topology::Topology& t, NodeId v, Port p, const Rational& size) const {
    return alpha(t, v, p) + units(t, v, p, size);
  }
};

/// Timed: a transfer takes what AlphaBeta says (the topology's own costs, or an α and β given for
/// every link) and a computation work/speed(node).
template <class Time>
class TopologyCosts final : public CostModel<Time> {
 public:
  explicit TopologyCosts(const topology::Topology& topology, AlphaBeta given = {})
      : topology_(topology), given_(std::move(given)) {}
  [[nodiscard]] Time transfer(NodeId from, Port port, NodeId, const Rational& size) const override {
    return time_from<Time>(given_.time(topology_, from, port, size));
  }
  [[nodiscard]] Time compute(NodeId node, const Rational& work) const override {
    return time_from<Time>(work / topology_.speed(node));
  }

 private:
  const topology::Topology& topology_;
  AlphaBeta given_;
};

}  // namespace starnet::emulator

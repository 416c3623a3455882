#pragma once
// The α–β costs a caller gives for every link (schedule runs, a user's own node programs): a
// transfer of size s takes α + s/β; what is not given is the topology's own.

#include <starnet/emulator/costs.hpp>
#include <starnet/topology/topology.hpp>

#include <optional>

namespace starnet::api {

class AlphaBetaLinks final : public emulator::CostModel<Rational> {
 public:
  AlphaBetaLinks(const topology::Topology& t, std::optional<Rational> alpha, std::optional<Rational> beta)
      : t_(t), alpha_(std::move(alpha)), beta_(std::move(beta)) {}
  [[nodiscard]] Rational transfer(topology::NodeId from, topology::Port port, topology::NodeId,
                                  const Rational& size) const override {
    const Rational alpha = alpha_ ? *alpha_ : t_.link_latency(from, port);
    return alpha + (beta_ ? size / *beta_ : size * t_.link_cost(from, port));
  }
  [[nodiscard]] Rational compute(topology::NodeId node, const Rational& work) const override {
    return work / t_.speed(node);
  }

 private:
  const topology::Topology& t_;
  std::optional<Rational> alpha_;
  std::optional<Rational> beta_;
};

}  // namespace starnet::api

#pragma once
/// @file
/// The complete graph K_n as an implicit topology: every processor can send to every other one
/// (the fully connected platforms of the reduction papers). Port p of node v leads to node p
/// when p < v and to p + 1 otherwise; nothing is stored, so n = 10^6 costs nothing.

#include <starnet/topology/topology.hpp>

#include <string>

namespace starnet::topology {

class CompleteGraph final : public Topology {
 public:
  /// @throws TopologyError if n < 1.
  explicit CompleteGraph(NodeId n);
  [[nodiscard]] std::string name() const override { return "complete:" + std::to_string(n_); }
  [[nodiscard]] NodeId num_nodes() const override { return n_; }
  [[nodiscard]] Port degree(NodeId) const override { return static_cast<Port>(n_ - 1); }
  // Arithmetic rather than a branch on u < v: peers are random in the Monte-Carlo studies, and a
  // mispredicted branch per send costs more than the whole lookup.
  [[nodiscard]] NodeId neighbor(NodeId v, Port port) const override {
    return port + static_cast<NodeId>(port >= v);
  }
  [[nodiscard]] Port find_port(NodeId v, NodeId u) const override {
    if (u == v || u >= n_) return NO_PORT;
    return static_cast<Port>(u - static_cast<NodeId>(u > v));
  }
  [[nodiscard]] std::string node_name(NodeId v) const override { return "P" + std::to_string(v); }
  [[nodiscard]] std::string link_name(NodeId v, Port port) const override {
    return node_name(v) + "->" + node_name(neighbor(v, port));
  }
  [[nodiscard]] Rational link_cost(NodeId, Port) const override { return 1; }
  [[nodiscard]] Rational speed(NodeId) const override { return 1; }

 private:
  NodeId n_;
};

}  // namespace starnet::topology

#pragma once
// The texts of port-model violations, shared by the general core (worker.cpp) and the dense step
// path (dense_step.cpp) so that both name a violation word for word alike. Private to the emulator.

#include <starnet/emulator/config.hpp>
#include <starnet/topology/topology.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace starnet::emulator::violations {

using topology::NodeId;
using topology::Port;

/// Where a violation happened: "step 3 (time 5/2)".
[[nodiscard]] inline std::string at_step(std::uint64_t step, std::string_view time) {
  return fmt::format("step {} (time {})", step, time);
}

[[nodiscard]] inline std::string negative_size(const topology::Topology& topo, NodeId node, const Rational& size) {
  return fmt::format("node {} sends a message of size {} (must be >= 0)", topo.node_name(node), size.to_string());
}

[[nodiscard]] inline std::string no_such_port(const topology::Topology& topo, NodeId node, Port port) {
  return fmt::format("node {} sends through port {}, but it has only {} links", topo.node_name(node), port,
                     topo.degree(node));
}

[[nodiscard]] inline std::string no_such_link(const topology::Topology& topo, NodeId node, NodeId to) {
  return fmt::format("node {} sends to {}, but there is no link between them", topo.node_name(node),
                     to < topo.num_nodes() ? topo.node_name(to) : std::to_string(to));
}

[[nodiscard]] inline std::string send_port_busy(const topology::Topology& topo, NodeId from, NodeId to, Port port,
                                                const PortModel& ports) {
  return fmt::format("node {} starts a send to {} via {} while its send port is busy (the {} model allows {} send{} "
                     "at a time)",
                     topo.node_name(from), topo.node_name(to), topo.link_name(from, port), ports.to_string(),
                     ports.ports, ports.ports == 1 ? "" : "s");
}

[[nodiscard]] inline std::string receive_port_busy(const topology::Topology& topo, NodeId from, NodeId to, Port port,
                                                   const PortModel& ports) {
  return fmt::format("node {} is sent a message by {} via {} while its receive port is busy (the {} model allows {} "
                     "receive{} at a time)",
                     topo.node_name(to), topo.node_name(from), topo.link_name(from, port), ports.to_string(),
                     ports.ports, ports.ports == 1 ? "" : "s");
}

[[nodiscard]] inline std::string link_busy(const topology::Topology& topo, NodeId from, NodeId to, Port port,
                                           topology::LinkId link) {
  return fmt::format("node {} starts a send to {} via {} while link {} of its route carries another message (a link "
                     "carries one message at a time)",
                     topo.node_name(from), topo.node_name(to), topo.link_name(from, port),
                     topo.network()->link_label(link));
}

}  // namespace starnet::emulator::violations

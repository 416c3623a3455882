#pragma once
// Networks of switches for the tests of the network model (topology/network.hpp): the narrowest
// cut there is, two switches joined by one link.

#include <starnet/topology/network.hpp>
#include <starnet/topology/platform.hpp>

#include <fmt/format.h>

#include <memory>
#include <vector>

namespace starnet::testing {

/// Hosts h0_0 … h0_{k−1} on switch s0 and h1_0 … h1_{k−1} on s1, the switches joined by one link;
/// hosts first (ids 0 … 2k − 1), then s0 and s1.
inline topology::Platform dumbbell_platform(int per_switch) {
  topology::Platform p("dumbbell", /*directed=*/false);
  std::vector<topology::Platform::vertex_descriptor> hosts;
  for (int side = 0; side < 2; ++side) {
    for (int i = 0; i < per_switch; ++i) {
      hosts.push_back(p.add_node({fmt::format("h{}_{}", side, i), topology::Role::PROCESSOR}));
    }
  }
  const auto s0 = p.add_node({"s0", topology::Role::ROUTER});
  const auto s1 = p.add_node({"s1", topology::Role::ROUTER});
  p.add_link(s0, s1);
  for (std::size_t i = 0; i < hosts.size(); ++i) p.add_link(hosts[i], i < hosts.size() / 2 ? s0 : s1);
  p.validate();
  return p;
}

/// The hosts of dumbbell_platform(@p per_switch) as a network of crossbars.
inline std::shared_ptr<const topology::HostNetwork> dumbbell_hosts(int per_switch,
                                                                   topology::NetworkOptions options = {}) {
  return std::make_shared<const topology::HostNetwork>(
      std::make_shared<const topology::Platform>(dumbbell_platform(per_switch)), options);
}

}  // namespace starnet::testing

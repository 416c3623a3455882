#pragma once
/// @file
/// How a what-if study's platforms with routers carry messages: the data of a request
/// (docs/whatif.md, "The network model"; the model itself in topology/network.hpp).

#include <starnet/topology/network.hpp>

#include <optional>

namespace starnet::algorithms::collectives {

/// How a platform with routers carries the collective's messages (network.hpp, docs/whatif.md,
/// "The network model").
struct NetworkModel {
  /// CUT_THROUGH: switches are non-blocking crossbars and the collective runs among the hosts, each
  /// message routed (options) over links that carry one message at a time. STORE_AND_FORWARD: the
  /// relay model, switches nodes under the port model that forward every message hop by hop (the
  /// routed trees).
  topology::Forwarding forwarding = topology::Forwarding::CUT_THROUGH;
  /// Ports of a switch in the relay model (none: the processors' k); a crossbar has no such limit.
  std::optional<unsigned> switch_ports;
  topology::NetworkOptions options;
};

}  // namespace starnet::algorithms::collectives

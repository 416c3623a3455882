#pragma once
// What the SimGrid peers share: the names they use, names of hosts, links, mailboxes and actors,
// and the platform, one host per node on a star zone. A peer says `using namespace
// starnet::simgrid_peer;`.

#include <starnet/emulator/program.hpp>

#include <simgrid/s4u.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starnet::simgrid_peer {

namespace sg4 = simgrid::s4u;
using emulator::Completion;
using emulator::Delivery;
using emulator::NodeId;
using topology::Port;

/// @p prefix followed by @p v, e.g. "h12" (appended, not concatenated: GCC 12 warns wrongly of
/// overlapping copies in `"h" + std::to_string(v)`).
inline std::string named(char prefix, std::uint64_t v) {
  std::string out(1, prefix);
  out += std::to_string(v);
  return out;
}

/// A split-duplex link per host: its bandwidth and latency.
struct Link {
  double bandwidth;
  double latency;
};

/// @p n hosts of @p speed flops a second on one star zone, each with its own @p link (none: no
/// links, as SimGrid's Constant network model wants), sealed; the zone is the root, or a child of
/// @p parent (tests/simgrid/network_crosscheck_test.cpp puts several platforms in one engine).
inline std::vector<simgrid::s4u::Host*> star_hosts(std::uint64_t n, double speed, std::optional<Link> link,
                                                   const simgrid::s4u::NetZone* parent = nullptr) {
  namespace sg4 = simgrid::s4u;
  auto* zone = link ? sg4::create_star_zone("star") : sg4::create_empty_zone("star");
  if (parent != nullptr) zone->set_parent(parent);
  std::vector<sg4::Host*> hosts;
  for (std::uint64_t v = 0; v < n; ++v) {
    auto* host = zone->create_host(named('h', v), speed);
    if (link) {
      auto* l = zone->create_split_duplex_link(named('l', v), link->bandwidth)->set_latency(link->latency);
      zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, {{l, sg4::LinkInRoute::Direction::UP}}, true);
    }
    hosts.push_back(host);
  }
  zone->seal();
  return hosts;
}

}  // namespace starnet::simgrid_peer

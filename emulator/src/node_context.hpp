#pragma once
// The reacting node's view, shared by the engine's two cores (worker.cpp's general core and the
// dense step path, dense_step.cpp): what the node sees, set for each reaction, and its sends, by
// port or by neighbour, checked against the topology alike and refused with the same violation
// texts, before the core takes them. Private to the emulator library.

#include "violations.hpp"

#include <starnet/emulator/program.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <utility>

namespace starnet::emulator {

/// @p Core's context derives from this one and provides `refuse(peer, message)` (a port-model
/// violation of the reacting node towards @p peer) and `take(to, port, payload, size, tag)` (a
/// send through an existing link); the rest of Context (compute, sleep, accept, free ports) is
/// the core's own.
template <class Core>
class NodeContextOf : public Context {
 public:
  void send(Port port, std::string payload, Rational size, std::uint64_t tag) final {
    const auto& topo = topology();
    if (port >= topo.degree(node_)) {
      core().refuse(node_, violations::no_such_port(topo, node_, port));
      return;
    }
    core().take(topo.neighbor(node_, port), port, std::move(payload), size, tag);
  }
  void send_to(NodeId to, std::string payload, Rational size, std::uint64_t tag) final {
    const auto& topo = topology();
    const auto port = topo.find_port(node_, to);
    if (port == topology::Topology::NO_PORT) {
      core().refuse(to, violations::no_such_link(topo, node_, to));
      return;
    }
    core().take(to, port, std::move(payload), size, tag);
  }

 protected:
  using Context::Context;
  /// The view of node @p v's reaction at @p step.
  void at(NodeId v, std::uint64_t step, bool starting, std::span<const Delivery> received,
          std::span<const Completion> completed) {
    node_ = v;
    step_ = step;
    starting_ = starting;
    received_ = received;
    completed_ = completed;
  }

 private:
  Core& core() { return static_cast<Core&>(*this); }
};

}  // namespace starnet::emulator

#include <starnet/topology/complete_graph.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

namespace starnet::topology {

CompleteGraph::CompleteGraph(NodeId n) : n_(n) {
  if (n < 1 || n > (NodeId{1} << 32)) {
    throw TopologyError(fmt::format("complete graph with {} nodes: expected 1..2^32 nodes", n));
  }
}

}  // namespace starnet::topology

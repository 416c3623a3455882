#pragma once
// Test helper: a platform's adjacency by node names, for the family tests.
#include <starnet/topology/platform.hpp>

#include <set>
#include <string>

namespace starnet::topology {

/// The names of the nodes @p v has an arc to.
inline std::set<std::string> neighbour_names(const Platform& p, Platform::vertex_descriptor v) {
  const auto& g = p.graph();
  std::set<std::string> out;
  for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) out.insert(g[boost::target(e, g)].name);
  return out;
}

/// The same for the node called @p name. @pre it exists.
inline std::set<std::string> neighbour_names(const Platform& p, const std::string& name) {
  return neighbour_names(p, *p.find(name));
}

}  // namespace starnet::topology

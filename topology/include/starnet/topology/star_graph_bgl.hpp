#pragma once
/// @file
/// Boost.Graph traits and free functions that make StarGraph an implicit VertexListGraph,
/// IncidenceGraph and AdjacencyGraph. Included by star_graph.hpp; not meant to be included alone.

#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/transform_iterator.hpp>
#include <boost/property_map/property_map.hpp>

#include <utility>

namespace starnet::topology {

/// An edge of S_n seen from its source: the link dimension k names it.
struct StarEdge {
  StarGraph::vertex_descriptor source = 0;
  StarGraph::vertex_descriptor target = 0;
  int k = 0;
  friend bool operator==(const StarEdge&, const StarEdge&) = default;
};

namespace detail {
struct StarOutEdge {
  const StarGraph* g;
  StarGraph::vertex_descriptor v;
  StarEdge operator()(int k) const { return {v, g->neighbor_along(v, k), k}; }
};
struct StarAdjacent {
  const StarGraph* g;
  StarGraph::vertex_descriptor v;
  StarGraph::vertex_descriptor operator()(int k) const { return g->neighbor_along(v, k); }
};
}  // namespace detail

struct StarTraversalCategory : boost::vertex_list_graph_tag,
                               boost::incidence_graph_tag,
                               boost::adjacency_graph_tag {};

}  // namespace starnet::topology

namespace boost {

template <>
struct graph_traits<starnet::topology::StarGraph> {
  using vertex_descriptor = starnet::topology::StarGraph::vertex_descriptor;
  using edge_descriptor = starnet::topology::StarEdge;
  using directed_category = undirected_tag;
  using edge_parallel_category = disallow_parallel_edge_tag;
  using traversal_category = starnet::topology::StarTraversalCategory;
  using vertices_size_type = std::uint32_t;
  using edges_size_type = std::uint64_t;
  using degree_size_type = int;
  using vertex_iterator = counting_iterator<vertex_descriptor>;
  using out_edge_iterator = transform_iterator<starnet::topology::detail::StarOutEdge, counting_iterator<int>,
                                               starnet::topology::StarEdge, starnet::topology::StarEdge>;
  using adjacency_iterator = transform_iterator<starnet::topology::detail::StarAdjacent, counting_iterator<int>,
                                                vertex_descriptor, vertex_descriptor>;
  using in_edge_iterator = void;
  using edge_iterator = void;
  static vertex_descriptor null_vertex() { return ~vertex_descriptor{0}; }
};

template <>
struct property_map<starnet::topology::StarGraph, vertex_index_t> {
  using type = typed_identity_property_map<starnet::topology::StarGraph::vertex_descriptor>;
  using const_type = type;
};

}  // namespace boost

namespace starnet::topology {

using StarTraits = boost::graph_traits<StarGraph>;

inline std::pair<StarTraits::vertex_iterator, StarTraits::vertex_iterator> vertices(const StarGraph& g) {
  return {StarTraits::vertex_iterator(0), StarTraits::vertex_iterator(g.size())};
}
inline std::uint32_t num_vertices(const StarGraph& g) { return g.size(); }
inline std::pair<StarTraits::out_edge_iterator, StarTraits::out_edge_iterator> out_edges(
    StarGraph::vertex_descriptor v, const StarGraph& g) {
  const detail::StarOutEdge f{&g, v};
  return {{boost::counting_iterator<int>(2), f}, {boost::counting_iterator<int>(g.n() + 1), f}};
}
inline int out_degree(StarGraph::vertex_descriptor, const StarGraph& g) { return g.n() - 1; }
inline std::pair<StarTraits::adjacency_iterator, StarTraits::adjacency_iterator> adjacent_vertices(
    StarGraph::vertex_descriptor v, const StarGraph& g) {
  const detail::StarAdjacent f{&g, v};
  return {{boost::counting_iterator<int>(2), f}, {boost::counting_iterator<int>(g.n() + 1), f}};
}
inline StarGraph::vertex_descriptor source(const StarEdge& e, const StarGraph&) { return e.source; }
inline StarGraph::vertex_descriptor target(const StarEdge& e, const StarGraph&) { return e.target; }
inline boost::typed_identity_property_map<StarGraph::vertex_descriptor> get(boost::vertex_index_t, const StarGraph&) {
  return {};
}

}  // namespace starnet::topology

#pragma once
/// @file
/// Boost.Graph traits and free functions that make StarGraph an implicit VertexListGraph,
/// IncidenceGraph and AdjacencyGraph. Included by star_graph.hpp; not meant to be included alone.

#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
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

/// Walks the links k = 2..n of one vertex. The vertex's label is decoded once, when the walk
/// starts, and each neighbour is computed once, when the walk reaches it (O(n)): BGL algorithms
/// dereference an out-edge iterator several times per edge, so computing on dereference would
/// repeat the work.
class StarLinkWalk {
 public:
  StarLinkWalk() = default;
  /// @param k first link to visit; k > n makes the end of the walk.
  StarLinkWalk(const StarGraph& g, StarGraph::vertex_descriptor v, int k) : g_(&g), edge_{v, v, k} {
    if (k <= g.n()) {
      label_ = g.label(v);
      edge_.target = g.neighbor_along(v, label_, k);
    }
  }
  void next() {
    if (++edge_.k <= g_->n()) edge_.target = g_->neighbor_along(edge_.source, label_, edge_.k);
  }
  [[nodiscard]] const StarEdge& edge() const { return edge_; }

 private:
  const StarGraph* g_ = nullptr;
  StarGraph::Label label_{};
  StarEdge edge_;
};

template <class Derived, class Value>
class StarLinkIterator : public boost::iterator_facade<Derived, Value, boost::forward_traversal_tag, Value> {
 public:
  StarLinkIterator() = default;
  StarLinkIterator(const StarGraph& g, StarGraph::vertex_descriptor v, int k) : walk_(g, v, k) {}

 protected:
  [[nodiscard]] const StarEdge& edge() const { return walk_.edge(); }

 private:
  friend class boost::iterator_core_access;
  void increment() { walk_.next(); }
  bool equal(const StarLinkIterator& other) const {
    return walk_.edge().source == other.walk_.edge().source && walk_.edge().k == other.walk_.edge().k;
  }
  StarLinkWalk walk_;
};

}  // namespace detail

/// Out-edges of one vertex of S_n, in link order k = 2..n.
class StarOutEdgeIterator : public detail::StarLinkIterator<StarOutEdgeIterator, StarEdge> {
 public:
  using StarLinkIterator::StarLinkIterator;

 private:
  friend class boost::iterator_core_access;
  [[nodiscard]] StarEdge dereference() const { return edge(); }
};

/// Neighbours of one vertex of S_n, in link order k = 2..n.
class StarAdjacencyIterator
    : public detail::StarLinkIterator<StarAdjacencyIterator, StarGraph::vertex_descriptor> {
 public:
  using StarLinkIterator::StarLinkIterator;

 private:
  friend class boost::iterator_core_access;
  [[nodiscard]] StarGraph::vertex_descriptor dereference() const { return edge().target; }
};

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
  using out_edge_iterator = starnet::topology::StarOutEdgeIterator;
  using adjacency_iterator = starnet::topology::StarAdjacencyIterator;
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
inline std::pair<StarOutEdgeIterator, StarOutEdgeIterator> out_edges(StarGraph::vertex_descriptor v,
                                                                     const StarGraph& g) {
  return {StarOutEdgeIterator(g, v, 2), StarOutEdgeIterator(g, v, g.n() + 1)};
}
inline int out_degree(StarGraph::vertex_descriptor, const StarGraph& g) { return g.n() - 1; }
inline std::pair<StarAdjacencyIterator, StarAdjacencyIterator> adjacent_vertices(StarGraph::vertex_descriptor v,
                                                                                 const StarGraph& g) {
  return {StarAdjacencyIterator(g, v, 2), StarAdjacencyIterator(g, v, g.n() + 1)};
}
inline StarGraph::vertex_descriptor source(const StarEdge& e, const StarGraph&) { return e.source; }
inline StarGraph::vertex_descriptor target(const StarEdge& e, const StarGraph&) { return e.target; }
inline boost::typed_identity_property_map<StarGraph::vertex_descriptor> get(boost::vertex_index_t, const StarGraph&) {
  return {};
}

}  // namespace starnet::topology

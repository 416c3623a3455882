// Hop-distance properties by breadth-first search (properties.hpp).
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/properties.hpp>
#include <starnet/topology/spec.hpp>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/two_bit_color_map.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>

namespace starnet::topology {
namespace {

/// Records each node's distance when BFS discovers it, and counts the nodes at each distance.
template <class Distance>
class HistogramRecorder : public boost::default_bfs_visitor {
 public:
  HistogramRecorder(std::vector<Distance>& distance, std::vector<std::uint64_t>& histogram)
      : distance_(distance), histogram_(histogram) {}
  template <class Edge, class Graph>
  void tree_edge(const Edge& e, const Graph& g) const {
    throw_if_stopped_every(++discovered_);  // S_11's BFS takes seconds: Ctrl-C must reach it
    const auto d = static_cast<Distance>(distance_[source(e, g)] + 1);
    distance_[target(e, g)] = d;
    if (d >= histogram_.size()) histogram_.resize(static_cast<std::size_t>(d) + 1, 0);
    ++histogram_[d];
  }

 private:
  std::vector<Distance>& distance_;
  std::vector<std::uint64_t>& histogram_;
  mutable std::uint64_t discovered_ = 0;
};

/// One BFS from @p s: adds the nodes at each distance from s to @p histogram (h[0] included) and
/// returns how many nodes s does not reach.
template <class Graph, class Distance, class ColorMap>
std::uint64_t bfs_from(const Graph& g, typename boost::graph_traits<Graph>::vertex_descriptor s, std::uint64_t nodes,
                       std::vector<Distance>& distance, ColorMap colors, std::vector<std::uint64_t>& histogram) {
  std::vector<std::uint64_t> from_s{1};
  distance[s] = 0;
  boost::breadth_first_search(g, s, boost::visitor(HistogramRecorder<Distance>(distance, from_s)).color_map(colors));
  if (histogram.size() < from_s.size()) histogram.resize(from_s.size(), 0);
  std::uint64_t reached = 0;
  for (std::size_t d = 0; d < from_s.size(); ++d) {
    histogram[d] += from_s[d];
    reached += from_s[d];
  }
  return nodes - reached;
}

/// Name, counts, degree range and processors of a platform; no distances yet.
TopologyProperties counted(const Platform& platform, DistanceMethod method) {
  const auto& g = platform.graph();
  TopologyProperties out;
  out.name = platform.name();
  out.directed = platform.directed();
  out.nodes = platform.num_nodes();
  out.links = platform.num_links();
  out.method = method;
  out.degree_min = std::numeric_limits<std::uint32_t>::max();
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    const auto degree = static_cast<std::uint32_t>(boost::out_degree(v, g));
    out.degree_min = std::min(out.degree_min, degree);
    out.degree_max = std::max(out.degree_max, degree);
    out.processors += g[v].role == Role::PROCESSOR ? 1 : 0;
  }
  if (out.nodes == 0) out.degree_min = 0;
  return out;
}

/// The complete binary tree of L levels (mct:1:L) by one BFS per level: node 2^ℓ, the first of
/// level ℓ in heap order, sees what the 2^ℓ nodes of its level see.
TopologyProperties binary_tree_properties(int levels) {
  const Platform tree = mct_platform(1, levels);
  TopologyProperties out = counted(tree, DistanceMethod::PRODUCT_OF_FACTORS);
  const auto& g = tree.graph();
  std::vector<std::uint32_t> distance(out.nodes);
  boost::two_bit_color_map<boost::property_map<PlatformGraph, boost::vertex_index_t>::const_type> colors(
      out.nodes, boost::get(boost::vertex_index, g));
  for (int level = 0; level < levels; ++level) {
    const std::uint64_t width = std::uint64_t{1} << level;
    std::vector<std::uint64_t> from_first;
    const auto first = static_cast<Platform::vertex_descriptor>(width - 1);  // heap index 2^ℓ
    const auto unreached = bfs_from(g, first, out.nodes, distance, colors, from_first);
    STARNET_ASSERT(unreached == 0);
    if (out.distance_histogram.size() < from_first.size()) out.distance_histogram.resize(from_first.size(), 0);
    for (std::size_t d = 0; d < from_first.size(); ++d) out.distance_histogram[d] += width * from_first[d];
  }
  return out;
}

/// The Cartesian product of undirected factors: d((x_i), (y_i)) = Σ d_i(x_i, y_i), so the
/// histogram is the convolution of the factors' histograms; degrees add up, nodes and processors
/// multiply, and factor i contributes its links once per node of the other factors.
/// @pre the factors are undirected and the product has at most MAX_MCT_NODES nodes.
TopologyProperties product_of(std::string name, const std::vector<TopologyProperties>& factors) {
  TopologyProperties out;
  out.name = std::move(name);
  out.method = DistanceMethod::PRODUCT_OF_FACTORS;
  out.nodes = 1;
  out.processors = 1;
  out.distance_histogram = {1};
  for (const auto& f : factors) {
    STARNET_ASSERT(!f.directed && f.unreachable_pairs == 0);
    out.links = out.links * f.nodes + f.links * out.nodes;
    out.nodes *= f.nodes;
    STARNET_ASSERT(out.nodes <= MAX_MCT_NODES);
    out.processors *= f.processors;
    out.degree_min += f.degree_min;
    out.degree_max += f.degree_max;
    const auto& left = out.distance_histogram;
    const auto& right = f.distance_histogram;
    std::vector<std::uint64_t> h(left.size() + right.size() - 1, 0);
    for (std::size_t a = 0; a < left.size(); ++a) {
      for (std::size_t b = 0; b < right.size(); ++b) h[a + b] += left[a] * right[b];
    }
    out.distance_histogram = std::move(h);
  }
  return out;
}

/// Adds what each orbit's representative sees, times the orbit's size, to @p out.
void add_orbits(const Platform& platform, std::span<const NodeOrbit> orbits, TopologyProperties& out) {
  const auto& g = platform.graph();
  std::vector<std::uint32_t> distance(out.nodes);
  boost::two_bit_color_map<boost::property_map<PlatformGraph, boost::vertex_index_t>::const_type> colors(
      out.nodes, boost::get(boost::vertex_index, g));
  for (const auto& orbit : orbits) {
    std::vector<std::uint64_t> seen;
    out.unreachable_pairs += orbit.size * bfs_from(g, orbit.representative, out.nodes, distance, colors, seen);
    if (out.distance_histogram.size() < seen.size()) out.distance_histogram.resize(seen.size(), 0);
    for (std::size_t d = 0; d < seen.size(); ++d) out.distance_histogram[d] += orbit.size * seen[d];
  }
}

/// The distance histogram of an implicit vertex-transitive graph from node 0, not yet scaled by
/// the node count: a byte of distance per node (UNSEEN until reached) and a queue of ranks.
/// @p neighbours(v, visit) calls visit(u) for each neighbour u of v.
template <class Neighbours>
std::vector<std::uint64_t> implicit_bfs_from_zero(std::uint32_t size, Neighbours neighbours) {
  constexpr std::uint8_t UNSEEN = 0xFF;
  std::vector<std::uint8_t> distance(size, UNSEEN);
  std::vector<std::uint32_t> queue;
  queue.reserve(size);
  std::vector<std::uint64_t> histogram{1};
  distance[0] = 0;
  queue.push_back(0);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    throw_if_stopped_every(head);
    const std::uint32_t v = queue[head];
    const auto d = static_cast<std::uint8_t>(distance[v] + 1);
    STARNET_ASSERT(d != UNSEEN);
    neighbours(v, [&](std::uint32_t u) {
      if (distance[u] != UNSEEN) return;
      distance[u] = d;
      queue.push_back(u);
      if (histogram.size() <= d) histogram.resize(static_cast<std::size_t>(d) + 1, 0);
      ++histogram[d];
    });
  }
  return histogram;
}

}  // namespace

std::string to_string(DistanceMethod method) {
  switch (method) {
    case DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE: return "one-bfs-vertex-transitive";
    case DistanceMethod::ALL_PAIRS_BFS: return "all-pairs-bfs";
    case DistanceMethod::PRODUCT_OF_FACTORS: return "product-of-factors";
    case DistanceMethod::ONE_BFS_PER_ORBIT: return "one-bfs-per-orbit";
  }
  return "?";
}

std::optional<std::uint32_t> TopologyProperties::diameter() const {
  if (unreachable_pairs > 0) return std::nullopt;
  return static_cast<std::uint32_t>(distance_histogram.size() - 1);
}

Rational TopologyProperties::average_distance() const {
  // Σ d·h[d] stays below 2^63 up to S_12 (≈ 2.2·10^18); 128 bits keep the sums exact anyway.
  Wide num = 0;
  Wide den = 0;
  for (std::size_t d = 1; d < distance_histogram.size(); ++d) {
    num += static_cast<Wide>(d) * distance_histogram[d];
    den += distance_histogram[d];
  }
  if (den == 0) return 0;
  return Rational::from_wide(num, den);
}

std::uint64_t host_distance_work(const Platform& platform) {
  const auto& g = platform.graph();
  std::uint64_t hosts = 0;
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) hosts += g[v].role == Role::PROCESSOR ? 1 : 0;
  return hosts * (boost::num_vertices(g) + boost::num_edges(g));
}

std::optional<TopologyProperties> host_properties(const Platform& platform) {
  const auto& g = platform.graph();
  const auto n = static_cast<std::uint32_t>(boost::num_vertices(g));
  std::vector<std::uint32_t> hosts;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (g[v].role == Role::PROCESSOR) hosts.push_back(v);
  }
  if (hosts.size() == n) return std::nullopt;
  if (host_distance_work(platform) > MAX_ALL_PAIRS_WORK) {
    throw TopologyError(fmt::format("{}: distances among {} hosts take {} steps of search, beyond the {} measured",
                                    platform.name(), hosts.size(), host_distance_work(platform), MAX_ALL_PAIRS_WORK));
  }
  TopologyProperties out;
  out.name = platform.name();
  out.directed = platform.directed();
  out.nodes = out.processors = hosts.size();
  out.method = DistanceMethod::ALL_PAIRS_BFS;
  constexpr std::uint32_t UNSEEN = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> distance(n, UNSEEN);
  std::vector<std::uint32_t> queue;
  for (const auto s : hosts) {
    queue.assign(1, s);
    distance[s] = 0;
    std::uint64_t reached = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      throw_if_stopped_every(head);
      const auto v = queue[head];
      const bool host = g[v].role == Role::PROCESSOR;
      if (host) {
        if (out.distance_histogram.size() <= distance[v]) out.distance_histogram.resize(distance[v] + 1, 0);
        ++out.distance_histogram[distance[v]];
        ++reached;
        if (v != s) continue;  // a host ends a route
      }
      for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
        const auto u = static_cast<std::uint32_t>(boost::target(e, g));
        if (distance[u] != UNSEEN) continue;
        distance[u] = distance[v] + 1;
        queue.push_back(u);
      }
    }
    out.unreachable_pairs += hosts.size() - reached;
    for (const auto v : queue) distance[v] = UNSEEN;
  }
  return out;
}

TopologyProperties star_graph_properties(const StarGraph& g) {
  if (g.n() > MAX_STAR_BFS_N) {
    throw TopologyError(fmt::format("topology \"{}\": a breadth-first search over its {} nodes would take minutes and "
                                    "more than 1 GiB (expected star:N with N ≤ {} for distances)",
                                    g.name(), g.size(), MAX_STAR_BFS_N));
  }
  TopologyProperties out;
  out.name = g.name();
  out.implicit = true;
  out.implicit_graph = "star graph";
  out.nodes = g.size();
  out.links = g.size() * static_cast<std::uint64_t>(g.n() - 1) / 2;
  out.processors = g.size();
  out.degree_min = out.degree_max = static_cast<std::uint32_t>(g.n() - 1);
  out.method = DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE;
  std::vector<std::uint8_t> distance(g.size());  // diameter ⌊3(n-1)/2⌋ ≤ 16 fits a byte
  boost::two_bit_color_map<boost::typed_identity_property_map<StarGraph::vertex_descriptor>> colors(g.size());
  const auto unreached = bfs_from(g, StarGraph::vertex_descriptor{0}, g.size(), distance, colors, out.distance_histogram);
  STARNET_ASSERT(unreached == 0);
  for (auto& h : out.distance_histogram) h *= out.nodes;
  return out;
}

TopologyProperties platform_properties(const Platform& platform, DistanceMethod method) {
  const auto& g = platform.graph();
  if (method == DistanceMethod::PRODUCT_OF_FACTORS) {
    throw TopologyError(fmt::format("topology \"{}\": product-of-factors is computed from a spec (topology_properties "
                                    "of mct:D:L), not from a platform (expected one-bfs-vertex-transitive or "
                                    "all-pairs-bfs)",
                                    platform.name()));
  }
  TopologyProperties out = counted(platform, method);
  if (out.nodes == 0) return out;
  const std::uint64_t work = out.nodes * (out.nodes + boost::num_edges(g));
  if (method == DistanceMethod::ALL_PAIRS_BFS && work > MAX_ALL_PAIRS_WORK) {
    throw TopologyError(fmt::format("topology \"{}\": all-pairs BFS over {} nodes and {} arcs would take {} steps "
                                    "(expected at most {} for a platform that is not vertex-transitive)",
                                    platform.name(), out.nodes, boost::num_edges(g), work, MAX_ALL_PAIRS_WORK));
  }
  if (method == DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE) {
    const NodeOrbit all[] = {{0, out.nodes}};
    add_orbits(platform, all, out);
    return out;
  }
  std::vector<std::uint32_t> distance(out.nodes);
  boost::two_bit_color_map<boost::property_map<PlatformGraph, boost::vertex_index_t>::const_type> colors(
      out.nodes, boost::get(boost::vertex_index, g));
  for (const auto s : boost::make_iterator_range(boost::vertices(g))) {
    out.unreachable_pairs += bfs_from(g, s, out.nodes, distance, colors, out.distance_histogram);
  }
  return out;
}

TopologyProperties orbit_properties(const Platform& platform, std::span<const NodeOrbit> orbits) {
  TopologyProperties out = counted(platform, DistanceMethod::ONE_BFS_PER_ORBIT);
  add_orbits(platform, orbits, out);
  return out;
}

TopologyProperties arrangement_graph_properties(const ArrangementGraph& g) {
  if (g.size() > MAX_ARRANGEMENT_BFS_NODES) {
    throw TopologyError(fmt::format("topology \"{}\": {} nodes exceed the {} that a breadth-first search over a "
                                    "graph of arrangements takes in seconds (expected at most 10! nodes, e.g. "
                                    "pancake:10 or nkstar:12:6)",
                                    g.name(), g.size(), MAX_ARRANGEMENT_BFS_NODES));
  }
  TopologyProperties out;
  out.name = g.name();
  out.implicit = true;
  out.implicit_graph = g.kind();
  out.nodes = g.size();
  out.links = g.size() * static_cast<std::uint64_t>(g.degree()) / 2;
  out.processors = g.size();
  out.degree_min = out.degree_max = static_cast<std::uint32_t>(g.degree());
  out.method = DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE;
  out.distance_histogram = implicit_bfs_from_zero(g.size(), [&g](std::uint32_t v, const auto& visit) {
    g.for_each_neighbor(g.label(v), [&](const ArrangementGraph::Label& x) { visit(g.rank(x)); });
  });
  const auto reached = std::accumulate(out.distance_histogram.begin(), out.distance_histogram.end(), std::uint64_t{0});
  STARNET_ASSERT(reached == out.nodes);  // the five families are connected (arrangement_graph.hpp)
  for (auto& h : out.distance_histogram) h *= out.nodes;
  return out;
}

TopologyProperties topology_properties(std::string_view text) {
  const Spec spec = parse_spec(text);
  if (spec.family == "star") {
    TopologyProperties out = star_graph_properties(StarGraph(star_dimension(spec)));
    out.name = spec.text;
    return out;
  }
  if (ArrangementGraph::is_family(spec.family)) {
    TopologyProperties out = arrangement_graph_properties(ArrangementGraph::of(spec));
    out.name = spec.text;
    return out;
  }
  if (spec.family == "fattree") {
    const int k = fattree_arity(spec);
    TopologyProperties out = orbit_properties(make_platform(text), fattree_orbits(k));
    out.name = spec.text;
    return out;
  }
  if (spec.family == "mct") {
    const MctShape shape = mct_shape(spec);
    return product_of(spec.text, std::vector<TopologyProperties>(static_cast<std::size_t>(shape.trees),
                                                                 binary_tree_properties(shape.levels)));
  }
  const Platform platform = make_platform(text);
  return platform_properties(platform, is_vertex_transitive(text) ? DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE
                                                                  : DistanceMethod::ALL_PAIRS_BFS);
}

}  // namespace starnet::topology

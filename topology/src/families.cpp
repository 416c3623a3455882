// Topology families (families.hpp): the generators, the spec dispatch and the size limits.
#include <starnet/core/error.hpp>
#include <starnet/topology/arrangement_graph.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/files.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/topology/star_graph.hpp>

#include "family_bounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace starnet::topology {
namespace {

using detail::Bound;
using detail::bounded;
using detail::check_bound;
using detail::check_size;
using detail::grouped;

const Bound HYPERCUBE_D{"dimension D of hypercube:D", 1, MAX_CUBE_D,
                        "hypercube:17 would exceed the 65,536-node limit of a platform"};
const Bound DEBRUIJN_D{"dimension D of debruijn:D", 1, MAX_CUBE_D,
                       "debruijn:17 would exceed the 65,536-node limit of a platform"};
const Bound COMPLETE_N{"size N of complete:N", 1, MAX_COMPLETE_N,
                       "complete:1449 would exceed the 1,048,576-link limit of a platform"};
const Bound RING_N{"size N of ring:N", 1, static_cast<long>(MAX_PLATFORM_NODES),
                   "ring:65537 would exceed the 65,536-node limit of a platform"};
const Bound GRID_SIDE{"side of AxBx…", 1, static_cast<long>(MAX_PLATFORM_NODES),
                      "the product of the sides is limited to 65,536 nodes"};
const Bound TIERS_SEED{"seed of tiers:SEED", 0, std::numeric_limits<long>::max(), ""};
const Bound MCT_TREES{"dimension D of mct:D:L", 1, MAX_MCT_TREES, ""};
const Bound MCT_LEVELS{"levels L of mct:D:L", 1, MAX_MCT_LEVELS,
                       "mct:1:17 would exceed the 65,536-node limit of a platform"};

/// D-bit binary name of x, most significant bit first.
std::string bits(std::uint32_t x, int d) {
  std::string s(static_cast<std::size_t>(d), '0');
  for (int i = 0; i < d; ++i) {
    if ((x >> i & 1U) != 0) s[static_cast<std::size_t>(d - 1 - i)] = '1';
  }
  return s;
}

/// A family whose rule may produce self-loops or a link twice keeps one simple link (file comment
/// of families.hpp).
void add_simple_link(Platform& p, Platform::vertex_descriptor u, Platform::vertex_descriptor v, LinkProperties props = {}) {
  if (u != v && !boost::edge(u, v, p.graph()).second) p.add_link(u, v, props);
}

Platform numbered(std::string name, int n) {
  Platform p(std::move(name), /*directed=*/false);
  for (int i = 0; i < n; ++i) p.add_node({std::to_string(i)});
  return p;
}

Platform path_platform(int n) {
  Platform p = numbered("path:" + std::to_string(n), n);
  for (int i = 0; i + 1 < n; ++i) p.add_link(static_cast<Platform::vertex_descriptor>(i), static_cast<Platform::vertex_descriptor>(i + 1));
  return p;
}

/// The complete binary tree of L levels: node i (heap order, 1..2^L−1, named "i") has children 2i
/// and 2i + 1; NodeId = i − 1.
Platform binary_tree_platform(int levels) {
  const int n = (1 << levels) - 1;
  Platform p("mct:1:" + std::to_string(levels), /*directed=*/false);
  for (int i = 1; i <= n; ++i) p.add_node({std::to_string(i)});
  for (int i = 2; i <= n; ++i) {
    p.add_link(static_cast<Platform::vertex_descriptor>(i / 2 - 1), static_cast<Platform::vertex_descriptor>(i - 1));
  }
  return p;
}

/// (2^L − 1)^D, saturated at MAX_MCT_NODES + 1 so that nothing overflows.
std::uint64_t mct_nodes(int trees, int levels) {
  const std::uint64_t tree = (std::uint64_t{1} << levels) - 1;
  std::uint64_t nodes = 1;
  for (int i = 0; i < trees && nodes <= MAX_MCT_NODES; ++i) nodes *= tree;
  return std::min(nodes, MAX_MCT_NODES + 1);
}

/// "A1xA2x…" of torus/mesh sides, as the spec writes them.
std::string sides_text(std::span<const int> sides) {
  std::string out;
  for (const int side : sides) out += (out.empty() ? "" : "x") + std::to_string(side);
  return out;
}

/// The sides of a grid, each in GRID_SIDE, at most MAX_GRID_DIMENSIONS of them, and their product
/// within MAX_PLATFORM_NODES. @throws TopologyError naming @p spec_text otherwise.
void check_grid(std::string_view spec_text, std::span<const int> sides) {
  if (sides.empty() || sides.size() > static_cast<std::size_t>(MAX_GRID_DIMENSIONS)) {
    throw TopologyError(fmt::format("topology \"{}\" has {} dimensions (expected 1..{} sides AxBx…)", spec_text,
                                    sides.size(), MAX_GRID_DIMENSIONS));
  }
  std::uint64_t nodes = 1;
  for (const int side : sides) {
    check_bound(side, GRID_SIDE, spec_text);
    nodes *= static_cast<std::uint64_t>(side);
    check_size(spec_text, nodes, 0);  // each step, so that the product never overflows
  }
}

/// One platform per side (rings for a torus, paths for a mesh), multiplied; one side is the
/// factor itself, renamed.
template <class Factor>
Platform grid_platform(std::string name, std::span<const int> sides, Factor factor) {
  check_grid(name, sides);
  std::vector<Platform> factors;
  for (const int side : sides) factors.push_back(factor(side));
  Platform p = factors.size() == 1 ? std::move(factors.front()) : product_platform(factors);
  p.set_name(std::move(name));
  return p;
}

/// The factors of product:S1*S2*…; none may itself be a product (write product:A*B*C instead).
std::vector<std::string> product_factors(const Spec& spec) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  for (;;) {
    const auto star = spec.argument.find('*', begin);
    out.push_back(spec.argument.substr(begin, star - begin));
    if (star == std::string::npos) break;
    begin = star + 1;
  }
  if (out.size() < 2) {
    throw TopologyError(fmt::format("topology \"{}\" has one factor (expected product:SPEC1*SPEC2[*SPEC3...] with at "
                                    "least two factors, e.g. product:ring:4*star:3)",
                                    spec.text));
  }
  for (const auto& f : out) {
    if (f.starts_with("product:")) {
      throw TopologyError(fmt::format("topology \"{}\": factor \"{}\" is itself a product (expected "
                                      "product:A*B*C instead of nesting products)",
                                      spec.text, f));
    }
  }
  return out;
}

/// Uniform integers from a seed, identical on every machine: std::mt19937_64 is fully specified
/// by the standard; std::uniform_int_distribution is not, hence our own mapping.
class SeededDraw {
 public:
  explicit SeededDraw(std::uint64_t seed) : engine_(seed) {}
  /// Uniform in [lo, hi] by rejection: the words below 2^64 mod (hi-lo+1) are redrawn, so that the
  /// accepted ones cover every residue equally often.
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
    const auto range = static_cast<std::uint64_t>(hi - lo) + 1;
    const std::uint64_t reject_below = (0 - range) % range;
    std::uint64_t x = 0;
    do {
      x = engine_();
    } while (x < reject_below);
    return lo + static_cast<std::int64_t>(x % range);
  }

 private:
  std::mt19937_64 engine_;
};

Platform build(const Spec& spec) {
  const std::string& f = spec.family;
  if (f == "star") return star_platform(star_dimension(spec));
  if (f == "hypercube") return hypercube_platform(bounded(spec.argument, HYPERCUBE_D, spec.text));
  if (f == "debruijn") return debruijn_platform(bounded(spec.argument, DEBRUIJN_D, spec.text));
  if (f == "complete") return complete_platform(bounded(spec.argument, COMPLETE_N, spec.text));
  if (f == "ring") return ring_platform(bounded(spec.argument, RING_N, spec.text));
  if (f == "torus") return torus_platform(grid_sides(spec));
  if (f == "mesh") return mesh_platform(grid_sides(spec));
  if (ArrangementGraph::is_family(f)) return arrangement_platform(ArrangementGraph::of(spec));
  if (f == "fattree") return fattree_platform(fattree_arity(spec));
  if (f == "dragonfly") return dragonfly_platform(dragonfly_shape(spec));
  if (f == "mct") {
    const MctShape shape = mct_shape(spec);
    return mct_platform(shape.trees, shape.levels);
  }
  if (f == "tiers") return tiers_platform(static_cast<std::uint64_t>(parse_spec_integer(
                         spec.argument, TIERS_SEED.lo, TIERS_SEED.hi, spec, TIERS_SEED.meaning)));
  if (f == "product") {
    std::vector<Platform> factors;
    for (const auto& text : product_factors(spec)) {
      try {
        factors.push_back(make_platform(text));
      } catch (const TopologyError& e) {
        throw TopologyError(fmt::format("in product \"{}\": {}", spec.text, e.what()));
      }
    }
    return product_platform(factors);
  }
  STARNET_ASSERT(f == "file");
  return read_platform_file(spec.argument);
}

}  // namespace

Platform star_platform(int n) {
  const StarGraph g(n);  // throws for n outside 1..12
  if (n > MAX_STAR_PLATFORM_N) {
    throw TopologyError(fmt::format(
        "topology \"star:{}\": a star graph is materialised as a platform only up to star:{} ({} nodes) and star:{} "
        "has {} nodes (expected N in 1..{}; the implicit model, e.g. starnet topo info, serves star:N up to {})",
        n, MAX_STAR_PLATFORM_N, grouped(StarGraph::factorial(MAX_STAR_PLATFORM_N)), n, grouped(g.size()),
        MAX_STAR_PLATFORM_N, StarGraph::MAX_N));
  }
  Platform p(g.name(), /*directed=*/false);
  for (StarGraph::vertex_descriptor v = 0; v < g.size(); ++v) {
    const std::string label = g.label_string(v);
    p.add_node({label, Role::PROCESSOR, 1, label});
  }
  // Dimension by dimension, so that port p of every node is link k = p + 2, as in StarGraph.
  for (int k = 2; k <= n; ++k) {
    for (StarGraph::vertex_descriptor v = 0; v < g.size(); ++v) {
      const auto u = g.neighbor_along(v, k);
      if (v < u) p.add_link(v, u, {1, k});
    }
  }
  return p;
}

Platform hypercube_platform(int d) {
  const std::string name = fmt::format("hypercube:{}", d);
  check_bound(d, HYPERCUBE_D, name);
  const std::uint32_t size = 1U << d;
  Platform p(name, /*directed=*/false);
  for (std::uint32_t x = 0; x < size; ++x) p.add_node({bits(x, d)});
  for (int i = 0; i < d; ++i) {  // dimension by dimension: port p is dimension p + 1
    for (std::uint32_t x = 0; x < size; ++x) {
      const std::uint32_t y = x ^ (1U << i);
      if (x < y) p.add_link(x, y, {1, i + 1});
    }
  }
  return p;
}

Platform debruijn_platform(int d) {
  const std::string name = fmt::format("debruijn:{}", d);
  check_bound(d, DEBRUIJN_D, name);
  const std::uint32_t size = 1U << d;
  Platform p(name, /*directed=*/false);
  for (std::uint32_t x = 0; x < size; ++x) p.add_node({bits(x, d)});
  for (std::uint32_t x = 0; x < size; ++x) {
    for (std::uint32_t b = 0; b < 2; ++b) add_simple_link(p, x, ((x << 1) | b) & (size - 1));
  }
  return p;
}

Platform complete_platform(int n) {
  const std::string name = fmt::format("complete:{}", n);
  check_bound(n, COMPLETE_N, name);
  Platform p = numbered(name, n);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) p.add_link(static_cast<Platform::vertex_descriptor>(i), static_cast<Platform::vertex_descriptor>(j));
  }
  return p;
}

Platform ring_platform(int n) {
  const std::string name = fmt::format("ring:{}", n);
  check_bound(n, RING_N, name);
  Platform p = numbered(name, n);
  for (int i = 0; i < n; ++i) {
    add_simple_link(p, static_cast<Platform::vertex_descriptor>(i), static_cast<Platform::vertex_descriptor>((i + 1) % n));
  }
  // One direction at every node: port 0 toward i + 1, port 1 toward i − 1 (docs/topology.md, "Ports").
  const auto next = [n](Platform::vertex_descriptor v) { return (v + 1) % static_cast<Platform::vertex_descriptor>(n); };
  p.order_ports([&next](Platform::vertex_descriptor v, Platform::vertex_descriptor u) { return u == next(v) ? 0U : 1U; });
  return p;
}

Platform torus_platform(std::span<const int> sides) {
  return grid_platform("torus:" + sides_text(sides), sides, ring_platform);
}

Platform mesh_platform(std::span<const int> sides) {
  return grid_platform("mesh:" + sides_text(sides), sides, path_platform);
}

Platform torus_platform(int a, int b) { return torus_platform(std::array{a, b}); }

Platform mesh_platform(int a, int b) { return mesh_platform(std::array{a, b}); }

std::vector<int> grid_sides(const Spec& spec) {
  const auto parts = detail::split_argument(
      spec, 'x', 0,
      fmt::format("{0}:AxBx… with 1..{1} positive sides, e.g. {0}:4x4 or {0}:4x4x4", spec.family, MAX_GRID_DIMENSIONS));
  std::vector<int> sides;
  const std::string meaning = fmt::format("side of {}:AxBx…", spec.family);
  for (const auto& part : parts) {
    sides.push_back(static_cast<int>(parse_spec_integer(part, GRID_SIDE.lo, GRID_SIDE.hi, spec, meaning, GRID_SIDE.hint)));
  }
  check_grid(spec.text, sides);
  return sides;
}

std::uint64_t MctShape::nodes() const { return mct_nodes(trees, levels); }

MctShape mct_shape(const Spec& spec) {
  const auto colon = spec.argument.find(':');
  if (spec.family != "mct" || colon == std::string::npos) {
    throw TopologyError(fmt::format("topology \"{}\": \"{}\" is not valid (expected mct:D:L, the product of D complete "
                                    "binary trees of L levels, e.g. mct:4:3 for MCT_4(3))",
                                    spec.text, spec.argument));
  }
  const MctShape shape{bounded(spec.argument.substr(0, colon), MCT_TREES, spec.text),
                       bounded(spec.argument.substr(colon + 1), MCT_LEVELS, spec.text)};
  if (shape.nodes() > MAX_MCT_NODES) {
    throw TopologyError(fmt::format("topology \"{}\": (2^{} − 1)^{} nodes exceed the limit of {} nodes of mct:D:L "
                                    "(expected (2^L − 1)^D ≤ {}, e.g. mct:9:3)",
                                    spec.text, shape.levels, shape.trees, grouped(MAX_MCT_NODES), grouped(MAX_MCT_NODES)));
  }
  return shape;
}

Platform mct_platform(int trees, int levels) {
  const std::string name = fmt::format("mct:{}:{}", trees, levels);
  check_bound(trees, MCT_TREES, name);
  check_bound(levels, MCT_LEVELS, name);
  const std::uint64_t nodes = mct_nodes(trees, levels);
  if (nodes > MAX_PLATFORM_NODES) {
    throw TopologyError(fmt::format("topology \"{}\": {} nodes exceed the limit of {} nodes of a platform (expected "
                                    "(2^L − 1)^D ≤ {}, e.g. mct:5:3; the properties of mct:D:L, e.g. starnet topo "
                                    "info, are computed from one tree up to {} nodes)",
                                    name, nodes > MAX_MCT_NODES ? "more than " + grouped(MAX_MCT_NODES) : grouped(nodes),
                                    grouped(MAX_PLATFORM_NODES), grouped(MAX_PLATFORM_NODES), grouped(MAX_MCT_NODES)));
  }
  Platform tree = binary_tree_platform(levels);
  if (trees == 1) return tree;
  const std::vector<Platform> factors(static_cast<std::size_t>(trees), tree);
  Platform p = product_platform(factors);
  p.set_name(name);
  return p;
}

/// A product's port rank: the factor's index above the factor's own port (a degree fits 32 bits).
constexpr int PORT_BITS = 32;

Platform product_platform(std::span<const Platform> factors) {
  std::string name = "product:";
  for (std::size_t i = 0; i < factors.size(); ++i) name += (i > 0 ? "*" : "") + factors[i].name();
  if (factors.size() < 2) {
    throw TopologyError(fmt::format("topology \"{}\" has {} factor(s) (expected at least two)", name, factors.size()));
  }
  // Size first, in 64 bits with each factor ≤ the limits, before anything is built.
  std::uint64_t nodes = 1;
  bool directed = false;
  for (const auto& f : factors) {
    if (f.num_nodes() == 0) throw TopologyError(fmt::format("topology \"{}\": factor {} has no nodes", name, f.name()));
    nodes *= f.num_nodes();
    directed = directed || f.directed();
    check_size(name, nodes, 0);
  }
  std::uint64_t arcs = 0;
  for (const auto& f : factors) arcs += boost::num_edges(f.graph()) * (nodes / f.num_nodes());
  check_size(name, nodes, directed ? arcs : arcs / 2);

  // Node x has coordinate (x / stride_i) mod n_i in factor i; the first factor is most significant.
  std::vector<std::uint64_t> stride(factors.size(), 1);
  for (std::size_t i = factors.size() - 1; i > 0; --i) stride[i - 1] = stride[i] * factors[i].num_nodes();
  const auto coordinate = [&](std::uint64_t x, std::size_t i) {
    return static_cast<Platform::vertex_descriptor>(x / stride[i] % factors[i].num_nodes());
  };
  Platform p(name, directed);
  for (std::uint64_t x = 0; x < nodes; ++x) {
    NodeProperties props{"(", Role::PROCESSOR, std::numeric_limits<std::int64_t>::max(), ""};
    for (std::size_t i = 0; i < factors.size(); ++i) {
      const auto& c = factors[i].graph()[coordinate(x, i)];
      props.name += (i > 0 ? "," : "") + c.name;
      if (c.role == Role::ROUTER) props.role = Role::ROUTER;
      props.speed = std::min(props.speed, c.speed);
    }
    props.name += ")";
    p.add_node(std::move(props));
  }
  for (std::uint64_t x = 0; x < nodes; ++x) {
    for (std::size_t i = 0; i < factors.size(); ++i) {
      const auto& g = factors[i].graph();
      const auto c = coordinate(x, i);
      for (const auto e : boost::make_iterator_range(boost::out_edges(c, g))) {
        const std::uint64_t y = x - c * stride[i] + boost::target(e, g) * stride[i];
        // An undirected product adds each link once (add_link adds both arcs).
        if (directed || x < y) {
          p.add_link(static_cast<Platform::vertex_descriptor>(x), static_cast<Platform::vertex_descriptor>(y), {g[e].cost, 0});
        }
      }
    }
  }
  // Ports factor by factor, each factor's in its own order, at every node: a torus's port 2i
  // goes to i + 1 along side i and port 2i + 1 back (ring_platform), wherever the node is.
  const auto rank = [&](Platform::vertex_descriptor x, Platform::vertex_descriptor y) -> std::uint64_t {
    for (std::size_t i = 0; i < factors.size(); ++i) {
      const auto c = coordinate(x, i);
      const auto d = coordinate(y, i);
      if (c == d) continue;
      std::uint64_t port = 0;
      for (const auto e : boost::make_iterator_range(boost::out_edges(c, factors[i].graph()))) {
        if (boost::target(e, factors[i].graph()) == d) break;
        ++port;
      }
      return (std::uint64_t{i} << PORT_BITS) | port;
    }
    STARNET_ASSERT(false);
    return 0;
  };
  p.order_ports(rank);
  return p;
}

Platform tiers_platform(std::uint64_t seed) {
  SeededDraw draw(seed);
  const auto tenths = [&](int lo, int hi) { return Rational(draw.uniform(lo, hi), 10); };
  const auto wan = static_cast<int>(draw.uniform(2, 3));
  const auto man = static_cast<int>(draw.uniform(3, 5));
  const auto lan = static_cast<int>(draw.uniform(6, 10));
  Platform p(fmt::format("tiers:{}", seed), /*directed=*/false);
  // Processors first, as fattree and dragonfly put their hosts: node 0, the default root, computes.
  for (int i = 0; i < lan; ++i) p.add_node({fmt::format("p{}", i), Role::PROCESSOR, Rational(draw.uniform(2, 20), 2)});
  for (int i = 0; i < wan; ++i) p.add_node({fmt::format("wan{}", i), Role::ROUTER});
  for (int i = 0; i < man; ++i) p.add_node({fmt::format("man{}", i), Role::ROUTER});
  const auto lan_node = [](int i) { return static_cast<Platform::vertex_descriptor>(i); };
  const auto wan_node = [&](int i) { return static_cast<Platform::vertex_descriptor>(lan + i); };
  const auto man_node = [&](int i) { return static_cast<Platform::vertex_descriptor>(lan + wan + i); };

  std::vector<int> parent(static_cast<std::size_t>(wan), -1);
  for (int i = 1; i < wan; ++i) {
    parent[static_cast<std::size_t>(i)] = static_cast<int>(draw.uniform(0, i - 1));
    p.add_link(wan_node(i), wan_node(parent[static_cast<std::size_t>(i)]), {tenths(10, 30)});
  }
  if (wan == 3 && draw.uniform(0, 1) == 1) {
    // wan2 hangs on wan0 or wan1; the triangle's missing side joins it to the other one.
    p.add_link(wan_node(2), wan_node(1 - parent[2]), {tenths(10, 30)});
  }
  for (int i = 0; i < man; ++i) {
    const auto w = static_cast<int>(draw.uniform(0, wan - 1));
    p.add_link(man_node(i), wan_node(w), {tenths(5, 15)});
  }
  for (int i = 0; i < lan; ++i) {
    const int m = i < man ? i : static_cast<int>(draw.uniform(0, man - 1));
    p.add_link(lan_node(i), man_node(m), {tenths(1, 4)});
  }
  p.validate();
  return p;
}

Platform make_platform(std::string_view text) {
  const Spec spec = parse_spec(text);
  Platform p = build(spec);
  p.set_name(spec.text);
  return p;
}

std::unique_ptr<Topology> make_topology(std::string_view text) {
  const Spec spec = parse_spec(text);
  if (spec.family == "star") return std::make_unique<StarGraph>(star_dimension(spec));
  Platform p = build(spec);
  p.set_name(spec.text);
  return std::make_unique<PlatformTopology>(std::move(p));
}

bool is_vertex_transitive(std::string_view text) {
  const Spec spec = parse_spec(text);
  if (spec.family == "product") {
    const auto factors = product_factors(spec);
    return std::all_of(factors.begin(), factors.end(), [](const std::string& f) { return is_vertex_transitive(f); });
  }
  return spec.family == "star" || spec.family == "hypercube" || spec.family == "complete" || spec.family == "ring" ||
         spec.family == "torus" || ArrangementGraph::is_family(spec.family);
}


namespace detail {

std::string grouped(std::uint64_t v) {
  std::string digits = std::to_string(v);
  for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

int bounded(std::string_view value, const Bound& b, std::string_view spec_text) {
  const Spec spec{std::string(spec_text), "", std::string(value)};
  return static_cast<int>(parse_spec_integer(value, b.lo, b.hi, spec, b.meaning, b.hint));
}

void check_bound(long value, const Bound& b, std::string_view spec_text) {
  (void)bounded(std::to_string(value), b, spec_text);
}

void check_size(std::string_view spec_text, std::uint64_t nodes, std::uint64_t links) {
  if (nodes > MAX_PLATFORM_NODES) {
    throw TopologyError(fmt::format("topology \"{}\": {} nodes exceed the limit of {} nodes of a platform", spec_text,
                                    grouped(nodes), grouped(MAX_PLATFORM_NODES)));
  }
  if (links > MAX_PLATFORM_LINKS) {
    throw TopologyError(fmt::format("topology \"{}\": {} links exceed the limit of {} links of a platform", spec_text,
                                    grouped(links), grouped(MAX_PLATFORM_LINKS)));
  }
}

std::vector<std::string> split_argument(const Spec& spec, char separator, std::size_t count, std::string_view form) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  for (;;) {
    const auto at = spec.argument.find(separator, begin);
    parts.push_back(spec.argument.substr(begin, at - begin));
    if (at == std::string::npos) break;
    begin = at + 1;
  }
  if (count != 0 && parts.size() != count) {
    throw TopologyError(
        fmt::format("topology \"{}\": \"{}\" is not valid (expected {})", spec.text, spec.argument, form));
  }
  return parts;
}

}  // namespace detail

}  // namespace starnet::topology

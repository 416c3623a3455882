#include <starnet/algorithms/collectives/block_collectives.hpp>
#include <starnet/algorithms/collectives/catalogue.hpp>
#include <starnet/algorithms/collectives/dimension_ordered.hpp>
#include <starnet/algorithms/collectives/split_allreduce.hpp>
#include <starnet/algorithms/generic/bfs_tree.hpp>
#include <starnet/algorithms/generic/recursive_doubling.hpp>
#include <starnet/algorithms/generic/ring.hpp>
#include <starnet/algorithms/schedule/builtins.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <algorithm>

#include <bit>
#include <map>
#include <mutex>

namespace starnet::algorithms::collectives {

namespace sch = algorithms::schedule;
using topology::StarGraph;

std::string to_string(Algorithm a) {
  switch (a) {
    case Algorithm::STAR: return "star";
    case Algorithm::RECURSIVE_DOUBLING: return "recursive-doubling";
    case Algorithm::RECURSIVE_HALVING: return "recursive-halving";
    case Algorithm::RING: return "ring";
    case Algorithm::BRUCK: return "bruck";
    case Algorithm::UNIFORM: return "uniform";
    case Algorithm::ONE_PACKET: return "one-packet";
    case Algorithm::COMBINING: return "combining";
    case Algorithm::RING_SPLIT: return "ring-split";
    case Algorithm::RABENSEIFNER: return "rabenseifner";
    case Algorithm::DIMENSION_ORDERED: return "dimension-ordered";
    case Algorithm::BFS_TREE: return "bfs-tree";
    case Algorithm::HIERARCHICAL: return "hierarchical";
    case Algorithm::WEIGHTED_TREE: return "weighted-tree";
    case Algorithm::SCHEDULE: return "schedule";
    case Algorithm::OPTIMAL: return "optimal";
  }
  return "?";
}

std::optional<Algorithm> find_builtin(std::string_view text) {
  if (text == "star-allreduce" || text == "star-broadcast") return Algorithm::STAR;
  for (const Algorithm a : BUILTINS) {
    if (text == to_string(a)) return a;
  }
  return std::nullopt;
}

std::string builtin_choices() {
  std::string out;
  for (const Algorithm a : BUILTINS) out += (out.empty() ? "" : ", ") + to_string(a);
  return out;
}

namespace {

/// The families given as Cayley graphs (optimal/uniform_search.hpp), as why_not() names them.
constexpr std::string_view CAYLEY_GRAPHS =
    "Cayley graphs (star, pancake, bubblesort, transposition, hypercube, ring, torus, complete)";

/// The families given as Cayley graphs (optimal/uniform_search.hpp).
bool cayley_family(const std::string& family) {
  return family == "star" || family == "pancake" || family == "bubblesort" || family == "transposition" ||
         family == "hypercube" || family == "ring" || family == "torus" || family == "complete";
}

/// Largest topology inspected for being a complete graph (N² port look-ups).
constexpr topology::NodeId MAX_COMPLETE_CHECK_NODES = 4096;

bool every_pair_linked(const topology::Topology& t) {
  const auto n = t.num_nodes();
  if (n < 2 || n > MAX_COMPLETE_CHECK_NODES) return false;
  for (topology::NodeId v = 0; v < n; ++v) {
    if (t.degree(v) < n - 1) return false;
    for (topology::NodeId u = 0; u < n; ++u) {
      if (u != v && !t.port_to(v, u)) return false;
    }
  }
  return true;
}

bool power_of_two(topology::NodeId n) { return std::has_single_bit(n); }

}  // namespace

Shape shape_of(const topology::Topology& t, std::string_view spec, bool from_spec) {
  Shape s;
  s.spec = std::string(spec);
  s.nodes = t.num_nodes();
  s.family = "other";
  try {
    if (from_spec) s.family = topology::parse_spec(spec).family;
  } catch (const TopologyError&) {
  }
  if (cayley_family(s.family)) {
    if (s.nodes >= 2 && s.nodes <= optimal::MAX_UNIFORM_ORDER) s.cayley = s.spec;
  } else if (every_pair_linked(t)) {
    s.family = "complete";  // a cluster, K_N in a file: its nodes are Z_N in their own order
    s.cayley = fmt::format("complete:{}", s.nodes);
  }
  return s;
}

std::vector<std::vector<std::vector<topology::NodeId>>> shape_rings(const Shape& shape) {
  if (shape.family == "complete") return generic::torus_rings(1, shape.nodes);
  return generic::spec_rings(shape.spec);
}

std::optional<std::string> why_not(Algorithm a, Collective c, const Shape& s) {
  const auto computes = [&](std::initializer_list<Collective> list) -> std::optional<std::string> {
    for (const Collective x : list) {
      if (x == c) return std::nullopt;
    }
    std::string names;
    for (const Collective x : list) names += (names.empty() ? "" : ", ") + to_string(x);
    return fmt::format("{} computes {}, not {}", to_string(a), names, to_string(c));
  };
  const auto on = [&](bool fits, std::string_view where) -> std::optional<std::string> {
    if (fits) return std::nullopt;
    return fmt::format("{} runs on {}, not on {}", to_string(a), where, s.spec);
  };
  const bool cube = s.family == "hypercube" || (s.family == "complete" && power_of_two(s.nodes));
  // The group algorithms need a group of order 2 at least; one node is the trees' (0 steps).
  const auto group = [&](bool fits, std::string_view where) -> std::optional<std::string> {
    if (s.nodes < 2) {
      return fmt::format("{} needs two nodes or more; {} has {}: nothing to exchange", to_string(a), s.spec, s.nodes);
    }
    return on(fits, where);
  };
  switch (a) {
    case Algorithm::STAR: {
      if (auto no = computes({Collective::ALLREDUCE, Collective::ALLGATHER, Collective::REDUCESCATTER})) return no;
      if (auto no = on(s.family == "star", "star graphs (star:N)")) return no;
      if (c != Collective::ALLREDUCE && s.nodes > StarGraph::factorial(MAX_STAR_BLOCK_N)) {
        return fmt::format("the star {} is built up to star:{} (star:N moves N!·(N! − 1) chunks)", to_string(c),
                           MAX_STAR_BLOCK_N);
      }
      return std::nullopt;
    }
    case Algorithm::RECURSIVE_DOUBLING:
      if (auto no = computes({Collective::ALLREDUCE, Collective::ALLGATHER})) return no;
      if (c == Collective::ALLREDUCE) return on(s.family == "hypercube" || s.family == "complete", "hypercubes and complete graphs");
      return on(cube, "hypercubes and complete graphs of 2^k nodes");
    case Algorithm::RECURSIVE_HALVING:
      if (auto no = computes({Collective::REDUCESCATTER})) return no;
      return on(cube, "hypercubes and complete graphs of 2^k nodes");
    case Algorithm::RING:
      if (auto no = computes({Collective::ALLREDUCE, Collective::ALLGATHER, Collective::REDUCESCATTER})) return no;
      // One ring phase per dimension (generic/ring.hpp); a complete graph's one ring in id order.
      return on(s.family == "ring" || s.family == "torus" || (s.family == "complete" && s.nodes >= 2),
                "rings, tori (torus:AxBx…) and complete graphs");
    case Algorithm::BRUCK:
      if (auto no = computes({Collective::ALLGATHER, Collective::REDUCESCATTER, Collective::ALLTOALL})) return no;
      return group(s.family == "complete", "complete graphs");
    case Algorithm::UNIFORM:
      if (auto no = computes({Collective::ALLGATHER, Collective::REDUCESCATTER})) return no;
      return group(!s.cayley.empty(), CAYLEY_GRAPHS);
    case Algorithm::ONE_PACKET:
    case Algorithm::COMBINING:
      if (auto no = computes({Collective::ALLTOALL})) return no;
      return group(!s.cayley.empty(), CAYLEY_GRAPHS);
    case Algorithm::RING_SPLIT:
      if (auto no = computes({Collective::ALLREDUCE})) return no;
      return on(s.family == "ring" || s.family == "torus" || (s.family == "complete" && s.nodes >= 2),
                "rings, tori (torus:AxBx…) and complete graphs");
    case Algorithm::RABENSEIFNER:
      if (auto no = computes({Collective::ALLREDUCE})) return no;
      return on(cube, "hypercubes and complete graphs of 2^k nodes");
    case Algorithm::DIMENSION_ORDERED:
      if (auto no = computes({Collective::ALLREDUCE, Collective::ALLGATHER, Collective::REDUCESCATTER})) return no;
      return on(!dimension_factors(s.spec).empty(), "products and meshes of two sides or more");
    case Algorithm::BFS_TREE: return std::nullopt;
    case Algorithm::HIERARCHICAL:
      return "hierarchical runs among the hosts of a fat-tree or a dragonfly, as the network routes them (whatif: "
             "hierarchical.hpp)";
    case Algorithm::WEIGHTED_TREE:
    case Algorithm::SCHEDULE:
    case Algorithm::OPTIMAL: break;
  }
  return fmt::format("{} is not a built-in algorithm", to_string(a));
}

std::vector<Algorithm> algorithms_for(Collective c, const Shape& shape) {
  std::vector<Algorithm> out;
  for (const Algorithm a : BUILTINS) {
    if (!why_not(a, c, shape)) out.push_back(a);
  }
  return out;
}

std::vector<int> uniform_sequence(const CayleyGroup& g) {
  static std::mutex mutex;
  static std::map<std::string, std::vector<int>> found;  // per spec: searched once per process
  {
    const std::lock_guard lock(mutex);
    if (const auto it = found.find(g.spec()); it != found.end()) return it->second;
  }
  const int limit = g.family() == "star" ? static_cast<int>(star::allreduce_steps(g.n()))
                                         : static_cast<int>(g.order() - 1);
  auto r = optimal::uniform_exhaustive(g, limit, 0, UNIFORM_SEARCH_NODES);
  if (r.dimensions.empty()) r = optimal::uniform_beam(g, UNIFORM_BEAM_WIDTH, limit, 0);
  if (r.dimensions.empty()) throw ScheduleError(fmt::format("{}: no uniform gossip of at most {} steps found", g.spec(), limit));
  const std::lock_guard lock(mutex);
  return found.emplace(g.spec(), r.dimensions).first->second;
}

namespace {

/// Bruck's offsets 1, 2, 4, … < N of Z_N (complete:N names offset j as generator j).
std::vector<int> doubling_offsets(const CayleyGroup& g) {
  std::vector<int> offsets;
  for (std::uint64_t j = 1; j < g.order(); j *= 2) offsets.push_back(static_cast<int>(j));
  return offsets;
}

}  // namespace

ExchangePlan exchange_plan(Algorithm a, const CayleyGroup& g) {
  switch (a) {
    case Algorithm::ONE_PACKET: return one_packet_exchange(g);
    case Algorithm::COMBINING: return combining_exchange(g, uniform_sequence(g));
    case Algorithm::BRUCK: return combining_exchange(g, doubling_offsets(g));
    default: break;
  }
  throw ScheduleError(fmt::format("{} is not a total exchange on {}", to_string(a), g.spec()));
}

namespace {

/// The star graph @p t is, or one of the same n (node ids are ranks either way).
const StarGraph& star_of(const topology::Topology& t, const Shape& s, std::optional<StarGraph>& own) {
  if (const auto* g = dynamic_cast<const StarGraph*>(&t)) return *g;
  own.emplace(topology::star_dimension(topology::parse_spec(s.spec)));
  return *own;
}

Built build_word(Algorithm a, Collective c, const topology::Topology& t, const Shape& s, topology::NodeId root,
                 const emulator::PortModel& ports) {
  switch (a) {
    case Algorithm::RECURSIVE_DOUBLING: {
      const bool split = ports.half_duplex && ports.ports < 2;
      const auto plan = generic::recursive_doubling_folded_schedule(t, ports);
      const std::string folded = power_of_two(s.nodes) ? "" : "folded, ";
      return {sch::word_plan_schedule(plan, c, 0), folded + (split ? "split exchanges" : "exchanges")};
    }
    case Algorithm::RING: {
      const auto plan = generic::ring_schedule(t, shape_rings(s), ports);
      return {sch::word_plan_schedule(plan, c, 0), generic::to_string(generic::ring_variant(ports))};
    }
    case Algorithm::DIMENSION_ORDERED: return dimension_ordered(c, t, s.spec, root, ports);
    default: {
      const auto plan = generic::bfs_tree_schedule(t, root, c, ports.ports);
      return {sch::word_plan_schedule(plan.schedule, c, static_cast<std::uint32_t>(root)), generic::to_string(plan.rule)};
    }
  }
}

/// The all-gather of @p a (the reduce-scatters reverse it).
Built build_allgather(Algorithm a, const topology::Topology& t, const Shape& s, topology::NodeId root,
                      const emulator::PortModel& ports) {
  std::optional<StarGraph> own;
  switch (a) {
    case Algorithm::STAR: return {sch::star_broadcast_schedule(star_of(t, s, own)), "NODUP broadcast"};
    case Algorithm::RECURSIVE_DOUBLING:
    case Algorithm::RECURSIVE_HALVING: return {recursive_doubling_allgather(t), "exchanges"};
    case Algorithm::RING: {
      const bool both = generic::ring_variant(ports) == generic::RingVariant::BIDIRECTIONAL;
      return {ring_allgather(t, shape_rings(s), both), both ? "bidirectional" : "unidirectional"};
    }
    case Algorithm::BRUCK: {
      const auto g = CayleyGroup::of(s.cayley);
      return {optimal::uniform_schedule(g, doubling_offsets(g)), "offsets 1, 2, 4, …"};
    }
    case Algorithm::DIMENSION_ORDERED: return dimension_ordered(Collective::ALLGATHER, t, s.spec, root, ports);
    case Algorithm::UNIFORM: {
      const auto g = CayleyGroup::of(s.cayley);
      const auto sequence = uniform_sequence(g);
      return {optimal::uniform_schedule(g, sequence), fmt::format("{} steps", sequence.size())};
    }
    default: break;
  }
  generic::ParentRule rule{};
  auto tree = tree_collective(t, root, Collective::ALLGATHER, ports.ports, &rule);
  return {std::move(tree), generic::to_string(rule)};
}

}  // namespace

Built build(Algorithm a, Collective c, const topology::Topology& t, std::string_view spec, topology::NodeId root,
            const emulator::PortModel& ports) {
  const Shape s = shape_of(t, spec);
  if (auto why = why_not(a, c, s)) throw ScheduleError(*why);
  // The star all-gather and reduce-scatter have their own limit, MAX_STAR_BLOCK_N (why_not());
  // the log-step ones send N log N messages, not N², and go further.
  const bool log_step =
      a == Algorithm::RECURSIVE_DOUBLING || a == Algorithm::RECURSIVE_HALVING || a == Algorithm::RABENSEIFNER;
  const topology::NodeId limit = log_step ? MAX_HALVING_BLOCK_NODES : MAX_BLOCK_NODES;
  if (is_blocked(c) && a != Algorithm::STAR && s.nodes > limit) {
    throw ScheduleError(fmt::format("{} {} on {}: {} nodes; blocked collectives are built as schedules up to {} nodes",
                                    to_string(a), to_string(c), spec, s.nodes, limit));
  }
  if (a == Algorithm::RING_SPLIT || a == Algorithm::RABENSEIFNER) {
    if (s.nodes > limit) {
      throw ScheduleError(fmt::format("{} on {}: {} nodes; the split all-reduce (N blocks a node) is built up to {} nodes",
                                      to_string(a), spec, s.nodes, limit));
    }
    return split_allreduce(a, t, spec, ports);
  }
  if (c == Collective::ALLREDUCE && a == Algorithm::STAR) {
    std::optional<StarGraph> own;
    return {sch::star_allreduce_schedule(star_of(t, s, own)), "Oh-Choi-Primeaux"};
  }
  if (!is_blocked(c)) return build_word(a, c, t, s, root, ports);
  if (c == Collective::ALLGATHER) return build_allgather(a, t, s, root, ports);
  if (c == Collective::REDUCESCATTER) {
    auto b = build_allgather(a, t, s, root, ports);
    return {reverse_allgather(b.schedule), b.variant + ", reversed"};
  }
  if (c == Collective::ALLTOALL && a != Algorithm::BFS_TREE) {
    const auto g = CayleyGroup::of(s.cayley);
    const auto plan = exchange_plan(a, g);
    const std::string variant = a == Algorithm::ONE_PACKET ? fmt::format("status {}", plan.status)
                                                           : fmt::format("volume {}", plan.volume);
    return {exchange_schedule(g, plan), variant};
  }
  generic::ParentRule rule{};
  auto tree = tree_collective(t, root, c, ports.ports, &rule);
  return {std::move(tree), generic::to_string(rule)};
}

std::vector<optimal::Candidate> optimal_candidates(const topology::Topology& t, const std::string& spec,
                                                   optimal::Goal goal, topology::NodeId root,
                                                   const emulator::PortModel& ports) {
  const Shape shape = shape_of(t, spec);
  std::vector<optimal::Candidate> out;
  const auto collectives = goal == optimal::Goal::GOSSIP
                               ? std::vector<Collective>{Collective::ALLREDUCE, Collective::ALLGATHER}
                               : std::vector<Collective>{Collective::BROADCAST};
  for (const Collective c : collectives) {
    for (const Algorithm a : algorithms_for(c, shape)) {
      // The uniform gossip the search runs itself; the split all-reduces move N chunks, not one word.
      if (a == Algorithm::UNIFORM || a == Algorithm::RING_SPLIT || a == Algorithm::RABENSEIFNER) continue;
      try {
        out.push_back({to_string(a), build(a, c, t, spec, root, ports).schedule});
      } catch (const ScheduleError&) {
        // Beyond a builder's limits here.
      }
    }
  }
  return out;
}

}  // namespace starnet::algorithms::collectives

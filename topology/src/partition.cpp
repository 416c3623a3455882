// A balanced partition by METIS, repaired to exact halves of the processors (partition.hpp).
#include <starnet/topology/partition.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>
#include <metis.h>

#include <algorithm>
#include <deque>
#include <set>
#include <utility>

namespace starnet::topology {
namespace {

/// The platform as METIS takes it: symmetric adjacency in compressed rows, a pair of nodes once
/// per direction, weighted by the links between them as crossing_links() counts them (1, or 2 for
/// the arcs u→v and v→u of a directed platform).
struct WeightedGraph {
  std::vector<idx_t> xadj{0};
  std::vector<idx_t> adjncy;
  std::vector<idx_t> adjwgt;
  std::vector<idx_t> vwgt;  ///< 1 for a processor, 0 for a router
};

WeightedGraph weighted_graph(const Platform& platform) {
  const PlatformGraph& g = platform.graph();
  WeightedGraph w;
  std::vector<std::size_t> neighbours;
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    w.vwgt.push_back(g[v].role == Role::PROCESSOR ? 1 : 0);
    neighbours.clear();
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) neighbours.push_back(boost::target(e, g));
    // An undirected platform's out-arcs already hold every link; a directed one's in-arcs are links too.
    if (platform.directed()) {
      for (const auto e : boost::make_iterator_range(boost::in_edges(v, g))) neighbours.push_back(boost::source(e, g));
    }
    std::sort(neighbours.begin(), neighbours.end());
    for (std::size_t i = 0; i < neighbours.size(); ++i) {
      if (i > 0 && neighbours[i] == neighbours[i - 1]) {
        ++w.adjwgt.back();
      } else {
        w.adjncy.push_back(static_cast<idx_t>(neighbours[i]));
        w.adjwgt.push_back(1);
      }
    }
    w.xadj.push_back(static_cast<idx_t>(w.adjncy.size()));
  }
  return w;
}

/// METIS's 2-way partition, part[v] in {0, 1}. @throws SolverError when METIS fails.
std::vector<idx_t> metis_bisection(const Platform& platform, WeightedGraph& w) {
  idx_t nodes = static_cast<idx_t>(w.vwgt.size());
  idx_t constraints = 1;
  idx_t parts = 2;
  idx_t objective = 0;  // METIS's own count: unused, the cut is counted from the partition
  std::vector<idx_t> part(w.vwgt.size(), 0);
  std::vector<idx_t> options(METIS_NOPTIONS);
  METIS_SetDefaultOptions(options.data());
  options[METIS_OPTION_SEED] = PARTITION_SEED;
  options[METIS_OPTION_NCUTS] = PARTITION_TRIES;
  options[METIS_OPTION_NUMBERING] = 0;
  const int status = METIS_PartGraphRecursive(&nodes, &constraints, w.xadj.data(), w.adjncy.data(), w.vwgt.data(),
                                              nullptr, w.adjwgt.data(), &parts, nullptr, nullptr, options.data(),
                                              &objective, part.data());
  if (status != METIS_OK) {
    throw SolverError(fmt::format("topology \"{}\": METIS failed to partition its {} nodes (status {}: {})",
                                  platform.name(), nodes, status,
                                  status == METIS_ERROR_MEMORY ? "out of memory"
                                  : status == METIS_ERROR_INPUT ? "input rejected"
                                                                : "error"));
  }
  return part;
}

/// Links saved by moving @p v to the other side: its links across minus its links on its side.
long long gain(const WeightedGraph& w, const std::vector<int>& side, std::size_t v) {
  long long g = 0;
  for (auto i = w.xadj[v]; i < w.xadj[v + 1]; ++i) {
    g += side[static_cast<std::size_t>(w.adjncy[i])] != side[v] ? w.adjwgt[i] : -w.adjwgt[i];
  }
  return g;
}

/// Moves @p moves processors off side @p from, each time the one of highest gain (lowest id on a
/// tie), the gains of its neighbours on that side updated: a move makes each of their links to it
/// cross, 2·weight more saved.
void move_processors(const WeightedGraph& w, std::vector<int>& side, int from, std::size_t moves) {
  std::vector<long long> gains(side.size(), 0);
  std::set<std::pair<long long, std::size_t>> heap;  // (−gain, v): the first is the next move
  for (std::size_t v = 0; v < side.size(); ++v) {
    if (side[v] == from && w.vwgt[v] > 0) {
      gains[v] = gain(w, side, v);
      heap.emplace(-gains[v], v);
    }
  }
  for (std::size_t m = 0; m < moves; ++m) {
    const std::size_t v = heap.begin()->second;
    heap.erase(heap.begin());
    side[v] = 1 - from;
    for (auto i = w.xadj[v]; i < w.xadj[v + 1]; ++i) {
      const auto u = static_cast<std::size_t>(w.adjncy[i]);
      if (side[u] != from || w.vwgt[u] == 0) continue;
      heap.erase({-gains[u], u});
      gains[u] += 2 * static_cast<long long>(w.adjwgt[i]);
      heap.emplace(-gains[u], u);
    }
  }
}

/// Moves routers (weight 0: the halves stay as they are) while one cuts fewer links on the other
/// side. Each move saves at least one link, so this ends; a router is looked at again only when a
/// neighbour moved.
void move_routers(const WeightedGraph& w, std::vector<int>& side) {
  std::deque<std::size_t> queue;
  std::vector<bool> queued(side.size(), false);
  for (std::size_t v = 0; v < side.size(); ++v) {
    if (w.vwgt[v] == 0) {
      queue.push_back(v);
      queued[v] = true;
    }
  }
  while (!queue.empty()) {
    const std::size_t v = queue.front();
    queue.pop_front();
    queued[v] = false;
    if (gain(w, side, v) <= 0) continue;
    side[v] = 1 - side[v];
    for (auto i = w.xadj[v]; i < w.xadj[v + 1]; ++i) {
      const auto u = static_cast<std::size_t>(w.adjncy[i]);
      if (w.vwgt[u] == 0 && !queued[u]) {
        queue.push_back(u);
        queued[u] = true;
      }
    }
  }
}

}  // namespace

std::uint64_t crossing_links(const Platform& platform, std::span<const int> side) {
  STARNET_ASSERT(side.size() == platform.num_nodes());
  const PlatformGraph& g = platform.graph();
  std::uint64_t cut = 0;
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    const auto u = boost::source(e, g);
    const auto v = boost::target(e, g);
    // Undirected: the link's two arcs count once, as the arc from the lower id.
    if (side[u] != side[v] && (platform.directed() || u < v)) ++cut;
  }
  return cut;
}

BalancedPartition balanced_partition(const Platform& platform) {
  if (platform.num_nodes() > MAX_PARTITION_NODES) {
    throw TopologyError(fmt::format("topology \"{}\": {} nodes, too many to partition (at most {})", platform.name(),
                                    platform.num_nodes(), MAX_PARTITION_NODES));
  }
  WeightedGraph w = weighted_graph(platform);
  const auto processors = static_cast<std::size_t>(std::count(w.vwgt.begin(), w.vwgt.end(), 1));
  BalancedPartition out;
  out.side.assign(platform.num_nodes(), 0);
  // With fewer than two processors, or no links, every balanced split cuts nothing METIS could save.
  if (processors >= 2 && !w.adjncy.empty()) {
    const auto part = metis_bisection(platform, w);
    std::transform(part.begin(), part.end(), out.side.begin(), [](idx_t p) { return p == 0 ? 0 : 1; });
  }
  std::size_t on_zero = 0;
  for (std::size_t v = 0; v < out.side.size(); ++v) on_zero += w.vwgt[v] > 0 && out.side[v] == 0 ? 1 : 0;
  const std::size_t low = processors / 2;
  const std::size_t high = processors - low;
  if (on_zero > high) move_processors(w, out.side, 0, on_zero - high);
  if (on_zero < low) move_processors(w, out.side, 1, low - on_zero);
  move_routers(w, out.side);
  out.cut = crossing_links(platform, out.side);
  return out;
}

std::optional<Bisection> partition_bisection(const Platform& platform) {
  if (platform.num_nodes() > MAX_PARTITION_NODES) return std::nullopt;
  const BalancedPartition part = balanced_partition(platform);
  const bool one = part.cut == 1;
  return Bisection{part.cut, false,
                   fmt::format("upper bound: a balanced partition by METIS (Karypis and Kumar, 1998), {} {}{} {}{}",
                               part.cut, platform.directed() ? "arc" : "link", one ? "" : "s", one ? "crosses" : "cross",
                               platform.directed() ? " (either way)" : "")};
}

}  // namespace starnet::topology

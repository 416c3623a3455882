// Breadth-first search over the implicit S_n (no adjacency list): the time and memory a user
// pays to get the distance histogram of a star graph. And one neighbour from a rank, as every
// send of the star collectives asks for it: from the digits alone, against decoding the label.
#include <starnet/topology/star_graph.hpp>

#include <benchmark/benchmark.h>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/two_bit_color_map.hpp>

#include <cstdint>
#include <vector>

namespace {

class DistanceRecorder : public boost::default_bfs_visitor {
 public:
  explicit DistanceRecorder(std::vector<std::uint8_t>& d) : d_(d) {}
  void tree_edge(const starnet::topology::StarEdge& e, const starnet::topology::StarGraph&) const {
    d_[e.target] = static_cast<std::uint8_t>(d_[e.source] + 1);
  }

 private:
  std::vector<std::uint8_t>& d_;
};

void BM_StarGraphBfs(benchmark::State& state) {
  const starnet::topology::StarGraph g(static_cast<int>(state.range(0)));
  int diameter = 0;
  for (auto _ : state) {
    std::vector<std::uint8_t> d(g.size(), 0);
    boost::two_bit_color_map<boost::typed_identity_property_map<std::uint32_t>> colors(g.size());
    boost::breadth_first_search(g, 0U, boost::visitor(DistanceRecorder(d)).color_map(colors));
    diameter = 0;
    for (const auto x : d) diameter = x > diameter ? x : diameter;
  }
  state.counters["nodes"] = static_cast<double>(g.size());
  state.counters["diameter"] = diameter;
  state.counters["nodes_per_second"] =
      benchmark::Counter(static_cast<double>(g.size()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_StarGraphBfs)->Arg(8)->Arg(9)->Arg(10)->Unit(benchmark::kMillisecond);

/// Every node's neighbour along one link, k = 2..n in turn: the sends of one all-reduce step.
template <bool ViaLabel>
void BM_StarNeighbor(benchmark::State& state) {
  const starnet::topology::StarGraph g(static_cast<int>(state.range(0)));
  const int n = g.n();
  std::uint64_t sum = 0;
  std::uint32_t v = 0;
  int k = 2;
  for (auto _ : state) {
    if constexpr (ViaLabel) {
      sum += g.neighbor_along(v, g.label(v), k);
    } else {
      sum += g.neighbor_along(v, k);
    }
    v = v + 1 == g.size() ? 0 : v + 1;
    k = k == n ? 2 : k + 1;
  }
  benchmark::DoNotOptimize(sum);
}
BENCHMARK(BM_StarNeighbor<false>)->Name("BM_StarNeighborFromDigits")->Arg(10)->Arg(12);
BENCHMARK(BM_StarNeighbor<true>)->Name("BM_StarNeighborViaLabel")->Arg(10)->Arg(12);

}  // namespace

#include <starnet/core/error.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <array>
#include <bit>
#include <cstddef>
#include <utility>

namespace starnet::topology {
namespace {

constexpr std::array<std::uint64_t, 13> FACTORIALS = {1,       1,        2,         6,          24,
                                                      120,     720,      5040,      40320,      362880,
                                                      3628800, 39916800, 479001600};

using Below = std::array<std::int32_t, StarGraph::MAX_N>;

/// i_j = j − c_j for j = 1..K−1, the digits a neighbour along link K depends on (those of the
/// positions ≥ K stay), peeled from the low end of @p rest with constant divisors; the other
/// MAX_N − K digits would cost as much again on average (callgrind, docs/emulator.md "Scale").
template <std::size_t K>
void digits_below(std::uint32_t rest, Below& below) {
  for (std::uint32_t j = 1; j < K; ++j) {
    below[j] = static_cast<std::int32_t>(j - rest % (j + 1));
    rest /= j + 1;
  }
}

template <std::size_t... K>
constexpr auto digits_below_table(std::index_sequence<K...> /*links*/) {
  return std::array{&digits_below<K>...};
}

/// digits_below<K> by K = 0..MAX_N.
constexpr auto DIGITS_BELOW = digits_below_table(std::make_index_sequence<StarGraph::MAX_N + 1>{});

}  // namespace

StarGraph::StarGraph(int n) : n_(n), size_(0) {
  if (n < 1 || n > MAX_N) {
    throw TopologyError(fmt::format("star graph dimension n = {} is out of range (must be 1..{}: S_{} would "
                                    "have {} nodes, more than starnet emulates)",
                                    n, MAX_N, MAX_N + 1, "6,227,020,800"));
  }
  size_ = static_cast<std::uint32_t>(FACTORIALS[static_cast<std::size_t>(n)]);
}

std::uint64_t StarGraph::factorial(int m) {
  STARNET_ASSERT(m >= 0 && m <= MAX_N);
  return FACTORIALS[static_cast<std::size_t>(m)];
}

// Position j (0-based) holds digit c_j = #{i < j : label[i] > label[j]}, and rank = Σ c_j·j!, so
// the identity has rank 0.
// Sub-star S_m fixes positions m..n-1, hence the digits of weight ≥ m!: a contiguous range.
StarGraph::Label StarGraph::label(vertex_descriptor v) const {
  STARNET_ASSERT(v < size_);
  // Mixed-radix digits c_j = (v / j!) mod (j+1), peeled from the low end: the loop bound is a
  // constant, so every division is by a constant (a multiplication), which halves BFS time.
  std::array<std::uint32_t, MAX_N> digit{};
  for (std::uint32_t j = 1; j < static_cast<std::uint32_t>(MAX_N); ++j) {
    digit[j] = v % (j + 1);
    v /= j + 1;
  }
  Label out{};
  std::uint32_t used = 0;  // bit s set: symbol s+1 already placed (at a higher position)
  for (int j = n_ - 1; j >= 0; --j) {
    auto c = digit[static_cast<std::size_t>(j)];
    // The c-th largest symbol among the unused ones (the unused symbols are those at positions ≤ j).
    int s = n_ - 1;
    for (;; --s) {
      if ((used >> s & 1U) == 0) {
        if (c == 0) break;
        --c;
      }
    }
    used |= 1U << s;
    out[static_cast<std::size_t>(j)] = static_cast<std::uint8_t>(s + 1);
  }
  return out;
}

// c_j counts the larger symbols among those already seen, one popcount per position: O(n). The
// implicit searches over pancake, bubble-sort and transposition graphs (arrangement_graph.hpp)
// rank every neighbour of every node this way.
StarGraph::vertex_descriptor StarGraph::rank(const Label& label) const {
  std::uint32_t r = 0;
  std::uint32_t seen = 1U << label[0];  // bit s: symbol s is at a position before j
  for (int j = 1; j < n_; ++j) {
    const std::uint32_t s = label[static_cast<std::size_t>(j)];
    const auto c = static_cast<std::uint32_t>(std::popcount(seen >> s));
    r += c * static_cast<std::uint32_t>(FACTORIALS[static_cast<std::size_t>(j)]);
    seen |= 1U << s;
  }
  return r;
}

// The same update as below, from the digits alone: the relative order of the first k symbols is
// all it needs, and the digits c_1..c_{k-1} give it one position at a time. With i_j = j − c_j
// (how many of l_0..l_{j-1} are smaller than l_j):
//   l_j < a  ⇔  i_j ≤ ρ, where ρ counts the symbols smaller than a among l_1..l_{j-1} (forward);
//   l_j < b  ⇔  i_j < τ, where τ counts the symbols smaller than b among l_0..l_j (backward from
//   τ = (k−1) − c_{k−1}, which ends at τ = [a < b]).
// No label is built: one send of the star all-reduce costs a neighbour, and label() spends its
// time placing all n symbols (15 % of an S_9 run, perf).
StarGraph::vertex_descriptor StarGraph::neighbor_along(vertex_descriptor v, int k) const {
  STARNET_ASSERT(v < size_ && k >= 2 && k <= n_);
  Below below{};  // i_j
  DIGITS_BELOW[static_cast<std::size_t>(k)](v, below);
  std::uint32_t smaller_than_b = 0;  // bit j: l_j < b
  std::int32_t tau = below[static_cast<std::size_t>(k - 1)];
  for (int j = k - 2; j >= 1; --j) {
    if (below[static_cast<std::size_t>(j)] < tau) {
      smaller_than_b |= 1U << j;
      --tau;
    }
  }
  std::int32_t rho = 0;
  std::int64_t delta = 0;
  int s_sum = 0;
  for (int j = 1; j <= k - 2; ++j) {
    const bool below_a = below[static_cast<std::size_t>(j)] <= rho;
    rho += below_a ? 1 : 0;
    const int s = static_cast<int>(smaller_than_b >> j & 1U) - static_cast<int>(below_a);
    s_sum += s;
    delta += s * static_cast<std::int64_t>(FACTORIALS[static_cast<std::size_t>(j)]);
  }
  delta += ((tau == 1 ? 1 : -1) + s_sum) * static_cast<std::int64_t>(FACTORIALS[static_cast<std::size_t>(k - 1)]);
  return static_cast<vertex_descriptor>(static_cast<std::int64_t>(v) + delta);
}

// Swapping a = l[0] and b = l[k-1] changes only the digits c_1..c_{k-1}. With
// s_j = [b > l_j] - [a > l_j] for 1 ≤ j ≤ k-2 (l_j is neither a nor b):
//   c_j     gains s_j                              (l_0 = a is replaced by b before position j),
//   c_{k-1} gains sign(b - a) + Σ_{j=1}^{k-2} s_j  (the symbol at k-1 becomes a, l_0 becomes b),
// and the digits of positions ≥ k keep their sets of predecessors. Hence the O(k) update below.
StarGraph::vertex_descriptor StarGraph::neighbor_along(vertex_descriptor v, const Label& label, int k) const {
  STARNET_ASSERT(k >= 2 && k <= n_);
  const int a = label[0];
  const int b = label[static_cast<std::size_t>(k - 1)];
  std::int64_t delta = 0;
  int s_sum = 0;
  for (int j = 1; j <= k - 2; ++j) {
    const int l = label[static_cast<std::size_t>(j)];
    const int s = static_cast<int>(b > l) - static_cast<int>(a > l);
    s_sum += s;
    delta += s * static_cast<std::int64_t>(FACTORIALS[static_cast<std::size_t>(j)]);
  }
  delta += ((b > a ? 1 : -1) + s_sum) * static_cast<std::int64_t>(FACTORIALS[static_cast<std::size_t>(k - 1)]);
  return static_cast<vertex_descriptor>(static_cast<std::int64_t>(v) + delta);
}

StarGraph::vertex_descriptor StarGraph::substar_begin(vertex_descriptor v, int m) const {
  STARNET_ASSERT(m >= 0 && m <= n_);
  const auto f = static_cast<std::uint32_t>(FACTORIALS[static_cast<std::size_t>(m)]);
  return v - v % f;
}

int StarGraph::last_symbol(vertex_descriptor v) const { return label(v)[static_cast<std::size_t>(n_ - 1)]; }

std::string StarGraph::label_string(vertex_descriptor v) const { return label_text(label(v), n_, n_); }

std::string StarGraph::label_text(const Label& label, int length, int n) {
  std::string out;
  for (int j = 0; j < length; ++j) {
    if (n > 9 && j > 0) out += '.';
    out += std::to_string(label[static_cast<std::size_t>(j)]);
  }
  return out;
}

std::string StarGraph::name() const { return "star:" + std::to_string(n_); }

NodeId StarGraph::neighbor(NodeId v, Port port) const {
  return neighbor_along(static_cast<vertex_descriptor>(v), dimension_of(port));
}

Port StarGraph::find_port(NodeId v, NodeId u) const {
  for (int k = 2; k <= n_; ++k) {
    if (neighbor_along(static_cast<vertex_descriptor>(v), k) == u) return port_of(k);
  }
  return NO_PORT;
}

std::string StarGraph::link_name(NodeId, Port port) const { return "link " + std::to_string(dimension_of(port)); }

}  // namespace starnet::topology

// The bisection width of the families that have a formula, or a cut that bounds it (bisection.hpp).
#include <starnet/topology/bisection.hpp>
#include <starnet/topology/families.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace starnet::topology {
namespace {

std::uint64_t count(const Spec& spec) { return std::stoull(spec.argument); }

/// Tori and meshes: a cut across an even side k halves every line along it, crossing each of the
/// N/k lines once (mesh) or twice (torus); the longest even side gives the fewest. Exact for equal
/// even sides; none when every side is odd (no such cut halves the nodes).
std::optional<Bisection> grid(const Spec& spec, bool torus) {
  const auto sides = grid_sides(spec);
  const std::uint64_t nodes = std::accumulate(sides.begin(), sides.end(), std::uint64_t{1},
                                              [](std::uint64_t a, int b) { return a * static_cast<std::uint64_t>(b); });
  std::uint64_t k = 0;
  for (const int side : sides) {
    if (side % 2 == 0) k = std::max(k, static_cast<std::uint64_t>(side));
  }
  if (k == 0) return std::nullopt;
  const bool exact = std::all_of(sides.begin(), sides.end(), [&](int s) { return static_cast<std::uint64_t>(s) == k; });
  // A ring of 2 nodes is one link, not two.
  const std::uint64_t per_line = torus && k > 2 ? 2 : 1;
  if (exact) {
    return Bisection{per_line * (nodes / k), true,
                     fmt::format("{}·k^(n−1), k = {} (Dally and Towles, Principles and Practices of Interconnection "
                                 "Networks, 2004, §3.3)",
                                 per_line, k)};
  }
  return Bisection{per_line * (nodes / k), false,
                   fmt::format("upper bound: a cut across the side of {}, {}·N/{}", k, per_line, k)};
}

/// Dragonfly: the groups in two halves; every pair of groups has one global link. With an odd
/// number of groups the middle one is split by routers, a/2 on each side (a even), and its global
/// links stay on their side in the absolute and relative arrangements (datacenter.cpp: its first
/// a/2 routers hold the links to the lower groups, absolute, or to the higher ones, relative, and
/// sit on that side), so only its local links between the halves cross. None for an odd a with an
/// odd number of groups, nor for the circulant arrangement then (its routers hold links both ways).
std::optional<Bisection> dragonfly(const Spec& spec) {
  const auto s = dragonfly_shape(spec);
  const auto a = static_cast<std::uint64_t>(s.routers);
  const std::uint64_t groups = a * static_cast<std::uint64_t>(s.global) + 1;
  const std::uint64_t half = groups / 2;
  if (groups % 2 == 0) {
    return Bisection{half * half, false, fmt::format("upper bound: {} groups against {}, their global links", half, half)};
  }
  if (a % 2 == 1 || s.arrangement == GlobalArrangement::CIRCULANT) return std::nullopt;
  return Bisection{half * half + (a / 2) * (a / 2), false,
                   fmt::format("upper bound: {} groups and half the routers of the middle one on each side: the "
                               "global links between the halves, the middle group's local links across",
                               half)};
}

}  // namespace

std::optional<Bisection> bisection_width(std::string_view text) {
  const Spec spec = parse_spec(text);
  const std::string& f = spec.family;
  if (f == "hypercube") {
    const auto d = count(spec);
    return Bisection{d == 0 ? 0 : std::uint64_t{1} << (d - 1), true,
                     "2^(D−1) (Leighton, Introduction to Parallel Algorithms and Architectures, 1992, §3.1)"};
  }
  if (f == "ring") {
    const auto n = count(spec);
    return Bisection{std::uint64_t{n < 2 ? 0U : n == 2 ? 1U : 2U}, true, "2: a cycle crossed twice by any split of its nodes"};
  }
  if (f == "complete") {
    const auto n = count(spec);
    return Bisection{(n / 2) * (n - n / 2), true, "⌊N/2⌋·⌈N/2⌉: every pair across the halves is a link"};
  }
  if (f == "torus" || f == "mesh") return grid(spec, f == "torus");
  if (f == "fattree") {
    const auto k = static_cast<std::uint64_t>(fattree_arity(spec));
    return Bisection{k * k * k / 8, true,
                     "K³/8, half the hosts: full bisection (Al-Fares, Loukissas, Vahdat, SIGCOMM 2008)"};
  }
  if (f == "dragonfly") return dragonfly(spec);
  if (f == "star") {
    // Even n: the sub-stars whose last symbol is among the first n/2 against the rest; only links
    // along dimension n change the last symbol, and one crosses when the first symbol is on the
    // other side: (n/2)·(n−1)! nodes, a fraction (n/2)/(n−1) of them, (n−2)!·(n/2)² links.
    const auto n = static_cast<std::uint64_t>(star_dimension(spec));
    if (n % 2 == 1) return std::nullopt;
    std::uint64_t links = (n / 2) * (n / 2);
    for (std::uint64_t i = 2; i + 2 <= n; ++i) links *= i;
    return Bisection{links, false, "upper bound: the sub-stars by last symbol in two halves, (n−2)!·(n/2)²"};
  }
  return std::nullopt;
}

}  // namespace starnet::topology

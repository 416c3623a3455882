#include <starnet/algorithms/generic/bounds.hpp>
#include <starnet/algorithms/optimal/step_bounds.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace starnet::algorithms::optimal {

namespace {

constexpr std::uint64_t SATURATED = std::uint64_t{1} << 62;
/// Steps beyond which the degree-limited count is not followed (it has saturated long before).
constexpr std::uint64_t MAX_COUNTED_STEPS = 4096;

}  // namespace

std::uint64_t degree_limited_informed(std::uint64_t steps, unsigned k, std::uint64_t degree, ArcsBack back) {
  // waiting[c]: informed nodes that may still send c more messages. The root may send d, every
  // other node d − 1 where the arc back to its informer is among its own, else d.
  const std::uint64_t informed_sends = back == ArcsBack::EVERY_ARC && degree >= 1 ? degree - 1 : degree;
  std::vector<std::uint64_t> waiting(degree + 1, 0);
  waiting[degree] = 1;
  std::uint64_t informed = 1;
  for (std::uint64_t t = 0; t < steps && informed < SATURATED; ++t) {
    std::vector<std::uint64_t> next(degree + 1, 0);
    std::uint64_t fresh = 0;
    for (std::uint64_t c = 1; c <= degree; ++c) {
      const std::uint64_t sent = std::min<std::uint64_t>(k, c);
      fresh = std::min(SATURATED, fresh + waiting[c] * sent);
      next[c - sent] = std::min(SATURATED, next[c - sent] + waiting[c]);
    }
    next[0] += waiting[0];
    next[informed_sends] = std::min(SATURATED, next[informed_sends] + fresh);
    informed = std::min(SATURATED, informed + fresh);
    waiting = std::move(next);
  }
  return informed;
}

ArcsBack arcs_back(const topology::Topology& t) {
  for (topology::NodeId v = 0; v < t.num_nodes(); ++v) {
    for (topology::Port p = 0; p < t.degree(v); ++p) {
      if (!t.port_to(t.neighbor(v, p), v)) return ArcsBack::NOT_EVERY;
    }
  }
  return ArcsBack::EVERY_ARC;
}

Goal goal_of(Collective c) {
  if (c == Collective::ALLGATHER || c == Collective::ALLREDUCE) return Goal::GOSSIP;
  if (c == Collective::BROADCAST || c == Collective::REDUCE) return Goal::BROADCAST;
  throw UsageError(Setting{"collective", to_string(c)},
                   "expected gossip (allgather), allreduce (messages of several values: the same search), broadcast "
                   "or reduce (a broadcast reversed)");
}

Collective builtin_collective(Goal g) { return g == Goal::GOSSIP ? Collective::ALLREDUCE : Collective::BROADCAST; }

std::vector<NamedBound> step_bounds(const topology::Topology& t, Goal goal, topology::NodeId root,
                                    const emulator::PortModel& ports, bool vertex_transitive) {
  const auto n = t.num_nodes();
  std::vector<NamedBound> out;
  std::uint64_t distance = 0;
  if (goal == Goal::GOSSIP) {
    const auto d = generic::diameter(t, false, vertex_transitive);
    distance = static_cast<std::uint64_t>(d.value.num());
    out.push_back({"distance", distance, d.exact ? "the diameter: an item moves one link per step"
                                                 : "a lower estimate of the diameter"});
  } else {
    distance = static_cast<std::uint64_t>(generic::eccentricity(t, root, false).num());
    out.push_back({"distance", distance, "the root's eccentricity: the item moves one link per step"});
  }
  const auto counting = generic::step_lower_bound(
      builtin_collective(goal), ports, n, distance);
  out.push_back({"counting", counting.counting,
                 fmt::format("⌈log_{} N⌉{}: the informed sets grow at most {}-fold per step", ports.ports + 1,
                             goal == Goal::GOSSIP && ports.half_duplex && ports.ports == 1 ? " + 1" : "",
                             ports.ports + 1)});
  std::uint64_t degree = 0;
  for (topology::NodeId v = 0; v < n; ++v) degree = std::max<std::uint64_t>(degree, t.degree(v));
  const ArcsBack back = arcs_back(t);
  std::uint64_t steps = 0;
  while (steps < MAX_COUNTED_STEPS && degree_limited_informed(steps, ports.ports, degree, back) < n) ++steps;
  out.push_back({"degree-limited", steps,
                 fmt::format("at most {} message{} per step and {} per node in all{} (Bermond, Hell, Liestman, "
                             "Peters 1992)",
                             ports.ports, ports.ports == 1 ? "" : "s", degree,
                             back == ArcsBack::EVERY_ARC ? "" : ", some arcs one-way")});
  if (goal == Goal::GOSSIP && ports.half_duplex && ports.ports == 1 && n > 1) {
    const double phi = (1 + std::sqrt(5.0)) / 2;
    // ⌈log_φ N⌉ in floating point, corrected so that φ^(b−1) < N ≤ φ^b holds exactly enough.
    auto b = static_cast<std::uint64_t>(std::ceil(std::log(static_cast<double>(n)) / std::log(phi) - 1e-9));
    out.push_back({"fibonacci", b, "⌈log_φ N⌉ for half-duplex gossip (Krumme, Cybenko, Venkataraman 1992)"});
  }
  return out;
}

}  // namespace starnet::algorithms::optimal

#include <starnet/algorithms/collectives/exchange_search.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <unordered_map>

namespace starnet::algorithms::collectives {

namespace {

using Clock = std::chrono::steady_clock;

/// Most 16-bit words of the states of one exhaustive layer (64 MB).
constexpr std::uint64_t MAX_LAYER_WORDS = std::uint64_t{32} << 20;

struct State {
  std::vector<std::uint16_t> d;  // route length of every offset (INFINITE_HOPS: none yet)
  std::vector<int> path;
  std::uint64_t reached = 0;  // offsets with a route, the identity included
  std::uint64_t volume = 0;   // Σ d over them
  std::uint64_t promise = 0;  // volume + Σ distance over the others: what the state may still reach
  int next_new = 0;
};

/// 2^64/φ: spreads the small next_new over the word (Fibonacci hashing).
constexpr std::uint64_t GOLDEN_RATIO_64 = 0x9E3779B97F4A7C15ULL;
/// The 64-bit FNV-1a prime: each route length is mixed in FNV-1a style.
constexpr std::uint64_t FNV_PRIME_64 = 0x100000001B3ULL;

std::uint64_t hash_of(const State& s) {
  std::uint64_t h = static_cast<std::uint64_t>(s.next_new) * GOLDEN_RATIO_64;
  for (const auto x : s.d) h = (h ^ x) * FNV_PRIME_64;
  return h;
}

/// The children of every state of @p layer, in (state, generator) order, computed in parallel.
std::vector<State> expand(const CayleyGroup& g, const RightTables& right, const Geodesics& geo,
                          const std::vector<State>& layer) {
  std::vector<std::pair<std::size_t, int>> moves;
  for (std::size_t i = 0; i < layer.size(); ++i) {
    for (int k = g.first(); k <= std::min(layer[i].next_new, g.last()); ++k) moves.emplace_back(i, k);
  }
  std::vector<State> children(moves.size());
  std::vector<char> useful(moves.size(), 0);
  tbb::parallel_for(std::size_t{0}, moves.size(), [&](std::size_t m) {
    const auto& [i, k] = moves[m];
    const State& parent = layer[i];
    State& c = children[m];
    c.d.resize(parent.d.size());
    exchange_step(right, k, parent.d, c.d);
    if (c.d == parent.d) return;  // a step that shortens no route
    for (std::size_t h = 0; h < c.d.size(); ++h) {
      if (c.d[h] == INFINITE_HOPS) {
        c.promise += geo.dist[h];
      } else {
        ++c.reached;
        c.volume += c.d[h];
      }
    }
    c.promise += c.volume;
    c.path = parent.path;
    c.path.push_back(k);
    c.next_new = k == parent.next_new && k < g.last() ? parent.next_new + 1 : parent.next_new;
    useful[m] = 1;
  });
  std::vector<State> out;
  out.reserve(moves.size());
  for (std::size_t m = 0; m < moves.size(); ++m) {
    if (useful[m]) out.push_back(std::move(children[m]));
  }
  return out;
}

/// One state per distinct (routes, next unused generator), the first met.
std::vector<State> distinct(std::vector<State> states) {
  std::unordered_multimap<std::uint64_t, std::size_t> seen;
  std::vector<State> out;
  out.reserve(states.size());
  for (auto& s : states) {
    const auto h = hash_of(s);
    const auto [begin, end] = seen.equal_range(h);
    const bool repeat = std::any_of(begin, end, [&](const auto& e) {
      return out[e.second].next_new == s.next_new && out[e.second].d == s.d;
    });
    if (repeat) continue;
    seen.emplace(h, out.size());
    out.push_back(std::move(s));
  }
  return out;
}

/// The beam: half the width by coverage, half by promise (file comment of the header).
std::vector<State> beam(std::vector<State> states, std::size_t width) {
  if (states.size() <= width) return states;
  std::vector<std::size_t> by_coverage(states.size());
  for (std::size_t i = 0; i < states.size(); ++i) by_coverage[i] = i;
  auto by_promise = by_coverage;
  const auto coverage = [&states](std::size_t a, std::size_t b) {
    const auto& x = states[a];
    const auto& y = states[b];
    if (x.reached != y.reached) return x.reached > y.reached;
    if (x.volume != y.volume) return x.volume < y.volume;
    return x.path < y.path;
  };
  const auto promise = [&states](std::size_t a, std::size_t b) {
    const auto& x = states[a];
    const auto& y = states[b];
    if (x.promise != y.promise) return x.promise < y.promise;
    if (x.reached != y.reached) return x.reached > y.reached;
    return x.path < y.path;
  };
  std::sort(by_coverage.begin(), by_coverage.end(), coverage);
  std::sort(by_promise.begin(), by_promise.end(), promise);
  std::vector<char> taken(states.size(), 0);
  std::vector<State> out;
  for (std::size_t i = 0; i < width / 2 + width % 2; ++i) taken[by_coverage[i]] = 1;
  for (std::size_t i = 0, more = width / 2; i < by_promise.size() && more > 0; ++i) {
    if (!taken[by_promise[i]]) taken[by_promise[i]] = 1, --more;
  }
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (taken[i]) out.push_back(std::move(states[i]));
  }
  return out;
}

}  // namespace

ParetoFront exchange_pareto(const CayleyGroup& g, const ParetoOptions& o) {
  const auto start = Clock::now();
  const auto deadline = optimal::deadline_after(o.seconds, start);
  const RightTables right(g);
  const auto geo = geodesics(g, right);
  ParetoFront front;
  front.status = geo.status();
  const auto n = static_cast<std::size_t>(g.order());
  const std::uint64_t deepest =
      std::min<std::uint64_t>(o.max_steps > 0 ? std::min(o.max_steps, front.status) : front.status, INFINITE_HOPS - 1);
  const std::uint64_t exhaustive_states = std::min<std::uint64_t>(o.max_states, MAX_LAYER_WORDS / n);
  State first;
  first.d.assign(n, INFINITE_HOPS);
  first.d[0] = 0;
  first.reached = 1;
  first.promise = front.status;
  first.next_new = g.interchangeable() ? g.first() : g.last();
  std::vector<State> layer{std::move(first)};
  bool exhaustive = exhaustive_states > 0;
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  for (std::uint64_t t = 1; t <= deepest && !layer.empty(); ++t) {
    throw_if_stopped("the total exchange search");
    if (deadline && Clock::now() >= *deadline) {
      front.timed_out = true;
      break;
    }
    auto children = distinct(expand(g, right, geo, layer));
    front.explored += children.size();
    const State* complete = nullptr;
    for (const auto& c : children) {
      if (c.reached == n && (complete == nullptr || c.volume < complete->volume ||
                             (c.volume == complete->volume && c.path < complete->path))) {
        complete = &c;
      }
    }
    if (complete != nullptr && complete->volume < best) {
      best = complete->volume;
      front.points.push_back({complete->path, complete->volume, exhaustive});
      progress_detail(fmt::format("{} steps: volume {} (status {})", t, best, front.status));
      if (best == front.status) {
        front.reached_status = true;
        break;
      }
    }
    exhaustive = exhaustive && children.size() <= exhaustive_states;
    layer = exhaustive ? std::move(children) : beam(std::move(children), o.beam_width);
  }
  front.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return front;
}

}  // namespace starnet::algorithms::collectives

#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/arrangement_graph.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/star_graph.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/core/interrupt.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <functional>
#include <unordered_map>

#include <tbb/parallel_for.h>

namespace starnet::algorithms::optimal {

using topology::StarGraph;
using Clock = std::chrono::steady_clock;

namespace {

/// The digits of x in the mixed radix @p moduli, first most significant.
std::vector<std::uint32_t> digits(std::uint32_t x, const std::vector<std::uint32_t>& moduli) {
  std::vector<std::uint32_t> d(moduli.size());
  for (std::size_t i = moduli.size(); i-- > 0;) {
    d[i] = x % moduli[i];
    x /= moduli[i];
  }
  return d;
}

std::uint32_t number(const std::vector<std::uint32_t>& d, const std::vector<std::uint32_t>& moduli) {
  std::uint32_t x = 0;
  for (std::size_t i = 0; i < moduli.size(); ++i) x = x * moduli[i] + d[i];
  return x;
}

/// The generators of a Cayley graph of S_n as permutations of positions, in the topology's port
/// order (arrangement_graph.hpp): x·g is x's label with its positions permuted, (x·g)[i] = x[g[i] − 1].
struct PermutationGenerator {
  StarGraph::Label positions;
  std::string name;
};

std::vector<PermutationGenerator> permutation_generators(const std::string& family, int n) {
  StarGraph::Label identity{};
  for (int i = 0; i < n; ++i) identity[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i + 1);
  std::vector<PermutationGenerator> out;
  // Position names are 1-based, as the papers write them.
  const auto swap = [&](int i, int j, std::string name) {
    auto g = identity;
    std::swap(g[static_cast<std::size_t>(i)], g[static_cast<std::size_t>(j)]);
    out.push_back({g, std::move(name)});
  };
  if (family == "star") {
    for (int k = 2; k <= n; ++k) swap(0, k - 1, std::to_string(k));
  } else if (family == "pancake") {
    for (int i = 2; i <= n; ++i) {
      auto g = identity;
      std::reverse(g.begin(), g.begin() + i);
      out.push_back({g, fmt::format("r{}", i)});
    }
  } else if (family == "bubblesort") {
    for (int i = 0; i + 1 < n; ++i) swap(i, i + 1, fmt::format("({} {})", i + 1, i + 2));
  } else {
    STARNET_ASSERT(family == "transposition");
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) swap(i, j, fmt::format("({} {})", i + 1, j + 1));
    }
  }
  return out;
}

bool permutation_family(const std::string& family) {
  return family == "star" || family == "pancake" || family == "bubblesort" || family == "transposition";
}

}  // namespace

CayleyGroup CayleyGroup::star(int n) { return symmetric("star", n); }

CayleyGroup CayleyGroup::symmetric(const std::string& family, int n) {
  const auto spec = fmt::format("{}:{}", family, n);
  if (n < 2 || n > MAX_UNIFORM_N) {
    throw UsageError(fmt::format("{}: the uniform search handles {}:2..{}:{} (n! bits per set)", spec, family, family,
                                 MAX_UNIFORM_N));
  }
  CayleyGroup g;
  g.spec_ = spec;
  g.family_ = family;
  g.star_n_ = n;
  g.star_ = std::make_shared<const StarGraph>(n);
  g.order_ = g.star_->size();
  g.first_ = family == "star" || family == "pancake" ? 2 : 1;  // star: the dimension k; pancake: the prefix length
  // Relabelling the symbols 2..n permutes the star's generators at will; for n ≤ 3 S_3 acts on its
  // three transpositions as S_3 does, so any set of them is interchangeable. Beyond, no
  // automorphism swaps a pancake's r_2 (a transposition) with r_4 (two), and the automorphisms
  // move transpositions only as S_n moves pairs (S_6's outer one takes them out of the set): the
  // bubble-sort's (1 2) goes only to itself or (n−1 n), the ends of its path of transpositions.
  g.interchangeable_ = family == "star" || n <= 3;
  g.star_ports_ = family == "star";
  for (auto& [positions, name] : permutation_generators(family, n)) {
    g.generators_.push_back(static_cast<std::uint32_t>(g.star_->rank(positions)));
    g.labels_.push_back(positions);
    g.names_.push_back(std::move(name));
  }
  if (g.generators_.size() * g.order_ > MAX_UNIFORM_TABLE) {
    throw UsageError(fmt::format("{}: {} generators × {} nodes exceed the uniform search's tables ({} entries)", spec,
                                 g.generators_.size(), g.order_, MAX_UNIFORM_TABLE));
  }
  // Every generator of the four families is an involution (a transposition or a reversal).
  for (int k = g.first(); k <= g.last(); ++k) g.inverse_.push_back(k);
  g.build_tables();
  return g;
}

CayleyGroup CayleyGroup::of(const std::string& text) {
  const auto spec = topology::parse_spec(text);
  if (spec.family == "star") return star(topology::star_dimension(spec));
  if (permutation_family(spec.family)) {
    const auto graph = topology::ArrangementGraph::of(spec);  // validates the argument
    return symmetric(spec.family, graph.n());
  }
  const auto platform = topology::make_platform(text);  // validates the argument
  const auto nodes = static_cast<std::uint32_t>(platform.num_nodes());
  CayleyGroup g;
  g.spec_ = text;
  g.family_ = spec.family;
  // Generators as digit vectors (mod the moduli), with their names.
  std::vector<std::pair<std::vector<std::int64_t>, std::string>> gens;
  if (spec.family == "hypercube") {
    const int d = std::countr_zero(nodes);
    g.moduli_.assign(static_cast<std::size_t>(d), 2);
    for (int i = 1; i <= d; ++i) {
      std::vector<std::int64_t> e(static_cast<std::size_t>(d), 0);
      e[static_cast<std::size_t>(d - i)] = 1;  // dimension i flips bit i − 1 (bit 0 rightmost)
      gens.emplace_back(e, fmt::format("bit {}", i - 1));
    }
    g.interchangeable_ = true;
  } else if (spec.family == "ring" || spec.family == "complete") {
    g.moduli_ = {nodes};
    if (spec.family == "ring") {
      gens = {{{1}, "+1"}, {{-1}, "-1"}};
      g.interchangeable_ = true;
    } else {
      for (std::int64_t j = 1; j < nodes; ++j) gens.emplace_back(std::vector<std::int64_t>{j}, fmt::format("+{}", j));
    }
  } else if (spec.family == "torus") {
    // ±1 along each side (torus:AxBx… of any dimension): "+(1,0)", "-(1,0)", "+(0,1)", … for AxB.
    const auto sides = topology::grid_sides(spec);
    for (const int side : sides) g.moduli_.push_back(static_cast<std::uint32_t>(side));
    for (std::size_t i = 0; i < sides.size(); ++i) {
      std::vector<std::int64_t> unit(sides.size(), 0);
      unit[i] = 1;
      const auto name = fmt::format("({})", fmt::join(unit, ","));
      gens.emplace_back(unit, "+" + name);
      unit[i] = -1;
      gens.emplace_back(unit, "-" + name);
    }
  } else {
    throw UsageError(fmt::format("{}: not given as a Cayley graph (uniform schedules need every node to use the same "
                                 "generator; star, pancake, bubblesort, transposition, hypercube, ring, torus and "
                                 "complete are)",
                                 text));
  }
  g.order_ = nodes;
  if (g.order_ > MAX_UNIFORM_ORDER) {
    throw UsageError(fmt::format("{}: {} nodes; the uniform search handles at most {}", text, nodes, MAX_UNIFORM_ORDER));
  }
  for (const auto& [e, name] : gens) {
    std::vector<std::uint32_t> d(e.size());
    for (std::size_t i = 0; i < e.size(); ++i) {
      const auto m = static_cast<std::int64_t>(g.moduli_[i]);
      d[i] = static_cast<std::uint32_t>(((e[i] % m) + m) % m);
    }
    const auto x = number(d, g.moduli_);
    if (x == 0 || std::find(g.generators_.begin(), g.generators_.end(), x) != g.generators_.end()) continue;
    g.generators_.push_back(x);
    g.names_.push_back(name);
  }
  if (g.generators_.empty()) throw UsageError(fmt::format("{}: one node, no generator to search", text));
  if (g.generators_.size() * g.order_ > MAX_UNIFORM_TABLE) {
    throw UsageError(fmt::format("{}: {} generators × {} nodes exceed the uniform search's tables ({} entries)", text,
                                 g.generators_.size(), g.order_, MAX_UNIFORM_TABLE));
  }
  for (const auto x : g.generators_) {
    auto d = digits(x, g.moduli_);
    for (std::size_t i = 0; i < d.size(); ++i) d[i] = (g.moduli_[i] - d[i]) % g.moduli_[i];
    const auto inv = number(d, g.moduli_);
    const auto at = std::find(g.generators_.begin(), g.generators_.end(), inv) - g.generators_.begin();
    g.inverse_.push_back(g.first_ + static_cast<int>(at));
  }
  g.build_tables();
  return g;
}

void CayleyGroup::build_tables() {
  table_.resize(generators_.size() * order_);
  if (star_) {
    // g_k⁻¹·p renames p's symbols by g_k⁻¹ (the star: swaps the symbols 1 and k): one label per
    // element and one rank per entry rather than two products.
    const auto rows = generators_.size();
    std::vector<StarGraph::Label> renames(rows);
    for (std::size_t k = 0; k < rows; ++k) renames[k] = labels_[static_cast<std::size_t>(inverse_[k] - first_)];
    for (std::uint64_t r = 0; r < order_; ++r) {
      throw_if_stopped_every(r);
      const auto label = star_->label(static_cast<StarGraph::vertex_descriptor>(r));
      for (std::size_t k = 0; k < rows; ++k) {
        StarGraph::Label renamed{};
        for (int i = 0; i < star_n_; ++i) renamed[i] = renames[k][label[i] - 1];
        table_[k * order_ + r] = static_cast<std::uint32_t>(star_->rank(renamed));
      }
    }
    return;
  }
  for (int k = first(); k <= last(); ++k) {
    const auto inv = generators_[inverse_[k - first_] - first_];
    for (std::uint64_t x = 0; x < order_; ++x) {
      table_[static_cast<std::size_t>(k - first_) * order_ + x] = times(inv, static_cast<std::uint32_t>(x));
    }
  }
}

std::uint32_t CayleyGroup::times(std::uint32_t x, std::uint32_t y) const {
  if (star_) {
    // (π∘ρ)[i] = π[ρ[i] − 1] on labels.
    const auto p = star_->label(x);
    const auto r = star_->label(y);
    auto c = r;
    for (int i = 0; i < star_n_; ++i) c[i] = p[r[i] - 1];
    return static_cast<std::uint32_t>(star_->rank(c));
  }
  // Digit by digit in the mixed radix, least significant first (as digits() and number() read
  // it), with no digit vectors: the total exchange names an origin this way per packet received.
  std::uint32_t sum = 0;
  std::uint32_t place = 1;
  for (std::size_t i = moduli_.size(); i-- > 0;) {
    const auto m = moduli_[i];
    sum += (x % m + y % m) % m * place;
    x /= m;
    y /= m;
    place *= m;
  }
  return sum;
}

std::uint32_t CayleyGroup::times_inverse(int k, std::uint32_t x) const {
  if (star_ports_) return static_cast<std::uint32_t>(star_->neighbor_along(x, k));
  if (star_) {
    // (x·g⁻¹)[i] = x[g⁻¹[i] − 1]: x's positions permuted by g⁻¹.
    const auto& inv = labels_[static_cast<std::size_t>(inverse_[k - first_] - first_)];
    const auto p = star_->label(x);
    StarGraph::Label c{};
    for (int i = 0; i < star_n_; ++i) c[i] = p[inv[i] - 1];
    return static_cast<std::uint32_t>(star_->rank(c));
  }
  return inverse_times(k, x);  // abelian: x·g⁻¹ = g⁻¹·x
}

std::string CayleyGroup::generator_name(int k) const { return names_[k - first_]; }

CayleyGroup::Set CayleyGroup::identity_set() const {
  Set s((order_ + 63) / 64, 0);
  s[0] = 1;  // element 0 is the identity
  return s;
}

void CayleyGroup::step(const Set& p, int k, Set& out) const {
  out = p;
  const std::uint32_t* t = table_.data() + static_cast<std::size_t>(k - first_) * order_;
  for (std::size_t w = 0; w < p.size(); ++w) {
    for (std::uint64_t bits = p[w]; bits != 0; bits &= bits - 1) {
      const std::uint32_t r = t[w * 64 + static_cast<unsigned>(std::countr_zero(bits))];
      out[r >> 6] |= std::uint64_t{1} << (r & 63);
    }
  }
}

std::uint64_t CayleyGroup::count(const Set& p) {
  std::uint64_t c = 0;
  for (const auto w : p) c += static_cast<std::uint64_t>(std::popcount(w));
  return c;
}

std::vector<std::uint64_t> uniform_items(const std::vector<std::uint64_t>& sizes) {
  std::vector<std::uint64_t> items;
  for (std::size_t t = 1; t < sizes.size(); ++t) items.push_back(sizes[t] - sizes[t - 1]);
  return items;
}

std::vector<std::uint64_t> uniform_sizes(const CayleyGroup& g, const std::vector<int>& dimensions) {
  auto p = g.identity_set();
  CayleyGroup::Set next;
  std::vector<std::uint64_t> sizes{1};
  for (const int k : dimensions) {
    g.step(p, k, next);
    std::swap(p, next);
    sizes.push_back(CayleyGroup::count(p));
  }
  return sizes;
}

namespace {

int ceil_log2(std::uint64_t x) { return x <= 1 ? 0 : 64 - std::countl_zero(x - 1); }

/// Whether the time is up; a stop request ends the search (Interrupted).
bool late(const std::optional<Clock::time_point>& deadline) {
  throw_if_stopped("the uniform search");
  return deadline && Clock::now() >= *deadline;
}

/// Sets of at most this many words are remembered by the depth-first search (65,536 elements).
constexpr std::size_t MEMO_MAX_WORDS = 1024;
/// At most this many words of remembered sets in all (256 MB).
constexpr std::size_t MEMO_MAX_TOTAL_WORDS = std::size_t{32} << 20;

struct MemoKey {
  CayleyGroup::Set set;
  int next_new;
  bool operator==(const MemoKey&) const = default;
};

struct MemoHash {
  std::size_t operator()(const MemoKey& k) const {
    std::size_t h = static_cast<std::size_t>(k.next_new);
    for (const auto w : k.set) h = h * 0x9E3779B97F4A7C15ULL + w;
    return h;
  }
};

/// Depth-first search for a uniform gossip of exactly @p steps steps. A set met again (with the
/// same smallest unused generator) at the same depth or deeper than before fails as it did then:
/// remembered for small groups, where rings and tori reach the same sets along many sequences.
class Dfs {
 public:
  Dfs(const CayleyGroup& g, int steps, std::optional<Clock::time_point> deadline, std::uint64_t max_explored)
      : g_(g),
        steps_(steps),
        deadline_(deadline),
        max_explored_(max_explored),
        sets_(static_cast<std::size_t>(steps) + 1) {}

  bool run(UniformResult& r) {
    sets_[0] = g_.identity_set();
    const bool found = go(0, 1, g_.interchangeable() ? g_.first() : g_.last(), 0, r);
    if (found) r.dimensions = path_;
    return found;
  }
  [[nodiscard]] bool timed_out() const { return timed_out_; }

 private:
  /// @param next_new the smallest unused generator (the last one when they are not interchangeable).
  bool go(int t, std::uint64_t size, int next_new, int last, UniformResult& r) {
    ++r.explored;
    if (size == g_.order()) return true;
    if (t == steps_) return false;
    const int left = steps_ - t;
    if (left < 63 && (size << left) < g_.order()) return false;  // cannot double fast enough
    if ((r.explored & 1023) == 0 && late(deadline_)) timed_out_ = true;
    if (max_explored_ > 0 && r.explored > max_explored_) timed_out_ = true;
    if (timed_out_) return false;
    if (sets_[t].size() <= MEMO_MAX_WORDS && memo_words_ < MEMO_MAX_TOTAL_WORDS) {
      const auto [it, fresh] = memo_.try_emplace(MemoKey{sets_[t], next_new}, t);
      if (fresh) memo_words_ += sets_[t].size() + 1;
      if (!fresh && it->second <= t) return false;
      it->second = std::min(it->second, t);
    }
    for (int k = g_.first(); k <= std::min(next_new, g_.last()); ++k) {
      if (k == last && g_.involution(k)) continue;
      g_.step(sets_[t], k, sets_[t + 1]);
      const auto grown = CayleyGroup::count(sets_[t + 1]);
      if (grown == size) continue;
      path_.push_back(k);
      if (go(t + 1, grown, k == next_new && k < g_.last() ? next_new + 1 : next_new, k, r)) return true;
      path_.pop_back();
    }
    return false;
  }

  const CayleyGroup& g_;
  int steps_;
  std::optional<Clock::time_point> deadline_;
  std::uint64_t max_explored_;
  std::vector<CayleyGroup::Set> sets_;
  std::vector<int> path_;
  bool timed_out_ = false;
  std::unordered_map<MemoKey, int, MemoHash> memo_;
  std::size_t memo_words_ = 0;
};

}  // namespace

UniformResult uniform_exhaustive(const CayleyGroup& g, int max_steps, double seconds, std::uint64_t max_explored) {
  const auto start = Clock::now();
  const auto deadline = deadline_after(seconds);
  UniformResult r;
  for (int steps = ceil_log2(g.order()); steps <= max_steps; ++steps) {
    Dfs dfs(g, steps, deadline, max_explored);
    if (dfs.run(r)) break;
    if (dfs.timed_out()) {
      r.timed_out = true;
      break;
    }
  }
  // Every T below the one found was exhausted (or the first T was the counting bound).
  r.complete = !r.dimensions.empty() && !r.timed_out;
  if (!r.dimensions.empty()) r.sizes = uniform_sizes(g, r.dimensions);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

UniformResult uniform_beam(const CayleyGroup& g, std::size_t width, int max_steps, double seconds) {
  const auto start = Clock::now();
  const auto deadline = deadline_after(seconds);
  struct Candidate {
    std::vector<int> path;
    CayleyGroup::Set set;
    std::uint64_t size;
    int next_new;
  };
  UniformResult r;
  std::vector<Candidate> beam{{{}, g.identity_set(), 1, g.interchangeable() ? g.first() : g.last()}};
  for (int t = 0; t < max_steps && !beam.empty() && !late(deadline); ++t) {
    // Every child of every candidate, computed in parallel (one bitset step each).
    std::vector<std::pair<std::size_t, int>> moves;
    for (std::size_t i = 0; i < beam.size(); ++i) {
      const int last = beam[i].path.empty() ? 0 : beam[i].path.back();
      for (int k = g.first(); k <= std::min(beam[i].next_new, g.last()); ++k) {
        if (k != last || !g.involution(k)) moves.emplace_back(i, k);
      }
    }
    std::vector<Candidate> next(moves.size());
    tbb::parallel_for(std::size_t{0}, moves.size(), [&](std::size_t m) {
      const auto& [i, k] = moves[m];
      const auto& c = beam[i];
      Candidate& d = next[m];
      d.next_new = k == c.next_new && k < g.last() ? c.next_new + 1 : c.next_new;
      g.step(c.set, k, d.set);
      d.size = CayleyGroup::count(d.set);
      d.path = c.path;
      d.path.push_back(k);
    });
    r.explored += moves.size();
    for (std::size_t m = 0; m < next.size(); ++m) {
      if (next[m].size == g.order()) {
        r.dimensions = next[m].path;
        r.sizes = uniform_sizes(g, r.dimensions);
        r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return r;
      }
    }
    // A step that adds nothing is never useful.
    std::vector<Candidate> useful;
    for (std::size_t m = 0; m < next.size(); ++m) {
      if (next[m].size > beam[moves[m].first].size) useful.push_back(std::move(next[m]));
    }
    std::sort(useful.begin(), useful.end(), [](const Candidate& a, const Candidate& b) {
      return a.size != b.size ? a.size > b.size : a.path < b.path;
    });
    if (useful.size() > width) useful.resize(width);
    beam = std::move(useful);
  }
  r.timed_out = late(deadline);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

UniformResult uniform_anytime(const CayleyGroup& g, int max_steps, double seconds, std::size_t max_width,
                              const std::function<void(const UniformResult&, std::size_t width)>& on_better) {
  const auto start = Clock::now();
  const auto deadline = deadline_after(seconds);
  UniformResult best;
  for (std::size_t width = 1; width <= max_width && !late(deadline); width *= 2) {
    const int limit = best.dimensions.empty() ? max_steps : static_cast<int>(best.dimensions.size()) - 1;
    const double left = deadline ? std::chrono::duration<double>(*deadline - Clock::now()).count() : 0;
    auto r = uniform_beam(g, width, limit, deadline ? std::max(left, 1e-3) : 0);
    best.explored += r.explored;
    if (!r.dimensions.empty()) {
      r.explored = best.explored;
      best = std::move(r);
      on_better(best, width);
    }
  }
  best.timed_out = late(deadline);
  best.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return best;
}

}  // namespace starnet::algorithms::optimal

namespace starnet::algorithms::optimal {

namespace {

void check_schedule_size(const CayleyGroup& g) {
  if (g.order() > MAX_UNIFORM_SCHEDULE_NODES) {
    throw UsageError(fmt::format("{}: a uniform schedule is written as a chunk schedule up to {} nodes (a gossip moves "
                                 "|G|·(|G| − 1) chunks); this one has {}",
                                 g.spec(), MAX_UNIFORM_SCHEDULE_NODES, g.order()));
  }
}

}  // namespace

schedule::Schedule uniform_schedule(const CayleyGroup& g, const std::vector<int>& dimensions) {
  check_schedule_size(g);
  const auto n = static_cast<std::uint32_t>(g.order());
  schedule::ScheduleBuilder builder(schedule::ChunkRules(schedule::Collective::ALLGATHER, n, n, 0), 0);
  auto p = g.identity_set();
  CayleyGroup::Set next;
  std::vector<schedule::TransferItem> items;
  for (std::size_t t = 0; t < dimensions.size(); ++t) {
    const int k = dimensions[t];
    g.step(p, k, next);
    // D = P \ g·P (d ∈ g·P ⟺ g⁻¹·d ∈ P): what the partner lacks, relative to the sender.
    std::vector<std::uint32_t> lacking;
    for (std::uint32_t d = 0; d < n; ++d) {
      if (CayleyGroup::contains(p, d) && !CayleyGroup::contains(p, g.inverse_times(k, d))) lacking.push_back(d);
    }
    for (std::uint32_t v = 0; v < n; ++v) {
      items.clear();
      for (const auto d : lacking) {
        const auto c = g.times(v, d);
        items.push_back({c, c, schedule::ItemOp::COPY});
      }
      builder.add_transfer(static_cast<std::uint32_t>(t), v, g.neighbor(v, k), items);
    }
    std::swap(p, next);
  }
  return std::move(builder).build();
}

schedule::Schedule uniform_broadcast_schedule(const CayleyGroup& g, const std::vector<int>& dimensions,
                                              std::uint32_t root) {
  check_schedule_size(g);
  const auto n = static_cast<std::uint32_t>(g.order());
  schedule::ScheduleBuilder builder(schedule::ChunkRules(schedule::Collective::BROADCAST, n, 1, root), 0);
  std::vector<char> informed(n, 0);
  informed[root] = 1;
  const std::vector<schedule::TransferItem> item{{0, 0, schedule::ItemOp::COPY}};
  for (std::size_t t = 0; t < dimensions.size(); ++t) {
    std::vector<std::uint32_t> reached;
    for (std::uint32_t v = 0; v < n; ++v) {
      const auto u = g.neighbor(v, dimensions[t]);
      if (informed[v] != 0 && informed[u] == 0) {
        builder.add_transfer(static_cast<std::uint32_t>(t), v, u, item);
        reached.push_back(u);
      }
    }
    for (const auto u : reached) informed[u] = 1;
  }
  return std::move(builder).build();
}

}  // namespace starnet::algorithms::optimal

#include <starnet/emulator/payload.hpp>

#include <sstream>

namespace starnet::algorithms::optimal {

std::string UniformReport::serialize() const { return fmt::format("{} {} {}", nodes, complete, wrong); }

UniformReport UniformReport::parse(const std::string& text) {
  std::istringstream in(text);
  UniformReport r;
  in >> r.nodes >> r.complete >> r.wrong;
  if (!in) throw Error("uniform gossip report \"" + text + "\" is malformed");
  return r;
}

namespace {

/// uniform_gossip_program(): on the implicit star graph by ports (S_10's 3.6 million nodes), on
/// any other group's topology by the group's arithmetic.
class UniformGossip final : public emulator::NodeProgram {
 public:
  UniformGossip(const StarGraph* star, const CayleyGroup* group, std::uint64_t order, const std::vector<int>& dims,
                const std::vector<std::uint64_t>& items, emulator::NodeRange range)
      : star_(star),
        group_(group),
        order_(order),
        dims_(dims),
        items_(items),
        range_(range),
        received_(range.size(), 0) {}

  [[nodiscard]] bool reacts_to_sends() const override { return false; }

  void react(emulator::Context& ctx) override {
    const auto v = ctx.node();
    const std::uint64_t step = ctx.step();
    for (const auto& m : ctx.received()) {
      const auto sent = emulator::payload_word(m.payload);
      // Sent at step − 1 along that step's generator g: the partner is v·g⁻¹.
      const bool right = sent + 1 == step && sent < dims_.size() && m.from == sender(v, dims_[sent]);
      if (right) {
        received_[v - range_.begin] += items_[sent];
      } else {
        ++wrong_;
      }
    }
    if (step >= dims_.size()) return;
    const Rational size(static_cast<std::int64_t>(items_[step]));
    if (star_ != nullptr) {
      ctx.send(StarGraph::port_of(dims_[step]), emulator::word_payload(step), size, step);
    } else {
      ctx.send_to(group_->neighbor(static_cast<std::uint32_t>(v), dims_[step]), emulator::word_payload(step), size,
                  step);
    }
  }

  [[nodiscard]] std::string report() const override {
    UniformReport r;
    r.nodes = range_.size();
    r.wrong = wrong_;
    for (const auto x : received_) r.complete += x + 1 == order_ ? 1 : 0;
    return r.serialize();
  }

 private:
  /// v·g_k⁻¹, the node v hears from at a step of generator k (the star's τ_k: an involution).
  [[nodiscard]] emulator::NodeId sender(emulator::NodeId v, int k) const {
    if (star_ != nullptr) return star_->neighbor(v, StarGraph::port_of(k));
    return group_->times_inverse(k, static_cast<std::uint32_t>(v));
  }

  const StarGraph* star_;
  const CayleyGroup* group_;
  std::uint64_t order_;
  const std::vector<int>& dims_;
  const std::vector<std::uint64_t>& items_;
  emulator::NodeRange range_;
  std::vector<std::uint64_t> received_;
  std::uint64_t wrong_ = 0;
};

}  // namespace

std::unique_ptr<emulator::NodeProgram> uniform_gossip_program(const StarGraph& g, const std::vector<int>& dimensions,
                                                              const std::vector<std::uint64_t>& items,
                                                              emulator::NodeRange range) {
  return std::make_unique<UniformGossip>(&g, nullptr, g.size(), dimensions, items, range);
}

std::unique_ptr<emulator::NodeProgram> uniform_gossip_program(const CayleyGroup& g, const std::vector<int>& dimensions,
                                                              const std::vector<std::uint64_t>& items,
                                                              emulator::NodeRange range) {
  return std::make_unique<UniformGossip>(nullptr, &g, g.order(), dimensions, items, range);
}

}  // namespace starnet::algorithms::optimal

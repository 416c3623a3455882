#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/topology/error.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <functional>

#include <tbb/parallel_for.h>

namespace starnet::algorithms::optimal {

using topology::StarGraph;
using Clock = std::chrono::steady_clock;

StarCayley::StarCayley(int n) : n_(n), order_(0) {
  if (n < 2 || n > MAX_UNIFORM_N) {
    throw UsageError(fmt::format("star:{}: the uniform search handles star:2..star:{} (n! bits per set)", n,
                                 MAX_UNIFORM_N));
  }
  const StarGraph g(n);
  order_ = g.size();
  table_.resize(static_cast<std::size_t>(n - 1) * order_);
  for (std::uint64_t r = 0; r < order_; ++r) {
    const auto label = g.label(static_cast<StarGraph::vertex_descriptor>(r));
    for (int k = 2; k <= n; ++k) {
      auto swapped = label;
      for (int i = 0; i < n; ++i) {
        if (swapped[i] == 1) {
          swapped[i] = static_cast<std::uint8_t>(k);
        } else if (swapped[i] == k) {
          swapped[i] = 1;
        }
      }
      table_[(k - 2) * order_ + r] = g.rank(swapped);
    }
  }
}

StarCayley::Set StarCayley::identity_set() const {
  Set s((order_ + 63) / 64, 0);
  s[0] = 1;  // rank 0 is the identity
  return s;
}

void StarCayley::step(const Set& p, int k, Set& out) const {
  out = p;
  const std::uint32_t* t = table_.data() + static_cast<std::size_t>(k - 2) * order_;
  for (std::size_t w = 0; w < p.size(); ++w) {
    for (std::uint64_t bits = p[w]; bits != 0; bits &= bits - 1) {
      const std::uint32_t r = t[w * 64 + static_cast<unsigned>(std::countr_zero(bits))];
      out[r >> 6] |= std::uint64_t{1} << (r & 63);
    }
  }
}

std::uint64_t StarCayley::count(const Set& p) {
  std::uint64_t c = 0;
  for (const auto w : p) c += static_cast<std::uint64_t>(std::popcount(w));
  return c;
}

std::vector<std::uint64_t> uniform_sizes(const StarCayley& g, const std::vector<int>& dimensions) {
  auto p = g.identity_set();
  StarCayley::Set next;
  std::vector<std::uint64_t> sizes{1};
  for (const int k : dimensions) {
    g.step(p, k, next);
    std::swap(p, next);
    sizes.push_back(StarCayley::count(p));
  }
  return sizes;
}

namespace {

int ceil_log2(std::uint64_t x) { return x <= 1 ? 0 : 64 - std::countl_zero(x - 1); }

bool late(const std::optional<Clock::time_point>& deadline) { return deadline && Clock::now() >= *deadline; }

std::optional<Clock::time_point> deadline_after(double seconds) {
  if (seconds <= 0) return std::nullopt;
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

/// Depth-first search for a uniform gossip of exactly @p steps steps.
class Dfs {
 public:
  Dfs(const StarCayley& g, int steps, std::optional<Clock::time_point> deadline)
      : g_(g), steps_(steps), deadline_(deadline), sets_(static_cast<std::size_t>(steps) + 1) {}

  bool run(UniformResult& r) {
    sets_[0] = g_.identity_set();
    const bool found = go(0, 1, 2, 0, r);
    if (found) r.dimensions = path_;
    return found;
  }
  [[nodiscard]] bool timed_out() const { return timed_out_; }

 private:
  /// @param used bit k: dimension k used so far; @param next_new the smallest unused dimension.
  bool go(int t, std::uint64_t size, int next_new, int last, UniformResult& r) {
    ++r.explored;
    if (size == g_.order()) return true;
    if (t == steps_) return false;
    const int left = steps_ - t;
    if (left < 63 && (size << left) < g_.order()) return false;  // cannot double fast enough
    if ((r.explored & 1023) == 0 && late(deadline_)) timed_out_ = true;
    if (timed_out_) return false;
    for (int k = 2; k <= std::min(next_new, g_.n()); ++k) {
      if (k == last) continue;
      g_.step(sets_[t], k, sets_[t + 1]);
      const auto grown = StarCayley::count(sets_[t + 1]);
      if (grown == size) continue;
      path_.push_back(k);
      if (go(t + 1, grown, k == next_new ? next_new + 1 : next_new, k, r)) return true;
      path_.pop_back();
    }
    return false;
  }

  const StarCayley& g_;
  int steps_;
  std::optional<Clock::time_point> deadline_;
  std::vector<StarCayley::Set> sets_;
  std::vector<int> path_;
  bool timed_out_ = false;
};

}  // namespace

UniformResult uniform_exhaustive(const StarCayley& g, int max_steps, double seconds) {
  const auto start = Clock::now();
  const auto deadline = deadline_after(seconds);
  UniformResult r;
  for (int steps = ceil_log2(g.order()); steps <= max_steps; ++steps) {
    Dfs dfs(g, steps, deadline);
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

UniformResult uniform_beam(const StarCayley& g, std::size_t width, int max_steps, double seconds) {
  const auto start = Clock::now();
  const auto deadline = deadline_after(seconds);
  struct Candidate {
    std::vector<int> path;
    StarCayley::Set set;
    std::uint64_t size;
    int next_new;
  };
  UniformResult r;
  std::vector<Candidate> beam{{{}, g.identity_set(), 1, 2}};
  for (int t = 0; t < max_steps && !beam.empty() && !late(deadline); ++t) {
    // Every child of every candidate, computed in parallel (one bitset step each).
    std::vector<std::pair<std::size_t, int>> moves;
    for (std::size_t i = 0; i < beam.size(); ++i) {
      const int last = beam[i].path.empty() ? 0 : beam[i].path.back();
      for (int k = 2; k <= std::min(beam[i].next_new, g.n()); ++k) {
        if (k != last) moves.emplace_back(i, k);
      }
    }
    std::vector<Candidate> next(moves.size());
    tbb::parallel_for(std::size_t{0}, moves.size(), [&](std::size_t m) {
      const auto& [i, k] = moves[m];
      const auto& c = beam[i];
      Candidate& d = next[m];
      d.next_new = k == c.next_new ? c.next_new + 1 : c.next_new;
      g.step(c.set, k, d.set);
      d.size = StarCayley::count(d.set);
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

}  // namespace starnet::algorithms::optimal

namespace starnet::algorithms::optimal {

schedule::Schedule uniform_schedule(const StarCayley& g, const std::vector<int>& dimensions) {
  if (g.n() > MAX_UNIFORM_SCHEDULE_N) {
    throw UsageError(fmt::format("star:{}: a uniform gossip is written as a schedule up to star:{} (every node "
                                 "receives n! − 1 chunks)",
                                 g.n(), MAX_UNIFORM_SCHEDULE_N));
  }
  const StarGraph s(g.n());
  const auto n = static_cast<std::uint32_t>(g.order());
  schedule::ScheduleBuilder builder(schedule::ChunkRules(schedule::Collective::ALLGATHER, n, n, 0), 0);
  auto p = g.identity_set();
  StarCayley::Set next;
  std::vector<schedule::TransferItem> items;
  for (std::size_t t = 0; t < dimensions.size(); ++t) {
    const int k = dimensions[t];
    g.step(p, k, next);
    // D = P \ τ∘P: what the partner lacks, relative to the sender.
    std::vector<std::uint32_t> lacking;
    for (std::uint32_t d = 0; d < n; ++d) {
      if ((p[d >> 6] >> (d & 63) & 1) && !(p[g.left(k, d) >> 6] >> (g.left(k, d) & 63) & 1)) lacking.push_back(d);
    }
    for (std::uint32_t v = 0; v < n; ++v) {
      const auto label = s.label(v);
      items.clear();
      for (const auto d : lacking) {
        // The item π∘d: compose the labels.
        const auto dl = s.label(d);
        auto composed = dl;
        for (int i = 0; i < g.n(); ++i) composed[i] = label[dl[i] - 1];
        const auto c = static_cast<std::uint32_t>(s.rank(composed));
        items.push_back({c, c, schedule::ItemOp::COPY});
      }
      const auto to = static_cast<std::uint32_t>(s.neighbor(v, StarGraph::port_of(k)));
      builder.add_transfer(static_cast<std::uint32_t>(t), v, to, items);
    }
    std::swap(p, next);
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

class UniformGossip final : public emulator::NodeProgram {
 public:
  UniformGossip(const StarGraph& g, const std::vector<int>& dims, const std::vector<std::uint64_t>& items,
                emulator::NodeRange range)
      : g_(g), dims_(dims), items_(items), range_(range), received_(range.size(), 0) {}

  [[nodiscard]] bool reacts_to_sends() const override { return false; }

  void react(emulator::Context& ctx) override {
    const auto v = ctx.node();
    const std::uint64_t step = ctx.step();
    for (const auto& m : ctx.received()) {
      const auto sent = emulator::payload_word(m.payload);
      // Sent at step − 1 along that step's dimension: the partner is v's neighbour along it.
      const bool right = sent + 1 == step && sent < dims_.size() &&
                         m.from == g_.neighbor(v, StarGraph::port_of(dims_[sent]));
      if (right) {
        received_[v - range_.begin] += items_[sent];
      } else {
        ++wrong_;
      }
    }
    if (step >= dims_.size()) return;
    ctx.send(StarGraph::port_of(dims_[step]), emulator::word_payload(step),
             Rational(static_cast<std::int64_t>(items_[step])), step);
  }

  [[nodiscard]] std::string report() const override {
    UniformReport r;
    r.nodes = range_.size();
    r.wrong = wrong_;
    for (const auto x : received_) r.complete += x + 1 == g_.size() ? 1 : 0;
    return r.serialize();
  }

 private:
  const StarGraph& g_;
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
  return std::make_unique<UniformGossip>(g, dimensions, items, range);
}

}  // namespace starnet::algorithms::optimal

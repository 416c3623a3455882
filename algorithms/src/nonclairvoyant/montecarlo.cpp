#include "runner.hpp"

#include <starnet/algorithms/nonclairvoyant/fast_path.hpp>
#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>
#include <starnet/algorithms/stochastic/random_stream.hpp>
#include <starnet/algorithms/trees/special_trees.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <span>

namespace starnet::algorithms::nonclairvoyant {

using emulator::NodeId;
using emulator::NodeRange;
using stochastic::CostDistribution;
using stochastic::RandomStream;

std::string_view to_string(Algorithm a) {
  switch (a) {
    case Algorithm::BINOMIAL_STAT: return "binomial-stat";
    case Algorithm::FIBONACCI_STAT: return "fibonacci-stat";
    case Algorithm::TREE_DYN: return "tree-dyn";
    case Algorithm::NONCOMMUT_TREE_DYN: return "noncommut-tree-dyn";
  }
  return "?";
}

Algorithm parse_algorithm(std::string_view name) {
  for (const auto a : {Algorithm::BINOMIAL_STAT, Algorithm::FIBONACCI_STAT, Algorithm::TREE_DYN,
                       Algorithm::NONCOMMUT_TREE_DYN}) {
    if (name == to_string(a)) return a;
  }
  throw UsageError(fmt::format(
      "algorithm \"{}\" is not known (expected binomial-stat, fibonacci-stat, tree-dyn or noncommut-tree-dyn)", name));
}

bool supports_noncommutative(Algorithm a) { return a != Algorithm::TREE_DYN; }

std::vector<int> static_tree(Algorithm a, int n) {
  if (n < 1) throw UsageError(fmt::format("n = {}: at least one processor is needed", n));
  std::vector<int> full;
  if (a == Algorithm::BINOMIAL_STAT) {
    int order = 0;
    while ((1 << order) < n) ++order;
    full = trees::binomial_tree(order);
  } else if (a == Algorithm::FIBONACCI_STAT) {
    // Smallest order k with F_(k+2) ≥ n (Section 3: "use only the first n processors").
    for (int order = -1;; ++order) {
      full = trees::fibonacci_tree(order);
      if (static_cast<int>(full.size()) >= n) break;
    }
  } else {
    throw UsageError(fmt::format("{} is dynamic: it has no static tree", to_string(a)));
  }
  // Parents precede children, so the first n processors form a tree rooted at 0.
  full.resize(static_cast<std::size_t>(n));
  return full;
}

namespace {

/// d_ij and c_i of one run: d drawn when a transfer starts (each processor sends once, so each
/// pair is used at most once), c_i drawn once per processor at the start of the run.
class StochasticCosts final : public emulator::CostModel<double> {
 public:
  StochasticCosts(const CostDistribution& d, const CostDistribution& c, int n) : d_(d), c_dist_(c), c_(n) {}
  void start(RandomStream& stream) {
    stream_ = &stream;
    if (c_dist_.constant()) {  // Figure 4's μ_c = 0: nothing drawn, the same for every processor
      std::fill(c_.begin(), c_.end(), c_dist_(stream));
      return;
    }
    for (auto& c : c_) c = c_dist_(stream);
  }
  double transfer(NodeId, emulator::Port, NodeId, const Rational&) const override { return d_(*stream_); }
  double compute(NodeId v, const Rational& work) const override { return c_[v] * work.to_double(); }
  /// c_v: compute(v, 1), bit for bit, for the fast path.
  [[nodiscard]] std::span<const double> per_node() const { return c_; }

 private:
  const CostDistribution& d_;
  const CostDistribution& c_dist_;
  std::vector<double> c_;
  RandomStream* stream_ = nullptr;
};

/// What every run of one scenario shares (read-only) and what each thread owns.
struct Shared {
  explicit Shared(const Scenario& s)
      : scenario(s), prepared(s.n), d(s.distribution, s.mu_d, s.cv), c(s.distribution, s.mu_c, s.mu_c == 0 ? 0.0 : s.cv) {}
  Scenario scenario;
  Prepared prepared;
  CostDistribution d;
  CostDistribution c;
};

struct PerThread {
  explicit PerThread(const Shared& s) : costs(s.d, s.c, s.scenario.n), fast(s.scenario.n) {}
  emulator::LocalEngine<double> engine;
  StochasticCosts costs;
  FastPath fast;
};

/// Run @p run of the study for algorithm @p a: its own stream, so that runs are independent of
/// the thread that makes them. Untraced runs may take the fast path (fast_path.hpp), which gives
/// the general engine's makespan bit for bit.
Emulation<double> one(const Shared& shared, PerThread& local, Algorithm a, std::uint64_t seed, std::uint64_t run,
                      bool trace, bool fast) {
  RandomStream stream(seed, run, static_cast<std::uint32_t>(a));
  local.costs.start(stream);
  if (fast && !trace) return local.fast.run(a, local.costs, local.costs.per_node());
  return run_algorithm(a, shared.prepared, local.costs, local.engine, trace);
}

void validate(const Scenario& s) {
  if (s.n < 1 || s.n > 65535) {
    throw InputError(Setting{"n", std::to_string(s.n)},
                     "expected 1..65535 processors (the order check packs indices in 16 bits)");
  }
  // Settings named as the Scenario's fields (and the api's keywords): mu_d, mu_c.
  for (const auto& [name, mean] : {std::pair{"mu_d", s.mu_d}, std::pair{"mu_c", s.mu_c}}) {
    if (!(std::isfinite(mean) && mean >= 0)) {
      throw InputError(Setting{name, fmt::format("{}", mean)}, "expected a finite mean ≥ 0");
    }
  }
  // The distributions check the CV against their ranges (InputError naming both).
  (void)CostDistribution(s.distribution, s.mu_d, s.cv);
}

}  // namespace

MonteCarlo& MonteCarlo::algorithms(std::vector<Algorithm> list) {
  if (list.empty()) throw UsageError(Setting{"algorithms", ""}, "at least one algorithm is needed");
  algorithms_ = std::move(list);
  return *this;
}
MonteCarlo& MonteCarlo::scenario(const Scenario& s) {
  validate(s);
  scenario_ = s;
  return *this;
}
MonteCarlo& MonteCarlo::runs(std::uint64_t r) {
  if (r < 1) throw UsageError(Setting{"runs", "0"}, "at least one run is needed");
  runs_ = r;
  return *this;
}
MonteCarlo& MonteCarlo::seed(std::uint64_t s) {
  seed_ = s;
  return *this;
}
MonteCarlo& MonteCarlo::threads(unsigned t) {
  threads_ = t;
  return *this;
}
MonteCarlo& MonteCarlo::progress(std::function<void(std::uint64_t, std::uint64_t)> f) {
  progress_ = std::move(f);
  return *this;
}
MonteCarlo& MonteCarlo::fast_path(bool fast) {
  fast_ = fast;
  return *this;
}
MonteCarlo& MonteCarlo::keep_samples(bool keep) {
  keep_ = keep;
  return *this;
}

void MonteCarlo::run() {
  const auto start = std::chrono::steady_clock::now();
  const Shared shared(scenario_);
  const std::size_t k = algorithms_.size();
  std::vector<std::vector<double>> makespans(k, std::vector<double>(runs_));
  std::vector<std::atomic<std::uint64_t>> verified(k);
  std::atomic<std::uint64_t> done{0};
  std::atomic<std::int64_t> last_report{0};
  tbb::enumerable_thread_specific<PerThread> locals([&] { return PerThread(shared); });
  const auto body = [&](const tbb::blocked_range<std::uint64_t>& range) {
    auto& local = locals.local();
    std::vector<std::uint64_t> ok(k, 0);
    for (std::uint64_t r = range.begin(); r != range.end(); ++r) {
      for (std::size_t a = 0; a < k; ++a) {
        const auto out = one(shared, local, algorithms_[a], seed_, r, false, fast_);
        makespans[a][r] = out.makespan;
        ok[a] += out.verified ? 1 : 0;
      }
    }
    for (std::size_t a = 0; a < k; ++a) verified[a] += ok[a];
    const auto total = done += range.size();
    if (progress_) {
      const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
                           .count();
      auto last = last_report.load();
      if (now - last >= 250 && last_report.compare_exchange_strong(last, now)) progress_(total, runs_);
    }
  };
  tbb::task_arena arena(threads_ == 0 ? tbb::task_arena::automatic : static_cast<int>(threads_));
  arena.execute([&] { tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, runs_, 64), body); });
  outcomes_.clear();
  for (std::size_t a = 0; a < k; ++a) {
    AlgorithmOutcome o;
    o.algorithm = algorithms_[a];
    o.summary = stochastic::summarize(makespans[a]);
    o.verified = verified[a];
    if (keep_) o.makespans = std::move(makespans[a]);
    outcomes_.push_back(std::move(o));
  }
  wall_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Emulation<double> emulate_study_run(Algorithm a, const Scenario& scenario, std::uint64_t seed, std::uint64_t run_index,
                                    bool trace) {
  validate(scenario);
  const Shared shared(scenario);
  PerThread local(shared);
  return one(shared, local, a, seed, run_index, trace, false);
}

}  // namespace starnet::algorithms::nonclairvoyant

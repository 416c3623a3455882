#include <starnet/algorithms/nonclairvoyant/tree_dyn.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/complete_graph.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <random>
#include <sstream>

namespace starnet::algorithms::nonclairvoyant {
namespace {

using emulator::NodeId;

/// d_ij and c_i drawn once per run from a seeded generator (a test-only cost model).
class RandomCosts final : public emulator::CostModel<double> {
 public:
  RandomCosts(NodeId n, std::uint64_t seed, double mu_c) : c_(n) {
    std::mt19937_64 g(seed);
    for (auto& c : c_) c = mu_c * std::generate_canonical<double, 53>(g) * 2;
    seed_ = seed;
  }
  double transfer(NodeId from, emulator::Port, NodeId to, const Rational&) const override {
    std::mt19937_64 g(seed_ ^ (from * 1000003 + to));
    return 0.1 + std::generate_canonical<double, 53>(g) * 2;
  }
  double compute(NodeId v, const Rational&) const override { return c_[v]; }

 private:
  std::vector<double> c_;
  std::uint64_t seed_ = 0;
};

struct Report {
  bool right = false;
  std::int64_t root = -1;
  std::uint64_t sends = 0;
};

Report parse(const std::string& text) {
  std::istringstream in(text);
  Report r;
  int right = 0;
  in >> right >> r.root >> r.sends;
  r.right = right == 1;
  return r;
}

template <class Time>
std::pair<emulator::RunResult<Time>, Report> run(const emulator::ProgramFactory& factory, NodeId n,
                                                  const emulator::CostModel<Time>& costs) {
  const topology::CompleteGraph g(n);
  emulator::RunConfig config;
  config.checking = emulator::Checking::ARBITRATED;
  config.time = emulator::TimeMode::TIMED;
  config.trace = true;
  auto r = emulator::LocalEngine<Time>().run(g, costs, factory, config);
  const auto report = parse(r.reports.front());
  return {std::move(r), report};
}

TEST(TreeDyn, HomogeneousCostsGiveTheBinomialTreeLength) {
  // d = 1, c = 0: pairs form at once, log2(n) rounds.
  const emulator::UnitCosts<Rational> costs;
  for (const NodeId n : {1U, 2U, 4U, 8U, 64U}) {
    const auto [r, report] = run<Rational>(make_tree_dyn, n, costs);
    EXPECT_TRUE(report.right) << " n=" << n;
    EXPECT_EQ(report.sends, n - 1) << " n=" << n;
    int log = 0;
    while ((NodeId{1} << log) < n) ++log;
    EXPECT_EQ(r.makespan, Rational(log)) << " n=" << n;
  }
}

TEST(TreeDyn, VerifiedOnRandomHeterogeneousCosts) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    for (const NodeId n : {3U, 17U, 64U}) {
      const RandomCosts costs(n, seed, /*mu_c=*/0.5);
      EXPECT_TRUE(run<double>(make_tree_dyn, n, costs).second.right) << " n=" << n << " seed=" << seed;
      const auto [r, report] = run<double>(make_noncommut_tree_dyn, n, costs);
      EXPECT_TRUE(report.right) << " n=" << n << " seed=" << seed;
      EXPECT_EQ(report.sends, n - 1) << " n=" << n << " seed=" << seed;
      EXPECT_EQ(r.counters.max_concurrent_receives, 1U);
    }
  }
}

TEST(NonCommutTreeDyn, CombinesOnlyNeighbours) {
  // Every transfer goes between processors holding adjacent intervals: with unit costs the
  // pairs at time 0 are (1→0), (3→2), … and the result is the whole interval.
  const emulator::UnitCosts<Rational> costs;
  const auto [r, report] = run<Rational>(make_noncommut_tree_dyn, 8, costs);
  EXPECT_TRUE(report.right);
  for (const auto& e : r.trace) {
    if (e.kind == emulator::EventKind::SEND && e.time == Rational(0)) {
      EXPECT_EQ(e.node % 2, 1U);
      EXPECT_EQ(e.peer, e.node - 1);
    }
  }
}

TEST(TreeDyn, RefusesAPartition) {
  EXPECT_THROW((void)make_tree_dyn({4, 8}), ScheduleError);
}

}  // namespace
}  // namespace starnet::algorithms::nonclairvoyant

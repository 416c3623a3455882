#include "steady_state_platforms.hpp"

#include <starnet/algorithms/steady_state/solver.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace starnet::algorithms::steady_state {
namespace {

using namespace testing;

mpq_class solve(const SteadyStateProblem& problem) {
  SteadyStateSolver solver(problem);
  EXPECT_EQ(solver.run(), Status::OPTIMAL) << problem.describe();
  EXPECT_TRUE(solver.certified()) << problem.describe();
  EXPECT_TRUE(check_optimality(solver.linear_program(), solver.lp_solver().primal(), solver.lp_solver().dual()))
      << problem.describe();
  return solver.throughput();
}

TEST(SteadyStateSolver, Figure2ScatterThroughputIsOneHalf) {
  const auto p = figure2_platform();
  const auto problem = SteadyStateProblem::scatter(p, "Ps", {"P0", "P1"});
  SteadyStateSolver solver(problem);
  ASSERT_EQ(solver.run(), Status::OPTIMAL);
  EXPECT_TRUE(solver.certified());
  EXPECT_EQ(solver.throughput(), mpq_class(1, 2));
}

TEST(SteadyStateSolver, Figure6ReduceThroughputIsOnePerTimeUnit) {
  const auto p = figure6_platform();
  EXPECT_EQ(solve(SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P0")), 1);
}

TEST(SteadyStateSolver, PeriodMakesEveryQuantityAnInteger) {
  const auto p = figure2_platform();
  const auto problem = SteadyStateProblem::scatter(p, "Ps", {"P0", "P1"});
  SteadyStateSolver solver(problem);
  ASSERT_EQ(solver.run(), Status::OPTIMAL);
  const mpq_class t(solver.period());
  EXPECT_EQ(mpq_class(solver.throughput() * t).get_den(), 1);
  std::map<std::pair<Vertex, Vertex>, mpq_class> busy;
  for (std::size_t k = 0; k < problem.tasks().size(); ++k) {
    EXPECT_EQ(mpq_class(solver.integer_solution()[k]), solver.rates()[k] * t);
    const auto& task = problem.tasks()[k];
    busy[{task.from, task.to}] += task.time * solver.rates()[k];
  }
  for (const auto& [arc, s] : busy) EXPECT_EQ(mpq_class(s * t).get_den(), 1) << "s(i->j)·T is an integer";
}

// A source linked only to its targets: the source's port sends every message itself, so
// TP = 1 / Σ_t c(s, t) (the closed form of the issue).
TEST(SteadyStateSolver, StarScatterMatchesClosedForm) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const int targets = 1 + static_cast<int>(seed % 5);
    const auto p = star_platform(seed, targets);
    mpq_class total = 0;
    for (const auto e : boost::make_iterator_range(boost::edges(p.graph()))) total += to_mpq(p.graph()[e].cost);
    EXPECT_EQ(solve(SteadyStateProblem::scatter(p, "S", names("T", 0, targets))), 1 / total)
        << " seed=" << seed << " targets=" << targets;
  }
}

// With latencies (α–β), each message pays its link's α once: the source emits one message per
// target per period, so TP = 1 / Σ_t (α(s, t) + c(s, t)).
TEST(SteadyStateSolver, StarScatterPaysEachLinksLatencyPerMessage) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const int targets = 1 + static_cast<int>(seed % 4);
    auto p = star_platform(seed, targets);
    mpq_class total = 0;
    for (const auto e : boost::make_iterator_range(boost::edges(p.graph()))) {
      p.graph()[e].latency = Rational(static_cast<std::int64_t>(seed), 3);
      total += to_mpq(p.graph()[e].cost) + to_mpq(p.graph()[e].latency);
    }
    EXPECT_EQ(solve(SteadyStateProblem::scatter(p, "S", names("T", 0, targets))), 1 / total) << " seed=" << seed;
  }
}

// Gossip on a complete graph with one cost c, everybody to everybody: each node's port must
// emit its n−1 messages at least once, and direct sends do just that: TP = 1 / ((n−1)·c).
TEST(SteadyStateSolver, UniformCompleteGossipMatchesClosedForm) {
  for (int n = 2; n <= 4; ++n) {
    for (const Rational& c : {Rational(1), Rational(3, 2)}) {
      Platform p("complete");
      for (int v = 0; v < n; ++v) add_processor(p, fmt::format("P{}", v));
      for (int a = 0; a < n; ++a) {
        for (int b = 0; b < n; ++b) {
          if (a != b) link(p, fmt::format("P{}", a), fmt::format("P{}", b), c);
        }
      }
      const auto all = names("P", 0, n);
      EXPECT_EQ(solve(SteadyStateProblem::gossip(p, all, all)), 1 / (mpq_class(n - 1) * to_mpq(c)))
          << " n=" << n << " c=" << c;
    }
  }
}

// Two participants P0 (target) and P1, links P1→P0 cost c and P0→P1 cost d: every reduce needs one
// message into P0, and the tasks are shared between P0 (all it can) and P1 (bounded by its speed
// and by P0's port sending it v0): TP = min(1/c, s0 + min(s1, 1/d)).
TEST(SteadyStateSolver, TwoParticipantReduceMatchesClosedForm) {
  struct Case {
    Rational c, d, s0, s1;
  };
  const std::vector<Case> cases = {{1, 1, 2, 1},          {Rational(1, 4), 1, 1, 1}, {Rational(1, 5), Rational(1, 2), 1, 3},
                                   {Rational(1, 9), 2, Rational(1, 3), 5}, {3, 1, 1, 1}};
  for (const auto& k : cases) {
    Platform p("pair");
    add_processor(p, "P0", k.s0);
    add_processor(p, "P1", k.s1);
    link(p, "P1", "P0", k.c);
    link(p, "P0", "P1", k.d);
    const mpq_class expected =
        std::min(mpq_class(1 / to_mpq(k.c)), mpq_class(to_mpq(k.s0) + std::min(to_mpq(k.s1), mpq_class(1 / to_mpq(k.d)))));
    EXPECT_EQ(solve(SteadyStateProblem::reduce(p, {"P0", "P1"}, "P0")), expected)
        << " c=" << k.c << " d=" << k.d << " s0=" << k.s0 << " s1=" << k.s1;
  }
}

/// Hop-count shortest paths from @p from (BFS), as predecessor arcs.
std::vector<Vertex> bfs_parents(const Platform& p, Vertex from) {
  std::vector<Vertex> parent(p.num_nodes(), std::numeric_limits<Vertex>::max());
  parent[from] = from;
  std::vector<Vertex> queue{from};
  for (std::size_t k = 0; k < queue.size(); ++k) {
    for (const auto e : boost::make_iterator_range(boost::out_edges(queue[k], p.graph()))) {
      const Vertex w = boost::target(e, p.graph());
      if (parent[w] == std::numeric_limits<Vertex>::max()) {
        parent[w] = queue[k];
        queue.push_back(w);
      }
    }
  }
  return parent;
}

// Independent sandwich on random platforms. Lower bound: routing every message along one BFS path
// is a feasible schedule with TP = 1 / (largest port load per operation). Upper bounds: the
// source emits |T| messages per scatter at cost ≥ its cheapest out-arc; a target receives one at
// cost ≥ its cheapest in-arc.
TEST(SteadyStateSolver, RandomScatterLiesBetweenIndependentBounds) {
  for (std::uint64_t seed = 1; seed <= 25; ++seed) {
    const int nodes = 3 + static_cast<int>(seed % 5);
    const auto p = random_platform(seed, nodes, /*processors=*/nodes - static_cast<int>(seed % 2), /*extra=*/nodes);
    const auto& g = p.graph();
    std::vector<std::string> targets;
    for (int v = 1; v < nodes; ++v) {
      if (g[static_cast<Vertex>(v)].role == Role::PROCESSOR) targets.push_back(g[static_cast<Vertex>(v)].name);
    }
    if (targets.empty()) continue;
    const mpq_class tp = solve(SteadyStateProblem::scatter(p, "N0", targets));

    const auto parent = bfs_parents(p, 0);
    std::vector<mpq_class> out_load(p.num_nodes());
    std::vector<mpq_class> in_load(p.num_nodes());
    for (const auto& name : targets) {
      for (Vertex v = *p.find(name); v != 0; v = parent[v]) {
        const mpq_class c = to_mpq(g[boost::edge(parent[v], v, g).first].cost);
        out_load[parent[v]] += c;
        in_load[v] += c;
      }
    }
    mpq_class worst = 0;
    for (std::size_t v = 0; v < p.num_nodes(); ++v) worst = std::max({worst, out_load[v], in_load[v]});
    EXPECT_GE(tp, 1 / worst) << " seed=" << seed;

    mpq_class cheapest_out = -1;
    for (const auto e : boost::make_iterator_range(boost::out_edges(0, g))) {
      const auto c = to_mpq(g[e].cost);
      if (cheapest_out < 0 || c < cheapest_out) cheapest_out = c;
    }
    EXPECT_LE(tp, 1 / (mpq_class(static_cast<long>(targets.size())) * cheapest_out)) << " seed=" << seed;
    for (const auto& name : targets) {
      mpq_class cheapest_in = -1;
      for (const auto e : boost::make_iterator_range(boost::in_edges(*p.find(name), g))) {
        const auto c = to_mpq(g[e].cost);
        if (cheapest_in < 0 || c < cheapest_in) cheapest_in = c;
      }
      EXPECT_LE(tp, 1 / cheapest_in) << " seed=" << seed << " target=" << name;
    }
  }
}

// Metamorphic checks: multiplying every cost and dividing every speed by λ divides TP by λ; an
// isolated extra router changes nothing.
TEST(SteadyStateSolver, ScalingTimeScalesThroughput) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    auto p = random_platform(seed, /*nodes=*/4, /*processors=*/4, /*extra=*/3);
    const auto all = names("N", 0, 4);
    const mpq_class before = solve(SteadyStateProblem::reduce(p, all, "N1"));
    const Rational lambda(5, 3);
    for (const auto e : boost::make_iterator_range(boost::edges(p.graph()))) p.graph()[e].cost *= lambda;
    for (const auto v : boost::make_iterator_range(boost::vertices(p.graph()))) p.graph()[v].speed /= lambda;
    add_router(p, "Isolated");
    EXPECT_EQ(solve(SteadyStateProblem::reduce(p, all, "N1")), before / to_mpq(lambda)) << " seed=" << seed;
  }
}

// The paper's SSSP as printed, built literally: send(P_i → P_j, m_k) on every arc for every
// target, conservation for every P_i and m_k with k ≠ i, inflow at P_k = TP.
mpq_class literal_sssp(const Platform& p, Vertex source, const std::vector<Vertex>& targets, bool conserve_at_source) {
  const auto& g = p.graph();
  LinearProgram lp;
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> flow;  // (node, k) -> (column, ±1)
  std::map<Vertex, std::vector<std::pair<int, mpq_class>>> out_port;
  std::map<Vertex, std::vector<std::pair<int, mpq_class>>> in_port;
  std::map<int, std::vector<int>> inflow;  // k -> columns entering P_k
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    for (int k = 0; k < static_cast<int>(targets.size()); ++k) {
      const Vertex u = boost::source(e, g);
      const Vertex v = boost::target(e, g);
      const int col = lp.add_variable(fmt::format("send({}->{},m{})", u, v, k));
      out_port[u].emplace_back(col, to_mpq(g[e].cost));
      in_port[v].emplace_back(col, to_mpq(g[e].cost));
      flow[{static_cast<int>(u), k}].emplace_back(col, -1);
      flow[{static_cast<int>(v), k}].emplace_back(col, 1);
      if (v == targets[static_cast<std::size_t>(k)]) inflow[k].push_back(col);
    }
  }
  const int tp = lp.add_variable("TP", 1);
  for (auto* ports : {&out_port, &in_port}) {
    for (const auto& [v, cols] : *ports) {
      const int row = lp.add_constraint(fmt::format("port {}", v), Sense::LESS_EQUAL, 1);
      for (const auto& [col, c] : cols) lp.set_coefficient(row, col, c);
    }
  }
  for (const auto& [node_k, cols] : flow) {
    const auto [node, k] = node_k;
    if (static_cast<Vertex>(node) == targets[static_cast<std::size_t>(k)]) continue;
    if (!conserve_at_source && static_cast<Vertex>(node) == source) continue;
    const int row = lp.add_constraint(fmt::format("conservation {} {}", node, k), Sense::EQUAL, 0);
    for (const auto& [col, sign] : cols) lp.set_coefficient(row, col, sign);
  }
  for (const auto& [k, cols] : inflow) {
    const int row = lp.add_constraint(fmt::format("throughput {}", k), Sense::EQUAL, 0);
    for (const int col : cols) lp.set_coefficient(row, col, 1);
    lp.set_coefficient(row, tp, -1);
  }
  ExactLpSolver solver(lp);
  EXPECT_EQ(solver.run(), Status::OPTIMAL);
  return solver.objective();
}

// Paper typo 1: SSSP's conservation law "∀P_i, ∀m_k, k ≠ i" includes P_source, whose emission
// it then forces to equal its reception: on Figure 2, where nothing enters Ps, TP would be 0,
// not the 1/2 the paper reports.
TEST(SteadyStateSolver, PaperSsspAsPrintedConservesAtTheSource) {
  const auto p = figure2_platform();
  const std::vector<Vertex> targets = {*p.find("P0"), *p.find("P1")};
  EXPECT_EQ(literal_sssp(p, *p.find("Ps"), targets, /*conserve_at_source=*/true), 0);
  EXPECT_EQ(literal_sssp(p, *p.find("Ps"), targets, /*conserve_at_source=*/false), mpq_class(1, 2));
}

// Paper gap 2: with the source fixed, a target may still forward its own messages and get them
// back; the LP then counts them twice. Source S → K1, S → K2 (cost 1), K1 ⇄ J (cost 1/100): the
// source must emit both messages at cost 1, so TP = 1/2, but the printed LP claims 1.
TEST(SteadyStateSolver, PaperSsspAsPrintedCountsACirculationAsThroughput) {
  Platform p("circulation");
  for (const char* name : {"S", "K1", "K2", "J"}) add_processor(p, name);
  link(p, "S", "K1", 1);
  link(p, "S", "K2", 1);
  link(p, "K1", "J", Rational(1, 100));
  link(p, "J", "K1", Rational(1, 100));
  const std::vector<Vertex> targets = {*p.find("K1"), *p.find("K2")};
  EXPECT_EQ(literal_sssp(p, *p.find("S"), targets, /*conserve_at_source=*/false), 1);
  EXPECT_EQ(solve(SteadyStateProblem::scatter(p, "S", {"K1", "K2"})), mpq_class(1, 2));
}

TEST(SteadyStateSolver, IterationLimitIsSolverError) {
  const auto p = tiers_like(/*seed=*/3, /*processors=*/6);
  const auto problem = SteadyStateProblem::reduce(p, names("P", 0, 6), "P0");
  SteadyStateSolver solver(problem);
  solver.iteration_limit(2);
  try {
    (void)solver.run();
    FAIL() << "solved in 2 iterations";
  } catch (const SolverError& e) {
    EXPECT_NE(std::string(e.what()).find("iteration limit"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace starnet::algorithms::steady_state

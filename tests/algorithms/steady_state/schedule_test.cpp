#include "steady_state_platforms.hpp"

#include <starnet/algorithms/steady_state/planner.hpp>
#include <starnet/algorithms/steady_state/schedule.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace starnet::algorithms::steady_state {
namespace {

using namespace testing;

/// The paper's examples and a few random platforms, kept alive with their problems.
struct Examples {
  std::vector<std::unique_ptr<Platform>> platforms;
  std::vector<SteadyStateProblem> problems;
  Examples() {
    platforms.push_back(std::make_unique<Platform>(figure2_platform()));
    problems.push_back(SteadyStateProblem::scatter(*platforms.back(), "Ps", {"P0", "P1"}));
    platforms.push_back(std::make_unique<Platform>(figure6_platform()));
    problems.push_back(SteadyStateProblem::reduce(*platforms.back(), {"P0", "P1", "P2"}, "P0"));
    problems.push_back(SteadyStateProblem::gossip(*platforms.back(), {"P0", "P1"}, {"P1", "P2"}));
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      platforms.push_back(std::make_unique<Platform>(random_platform(seed, 5, 4, 5)));
      problems.push_back(SteadyStateProblem::reduce(*platforms.back(), {"N0", "N1", "N2"}, "N3"));
      problems.push_back(SteadyStateProblem::scatter(*platforms.back(), "N1", {"N0", "N2", "N3"}));
    }
  }
};

/// Period-level oracle for the start-up / steady / clean-up rule, independent of start_periods():
/// runs R repetitions with per-(tree, task) buffers; a task may use only what was produced in
/// earlier periods. @return results delivered to each sink, or a message on a buffer underrun.
std::pair<std::vector<mpz_class>, std::string> run_periods(const SteadyStateProblem& problem,
                                                           const PeriodicSchedule& s, int repetitions) {
  std::map<std::pair<int, int>, int> start;  // (tree, task) -> start period, from the plain data
  for (const auto& m : s.matchings) {
    for (const auto& tr : m.transfers) start[{tr.tree, tr.task}] = tr.start_period;
  }
  for (const auto& c : s.computations) start[{c.tree, c.task}] = c.start_period;
  std::map<std::pair<int, int>, mpz_class> stock;  // (tree, position) -> results available
  std::vector<mpz_class> delivered(problem.sinks().size());
  for (int q = 0; q < repetitions + s.startup_periods; ++q) {
    std::vector<std::pair<std::pair<int, int>, mpz_class>> made;
    for (int t = 0; t < static_cast<int>(s.trees.size()); ++t) {
      const auto& tree = s.trees[static_cast<std::size_t>(t)];
      for (int p = 0; p < static_cast<int>(tree.tasks.size()); ++p) {
        const int first = start.at({t, tree.tasks[static_cast<std::size_t>(p)]});
        if (q < first || q >= first + repetitions) continue;
        for (const int r : tree.producers[static_cast<std::size_t>(p)]) {
          if (r < 0) continue;
          auto& have = stock[{t, r}];
          if (have < tree.weight) {
            return {delivered, "period " + std::to_string(q) + ": " + problem.task_label(tree.tasks[static_cast<std::size_t>(p)]) +
                                   " of tree " + std::to_string(t) + " lacks input"};
          }
          have -= tree.weight;
        }
        made.push_back({{t, p}, tree.weight});
      }
    }
    for (const auto& [where, amount] : made) {
      if (where.second == 0) {
        delivered[static_cast<std::size_t>(s.trees[static_cast<std::size_t>(where.first)].sink)] += amount;
      } else {
        stock[where] += amount;
      }
    }
  }
  for (const auto& [where, amount] : stock) {
    if (amount != 0) return {delivered, "results left in a buffer after the clean-up"};
  }
  return {delivered, ""};
}

TEST(PeriodicSchedule, StartUpAndCleanUpNeverStarveABuffer) {
  const Examples ex;
  for (const auto& problem : ex.problems) {
    SteadyStatePlanner planner(problem);
    ASSERT_EQ(planner.run(), Status::OPTIMAL) << problem.describe();
    const auto& s = planner.schedule();
    ASSERT_TRUE(check_schedule(problem, s)) << problem.describe() << ": " << check_schedule(problem, s).failure;
    for (const int r : {1, 3, 10}) {
      const auto [delivered, error] = run_periods(problem, s, r);
      EXPECT_EQ(error, "") << problem.describe() << " R=" << r;
      for (const auto& d : delivered) EXPECT_EQ(d, r * s.operations_per_period) << problem.describe() << " R=" << r;
    }
  }
}

TEST(PeriodicSchedule, WholeMessagesSplitNoMessage) {
  const Examples ex;
  for (const auto& problem : ex.problems) {
    SteadyStatePlanner planner(problem);
    planner.whole_messages(true);
    ASSERT_EQ(planner.run(), Status::OPTIMAL) << problem.describe();
    const auto& s = planner.schedule();
    EXPECT_TRUE(check_schedule(problem, s)) << problem.describe() << ": " << check_schedule(problem, s).failure;
    EXPECT_EQ(s.throughput(), planner.throughput()) << problem.describe();
    EXPECT_EQ(mpq_class(s.period / planner.solver().period()).get_den(), 1) << "a multiple of T";
    for (const auto& m : s.matchings) {
      for (const auto& tr : m.transfers) EXPECT_EQ(tr.amount.get_den(), 1) << problem.describe();
    }
    EXPECT_TRUE(planner.verify()) << problem.describe() << ": " << planner.verify().failure;
  }
}

// Section 4.6, Proposition 4: with r(T) = ⌊w(T)·T_fixed / T⌋ the throughput loses at most
// card(Trees) / T_fixed, and nothing when T_fixed is a multiple of T.
TEST(PeriodicSchedule, FixedPeriodMeetsProposition4) {
  const Examples ex;
  for (const auto& problem : ex.problems) {
    SteadyStatePlanner planner(problem);
    ASSERT_EQ(planner.run(), Status::OPTIMAL) << problem.describe();
    const mpq_class tp = planner.throughput();
    const mpq_class period(planner.solver().period());
    const auto trees = static_cast<long>(planner.trees().size());
    for (const mpq_class& fixed : {mpq_class(1), mpq_class(7, 2), mpq_class(10), mpq_class(100), mpq_class(1000),
                                  mpq_class(period * 3)}) {
      const auto s = fixed_period_schedule(problem, planner.trees(), period, fixed);
      EXPECT_TRUE(check_schedule(problem, s)) << problem.describe() << " fixed=" << fixed << ": "
                                              << check_schedule(problem, s).failure;
      EXPECT_EQ(s.period, fixed);
      EXPECT_LE(s.throughput(), tp) << problem.describe() << " fixed=" << fixed;
      EXPECT_LE(tp - s.throughput(), mpq_class(trees) / fixed) << problem.describe() << " fixed=" << fixed;
    }
    EXPECT_EQ(fixed_period_schedule(problem, planner.trees(), period, period * 3).throughput(), tp) << problem.describe();
  }
}

// Lemma 1 / Proposition 1: over K time units no schedule beats TP·K, and R = ⌊K/T⌋ − D
// repetitions complete R·TP·T operations, so the ratio tends to 1.
TEST(PeriodicSchedule, PhasesApproachTheBound) {
  const Examples ex;
  for (const auto& problem : ex.problems) {
    SteadyStatePlanner planner(problem);
    ASSERT_EQ(planner.run(), Status::OPTIMAL) << problem.describe();
    const auto& s = planner.schedule();
    mpq_class previous = -1;
    for (const long periods : {10L, 100L, 1000L, 100000L}) {
      const mpq_class horizon = s.period * periods + mpq_class(1, 2);
      const auto plan = plan_phases(s, planner.throughput(), horizon);
      EXPECT_EQ(plan.whole_periods, periods);
      EXPECT_EQ(plan.repetitions, std::max(0L, periods - s.startup_periods));
      EXPECT_EQ(plan.completed, plan.repetitions * s.operations_per_period);
      EXPECT_LE(mpq_class(plan.completed), plan.bound) << problem.describe() << " periods=" << periods;
      EXPECT_GE(plan.ratio, previous) << problem.describe() << " periods=" << periods;
      previous = plan.ratio;
    }
    EXPECT_GT(previous, mpq_class(99, 100)) << problem.describe();
  }
}

TEST(PeriodicSchedule, NonPositivePeriodOrHorizonIsNamed) {
  const auto p = figure2_platform();
  const auto problem = SteadyStateProblem::scatter(p, "Ps", {"P0", "P1"});
  SteadyStatePlanner planner(problem);
  ASSERT_EQ(planner.run(), Status::OPTIMAL);
  try {
    (void)fixed_period_schedule(problem, planner.trees(), mpq_class(planner.solver().period()), mpq_class(-3, 2));
    FAIL() << "period -3/2 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fixed period -3/2"), std::string::npos) << e.what();
  }
  try {
    (void)plan_phases(planner.schedule(), planner.throughput(), 0);
    FAIL() << "horizon 0 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("horizon K = 0"), std::string::npos) << e.what();
  }
  SteadyStatePlanner zero(problem);
  zero.fixed_period(mpq_class(0));
  EXPECT_THROW((void)zero.run(), InputError);
}

TEST(PeriodicSchedule, CheckRejectsAnOverloadedProcessor) {
  const auto p = figure6_platform();
  const auto problem = SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P0");
  SteadyStatePlanner planner(problem);
  ASSERT_EQ(planner.run(), Status::OPTIMAL);
  auto s = planner.schedule();
  ASSERT_TRUE(check_schedule(problem, s));
  s.computations.push_back(s.computations.front());  // the same tasks twice per period
  EXPECT_FALSE(check_schedule(problem, s));
  auto late = planner.schedule();
  late.startup_periods += 1;
  EXPECT_NE(check_schedule(problem, late).failure.find("startup_periods"), std::string::npos);
}

}  // namespace
}  // namespace starnet::algorithms::steady_state

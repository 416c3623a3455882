// Every plan, run on the emulator at its planned times, takes exactly its predicted length and
// leaves v_0 ⊕ … ⊕ v_(n−1) on the root, for a commutative and a non-commutative operator.
#include <starnet/algorithms/trees/plan_program.hpp>
#include <starnet/algorithms/trees/tree_planner.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/zmq_engine.hpp>
#include <starnet/topology/complete_graph.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::trees {
namespace {

using emulator::NodeRange;

emulator::RunConfig planned_config() {
  emulator::RunConfig config;
  config.ports.half_duplex = true;  // one transfer at a time, sending or receiving (Section 3.1)
  config.checking = emulator::Checking::STRICT;
  config.time = emulator::TimeMode::TIMED;
  return config;
}

struct Emulated {
  emulator::RunResult<Rational> run;
  PlanRunReport report;
};

Emulated emulate(const ReductionPlan& plan, const Operator& op, Timing timing, unsigned workers = 1) {
  const topology::CompleteGraph g(static_cast<emulator::NodeId>(plan.n()));
  const emulator::UniformCosts<Rational> costs(plan.model.d(), plan.model.c());
  auto config = planned_config();
  config.trace = workers > 1 || plan.n() <= 64;
  if (timing == Timing::AS_SOON_AS_READY) config.checking = emulator::Checking::ARBITRATED;
  const emulator::ProgramFactory factory = [&](NodeRange r) { return make_plan_program(plan, op, timing, r); };
  auto run = workers == 1 ? emulator::LocalEngine<Rational>().run(g, costs, factory, config)
                          : emulator::run_zmq_threads<Rational>(g, costs, factory, config, workers);
  auto report = PlanRunReport::merge(run.reports);
  return {std::move(run), std::move(report)};
}

TEST(PlanProgram, EmulatedLengthEqualsPredictedLengthForEveryAlgorithm) {
  const auto concat = make_operator("concat", "--op");
  const auto sum = make_operator("sum", "--op");
  const std::vector<std::pair<Rational, Rational>> costs = {
      {1, 1}, {0, 1}, {1, 0}, {Rational(3, 2), 1}, {1, Rational(5, 2)}, {2, Rational(1, 3)}};
  for (const auto algorithm : {Algorithm::GREEDY, Algorithm::GREEDY_TRANSFERS, Algorithm::GREEDY_REDUCERS,
                               Algorithm::BINOMIAL, Algorithm::FIBONACCI, Algorithm::BINOMIAL_STRATEGY,
                               Algorithm::FIBONACCI_STRATEGY}) {
    for (const int n : {1, 2, 3, 5, 8, 13, 21, 33}) {
      for (const auto& [d, c] : costs) {
        PlanRequest request{algorithm, n, CostModel(d, c), std::nullopt};
        if (takes_limit(algorithm)) request.k = 2;
        ReductionPlan plan;
        try {
          plan = make_plan(request);
        } catch (const ScheduleError&) {
          continue;  // binomial / Fibonacci trees exist only for their sizes
        }
        const std::string where = std::string(to_string(algorithm)) + " n=" + std::to_string(n) +
                                  " d=" + d.to_string() + " c=" + c.to_string();
        for (const Operator* op : {concat.get(), sum.get()}) {
          const auto e = emulate(plan, *op, Timing::AT_PLANNED_TIMES);
          EXPECT_EQ(e.run.makespan, plan.length) << where;
          EXPECT_TRUE(e.report.root_done) << where;
          EXPECT_EQ(e.report.late, 0U) << where;
          EXPECT_EQ(e.report.root_value, op->sequential(static_cast<std::uint64_t>(n))) << where << " " << op->name();
        }
      }
    }
  }
}

TEST(PlanProgram, SameTraceOnZmqWorkers) {
  const auto plan = make_plan({Algorithm::GREEDY, 40, CostModel(Rational(3, 2), 1), std::nullopt});
  const auto op = make_operator("concat", "--op");
  const auto local = emulate(plan, *op, Timing::AT_PLANNED_TIMES);
  const auto zmq = emulate(plan, *op, Timing::AT_PLANNED_TIMES, 3);
  const topology::CompleteGraph g(40);
  ASSERT_EQ(local.run.trace.size(), zmq.run.trace.size());
  for (std::size_t i = 0; i < local.run.trace.size(); ++i) {
    ASSERT_EQ(emulator::to_json_line(local.run.trace[i], g), emulator::to_json_line(zmq.run.trace[i], g)) << i;
  }
  EXPECT_EQ(zmq.report.root_value, op->sequential(40));
}

TEST(PlanProgram, AsSoonAsReadyNeverBeatsTheOptimumAndStaysCorrect) {
  // Without the planned times, machines go as soon as they can: still a correct reduction, and
  // never shorter than the optimal plan (Algorithm 1 is optimal, Theorem 4).
  const auto concat = make_operator("concat", "--op");
  for (const int n : {2, 7, 16, 31}) {
    const CostModel model(2, 1);
    const auto optimal = make_plan({Algorithm::GREEDY, n, model, std::nullopt});
    for (const auto algorithm : {Algorithm::GREEDY, Algorithm::BINOMIAL_STRATEGY, Algorithm::FIBONACCI_STRATEGY}) {
      const auto plan = make_plan({algorithm, n, model, std::nullopt});
      const auto e = emulate(plan, *concat, Timing::AS_SOON_AS_READY);
      EXPECT_EQ(e.report.root_value, concat->sequential(static_cast<std::uint64_t>(n))) << " n=" << n;
      EXPECT_GE(e.run.makespan, optimal.length) << " n=" << n;
    }
  }
}

TEST(PlanProgram, ALatePlanIsCaught) {
  // Shift one transfer earlier than its sender can be ready: the run reports it.
  auto plan = make_plan({Algorithm::GREEDY, 8, CostModel(1, 1), std::nullopt});
  Transfer* t = nullptr;
  for (auto& x : plan.transfers) {
    if (!plan.children[x.from].empty()) t = &x;
  }
  ASSERT_NE(t, nullptr);
  t->start = 0;
  const auto op = make_operator("sum", "--op");
  try {
    const auto e = emulate(plan, *op, Timing::AT_PLANNED_TIMES);
    EXPECT_GT(e.report.late, 0U);
  } catch (const ModelViolation&) {
    SUCCEED();  // or the early transfer collides with another one: also caught
  }
}

TEST(PlanProgram, RejectsUnknownOperator) {
  try {
    (void)make_operator("avg", "op");
    FAIL();
  } catch (const UsageError& e) {
    ASSERT_NE(e.setting(), nullptr);
    EXPECT_EQ(e.setting()->name, "op");
    EXPECT_EQ(e.setting()->value, "avg");
    EXPECT_NE(std::string(e.what()).find("sum or concat"), std::string::npos);
  }
}

}  // namespace
}  // namespace starnet::algorithms::trees

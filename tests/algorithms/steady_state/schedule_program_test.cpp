#include "steady_state_platforms.hpp"
#include "../../topology/simgrid_examples.hpp"

#include <starnet/algorithms/steady_state/planner.hpp>
#include <starnet/algorithms/steady_state/schedule_program.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace starnet::algorithms::steady_state {
namespace {

using namespace testing;

struct Planned {
  explicit Planned(const SteadyStateProblem& problem, bool whole = false) : planner(problem) {
    planner.whole_messages(whole);
    if (planner.run() != Status::OPTIMAL) throw std::runtime_error(problem.describe() + ": not OPTIMAL");
  }
  SteadyStatePlanner planner;
};

/// Runs @p schedule for @p horizon and checks, independently of the schedule's own accounting,
/// everything an emulation must satisfy. @return the ratio completed / (TP·K).
mpq_class expect_emulation_holds(const SteadyStateProblem& problem, const PeriodicSchedule& schedule,
                                 const mpq_class& tp, const mpq_class& horizon, const std::string& label) {
  ScheduleEmulator emulator(problem, schedule);
  emulator.optimal_throughput(tp);
  const ScheduleEmulation& e = emulator.run(horizon);
  const std::string where = label + " K=" + horizon.get_str();
  EXPECT_TRUE(e.verified()) << where << ": " << e.failure();
  // Lemma 1: the certified TP is never below what the emulator achieves.
  EXPECT_LE(mpq_class(e.report.completed), tp * horizon) << where;
  EXPECT_EQ(e.plan.bound, tp * horizon) << where;
  // Proposition 1 (with I = D·T): at least r·T·TP_schedule operations.
  EXPECT_GE(e.report.completed, e.guaranteed) << where;
  // R = ⌊K/T⌋ − D repetitions, every sink gets R·ops, all verified.
  mpz_class whole;
  mpz_fdiv_q(whole.get_mpz_t(), mpq_class(horizon / schedule.period).get_num_mpz_t(),
             mpq_class(horizon / schedule.period).get_den_mpz_t());
  const mpz_class r = whole > schedule.startup_periods ? mpz_class(whole - schedule.startup_periods) : mpz_class(0);
  EXPECT_EQ(e.report.completed, r * schedule.operations_per_period) << where;
  EXPECT_EQ(mpz_class(static_cast<unsigned long>(e.report.delivered)),
            e.report.completed * static_cast<unsigned long>(problem.sinks().size()))
      << where;
  EXPECT_EQ(e.report.verified, e.report.delivered) << where;
  // One port, and every transfer and computation of every repetition took place.
  EXPECT_LE(e.run.counters.max_concurrent_sends, 1U) << where;
  EXPECT_LE(e.run.counters.max_concurrent_receives, 1U) << where;
  std::size_t transfers = 0;
  for (const auto& m : schedule.matchings) transfers += m.transfers.size();
  EXPECT_EQ(mpz_class(static_cast<unsigned long>(e.run.counters.messages)), r * static_cast<unsigned long>(transfers))
      << where;
  EXPECT_EQ(mpz_class(static_cast<unsigned long>(e.run.counters.computations)),
            r * static_cast<unsigned long>(schedule.computations.size()))
      << where;
  EXPECT_LE(e.run.makespan, to_rational(horizon)) << where;
  EXPECT_EQ(e.ratio, mpq_class(e.report.completed) / (tp * horizon)) << where;
  return e.ratio;
}

/// K = 10T, 100T, 1000T: the ratio never decreases and is 1 − D·T/K (optimal schedules serve
/// TP·T per period), so within c/K of 1 with c = D·T.
void expect_ratio_approaches_one(const SteadyStateProblem& problem, const PeriodicSchedule& schedule,
                                 const mpq_class& tp, const std::string& label) {
  mpq_class previous = -1;
  for (const long periods : {10L, 100L, 1000L}) {
    const mpq_class k = schedule.period * periods;
    const mpq_class ratio = expect_emulation_holds(problem, schedule, tp, k, label);
    EXPECT_GE(ratio, previous) << label << " periods=" << periods;
    EXPECT_GE(ratio, 1 - schedule.startup_periods * schedule.period / k) << label << " periods=" << periods;
    previous = ratio;
  }
  EXPECT_GE(previous, mpq_class(1) - mpq_class(schedule.startup_periods + 1, 1000)) << label;
}

TEST(ScheduleEmulator, Figure2ScatterApproachesOneHalf) {
  const auto p = figure2_platform();
  const auto problem = SteadyStateProblem::scatter(p, "Ps", {"P0", "P1"});
  const Planned plan(problem);
  ASSERT_EQ(plan.planner.throughput(), mpq_class(1, 2));
  expect_ratio_approaches_one(problem, plan.planner.schedule(), mpq_class(1, 2), "figure 2");
}

// A schedule that splits messages across matchings runs them as fragments; with whole messages
// (the second lcm) the period is L times longer: the same limit, a longer start-up.
TEST(ScheduleEmulator, WholeMessagesCompleteFewerAtTheSameHorizon) {
  for (std::uint64_t seed = 1;; ++seed) {
    ASSERT_LE(seed, 20U) << "no random platform splits a message";
    const auto p = random_platform(seed, /*nodes=*/6, /*processors=*/4, /*extra=*/6);
    const auto problem = SteadyStateProblem::scatter(p, "N0", {"N1", "N2", "N3"});
    const Planned split(problem);
    const Planned whole(problem, /*whole=*/true);
    const auto& s = split.planner.schedule();
    const auto& w = whole.planner.schedule();
    if (w.period == s.period) continue;
    const mpq_class tp = split.planner.throughput();
    expect_ratio_approaches_one(problem, s, tp, "split seed=" + std::to_string(seed));
    expect_ratio_approaches_one(problem, w, tp, "whole seed=" + std::to_string(seed));
    const mpq_class k = w.period * 10;
    EXPECT_LT(expect_emulation_holds(problem, w, tp, k, "whole"), expect_emulation_holds(problem, s, tp, k, "split"))
        << "seed=" << seed;
    return;
  }
}

TEST(ScheduleEmulator, Figure6ReduceApproachesOnePerTimeUnit) {
  const auto p = figure6_platform();
  const auto problem = SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P0");
  const Planned plan(problem);
  ASSERT_EQ(plan.planner.throughput(), mpq_class(1));
  ASSERT_FALSE(plan.planner.schedule().computations.empty());
  expect_ratio_approaches_one(problem, plan.planner.schedule(), mpq_class(1), "figure 6");
}

TEST(ScheduleEmulator, GossipOnTheTriangle) {
  const auto p = figure6_platform();
  const auto problem = SteadyStateProblem::gossip(p, {"P0", "P1", "P2"}, {"P0", "P1", "P2"});
  const Planned plan(problem);
  expect_ratio_approaches_one(problem, plan.planner.schedule(), plan.planner.throughput(), "gossip");
}

TEST(ScheduleEmulator, HorizonBetweenPeriodsCountsWholePeriods) {
  const auto p = figure6_platform();
  const auto problem = SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P0");
  const Planned plan(problem);
  const auto& s = plan.planner.schedule();
  ScheduleEmulator emulator(problem, s);
  const auto at = emulator.run(s.period * 20).report.completed;
  EXPECT_EQ(emulator.run(s.period * 20 + s.period / 2).report.completed, at);
  EXPECT_TRUE(emulator.result().verified()) << emulator.result().failure();
}

TEST(ScheduleEmulator, HorizonShorterThanTheStartUpCompletesNothing) {
  const auto p = figure2_platform();
  const auto problem = SteadyStateProblem::scatter(p, "Ps", {"P0", "P1"});
  const Planned plan(problem);
  const auto& s = plan.planner.schedule();
  ASSERT_GT(s.startup_periods, 0);
  ScheduleEmulator emulator(problem, s);
  const auto& e = emulator.run(s.period * s.startup_periods);
  EXPECT_EQ(e.report.completed, 0);
  EXPECT_EQ(e.run.counters.messages, 0U);
  EXPECT_EQ(e.ratio, 0);
  EXPECT_TRUE(e.verified()) << e.failure();
}

// Section 4.6: the fixed-period schedule runs as well, below the optimal TP.
TEST(ScheduleEmulator, FixedPeriodSchedules) {
  const auto p = figure6_platform();
  const auto problem = SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P0");
  const Planned plan(problem);
  for (const mpq_class& fixed : {mpq_class(7, 2), mpq_class(5), mpq_class(17)}) {
    const auto s = fixed_period_schedule(problem, plan.planner.trees(), mpq_class(plan.planner.solver().period()), fixed);
    expect_emulation_holds(problem, s, plan.planner.throughput(), fixed * 50, "fixed " + fixed.get_str());
  }
}

// SimGrid's example platforms: their decimal bandwidths and latencies give LP periods and
// times beyond 64 bits, and the optimal and the fixed-period (P = 1) schedules still run to the
// horizon K = 10 s exactly, every operation verified.
TEST(ScheduleEmulator, SimgridPlatformsScatterToAHorizonExactly) {
  SKIP_WITHOUT_SIMGRID_EXAMPLES();
  struct Case {
    std::string file;
    std::string source;
    std::vector<std::string> targets;
  };
  const std::vector<Case> cases{
      {"two_hosts.xml", "Tremblay", {"Jupiter"}},
      {"small_platform.xml", "Tremblay", {"Jupiter", "Fafard", "Ginette", "Bourassa", "Jacquelin", "Boivin"}},
      {"cluster_backbone.xml", "node-0.simgrid.org", {"node-1.simgrid.org", "node-2.simgrid.org"}}};
  const mpq_class horizon = 10;
  for (const Case& c : cases) {
    const auto platform = topology::make_platform(starnet::testing::simgrid_example(c.file));
    const auto problem = SteadyStateProblem::scatter(platform, c.source, c.targets);
    SteadyStatePlanner planner(problem);
    planner.fixed_period(mpq_class(1));
    ASSERT_EQ(planner.run(), Status::OPTIMAL) << c.file;
    EXPECT_TRUE(planner.verify()) << c.file << ": " << planner.verify().failure;
    expect_emulation_holds(problem, planner.schedule(), planner.throughput(), horizon, c.file);
    expect_emulation_holds(problem, *planner.fixed_schedule(), planner.throughput(), horizon, c.file + " P=1");
    if (c.file == "two_hosts.xml") {
      // One unit message per 1/10000 + 1/125000000 s on the only link.
      EXPECT_EQ(planner.throughput(), mpq_class(125000000, 12501));
    }
  }
}

// Figure 9: a Tiers platform with 8 LAN processors, messages of size 10 and tasks of work 10
// (Section 4.7), end to end from the LP to the emulated count.
TEST(ScheduleEmulator, TiersPlatformEndToEnd) {
  const auto p = topology::tiers_platform(/*seed=*/2);
  ASSERT_EQ(p.num_nodes(), 13U);
  const ReduceCosts costs{[](int, int) { return Rational(10); }, [](int, int, int) { return Rational(10); }};
  const auto reduce = SteadyStateProblem::reduce(p, names("p", 0, 8), "p4", costs);
  const Planned r(reduce);
  ASSERT_TRUE(r.planner.verify());
  expect_ratio_approaches_one(reduce, r.planner.schedule(), r.planner.throughput(), "tiers:2 reduce");
  const auto scatter = SteadyStateProblem::scatter(p, "p0", names("p", 1, 7));
  const Planned s(scatter);
  expect_ratio_approaches_one(scatter, s.planner.schedule(), s.planner.throughput(), "tiers:2 scatter");
  const auto gossip = SteadyStateProblem::gossip(p, names("p", 0, 4), names("p", 4, 4));
  const Planned g(gossip);
  expect_ratio_approaches_one(gossip, g.planner.schedule(), g.planner.throughput(), "tiers:2 gossip");
}

// Property: on seeded random platforms, whatever the collective, the horizon and the message
// splitting, the emulator completes exactly what the phases promise, never more than TP·K and
// never less than Proposition 1's guarantee, with every value verified.
TEST(ScheduleEmulator, RandomPlatformsNeverBeatTheCertifiedThroughput) {
  std::mt19937_64 rng(7);
  int split = 0;  // schedules with a message split across matchings (emulated as fragments)
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto p = random_platform(seed, /*nodes=*/6, /*processors=*/4, /*extra=*/6);
    const std::vector<SteadyStateProblem> problems = {
        SteadyStateProblem::scatter(p, "N0", {"N1", "N2", "N3"}),
        SteadyStateProblem::reduce(p, {"N0", "N1", "N2"}, "N3"),
        SteadyStateProblem::gossip(p, {"N0", "N1"}, {"N2", "N3"}),
    };
    for (const auto& problem : problems) {
      for (const bool whole : {false, true}) {
        const Planned plan(problem, whole);
        const auto& s = plan.planner.schedule();
        split += std::any_of(s.matchings.begin(), s.matchings.end(), [](const Matching& m) {
          return std::any_of(m.transfers.begin(), m.transfers.end(),
                             [](const Transfer& t) { return t.amount.get_den() != 1; });
        });
        const mpq_class k = s.period * std::uniform_int_distribution<long>(1, 60)(rng) +
                            mpq_class(std::uniform_int_distribution<long>(0, 6)(rng), 7) * s.period;
        expect_emulation_holds(problem, s, plan.planner.throughput(), k,
                               problem.describe() + (whole ? " whole" : "") + " seed=" + std::to_string(seed));
      }
    }
  }
  EXPECT_GT(split, 0) << "no schedule split a message: fragments untested";
}

// A source linked directly to its targets: TP = 1 / Σ c(s, t), and the emulator stays below it.
TEST(ScheduleEmulator, DirectStarMatchesTheClosedForm) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto p = star_platform(seed, /*targets=*/4);
    const auto problem = SteadyStateProblem::scatter(p, "S", names("T", 0, 4));
    mpq_class sum = 0;
    for (const auto e : boost::make_iterator_range(boost::edges(p.graph()))) sum += to_mpq(p.graph()[e].cost);
    const Planned plan(problem);
    ASSERT_EQ(plan.planner.throughput(), 1 / sum) << "seed=" << seed;
    expect_emulation_holds(problem, plan.planner.schedule(), 1 / sum, plan.planner.schedule().period * 40,
                           "star seed=" + std::to_string(seed));
  }
}

TEST(IntervalValue, CombineIsNotCommutative) {
  const auto v0 = expected_value(/*op=*/5, 0, 0);
  const auto v1 = expected_value(/*op=*/5, 1, 1);
  const auto v12 = expected_value(/*op=*/5, 1, 2);
  ASSERT_TRUE(combine(v0, v1).has_value());
  EXPECT_EQ(*combine(v0, v1), expected_value(5, 0, 1));
  EXPECT_EQ(*combine(v0, v12), expected_value(5, 0, 2));
  EXPECT_FALSE(combine(v1, v0).has_value()) << "v1 ⊕ v0 out of order";
  EXPECT_FALSE(combine(v12, v0).has_value());
  EXPECT_FALSE(combine(v0, expected_value(5, 2, 2)).has_value()) << "a gap";
  EXPECT_FALSE(combine(v0, expected_value(6, 1, 1)).has_value()) << "two operations";
  EXPECT_NE(expected_value(5, 0, 1).sum, expected_value(6, 0, 1).sum);
}

// The emulation is a check that can fail: a schedule that forwards messages before they
// arrive is caught by the nodes, and one whose matchings are not matchings by the strict
// one-port check.
TEST(ScheduleEmulator, ForwardingTooEarlyIsReported) {
  const auto p = figure2_platform();
  const auto problem = SteadyStateProblem::scatter(p, "Ps", {"P0", "P1"});
  const Planned plan(problem);
  auto s = plan.planner.schedule();
  for (auto& m : s.matchings) {
    for (auto& tr : m.transfers) tr.start_period = 0;
  }
  s.startup_periods = 0;
  ScheduleEmulator emulator(problem, s);
  const auto& e = emulator.run(s.period * 10);
  EXPECT_FALSE(e.verified());
  EXPECT_GT(e.report.failures, 0U);
  EXPECT_NE(e.report.first_failure.find("lacks m["), std::string::npos) << e.report.first_failure;
  EXPECT_NE(e.failure().find("lacks"), std::string::npos) << e.failure();
}

TEST(ScheduleEmulator, ComputingBeforeTheInputsArriveIsReported) {
  const auto p = figure6_platform();
  const auto problem = SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P0");
  const Planned plan(problem);
  auto s = plan.planner.schedule();
  bool moved = false;
  for (auto& c : s.computations) {
    if (c.start_period > 0) {
      c.start_period = 0;
      moved = true;
    }
  }
  ASSERT_TRUE(moved) << "figure 6 computes on received partial results";
  ScheduleEmulator emulator(problem, s);
  const auto& e = emulator.run(s.period * 10);
  EXPECT_FALSE(e.verified());
  EXPECT_NE(e.report.first_failure.find("lacks v["), std::string::npos) << e.report.first_failure;
}

TEST(ScheduleEmulator, TwoSendersToOneReceiverBreakTheOnePortModel) {
  const auto p = figure6_platform();
  const auto problem = SteadyStateProblem::gossip(p, {"P0", "P1", "P2"}, {"P0", "P1", "P2"});
  const Planned plan(problem);
  auto s = plan.planner.schedule();
  // One matching holding every transfer, those into P1 first: P0 and P2 both start sending to
  // P1 at the start of the period.
  const Vertex p1 = p.at("P1", "test");
  Matching all;
  for (const auto& m : s.matchings) {
    all.duration += m.duration;
    all.transfers.insert(all.transfers.end(), m.transfers.begin(), m.transfers.end());
  }
  std::stable_partition(all.transfers.begin(), all.transfers.end(), [&](const Transfer& t) { return t.to == p1; });
  ASSERT_GE(std::count_if(all.transfers.begin(), all.transfers.end(), [&](const Transfer& t) { return t.to == p1; }), 2);
  ASSERT_NE(all.transfers[0].from, all.transfers[1].from);
  s.matchings = {all};
  ScheduleEmulator emulator(problem, s);
  try {
    (void)emulator.run(s.period * 5);
    FAIL() << "two senders to one receiver at once were accepted";
  } catch (const ModelViolation& e) {
    EXPECT_NE(std::string(e.what()).find("P1"), std::string::npos) << e.what();
  }
}

TEST(ScheduleEmulator, BadHorizonIsNamed) {
  const auto p = figure2_platform();
  const auto problem = SteadyStateProblem::scatter(p, "Ps", {"P0", "P1"});
  const Planned plan(problem);
  ScheduleEmulator emulator(problem, plan.planner.schedule());
  try {
    (void)emulator.run(mpq_class(-5, 2));
    FAIL() << "horizon -5/2 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("horizon K = -5/2"), std::string::npos) << e.what();
  }
  try {
    (void)emulator.run(mpq_class(1'000'000'000'000L));
    FAIL() << "an emulation of 10^12 time units accepted";
  } catch (const ScheduleError& e) {
    EXPECT_NE(std::string(e.what()).find("horizon K = 1000000000000"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("shorter horizon"), std::string::npos) << e.what();
  }
}

TEST(ScheduleEmulator, SinksServedUnequallyAreNamed) {
  const auto p = figure2_platform();
  const auto problem = SteadyStateProblem::scatter(p, "Ps", {"P0", "P1"});
  const Planned plan(problem);
  auto s = plan.planner.schedule();
  s.operations_per_period += 1;
  try {
    ScheduleEmulator emulator(problem, s);
    FAIL() << "a schedule serving fewer than operations_per_period accepted";
  } catch (const ScheduleError& e) {
    EXPECT_NE(std::string(e.what()).find("sink m[P0]@P0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace starnet::algorithms::steady_state

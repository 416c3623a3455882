#include "steady_state_platforms.hpp"

#include <starnet/algorithms/steady_state/problem.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace starnet::algorithms::steady_state {
namespace {

using namespace testing;

/// Runs @p build and checks it throws E with every one of @p parts in its message.
template <class E>
void expect_error(const std::function<void()>& build, const std::vector<std::string>& parts, const char* label) {
  try {
    build();
    ADD_FAILURE() << label << ": accepted";
  } catch (const E& e) {
    for (const auto& part : parts) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << label << ": " << e.what() << " lacks " << part;
    }
    EXPECT_EQ(e.exit_code(), 2) << label;
  } catch (const std::exception& e) {
    ADD_FAILURE() << label << ": wrong exception type: " << e.what();
  }
}

Platform platform_with_router() {
  auto p = figure2_platform();
  add_router(p, "R");
  link(p, "Ps", "R", 1);
  link(p, "R", "P1", 1);
  return p;
}

TEST(SteadyStateProblem, BadInputIsNamed) {
  const auto p = platform_with_router();
  struct Case {
    const char* label;
    std::function<void()> build;
    std::vector<std::string> parts;
    bool topology_error;
  };
  const std::vector<Case> cases = {
      {"UnknownSource", [&] { (void)SteadyStateProblem::scatter(p, "Px", {"P0"}); }, {"\"Px\"", "scatter source"}, true},
      {"UnknownTarget", [&] { (void)SteadyStateProblem::scatter(p, "Ps", {"P0", "Q"}); }, {"\"Q\"", "scatter targets"}, true},
      {"EmptyTargets", [&] { (void)SteadyStateProblem::scatter(p, "Ps", {}); }, {"scatter targets", "empty"}, false},
      {"RouterTarget", [&] { (void)SteadyStateProblem::scatter(p, "Ps", {"R"}); }, {"\"R\"", "router"}, false},
      {"RouterSource", [&] { (void)SteadyStateProblem::scatter(p, "R", {"P1"}); }, {"\"R\"", "router"}, false},
      {"TargetTwice", [&] { (void)SteadyStateProblem::scatter(p, "Ps", {"P0", "P0"}); }, {"\"P0\"", "twice"}, false},
      {"SourceIsTarget", [&] { (void)SteadyStateProblem::scatter(p, "Ps", {"Ps"}); }, {"\"Ps\"", "source"}, false},
      {"UnreachableTarget", [&] { (void)SteadyStateProblem::scatter(p, "Pa", {"P0", "Pb"}); },
       {"\"Pb\"", "unreachable", "\"Pa\"", "throughput would be 0"}, false},
      {"GossipUnknown", [&] { (void)SteadyStateProblem::gossip(p, {"Ps", "Zz"}, {"P0"}); }, {"\"Zz\"", "gossip sources"}, true},
      {"GossipEmptySources", [&] { (void)SteadyStateProblem::gossip(p, {}, {"P0"}); }, {"gossip sources", "empty"}, false},
      {"GossipNoPair", [&] { (void)SteadyStateProblem::gossip(p, {"P0"}, {"P0"}); }, {"no pair"}, false},
      {"GossipUnreachable", [&] { (void)SteadyStateProblem::gossip(p, {"Ps", "P1"}, {"P0"}); },
       {"\"P0\"", "unreachable", "\"P1\""}, false},
      {"ReduceOneParticipant", [&] { (void)SteadyStateProblem::reduce(p, {"P0"}, "P0"); }, {"at least two"}, false},
      {"ReduceRouterTarget", [&] { (void)SteadyStateProblem::reduce(p, {"Ps", "Pa"}, "R"); }, {"\"R\"", "router"}, false},
      {"ReduceUnknownTarget", [&] { (void)SteadyStateProblem::reduce(p, {"Ps", "Pa"}, "Q"); }, {"\"Q\"", "reduce target"}, true},
      {"ReduceUnreachable", [&] { (void)SteadyStateProblem::reduce(p, {"P0", "Pa"}, "Pa"); },
       {"\"Pa\"", "unreachable", "\"P0\""}, false},
  };
  for (const auto& c : cases) {
    if (c.topology_error) {
      expect_error<TopologyError>(c.build, c.parts, c.label);
    } else {
      expect_error<ScheduleError>(c.build, c.parts, c.label);
    }
  }
}

TEST(SteadyStateProblem, NonPositiveCostOrSpeedIsNamed) {
  auto p = figure2_platform();
  const auto e = boost::edge(*p.find("Pa"), *p.find("P0"), p.graph()).first;
  p.graph()[e].cost = 0;
  expect_error<TopologyError>([&] { (void)SteadyStateProblem::scatter(p, "Ps", {"P0"}); }, {"Pa->P0", "cost 0"},
                              "ZeroCost");
  auto q = figure6_platform();
  q.graph()[*q.find("P1")].speed = Rational(-1, 2);
  expect_error<TopologyError>([&] { (void)SteadyStateProblem::reduce(q, {"P0", "P1"}, "P0"); }, {"\"P1\"", "-1/2"},
                              "NegativeSpeed");
}

TEST(SteadyStateProblem, NonPositiveReduceCostsAreNamed) {
  const auto p = figure6_platform();
  expect_error<InputError>(
      [&] {
        (void)SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P0",
                                         {[](int k, int m) { return Rational(k == 1 && m == 2 ? 0 : 1); }, {}});
      },
      {"v[1,2]", "must be > 0"}, "ZeroSize");
  expect_error<InputError>(
      [&] {
        (void)SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P0", {{}, [](int, int, int) { return Rational(-3); }});
      },
      {"T[0,0,1]", "-3"}, "NegativeWork");
}

TEST(SteadyStateProblem, NothingEntersALeafOrLeavesASink) {
  const auto p = figure6_platform();
  const std::vector<SteadyStateProblem> problems = {SteadyStateProblem::scatter(p, "P0", {"P1", "P2"}),
                                                    SteadyStateProblem::gossip(p, {"P0", "P1"}, {"P1", "P2"}),
                                                    SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P1")};
  for (const auto& problem : problems) {
    for (int t = 0; t < static_cast<int>(problem.tasks().size()); ++t) {
      EXPECT_FALSE(problem.is_leaf(problem.output(t))) << problem.task_label(t);
      for (const auto& in : problem.inputs(t)) EXPECT_LT(problem.sink_index(in), 0) << problem.task_label(t);
    }
  }
}

TEST(SteadyStateProblem, ReduceModelCountsMatchThePaper) {
  // N+1 = 3 participants on 3 processors, 6 arcs: 6 types v[k,m]; tasks T_{k,l,m}: 4 per processor.
  const auto p = figure6_platform();
  const auto problem = SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P0");
  EXPECT_EQ(problem.types().size(), 6U);
  int sends = 0;
  int computes = 0;
  for (const auto& task : problem.tasks()) (task.kind == TaskKind::SEND ? sends : computes)++;
  EXPECT_EQ(computes, 3 * 4);
  // 6 arcs × 6 types, minus v[i,i] into P_i (2 arcs each, 3 types) and v[0,2] out of P0 (2 arcs).
  EXPECT_EQ(sends, 36 - 6 - 2);
  EXPECT_EQ(problem.describe(), "reduce P0,P1,P2 -> P0 on figure6");
  // A computation on P0 (speed 2) takes 1/2, a send of size 1 on a cost-1 link takes 1.
  for (const auto& task : problem.tasks()) {
    const mpq_class expected = task.kind == TaskKind::SEND ? mpq_class(1) : task.from == *p.find("P0") ? mpq_class(1, 2) : mpq_class(1);
    EXPECT_EQ(task.time, expected);
  }
}

TEST(SteadyStateProblem, LabelsFollowThePaper) {
  const auto p = figure6_platform();
  const auto problem = SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P0");
  bool saw_task = false;
  for (int t = 0; t < static_cast<int>(problem.tasks().size()); ++t) {
    saw_task = saw_task || problem.task_label(t) == "cons(P1, T[1,1,2])";
  }
  EXPECT_TRUE(saw_task);
  EXPECT_EQ(problem.location_label(problem.sinks()[0]), "v[0,2]@P0");
}

TEST(SteadyStateProblem, CollectiveNames) {
  EXPECT_EQ(to_string(Collective::SCATTER), "scatter");
  EXPECT_EQ(to_string(Collective::ALLTOALL), "alltoall");  // the paper's "gossip"
  EXPECT_EQ(to_string(Collective::REDUCE), "reduce");
}

TEST(SteadyStateProblem, RationalConversionsAreExact) {
  EXPECT_EQ(to_mpq(Rational(-4, 6)), mpq_class(-2, 3));
  EXPECT_EQ(to_rational(mpq_class(7, 9)), Rational(7, 9));
  // Beyond 64 bits too: a period of 2^70 is kept, not refused.
  const mpq_class period(mpz_class(1) << 70, 3);
  EXPECT_EQ(to_mpq(to_rational(period)), period);
  EXPECT_EQ(to_rational(period).to_string(), "1180591620717411303424/3");
}

}  // namespace
}  // namespace starnet::algorithms::steady_state

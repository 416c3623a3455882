// The exact optimum and the shortest schedule of a class as library calls (api/optimal.hpp): the
// optimum proved both ways with its schedule verified, a closed bracket taken as a proof without a
// solver, the uniform gossip of S_5 shorter than the paper's, and bad settings named.
#include "../../api/src/optimal_class.hpp"
#include "../core/expect_error.hpp"

#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/api/optimal.hpp>
#include <starnet/api/schedule.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace starnet::api {
namespace {

using starnet::testing::setting_of;

TEST(FindOptimal, AllReduceOnS4IsSixStepsProvedBothWaysAndItsScheduleRuns) {
  OptimalRequest request;
  request.topology = "star:4";
  request.collective = Collective::ALLREDUCE;
  const auto o = find_optimal(request);
  ASSERT_TRUE(o.sat.has_value());
  EXPECT_EQ(o.sat->optimum, 6U);
  EXPECT_EQ(o.sat->lower_bound, 6U);
  EXPECT_TRUE(o.verified);
  EXPECT_TRUE(o.schedule_proved);
  EXPECT_EQ(o.exit_code(), 0);
  ASSERT_NE(o.schedule, nullptr);
  ScheduleRunRequest run;
  run.schedule = *o.schedule;
  const auto ran = run_schedule(run);
  EXPECT_TRUE(ran.verified) << ran.problem;
  EXPECT_EQ(ran.to_json().at("steps"), 6);
  const auto j = o.to_json();
  EXPECT_EQ(j.at("optimum"), 6);
  EXPECT_EQ(j.at("proved"), true);
}

TEST(VerifyUniformGossip, GroupsBeyondSchedulesRunOnTheirOwnTopologyWithMetaMessages) {
  // Beyond schedules every group but the star runs on its own topology (uniform_search_test.cpp:
  // MetaMessagesOfAnotherGroupTravelItsOwnLinks); hypercube:11 asked for a star graph of dimension 0.
  namespace opt = algorithms::optimal;
  for (const std::string spec : {"pancake:7", "hypercube:11"}) {
    const auto g = opt::CayleyGroup::of(spec);
    ASSERT_GT(g.order(), opt::MAX_UNIFORM_SCHEDULE_NODES) << spec;
    const auto r = opt::uniform_beam(g, 50, static_cast<int>(g.order()) - 1, 0);
    ASSERT_FALSE(r.dimensions.empty()) << spec;
    EXPECT_TRUE(verify_uniform_gossip(g, r.dimensions)) << spec;
    auto shorter = r.dimensions;
    shorter.pop_back();
    EXPECT_FALSE(verify_uniform_gossip(g, shorter)) << spec;
  }
}

TEST(FindOptimal, SaysWhyItGivesNoScheduleInItsResultAndDocument) {
  // Gossip on S_4: the optimum is the star all-reduce's word plan, which is not a gossip.
  OptimalRequest request;
  request.topology = "star:4";
  const auto o = find_optimal(request);
  EXPECT_EQ(o.schedule, nullptr);
  EXPECT_NE(o.schedule_note.find("all-reduce word plan"), std::string::npos) << o.schedule_note;
  EXPECT_EQ(o.to_json()["schedule_note"], o.schedule_note);
  request.collective = Collective::ALLREDUCE;
  const auto given = find_optimal(request);
  EXPECT_NE(given.schedule, nullptr);
  EXPECT_TRUE(given.schedule_note.empty());
  EXPECT_TRUE(given.to_json()["schedule_note"].is_null());
}

TEST(FindOptimal, AClosedBracketIsAProofWithoutASolver) {
  OptimalRequest request;
  request.topology = "hypercube:6";
  request.time_limit = 3;
  const auto o = find_optimal(request);
  ASSERT_TRUE(o.sat.has_value());
  EXPECT_EQ(o.sat->optimum, 6U);  // log2 of 64 nodes, met by recursive doubling
  EXPECT_TRUE(o.sat->solves.empty());
  EXPECT_TRUE(o.verified);
  EXPECT_EQ(o.exit_code(), 0);
}

TEST(FindOptimal, UniformGossipOnS5IsNineStepsAgainstThePapersTen) {
  OptimalRequest request;
  request.topology = "star:5";
  request.method = OptimalMethod::UNIFORM;
  const auto o = find_optimal(request);
  ASSERT_TRUE(o.found.has_value());
  EXPECT_EQ(o.found->steps.size(), 9U);
  EXPECT_EQ(o.found->paper_steps, 10);
  EXPECT_TRUE(o.found->proved_minimal);
  EXPECT_TRUE(o.verified);
}

TEST(FindOptimal, RefusesBadSettingsNamingThem) {
  const auto with = [](auto change) {
    OptimalRequest r;
    r.topology = "ring:4";
    change(r);
    return setting_of([&] { (void)find_optimal(r); });
  };
  EXPECT_EQ(with([](OptimalRequest& r) { r.collective = Collective::SCATTER; }), "collective=scatter");
  EXPECT_EQ(with([](OptimalRequest& r) { r.collective = Collective::BROADCAST, r.root = "zz"; }), "root=zz");
  EXPECT_EQ(with([](OptimalRequest& r) { r.beam_width = 3; }), "beam_width=3");
  // auto chooses SAT on four nodes: the class searches' settings are refused with their value and why.
  EXPECT_EQ(with([](OptimalRequest& r) { r.method = OptimalMethod::AUTO, r.beam_width = 3; }), "beam_width=3");
  OptimalRequest bad;
  bad.topology = "ring:4";
  bad.method = OptimalMethod::AUTO;
  bad.max_steps = 5;
  EXPECT_ERROR(UsageError, (void)find_optimal(bad), "max_steps 5", "uniform or coset", "auto runs SAT on ring:4, 4 nodes");
  EXPECT_ERROR(UsageError, (void)parse_method("magic"), "method", "uniform");
}

TEST(ExchangePointSchedule, APointBeyondTheFrontNamesTheFrontsRange) {
  OptimalRequest request;
  request.topology = "hypercube:3";
  request.collective = Collective::ALLTOALL;
  request.method = OptimalMethod::UNIFORM;
  const auto o = find_optimal(request);
  ASSERT_TRUE(o.found.has_value());
  const auto points = o.found->pareto.size();
  ASSERT_GE(points, 1U);
  EXPECT_NO_THROW((void)exchange_point_schedule(o, points - 1));
  EXPECT_ERROR(UsageError, (void)exchange_point_schedule(o, points), fmt::format("no Pareto point {}", points),
               fmt::format("the front has {} point", points), fmt::format("0..{}", points - 1));
  EXPECT_ERROR(UsageError, (void)exchange_point_schedule(OptimalOutcome{}, 0), "the front has no point");
}

}  // namespace
}  // namespace starnet::api

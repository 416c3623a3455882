// Steady-state series of collectives as one library call (api/steady.hpp): the exact optimal
// throughput certified by its dual, the fixed-period schedule below it, the emulated run verified,
// and every bad setting named by its keyword.
#include "starnet_test_paths.hpp"
#include "../core/expect_error.hpp"

#include <starnet/api/settings.hpp>
#include <starnet/api/steady.hpp>
#include <starnet/api/trace.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <string>

namespace starnet::api {
namespace {

const std::string FIGURE2 = std::string(STARNET_SOURCE_DIR) + "/tests/tools/golden/steady_figure2.dot";
const std::string FIGURE6 = std::string(STARNET_SOURCE_DIR) + "/tests/tools/golden/steady_figure6.dot";

SteadyRequest figure2_scatter() {
  SteadyRequest r;
  r.collective = Collective::SCATTER;
  r.topology = FIGURE2;
  r.source = "Ps";
  r.targets = {"P0", "P1"};
  return r;
}

TEST(RunSteady, Figure2ScatterIsOneHalfCertifiedByItsDual) {
  const auto r = run_steady(figure2_scatter());
  EXPECT_TRUE(r.certified()) << r.certificate_failure;
  EXPECT_EQ(r.throughput, mpq_class(1, 2));
  EXPECT_TRUE(r.verified());
  EXPECT_EQ(r.optimal, nullptr);  // nothing emulated without a horizon
  const auto j = r.to_json();
  EXPECT_EQ(j.at("collective"), "scatter");
  EXPECT_EQ(j.at("throughput_exact"), "1/2");
  EXPECT_EQ(j.at("certified"), true);
}

TEST(RunSteady, AFixedPeriodScheduleAndTheOptimalOneEachDeliverWhatTheyPromise) {
  auto request = figure2_scatter();
  request.period = Rational(7, 2);
  request.emulate = Rational(70);
  const auto r = run_steady(request);
  ASSERT_NE(r.optimal, nullptr);
  ASSERT_NE(r.fixed, nullptr);
  EXPECT_TRUE(r.optimal->verified()) << r.optimal->failure();
  EXPECT_TRUE(r.fixed->verified()) << r.fixed->failure();
  // The emulated count reaches what Proposition 1 guarantees and never beats the bound TP·K.
  const auto& run = *r.optimal;
  EXPECT_EQ(run.report.completed, run.plan.completed);
  EXPECT_GE(run.report.completed, run.guaranteed);
  EXPECT_LE(mpq_class(run.report.completed), run.plan.bound);
  EXPECT_LE(r.fixed->report.completed, run.report.completed);
  EXPECT_TRUE(r.verified());
  // The periods in figures are the document's, and the emulations ran on the platform's nodes.
  ASSERT_TRUE(r.fixed_schedule.has_value());
  EXPECT_EQ(r.fixed_schedule->period, mpq_class(7, 2));
  EXPECT_EQ(r.to_json().at("period").get<double>(), r.schedule.period.get_d());
  ASSERT_NE(r.emulated_on, nullptr);
  EXPECT_EQ(r.emulated_on->num_nodes(), r.platform->num_nodes());
}

TEST(RunSteady, TheEmulatedRunAndItsPlatformOutliveTheResult) {
  auto request = figure2_scatter();
  request.emulate = Rational(20);
  request.trace = true;
  std::shared_ptr<const ScheduleEmulation> run;
  std::shared_ptr<const Topology> on;
  {
    const auto r = run_steady(request);
    run = r.optimal;
    on = r.emulated_on;
  }
  ASSERT_NE(run, nullptr);
  ASSERT_NE(on, nullptr);
  const auto text = trace_text(run->run.trace, *on, TraceFormat::CHROME);
  EXPECT_NE(text.find("send to Pb"), std::string::npos);
}

TEST(RunSteady, Figure6ReduceIsOnePerTimeUnit) {
  SteadyRequest request;
  request.collective = Collective::REDUCE;
  request.topology = FIGURE6;
  request.participants = {"P0", "P1", "P2"};
  request.target = "P0";
  const auto r = run_steady(request);
  EXPECT_TRUE(r.certified()) << r.certificate_failure;
  EXPECT_EQ(r.throughput, mpq_class(1));
}

TEST(RunSteady, RefusesBadSettingsNamingThem) {
  auto r = figure2_scatter();
  r.period = Rational(0);
  EXPECT_ERROR(UsageError, (void)run_steady(r), "period 0", "> 0");
  r = figure2_scatter();
  r.emulate = Rational(-1);
  EXPECT_ERROR(UsageError, (void)run_steady(r), "emulate -1", "> 0");
  EXPECT_ERROR(UsageError, (void)parse_number("soon", "emulate", 0, true), "emulate soon", "not a number");
  r = figure2_scatter();
  r.trace = true;
  EXPECT_ERROR(UsageError, (void)run_steady(r), "trace", "emulate");
  r = figure2_scatter();
  r.targets = {"P0", "Nope"};
  EXPECT_ERROR(InputError, (void)run_steady(r), "\"Nope\"");
  r = figure2_scatter();
  r.collective = Collective::BROADCAST;
  EXPECT_ERROR(UsageError, (void)run_steady(r), "collective");
}

}  // namespace
}  // namespace starnet::api

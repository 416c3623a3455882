// The local engine's dense step path (emulator/src/dense_step.*) against its general path on the
// same send-only programs: the same results, counters, trace, deliveries and completions, and the
// same port-model violation, word for word. The star collectives are compared across every
// engine in tests/algorithms/star/allreduce_test.cpp.
#include "send_only_runs.hpp"

#include <starnet/emulator/engine.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/complete_graph.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace starnet::emulator {
namespace {

using ::testing::HasSubstr;
using testing::Outcome;
using testing::SendOnly;
using testing::run_lanes;
using testing::same_on_lanes;
using topology::StarGraph;

/// Runs @p body on both paths (one lane) and expects the same of everything; returns the dense
/// outcome.
Outcome same_on_both_paths(const topology::Topology& g, const SendOnly::Body& body, bool notices = false) {
  return same_on_lanes(g, body, notices, {});
}

/// The dense path (one lane) or the general one.
Outcome run_path(const topology::Topology& g, const SendOnly::Body& body, bool notices, bool dense) {
  return run_lanes(g, body, notices, dense ? 1 : testing::GENERAL_PATH);
}

TEST(DenseStep, ExchangesAlongEveryDimensionAsTheGeneralPath) {
  // Every node sends along link k at step k − 2, payloads of 0 to 8 bytes, tags that differ per
  // node (a wide tag column), with and without send notices.
  const StarGraph g(/*n=*/5);
  for (const bool notices : {false, true}) {
    const auto o = same_on_both_paths(g, [](Context& ctx) {
      const auto step = ctx.step();
      if (step + 2 > 5) return;
      const auto v = ctx.node();
      ctx.send(StarGraph::port_of(static_cast<int>(step) + 2), std::string(v % 9, static_cast<char>('a' + step)), 1,
               v * 1000 + step);
    }, notices);
    ASSERT_TRUE(o.result);
    EXPECT_EQ(o.result->counters.messages, 4U * 120U);
    EXPECT_EQ(o.result->makespan, Rational(4));
  }
}

TEST(DenseStep, WideValuesLiveBesideTheArraysAndComeBackWhole) {
  // Payloads over 8 bytes, tags of 2^32 and more, sizes other than 1 (0 included), ports ≥ 255
  // (complete:300 has 299 per node): rare, kept in the maps beside the arrays.
  const auto big = topology::make_topology("complete:300");
  const auto o = same_on_both_paths(*big, [](Context& ctx) {
    if (!ctx.starting()) return;
    const auto v = ctx.node();
    const auto port = static_cast<Port>((v * 7 + 260) % 299);
    const std::uint64_t tag = v % 2 == 0 ? (std::uint64_t{1} << 40) + v : v;
    const Rational size = v % 3 == 0 ? Rational(0) : v % 3 == 1 ? Rational(1) : Rational(5, 2);
    const std::string payload = v % 2 == 0 ? std::string(20 + v % 5, 'p') : "w";
    if (ctx.topology().neighbor(v, port) % 4 == v % 4) ctx.send(port, payload, size, tag);
  });
  ASSERT_TRUE(o.result);
  EXPECT_GT(o.result->counters.messages, 0U);
}

// A sparse token and every kind of port-model violation are compared between the general path,
// one lane and several in dense_lanes_test.cpp.

TEST(DenseStep, AProgramThatBreaksItsWordIsToldOnTheDensePathOnly) {
  // sends_only() is a promise: on the dense path a computation is refused, which also shows that
  // the path was taken; the general path runs it.
  const StarGraph g(/*n=*/3);
  const SendOnly::Body computes = [](Context& ctx) {
    if (ctx.starting() && ctx.node() == 0) ctx.compute(1);
  };
  const auto dense = run_path(g, computes, false, true);
  EXPECT_FALSE(dense.result) << "the dense path ran a computation";
  EXPECT_THAT(dense.error, HasSubstr("declares sends_only() called compute()"));
  EXPECT_TRUE(run_path(g, computes, false, false).result);
}

TEST(DenseStep, TakesOnlyUnitStrictSinglePortFullDuplexRuns) {
  // Arbitrated checking, two ports, half duplex and a horizon keep the general path: the
  // computation a dense run refuses goes through.
  const StarGraph g(/*n=*/3);
  const UnitCosts<Rational> costs;
  const auto factory = [](NodeRange) {
    return std::make_unique<SendOnly>([](Context& ctx) {
      if (ctx.starting() && ctx.node() == 0) ctx.compute(1);
    }, false);
  };
  RunConfig arbitrated;
  arbitrated.checking = Checking::ARBITRATED;
  RunConfig two_ports;
  two_ports.ports.ports = 2;
  RunConfig half;
  half.ports.half_duplex = true;
  RunConfig horizon;
  horizon.horizon = Rational(5);
  for (const auto& config : {arbitrated, two_ports, half, horizon}) {
    EXPECT_NO_THROW((void)LocalEngine<Rational>().run(g, costs, factory, config));
  }
  const UniformCosts<Rational> timed(2, 1);
  RunConfig timed_config;
  timed_config.time = TimeMode::TIMED;
  EXPECT_NO_THROW((void)LocalEngine<Rational>().run(g, timed, factory, timed_config));
  EXPECT_THROW((void)LocalEngine<Rational>().run(g, costs, factory, {}), ScheduleError);
}

}  // namespace
}  // namespace starnet::emulator

// The steady state end to end with the emulator (goal < 1 s): LP, exact certificate,
// trees, matchings, schedule, verify(), and the schedule emulated for 100 periods on the
// Figure-9-like Tiers platform; and the emulation alone as the horizon grows.
#include "steady_state_platforms.hpp"

#include <starnet/algorithms/steady_state/planner.hpp>
#include <starnet/algorithms/steady_state/schedule_program.hpp>
#include <starnet/topology/families.hpp>

#include <benchmark/benchmark.h>

namespace {

namespace ss = starnet::algorithms::steady_state;
using starnet::Rational;

/// tiers:2, the first tiers:SEED with 8 LAN processors (13 nodes), as in Figure 9; Section 4.7's
/// messages of size 10 and tasks of work 10; participants p0..p7, target p4.
struct Figure9 {
  starnet::topology::Platform platform = starnet::topology::tiers_platform(2);
  ss::SteadyStateProblem problem =
      ss::SteadyStateProblem::reduce(platform, ss::testing::names("p", 0, 8), "p4",
                                     {[](int, int) { return Rational(10); }, [](int, int, int) { return Rational(10); }});
};

void report(benchmark::State& state, const ss::ScheduleEmulation& e) {
  state.counters["periods"] = static_cast<double>(e.plan.whole_periods.get_si());
  state.counters["completed"] = static_cast<double>(e.report.completed.get_si());
  state.counters["ratio"] = e.ratio.get_d();
  state.counters["messages"] = static_cast<double>(e.run.counters.messages);
  state.counters["event_times"] = static_cast<double>(e.run.counters.event_times);
  state.counters["verified"] = e.verified();
}

void BM_SteadyStateEmulatedEndToEnd(benchmark::State& state) {
  const Figure9 f;
  bool certified = false;
  for (auto _ : state) {
    ss::SteadyStatePlanner planner(f.problem);
    planner.run();
    certified = static_cast<bool>(planner.verify());
    ss::ScheduleEmulator emulator(f.problem, planner.schedule());
    emulator.optimal_throughput(planner.throughput());
    const auto& e = emulator.run(planner.schedule().period * 100);
    report(state, e);
  }
  state.counters["certified"] = certified;
}
BENCHMARK(BM_SteadyStateEmulatedEndToEnd)->Unit(benchmark::kMillisecond);

// The emulation alone, for 100, 1 000 and 10 000 periods: linear in the number of periods.
void BM_SteadyStateEmulation(benchmark::State& state) {
  const Figure9 f;
  ss::SteadyStatePlanner planner(f.problem);
  planner.run();
  ss::ScheduleEmulator emulator(f.problem, planner.schedule());
  emulator.optimal_throughput(planner.throughput());
  for (auto _ : state) report(state, emulator.run(planner.schedule().period * state.range(0)));
}
BENCHMARK(BM_SteadyStateEmulation)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

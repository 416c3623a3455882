// Node-messages per second of the all-reduce on S_n over the emulator (issue: S_10, 163,296,000
// node-messages, in < 60 s and < 8 GiB with the zmq engine and 2 worker threads), and the time
// per node-message of the local engine's dense step path against its general path, and of the
// dense path on several threads (lanes). Run:
//   build/bin/starnet_benchmarks --benchmark_filter=AllReduce
// Peak memory is the process's high-water mark after the run (VmHWM), so run one n at a time
// to read it per n, e.g. --benchmark_filter='AllReduceZmq/10'.
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/zmq_engine.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <fstream>
#include <string>

namespace {

using starnet::Rational;
using starnet::algorithms::star::Op;

double peak_rss_mib() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      double kib = 0;
      status >> kib;
      return kib / 1024;
    }
  }
  return 0;
}

enum class Engine { ZMQ, LOCAL, LOCAL_GENERAL };

void run(benchmark::State& state, Engine engine, unsigned threads = 1) {
  const int n = static_cast<int>(state.range(0));
  const starnet::topology::StarGraph g(n);
  const starnet::emulator::UnitCosts<Rational> costs;
  const starnet::algorithms::star::Values values;
  const auto expected = starnet::algorithms::star::reduce_sequentially(g, Op::SUM, values);
  const starnet::emulator::ProgramFactory factory = [&](starnet::emulator::NodeRange r) {
    return starnet::algorithms::star::make_allreduce_program(g, Op::SUM, values, expected, r);
  };
  std::uint64_t messages = 0;
  starnet::emulator::RunConfig config;
  config.dense_steps = engine != Engine::LOCAL_GENERAL;
  config.threads = threads;
  double seconds = 0;  // the last iteration's wall time (they run one)
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const auto result = engine == Engine::ZMQ
                            ? starnet::emulator::run_zmq_threads<Rational>(g, costs, factory, config, 2)
                            : starnet::emulator::LocalEngine<Rational>().run(g, costs, factory, config);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    messages = result.counters.messages;
    benchmark::DoNotOptimize(result.reports);
  }
  state.counters["node_messages"] = static_cast<double>(messages);
  state.counters["node_messages_per_second"] =
      benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["ns_per_node_message"] = seconds * 1e9 / static_cast<double>(messages);
  state.counters["peak_bytes_per_node"] = peak_rss_mib() * 1024 * 1024 / static_cast<double>(g.size());
  state.counters["peak_rss_mib"] = peak_rss_mib();
}

void BM_AllReduceZmq(benchmark::State& state) { run(state, Engine::ZMQ); }
void BM_AllReduceLocal(benchmark::State& state) { run(state, Engine::LOCAL); }
void BM_AllReduceLocalGeneral(benchmark::State& state) { run(state, Engine::LOCAL_GENERAL); }
BENCHMARK(BM_AllReduceZmq)->Arg(8)->Arg(9)->Arg(10)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
// The general path first: the peak (VmHWM) only grows within a process, so run one n at a time
// (--benchmark_filter='AllReduceLocal/10') to read the dense path's own.
BENCHMARK(BM_AllReduceLocalGeneral)->Arg(9)->Arg(10)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK(BM_AllReduceLocal)->Arg(8)->Arg(9)->Arg(10)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
// The dense step path on lanes: {n, threads}; the same run on one thread is BM_AllReduceLocal/n,
// or {n, 1} here. Compare in one run: --benchmark_filter='AllReduceLocal(Threads)?/10'.
void BM_AllReduceLocalThreads(benchmark::State& state) {
  run(state, Engine::LOCAL, static_cast<unsigned>(state.range(1)));
}
BENCHMARK(BM_AllReduceLocalThreads)
    ->Args({10, 1})
    ->Args({10, 2})
    ->Args({10, 4})
    ->Args({11, 2})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

}  // namespace

// Loading and running schedule files of star all-reduces (S_7..S_9): transfers per second while
// loading, bytes per transfer held, node-messages per second while running.
#include <starnet/algorithms/schedule/builtins.hpp>
#include <starnet/algorithms/schedule/schedule_json.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/topology/star_graph.hpp>

#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

namespace {

namespace sch = starnet::algorithms::schedule;

/// The exported S_n all-reduce, written once per n to a temporary file (S_9: about 0.8 GB).
const std::string& schedule_file(int n) {
  static std::map<int, std::string> files;
  auto& path = files[n];
  if (path.empty()) {
    const starnet::topology::StarGraph g(n);
    const auto spec = "star:" + std::to_string(n);
    const auto s = sch::star_allreduce_schedule(g);
    path = (std::filesystem::temp_directory_path() / ("starnet_bench_s" + std::to_string(n) + ".json")).string();
    std::ofstream(path) << sch::write_schedule_json(s, g, spec);
  }
  return path;
}

void BM_ScheduleLoad(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto& path = schedule_file(n);
  const starnet::topology::StarGraph g(n);
  std::uint64_t transfers = 0;
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::ifstream in(path);
    const auto s = sch::ScheduleFile::read(in, path).resolve(g);
    transfers = s.transfers();
    bytes = s.memory_bytes();
    benchmark::DoNotOptimize(s.steps());
  }
  state.counters["transfers"] = static_cast<double>(transfers);
  state.counters["file_bytes"] = static_cast<double>(std::filesystem::file_size(path));
  state.counters["bytes_per_transfer"] = static_cast<double>(bytes) / static_cast<double>(transfers);
  state.counters["transfers_per_second"] =
      benchmark::Counter(static_cast<double>(transfers), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ScheduleLoad)->Arg(7)->Arg(8)->Arg(9)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_ScheduleRun(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const starnet::topology::StarGraph g(n);
  const auto spec = "star:" + std::to_string(n);
  const auto s = sch::star_allreduce_schedule(g);
  bool verified = true;
  for (auto _ : state) {
    const auto r = sch::run_schedule(s, g, {});
    verified = verified && r.verified;
  }
  if (!verified) state.SkipWithError("a run was not verified");
  state.counters["node_messages_per_second"] =
      benchmark::Counter(static_cast<double>(s.transfers()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ScheduleRun)->Arg(7)->Arg(8)->Arg(9)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

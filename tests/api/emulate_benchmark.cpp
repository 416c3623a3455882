// What a user's node program costs in the engine alone: recursive doubling on hypercube:D written
// in C++ and run by api::emulate, the same reactions and messages as the Python benchmark
// (python/benchmarks/node_programs.py), so that the two together say what the binding adds.
#include <starnet/api/emulate.hpp>

#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

namespace {

using namespace starnet;

/// At step k every node trades its running sum along port k (as the Python benchmark's program,
/// the sum carried as text: the engine's payloads are bytes).
class Doubling final : public emulator::NodeProgram {
 public:
  explicit Doubling(emulator::NodeRange range) : begin_(range.begin), total_(range.size()) {
    for (auto v = range.begin; v < range.end; ++v) total_[v - range.begin] = v + 1;
  }
  void react(emulator::Context& ctx) override {
    auto& t = total_[ctx.node() - begin_];
    for (const auto& m : ctx.received()) t += std::stoull(m.payload);
    if (ctx.step() < ctx.topology().degree(ctx.node())) {
      ctx.send(static_cast<topology::Port>(ctx.step()), std::to_string(t));
    }
  }

 private:
  topology::NodeId begin_;
  std::vector<std::uint64_t> total_;
};

void BM_EmulateRecursiveDoubling(benchmark::State& state) {
  const auto d = state.range(0);
  const api::EmulateRequest request("hypercube:" + std::to_string(d), [](emulator::NodeRange range) {
    return std::make_unique<Doubling>(range);
  });
  std::uint64_t messages = 0;
  for (auto _ : state) {
    const auto r = api::emulate(request);
    if (!r.verified) state.SkipWithError(r.problem.c_str());
    messages = r.messages;
  }
  const double reactions = static_cast<double>((d + 1) << d);
  state.counters["messages"] = static_cast<double>(messages);
  state.counters["messages_per_second"] =
      benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["reactions_per_second"] =
      benchmark::Counter(reactions, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_EmulateRecursiveDoubling)->Arg(14)->Unit(benchmark::kMillisecond);

}  // namespace

// `starnet optimal --method uniform|coset`: the shortest schedule found within a class — uniform
// (every node uses the same generator each step) on Cayley graphs, coset (the dimension depends on
// the node's last symbol) on S_3..S_6 — written as a schedule and verified on the emulator
// (issue 25; docs/beyond.md).
#include "optimal_uniform.hpp"
#include "json_output.hpp"
#include "progress.hpp"

#include "command.hpp"

#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/algorithms/optimal/coset_search.hpp>
#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/algorithms/schedule/schedule_json.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>

namespace starnet::tools {
namespace {

namespace opt = algorithms::optimal;
namespace sched = algorithms::schedule;

/// Widest beam of `--anytime`.
constexpr std::size_t ANYTIME_MAX_WIDTH = std::size_t{1} << 16;

/// What a search in a class found, whatever the class.
struct Found {
  std::string method;                 ///< exhaustive, beam, anytime (uniform); coset-exhaustive, coset-beam
  std::vector<std::string> steps;     ///< each step: its generator, or the coset map "s→k …"
  std::vector<int> dimensions;        ///< uniform: the generator ids
  std::vector<std::uint64_t> sizes;   ///< uniform: |P_t|
  std::optional<sched::Schedule> schedule;
  bool proved_minimal = false;
  std::uint64_t explored = 0;
  double seconds = 0;
  bool timed_out = false;
};

Found search_uniform(const opt::CayleyGroup& g, const OptimalOptions& o, int limit) {
  Found f;
  opt::UniformResult r;
  if (o.anytime) {
    if (o.time_limit <= 0) throw UsageError("--anytime: needs --time-limit S (seconds > 0)");
    if (o.beam_width > 0) throw UsageError("--anytime: widens its own beam; drop --beam-width");
    f.method = "anytime";
    r = opt::uniform_anytime(g, limit, o.time_limit, ANYTIME_MAX_WIDTH, [](const opt::UniformResult& b, std::size_t w) {
      progress_detail(fmt::format("beam width {}: {} steps so far", w, b.dimensions.size()));
    });
  } else if (o.beam_width > 0) {
    f.method = "beam";
    r = opt::uniform_beam(g, static_cast<std::size_t>(o.beam_width), limit, o.time_limit);
  } else {
    f.method = "exhaustive";
    r = opt::uniform_exhaustive(g, limit, o.time_limit);
  }
  f.dimensions = r.dimensions;
  f.sizes = r.sizes;
  for (const int k : r.dimensions) f.steps.push_back(g.generator_name(k));
  f.proved_minimal = f.method == "exhaustive" && r.complete;
  f.explored = r.explored;
  f.seconds = r.seconds;
  f.timed_out = r.timed_out;
  return f;
}

Found search_coset(int n, const OptimalOptions& o, int limit) {
  if (o.anytime) throw UsageError("--anytime: for --method uniform");
  Found f;
  f.method = o.beam_width > 0 ? "coset-beam" : "coset-exhaustive";
  const auto r = opt::coset_search(n, o.beam_width > 0 ? static_cast<std::size_t>(o.beam_width) : 0, limit, o.time_limit);
  for (const auto& step : r.steps) {
    std::vector<std::string> parts;
    for (std::size_t s = 0; s < step.size(); ++s) parts.push_back(fmt::format("{}→{}", s + 1, step[s]));
    f.steps.push_back(fmt::format("{}", fmt::join(parts, " ")));
  }
  if (!r.steps.empty()) f.schedule = opt::coset_schedule(n, r.steps);
  f.proved_minimal = r.proved_minimal;
  f.explored = r.explored;
  f.seconds = r.seconds;
  f.timed_out = r.timed_out || r.too_many_states;
  return f;
}

}  // namespace

bool verify_uniform_gossip(const opt::CayleyGroup& g, const std::vector<int>& dimensions) {
  if (g.order() <= opt::MAX_UNIFORM_SCHEDULE_NODES) {
    const auto t = topology::make_topology(g.spec());
    const auto run = sched::run_schedule(opt::uniform_schedule(g, dimensions), *t, {});
    return run.verified && run.run.makespan == Rational(static_cast<std::int64_t>(dimensions.size()));
  }
  const topology::StarGraph t(g.n());
  const auto sizes = opt::uniform_sizes(g, dimensions);
  std::vector<std::uint64_t> items;
  for (std::size_t i = 1; i < sizes.size(); ++i) items.push_back(sizes[i] - sizes[i - 1]);
  const emulator::ProgramFactory programs = [&](emulator::NodeRange range) {
    return opt::uniform_gossip_program(t, dimensions, items, range);
  };
  const auto run = emulator::LocalEngine<Rational>().run(t, emulator::UnitCosts<Rational>(), programs, {});
  opt::UniformReport total;
  for (const auto& text : run.reports) {
    const auto part = opt::UniformReport::parse(text);
    total.complete += part.complete, total.wrong += part.wrong;
  }
  return total.complete == t.size() && total.wrong == 0 &&
         run.makespan == Rational(static_cast<std::int64_t>(dimensions.size()));
}

namespace {

void print_text(const OptimalOptions& o, const Found& f, int paper, bool verified, const std::optional<sched::ScheduleVolume>& vol,
                const std::string& what) {
  if (f.steps.empty()) {
    std::cout << fmt::format("no {} found on {} ({}; {} search nodes, {:.2f} s)\n", what, o.topology,
                             f.timed_out ? "time or memory limit" : "none within --max-steps", f.explored, f.seconds);
    return;
  }
  std::cout << fmt::format("{} on {}: {} steps{}\n", what, o.topology, f.steps.size(),
                           paper > 0 ? fmt::format(" (the paper: {})", paper) : "");
  for (std::size_t t = 0; t < f.steps.size(); ++t) std::cout << fmt::format("  step {:>2}: {}\n", t + 1, f.steps[t]);
  std::cout << fmt::format("  {}\n", f.proved_minimal ? "proved minimal in its class (exhaustive search)"
                                                      : "found, not proved minimal");
  if (vol) {
    std::cout << fmt::format("  largest message by step: {}; items received per node: {}\n", fmt::join(vol->largest, " "),
                             vol->received_min == vol->received_max ? std::to_string(vol->received_max)
                                                                    : fmt::format("{}..{}", vol->received_min, vol->received_max));
  } else if (!f.sizes.empty()) {
    std::vector<std::uint64_t> per_step;
    for (std::size_t t = 1; t < f.sizes.size(); ++t) per_step.push_back(f.sizes[t] - f.sizes[t - 1]);
    std::cout << fmt::format("  message by step: {}; items received per node: {}\n", fmt::join(per_step, " "),
                             f.sizes.back() - 1);
  }
  std::cout << fmt::format("  {}; {} search nodes, {:.2f} s\n",
                           verified ? vol ? "verified on the emulator (strict; every node holds every item it must)"
                                          : "verified on the emulator with meta messages (strict; every node received "
                                            "n! − 1 items from the right partners)"
                                    : "NOT verified",
                           f.explored, f.seconds);
}

}  // namespace

int optimal_in_class(const OptimalOptions& o) {
  const bool coset = o.method == "coset";
  const bool broadcast = o.collective == "broadcast";
  if (!broadcast && o.collective != "gossip" && o.collective != "allgather" && o.collective != "allreduce") {
    throw UsageError(fmt::format("--collective {}: expected gossip, allgather, allreduce or broadcast", o.collective));
  }
  if (o.ports != 1 || o.duplex != "full") throw UsageError(fmt::format("--method {}: single-port full duplex only", o.method));
  if (o.beam_width == 0 || o.beam_width < -1) throw UsageError(fmt::format("--beam-width {}: expected a width ≥ 1", o.beam_width));
  if (o.max_steps == 0 || o.max_steps < -1) throw UsageError(fmt::format("--max-steps {}: expected T ≥ 1", o.max_steps));
  if (!o.proof.empty()) throw UsageError(fmt::format("--proof: DRAT proofs come from --method sat, not {}", o.method));
  const auto g = opt::CayleyGroup::of(o.topology);
  if (coset && (g.family() != "star" || broadcast)) {
    throw UsageError(fmt::format("--method coset --topology {}: coset schedules are gossips on star:3..star:{}", o.topology,
                                 opt::MAX_COSET_N));
  }
  const auto t = topology::make_topology(o.topology);
  std::uint32_t root = 0;
  if (broadcast) {
    if (o.root.empty()) throw UsageError("--root is required for broadcast (a node name or index)");
    const auto r = algorithms::generic::find_node(*t, o.root);
    if (!r) throw UsageError(fmt::format("--root {}: not a node of {}", o.root, o.topology));
    root = static_cast<std::uint32_t>(*r);
    if (g.order() > opt::MAX_UNIFORM_SCHEDULE_NODES) {
      throw UsageError(fmt::format("--collective broadcast --method uniform: verified as a schedule up to {} nodes; {} "
                                   "has {} (a uniform broadcast ends with the uniform gossip: search that)",
                                   opt::MAX_UNIFORM_SCHEDULE_NODES, o.topology, g.order()));
    }
  }
  if (!o.output.empty() && g.order() > opt::MAX_UNIFORM_SCHEDULE_NODES) {
    throw UsageError(fmt::format("-o: a schedule is written up to {} nodes; {} has {}", opt::MAX_UNIFORM_SCHEDULE_NODES,
                                 o.topology, g.order()));
  }
  const int paper = g.family() == "star" ? static_cast<int>(algorithms::star::allreduce_steps(g.n())) : 0;
  const int limit = o.max_steps > 0 ? o.max_steps : paper > 0 ? paper : static_cast<int>(g.order() - 1);
  auto f = coset ? search_coset(g.n(), o, limit) : search_uniform(g, o, limit);
  if (!f.dimensions.empty() && g.order() <= opt::MAX_UNIFORM_SCHEDULE_NODES) {
    f.schedule = broadcast ? opt::uniform_broadcast_schedule(g, f.dimensions, root) : opt::uniform_schedule(g, f.dimensions);
  }
  bool verified = false;
  std::optional<sched::ScheduleVolume> vol;
  if (f.schedule) {
    const auto run = sched::run_schedule(*f.schedule, *t, {});
    vol = sched::volume(*f.schedule);
    const auto n = static_cast<std::uint64_t>(g.order());
    // No duplicates: each node receives each item it lacked exactly once.
    const bool nodup = broadcast ? f.schedule->chunks_moved() == n - 1 : f.schedule->chunks_moved() == n * (n - 1);
    verified = run.verified && nodup && run.run.makespan == Rational(static_cast<std::int64_t>(f.steps.size()));
    if (!o.output.empty()) {
      write_file_atomically(o.output, sched::write_schedule_json(*f.schedule, *t, o.topology,
                                                                 fmt::format("a {} {} found by starnet optimal --method {}",
                                                                             f.method, o.collective, o.method)));
    }
  } else if (!f.dimensions.empty()) {
    verified = verify_uniform_gossip(g, f.dimensions);
  }
  const std::string what = fmt::format("{} {}", coset ? "coset" : "uniform", broadcast ? "broadcast" : "gossip");
  if (o.json) {
    std::vector<std::uint64_t> per_step;
    std::uint64_t received = 0;
    if (vol) {
      per_step = vol->largest;
      received = vol->received_max;
    } else {
      for (std::size_t i = 1; i < f.sizes.size(); ++i) per_step.push_back(f.sizes[i] - f.sizes[i - 1]);
      received = f.sizes.empty() ? 0 : f.sizes.back() - 1;
    }
    std::uint64_t total = 0;
    for (const auto x : per_step) total += x;
    print_json({{"collective", broadcast ? "broadcast" : "gossip"},
                                {"topology", o.topology},
                                {"class", coset ? "coset" : "uniform"},
                                {"method", f.method},
                                {"beam_width", o.beam_width},
                                {"steps", f.steps.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.steps.size())},
                                {"paper_steps", paper > 0 ? nlohmann::json(paper) : nlohmann::json(nullptr)},
                                {"schedule", f.steps},
                                {"dimensions", f.dimensions},
                                {coset ? "coset_proved_minimal" : "uniform_proved_minimal", f.proved_minimal},
                                {"largest_message_items_per_step", per_step},
                                {"largest_message_items", per_step.empty() ? 0 : *std::max_element(per_step.begin(), per_step.end())},
                                {"items_received_per_node", received},
                                {"sum_of_largest_messages", total},
                                {"schedule_verified", verified},
                                {"verified", verified},
                                {"explored", f.explored},
                                {"timed_out", f.timed_out},
                                {"seconds", f.seconds}});
  } else {
    print_text(o, f, paper, verified, vol, what);
  }
  if (f.steps.empty()) return 3;
  return verified ? 0 : 1;
}

}  // namespace starnet::tools

// `starnet allreduce` and `starnet broadcast --all-to-all`: the star collectives of Oh, Choi and
// Primeaux on the emulator, verified node by node; `allreduce --compare` prints Table 2.
#include "command.hpp"
#include "json_output.hpp"
#include "progress.hpp"
#include "schedule_load.hpp"
#include "gantt.hpp"
#include "star_runner.hpp"

#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <cmath>
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

namespace starnet::tools {
namespace {

struct StarOptions {
  std::string topology;
  std::string op = "sum";
  std::string values = "rank";
  std::uint64_t seed = 1;
  bool json = false;
  std::string fault;       ///< --fault-exit WORKER:STEP
  std::string fault_stop;  ///< --fault-stop WORKER:STEP
  std::string fault_sleep;  ///< --fault-sleep WORKER:STEP
  std::string gantt;
  EngineOptions engine;
};

/// The testing aid @p option WORKER:STEP (@p text) in @p job.
void set_fault(StarJob& job, const std::string& text, std::string_view option, const EngineOptions& engine) {
  unsigned worker = 0;
  unsigned long long step = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%u:%llu%c", &worker, &step, &extra) != 2) {
    throw UsageError(fmt::format("{}: \"{}\" is not WORKER:STEP", option, text));
  }
  if (!engine.processes) {
    throw UsageError(fmt::format("{} {}: applies only with --engine zmq --processes (it would be ignored)", option, text));
  }
  if (worker >= engine.worker_count()) {
    throw UsageError(fmt::format("{} {}: there is no worker {} (expected WORKER in 0..{})", option, text, worker,
                                 engine.worker_count() - 1));
  }
  job.exit_worker = worker;
  job.exit_step = step;
}

StarJob make_job(const StarOptions& o, bool broadcast) {
  StarJob job;
  job.broadcast = broadcast;
  job.n = topology::star_dimension(topology::parse_spec(o.topology));
  job.op = algorithms::star::parse_op(o.op, "--op");
  if (o.values != "rank" && o.values != "random") {
    throw UsageError(fmt::format("--values: \"{}\" is not known (expected rank or random)", o.values));
  }
  job.values = {o.values == "random", o.seed};
  if (int(!o.fault.empty()) + int(!o.fault_stop.empty()) + int(!o.fault_sleep.empty()) > 1) {
    throw UsageError("--fault-exit, --fault-stop and --fault-sleep: one fault per run");
  }
  if (!o.fault.empty()) set_fault(job, o.fault, "--fault-exit", o.engine);
  if (!o.fault_stop.empty()) {
    set_fault(job, o.fault_stop, "--fault-stop", o.engine);
    job.fault = StarJob::Fault::STOP;
  }
  if (!o.fault_sleep.empty()) {
    set_fault(job, o.fault_sleep, "--fault-sleep", o.engine);
    job.fault = StarJob::Fault::SLEEP;
  }
  return job;
}

int run_and_report(const StarOptions& o, bool broadcast) {
  const StarJob job = make_job(o, broadcast);
  if (!o.gantt.empty()) require_gantt_rows(topology::StarGraph(job.n));
  const StarOutcome outcome = run_star_job(job, o.engine);
  if (!o.gantt.empty()) write_file_atomically(o.gantt, gantt_svg(outcome.run.trace, topology::StarGraph(job.n)));
  if (o.json) {
    print_json(star_json(job, o.engine, outcome));
  } else {
    std::cout << star_text(job, o.engine, outcome);
  }
  return outcome.verified ? 0 : 1;
}

/// `broadcast --all-to-all --schedule FILE`: the paper's broadcast and the file's all-gather on the
/// same star graph, side by side, both verified (docs/beyond.md).
int beside_schedule(const StarOptions& o, const std::string& file) {
  namespace sch = algorithms::schedule;
  const StarJob job = make_job(o, true);
  const auto loaded = load_schedule(file, o.topology);
  const auto& s = *loaded.schedule;
  if (s.rules().kind() != sch::Collective::ALLGATHER || s.form() != sch::Form::STEPPED) {
    throw UsageError(fmt::format("--schedule {}: expected a stepped all-gather (an all-to-all broadcast); it is a{} {}",
                                 file, s.form() == sch::Form::STEPPED ? "" : " programmed", sch::to_string(s.rules().kind())));
  }
  const StarOutcome paper = run_star_job(job, o.engine);
  const auto mine = sch::run_schedule(s, *loaded.topology, {});
  const auto vol = sch::volume(s);
  const auto nodes = topology::StarGraph::factorial(job.n);
  const bool nodup = vol.received_min == nodes - 1 && vol.received_max == nodes - 1;
  const std::uint64_t largest = vol.largest.empty() ? 0 : *std::max_element(vol.largest.begin(), vol.largest.end());
  const auto steps = mine.run.makespan.to_string();
  if (o.json) {
    print_json({{"topology", o.topology},
                                {"paper", star_json(job, o.engine, paper)},
                                {"schedule",
                                 {{"file", file},
                                  {"steps", mine.run.makespan.num()},
                                  {"transfers", s.transfers()},
                                  {"largest_message_items", largest},
                                  {"items_received_per_node", vol.received_max},
                                  {"no_duplicates", nodup},
                                  {"verified", mine.verified}}},
                                {"verified", paper.verified && mine.verified}});
  } else {
    std::cout << fmt::format("all-to-all broadcast on {} ({} nodes)\n", o.topology, nodes);
    std::cout << fmt::format("  {:<40} {:>3} steps  largest message {:>7} items  {}\n", "the paper (NODUP, meta messages)",
                             paper.expected_steps, topology::StarGraph::factorial(job.n - 1),
                             paper.verified ? "verified" : "NOT verified");
    std::cout << fmt::format("  {:<40} {:>3} steps  largest message {:>7} items  {}{}\n", file, steps, largest,
                             mine.verified ? "verified" : "NOT verified: " + mine.report.first_problem(),
                             nodup ? " (every item received once)" : "");
  }
  return paper.verified && mine.verified ? 0 : 1;
}

void add_star_options(CLI::App& cmd, StarOptions& o, bool reduce) {
  cmd.add_option("--topology", o.topology, "star:N with N in 1..12 (other topologies: see `starnet whatif`)");
  if (reduce) {
    cmd.add_option("--op", o.op, "Operator: sum (mod 2^64), min, max or xor")->capture_default_str();
    cmd.add_option("--values", o.values, "Node values: rank (node of rank r holds r+1, i.e. 1..n!) or random")
        ->capture_default_str();
    cmd.add_option("--seed", o.seed, "Seed of --values random")->capture_default_str()->check(any_seed());
  }
  cmd.add_flag("--json", o.json, "Print one JSON object instead of the summary");
  o.engine.add_to(cmd);
  cmd.add_option("--gantt", o.gantt, "Draw the run as a Gantt chart, SVG (one row per node, at most 1000; docs/viz.md)")
      ->check(output_file({".svg"}))
      ->each([&o](const std::string&) { o.engine.keep_trace = true; });
  cmd.add_option("--fault-exit", o.fault,
                 "Testing aid: with --processes, worker WORKER exits abruptly at step STEP (WORKER:STEP)");
  cmd.add_option("--fault-stop", o.fault_stop,
                 "Testing aid: with --processes, worker WORKER stops itself (SIGSTOP) at step STEP (WORKER:STEP), as "
                 "a hung host would");
  cmd.add_option("--fault-sleep", o.fault_sleep,
                 fmt::format("Testing aid: with --processes, worker WORKER takes {} s more over step STEP "
                             "(WORKER:STEP), its heartbeats going on, as a slow host would",
                             FAULT_SLEEP_SECONDS));
}

// Table 2 of the paper as printed (dimension 3..10): Tseng [11], Sheu [10], ours.
constexpr int PAPER_TSENG[] = {12, 27, 48, 75, 108, 127, 192, 243};
constexpr int PAPER_SHEU[] = {6, 12, 18, 26, 34, 42, 50, 60};
constexpr int PAPER_OURS[] = {3, 6, 10, 15, 21, 28, 36, 45};

int compare(const StarOptions& o, int max_n) {
  if (!o.gantt.empty()) throw UsageError("--gantt draws one run: give --topology instead of --compare");
  if (max_n < 3 || max_n > 10) {
    throw UsageError(fmt::format("--max-n {}: Table 2 covers n = 3..10 (expected 3..10)", max_n));
  }
  nlohmann::json rows = nlohmann::json::array();
  std::vector<std::string> notes;
  bool all_verified = true;
  std::string table = fmt::format("{:>2} {:>8} | {:>11} {:>6} | {:>11} {:>6} | {:>9} {:>6} | {:>11}\n", "n", "size",
                                  "Tseng 3(n-1)²", "paper", "Sheu formula", "paper", "measured", "paper",
                                  "⌈log₂ n!⌉");
  for (int n = 3; n <= max_n; ++n) {
    progress_detail(fmt::format("S_{} of S_3..S_{}", n, max_n));
    StarOptions one = o;
    one.topology = fmt::format("star:{}", n);
    const StarJob job = make_job(one, false);
    const StarOutcome out = run_star_job(job, o.engine);
    all_verified = all_verified && out.verified;
    const int tseng = 3 * (n - 1) * (n - 1);
    int sheu = 0;
    for (int i = 2; i <= n; ++i) sheu += static_cast<int>(std::ceil(std::log2(i - 1))) + 1;
    sheu *= 2;
    const int bound = static_cast<int>(std::ceil(std::log2(static_cast<double>(topology::StarGraph::factorial(n)))));
    const auto i = static_cast<std::size_t>(n - 3);
    const std::int64_t measured = out.run.makespan.num();
    if (PAPER_TSENG[i] != tseng) {
      notes.push_back(fmt::format("n = {}: the paper prints {} for Tseng, but its formula 3(n−1)² gives {}", n,
                                  PAPER_TSENG[i], tseng));
    }
    if (PAPER_SHEU[i] != sheu) {
      notes.push_back(fmt::format("n = {}: the paper prints {} for Sheu, but its formula gives {}", n, PAPER_SHEU[i], sheu));
    }
    if (PAPER_OURS[i] != measured) {
      notes.push_back(fmt::format("n = {}: the paper prints {} steps, the emulator measured {}", n, PAPER_OURS[i], measured));
    }
    rows.push_back({{"n", n},
                    {"size", topology::StarGraph::factorial(n)},
                    {"tseng_formula", tseng},
                    {"tseng_paper", PAPER_TSENG[i]},
                    {"sheu_formula", sheu},
                    {"sheu_paper", PAPER_SHEU[i]},
                    {"measured", measured},
                    {"paper", PAPER_OURS[i]},
                    {"lower_bound", bound},
                    {"verified", out.verified}});
    table += fmt::format("{:>2} {:>8} | {:>13} {:>6} | {:>12} {:>6} | {:>9} {:>6} | {:>11}\n", n,
                         topology::StarGraph::factorial(n), tseng, PAPER_TSENG[i], sheu, PAPER_SHEU[i], measured,
                         PAPER_OURS[i], bound);
  }
  if (o.json) {
    print_json({{"rows", rows}, {"notes", notes}, {"verified", all_verified}});
  } else {
    std::cout << "Table 2 of Oh, Choi, Primeaux (2005): all-reduce steps on S_n, single-port\n"
              << "(measured = steps of the all-reduce run on the emulator, every node verified)\n"
              << table;
    for (const auto& n : notes) std::cout << "note: " << n << "\n";
  }
  return all_verified ? 0 : 1;
}

}  // namespace

void add_allreduce_command(CLI::App& app, Action& action) {
  static StarOptions o;
  static bool compare_table = false;
  static int max_n = 8;
  auto* cmd = app.add_subcommand(
      "allreduce",
      "All-reduce on the star graph S_n (Oh, Choi, Primeaux 2005) in n(n−1)/2 single-port steps, every node's "
      "final value verified. Exit 1 if a node is wrong or the step count is not n(n−1)/2.");
  add_star_options(*cmd, o, true);
  auto* table = cmd->add_flag("--compare", compare_table,
                              "Print Table 2 of the paper with the step counts measured on the emulator for n = "
                              "3..--max-n")
                    ->excludes(cmd->get_option("--topology"));
  cmd->add_option("--max-n", max_n, "Largest n of --compare (3..10)")->capture_default_str()->needs(table);
  cmd->callback([&action, cmd] {
    action = [cmd] {
      applies_only(*cmd, "--seed", o.values == "random", "--values random");
      if (compare_table) return compare(o, max_n);
      if (o.topology.empty()) throw UsageError("--topology is required (e.g. --topology star:5), or use --compare");
      return run_and_report(o, false);
    };
  });
}

void add_broadcast_command(CLI::App& app, Action& action) {
  static StarOptions o;
  static bool all_to_all = false;
  auto* cmd = app.add_subcommand(
      "broadcast",
      "All-to-all broadcast on S_n (Oh, Choi, Primeaux 2005, Section 3; NODUP, meta messages) in n(n−1)/2 steps: "
      "every node ends with every node's item exactly once (verified). Exit 1 otherwise.");
  static std::string schedule;
  cmd->add_flag("--all-to-all", all_to_all, "All-to-all broadcast (the only kind implemented)")->required();
  add_star_options(*cmd, o, false);
  cmd->add_option("--schedule", schedule,
                  "Also run this all-gather schedule file (e.g. from `starnet optimal --method uniform -o`) on the same "
                  "star graph and print both, verified");
  cmd->callback([&action] {
    action = [] {
      if (o.topology.empty()) throw UsageError("--topology is required (e.g. --topology star:5)");
      if (!schedule.empty()) return beside_schedule(o, schedule);
      return run_and_report(o, true);
    };
  });
}

void add_demo_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "demo", "The headline run: the all-reduce on S_5 over the zmq engine with 2 workers, level by level, verified");
  cmd->callback([&action] {
    action = [] {
      StarJob job;
      job.n = 5;
      EngineOptions engine;
      engine.engine = "zmq";
      engine.workers = 2;
      const StarOutcome out = run_star_job(job, engine);
      std::cout << "starnet demo — the all-reduce of Oh, Choi and Primeaux on the star graph S_5\n"
                << "S_5 has 5! = 120 nodes, one per permutation of 12345; link k swaps the first and k-th symbols.\n"
                << "Each node starts with its rank + 1 (1..120); all must end with the sum 7260.\n"
                << "The recursion: all-reduce inside each S_4 (fixed last symbol), then one step over link 5 and\n"
                << "4 − 1 = 3 forwarding steps over links 4, 3, 2: T(5) = T(4) + 4 = 10 steps.\n\n"
                << star_text(job, engine, out);
      return out.verified ? 0 : 1;
    };
  });
}

}  // namespace starnet::tools

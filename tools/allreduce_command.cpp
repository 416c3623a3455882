// `starnet allreduce` and `starnet broadcast --all-to-all`: the star collectives of Oh, Choi and
// Primeaux on the emulator, verified node by node (api/star.hpp); `allreduce --compare` prints
// Table 2; `demo` the headline run.
#include "command.hpp"
#include "engine_options.hpp"
#include "json_output.hpp"
#include "run_pictures.hpp"

#include <starnet/api/broadcast_beside.hpp>
#include <starnet/api/schedule.hpp>
#include <starnet/api/star.hpp>
#include <starnet/api/core.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

namespace starnet::tools {
namespace {

struct StarOptions {
  std::string topology;
  std::string op = "sum";
  std::string values = "index";
  std::uint64_t seed = 1;
  bool json = false;
  std::string fault_exit;   ///< --fault-exit WORKER:STEP
  std::string fault_stop;   ///< --fault-stop WORKER:STEP
  std::string fault_sleep;  ///< --fault-sleep WORKER:STEP
  RunPictures pictures;  ///< --gantt, --swimlane
  EngineOptions engine;
  long threads = 0;                         ///< --threads
  const CLI::Option* threads_option = nullptr;
};

/// The testing aid @p option WORKER:STEP (@p text).
api::StarFault parse_fault(const std::string& text, std::string_view option, api::StarFault::Kind kind) {
  unsigned worker = 0;
  unsigned long long step = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%u:%llu%c", &worker, &step, &extra) != 2) {
    throw UsageError(fmt::format("{}: \"{}\" is not WORKER:STEP", option, text));
  }
  return {kind, worker, step};
}

api::StarRequest make_request(const StarOptions& o, bool broadcast) {
  auto r = api::StarRequest::on(o.topology, broadcast ? api::Collective::ALLGATHER : api::Collective::ALLREDUCE);
  r.values = {api::parse_op(o.op), api::parse_values(o.values), o.seed};
  r.engine = o.engine.choice();
  r.trace = o.engine.tracing();
  if (o.threads_option != nullptr && o.threads_option->count() > 0) r.engine.threads = o.threads;
  if (int(!o.fault_exit.empty()) + int(!o.fault_stop.empty()) + int(!o.fault_sleep.empty()) > 1) {
    throw UsageError("--fault-exit, --fault-stop and --fault-sleep: one fault per run");
  }
  if (!o.fault_exit.empty()) r.fault = parse_fault(o.fault_exit, "--fault-exit", api::StarFault::Kind::EXIT);
  if (!o.fault_stop.empty()) r.fault = parse_fault(o.fault_stop, "--fault-stop", api::StarFault::Kind::STOP);
  if (!o.fault_sleep.empty()) r.fault = parse_fault(o.fault_sleep, "--fault-sleep", api::StarFault::Kind::SLEEP);
  return r;
}

}  // namespace

std::string star_text(const api::StarResult& o) {
  const auto& r = o.request;
  const bool broadcast = r.collective == api::Collective::ALLGATHER;
  const auto nodes = topology::StarGraph::factorial(r.n);
  std::string s = fmt::format("{} on star:{} ({}), {} engine",
                              broadcast ? "all-to-all broadcast (NODUP)"
                                        : "all-reduce (" + algorithms::star::to_string(r.values.op) + ")",
                              r.n, plural(nodes, "node", "nodes"), api::to_string(r.engine.kind));
  if (r.engine.kind == api::EngineKind::ZMQ) {
    s += fmt::format(", {} ({})", plural(r.engine.worker_count(), "worker", "workers"), r.engine.transport_text());
  }
  s += "\n";
  for (int m = 2; m <= r.n; ++m) {
    const auto first = o.report.level_first[static_cast<std::size_t>(m)];
    const auto last = o.report.level_last[static_cast<std::size_t>(m)];
    std::string links;
    for (int k = m; k >= 2; --k) links += (k == m ? "" : ",") + std::to_string(k);
    s += fmt::format("  level {:>2}: S_{} joins {} copies of S_{} over links {:<18} steps {:>2}..{:<2} ({} = {} − 1)\n",
                     m, m, m, m - 1, links, first, last, last - first, m);
  }
  const auto& c = o.run.counters;
  s += fmt::format("steps: {} (n(n−1)/2 = {})   messages: {}   payload: {} {}   max per node per step: {}\n",
                   o.run.makespan.to_string(), o.expected_steps, c.messages,
                   broadcast ? o.report.items_received : c.payload_bytes, broadcast ? "items" : "bytes",
                   std::max(c.max_concurrent_sends, c.max_concurrent_receives));
  if (o.verified) {
    s += broadcast ? fmt::format("verified: each of the {} nodes holds all {} items, none received twice\n", nodes,
                                 nodes)
                   : fmt::format("verified: each of the {} nodes holds {}, the sequential {} of all values\n", nodes,
                                 o.expected_value, algorithms::star::to_string(r.values.op));
  } else {
    s += fmt::format("NOT VERIFIED: {} of {} nodes correct{}, {} steps (expected {})\n", o.report.nodes_correct, nodes,
                     o.report.first_wrong >= 0 ? fmt::format(" (first wrong: node {})", o.report.first_wrong) : "",
                     o.run.makespan.to_string(), o.expected_steps);
  }
  if (!o.run.worker_peak_bytes.empty()) {
    const auto largest = std::max_element(o.run.worker_peak_bytes.begin(), o.run.worker_peak_bytes.end());
    s += fmt::format("largest worker process: {} peak resident (worker {} of {})\n", emulator::human_bytes(*largest),
                     largest - o.run.worker_peak_bytes.begin(), o.run.worker_peak_bytes.size());
  }
  if (r.engine.joined()) {
    std::vector<std::string> hosts;
    for (std::size_t i = 0; i < o.run.worker_hosts.size(); ++i) hosts.push_back(fmt::format("{} on {}", i, o.run.worker_hosts[i]));
    s += fmt::format("workers: {}\n", fmt::join(hosts, ", "));
  }
  if (o.run.refused_connections > 0) {
    s += fmt::format("refused {} without the run's key\n",
                     plural(o.run.refused_connections, "connection", "connections"));
  }
  if (o.run.stray_messages > 0) {
    s += fmt::format("dropped {} from peers that are not workers of this run (they change no result)\n",
                     plural(o.run.stray_messages, "message", "messages"));
  }
  if (!o.run.stranger_addresses.empty()) {
    s += fmt::format("strangers came from: {}\n", fmt::join(o.run.stranger_addresses, ", "));
  }
  s += fmt::format("wall time: {:.3f} s\n", o.run.wall_seconds);
  return s;
}

namespace {

int run_and_report(const StarOptions& o, bool broadcast) {
  const api::StarRequest request = make_request(o, broadcast);
  o.pictures.require(topology::StarGraph(request.n));
  const api::StarResult result = api::run_star(request);
  o.engine.trace.write(result.run.trace, *result.graph);
  o.pictures.write(result.run.trace, *result.graph, result.run_title());
  if (o.json) {
    print_json(result.to_json());
  } else {
    std::cout << star_text(result);
  }
  return result.verified ? 0 : 1;
}

/// `broadcast --all-to-all --schedule FILE`: the paper's broadcast and the file's all-gather on the
/// same star graph, side by side, both verified (api/broadcast_beside.hpp, docs/beyond.md).
int beside_schedule(const StarOptions& o, const std::string& file) {
  const auto r = api::broadcast_beside_schedule(make_request(o, true), file);
  if (o.json) {
    print_json(r.to_json());
  } else {
    const auto n = r.paper.request.n;
    std::cout << fmt::format("all-to-all broadcast on {} ({} nodes)\n", o.topology, topology::StarGraph::factorial(n));
    std::cout << fmt::format("  {:<40} {:>3} steps  largest message {:>7} items  {}\n", "the paper (NODUP, meta messages)",
                             r.paper.expected_steps, topology::StarGraph::factorial(n - 1),
                             r.paper.verified ? "verified" : "NOT verified");
    std::cout << fmt::format("  {:<40} {:>3} steps  largest message {:>7} items  {}{}\n", file,
                             r.schedule.run.run.makespan.to_string(), r.largest_message_items,
                             r.schedule.verified ? "verified" : "NOT verified: " + r.schedule.problem,
                             r.no_duplicates ? " (every item received once)" : "");
  }
  return r.verified() ? 0 : 1;
}

void add_star_options(CLI::App& cmd, StarOptions& o, bool reduce) {
  cmd.add_option("--topology", o.topology, "star:N with N in 1..12 (other topologies: see `starnet whatif`)");
  if (reduce) {
    add_op_option(cmd, o.op);
    add_values_option(cmd, o.values,
                      "Node values: index (node of rank r holds r + 1, i.e. 1..n!; rank is the same) or random "
                      "(seeded by --seed)");
    cmd.add_option("--seed", o.seed, "Seed of --values random")->capture_default_str()->check(any_seed());
  }
  cmd.add_flag("--json", o.json, "Print one JSON object instead of the summary");
  o.engine.add_to(cmd);
  o.threads_option = cmd.add_option("--threads", o.threads,
                                    fmt::format("Threads of the local engine, 0..{} (default 0: all cores); the "
                                                "same trace and counters whatever the number",
                                                api::MAX_THREADS))
                         ->check(integer_in(0, api::MAX_THREADS));
  o.pictures.add_to(cmd, "the run", [&o] { o.engine.keep_trace = true; });
  cmd.add_option("--fault-exit", o.fault_exit,
                 "Testing aid: with --processes, worker WORKER exits abruptly at step STEP (WORKER:STEP)");
  cmd.add_option("--fault-stop", o.fault_stop,
                 "Testing aid: with --processes, worker WORKER stops itself (SIGSTOP) at step STEP (WORKER:STEP), as "
                 "a hung host would");
  cmd.add_option("--fault-sleep", o.fault_sleep,
                 fmt::format("Testing aid: with --processes, worker WORKER takes {} s more over step STEP "
                             "(WORKER:STEP), its heartbeats going on, as a slow host would",
                             api::FAULT_SLEEP_SECONDS));
}

int compare(const StarOptions& o, int max_n) {
  if (o.pictures.wanted()) {
    throw UsageError(fmt::format("{} draws one run: give --topology instead of --compare", o.pictures.flags()));
  }
  const auto table = api::star_table2(max_n, o.engine.choice(), {api::parse_op(o.op), api::parse_values(o.values), o.seed});
  if (o.json) {
    print_json(table.to_json());
    return table.verified ? 0 : 1;
  }
  std::cout << "Table 2 of Oh, Choi, Primeaux (2005): all-reduce steps on S_n, single-port\n"
            << "(measured = steps of the all-reduce run on the emulator, every node verified)\n"
            << fmt::format("{:>2} {:>8} | {:>11} {:>6} | {:>11} {:>6} | {:>9} {:>6} | {:>11}\n", "n", "size",
                           "Tseng 3(n-1)²", "paper", "Sheu formula", "paper", "measured", "paper", "⌈log₂ n!⌉");
  for (const auto& r : table.rows) {
    std::cout << fmt::format("{:>2} {:>8} | {:>13} {:>6} | {:>12} {:>6} | {:>9} {:>6} | {:>11}\n", r.n, r.size,
                             r.tseng_formula, r.tseng_paper, r.sheu_formula, r.sheu_paper, r.measured, r.paper,
                             r.lower_bound);
  }
  for (const auto& n : table.notes) std::cout << "note: " << n << "\n";
  return table.verified ? 0 : 1;
}

}  // namespace

void declare_allreduce_command(CLI::App& cmd, Action& action) {
  static StarOptions o;
  static bool compare_table = false;
  static int max_n = 8;
  add_star_options(cmd, o, true);
  auto* table = cmd.add_flag("--compare", compare_table,
                             "Print Table 2 of the paper with the step counts measured on the emulator for n = "
                             "3..--max-n")
                    ->excludes(cmd.get_option("--topology"));
  cmd.add_option("--max-n", max_n, "Largest n of --compare (3..10)")->capture_default_str()->needs(table);
  cmd.callback([&action, &cmd] {
    action = [&cmd] {
      applies_only(cmd, "--seed", o.values == "random", "--values random");
      if (compare_table) return compare(o, max_n);
      if (o.topology.empty()) throw UsageError("--topology is required (e.g. --topology star:5), or use --compare");
      return run_and_report(o, false);
    };
  });
}

void declare_broadcast_command(CLI::App& cmd, Action& action) {
  static StarOptions o;
  static bool all_to_all = false;
  static std::string schedule;
  cmd.add_flag("--all-to-all", all_to_all, "All-to-all broadcast (the only kind implemented)")->required();
  add_star_options(cmd, o, false);
  cmd.add_option("--schedule", schedule,
                 "Also run this all-gather schedule file (e.g. from `starnet optimal --method uniform -o`) on the same "
                 "star graph and print both, verified");
  cmd.callback([&action] {
    action = [] {
      if (o.topology.empty()) throw UsageError("--topology is required (e.g. --topology star:5)");
      if (!schedule.empty()) return beside_schedule(o, schedule);
      return run_and_report(o, true);
    };
  });
}

void declare_demo_command(CLI::App& cmd, Action& action) {
  cmd.callback([&action] {
    action = [] {
      api::StarRequest request;
      request.n = 5;
      request.engine.kind = api::EngineKind::ZMQ;
      request.engine.workers = 2;
      const api::StarResult out = api::run_star(request);
      std::cout << "starnet demo — the all-reduce of Oh, Choi and Primeaux on the star graph S_5\n"
                << "S_5 has 5! = 120 nodes, one per permutation of 12345; link k swaps the first and k-th symbols.\n"
                << "Each node starts with its rank + 1 (1..120); all must end with the sum 7260.\n"
                << "The recursion: all-reduce inside each S_4 (fixed last symbol), then one step over link 5 and\n"
                << "4 − 1 = 3 forwarding steps over links 4, 3, 2: T(5) = T(4) + 4 = 10 steps.\n\n"
                << star_text(out);
      return out.verified ? 0 : 1;
    };
  });
}

}  // namespace starnet::tools

// `starnet viz allreduce` and `starnet viz broadcast --all-to-all`: the teaching page of a star
// collective on S_N, N ≤ 5, written to a file (the page itself: api/viz.hpp; docs/viz.md).
#include "command.hpp"

#include <starnet/api/viz.hpp>
#include <starnet/api/core.hpp>

#include <fmt/format.h>

#include <iostream>

namespace starnet::tools {
namespace {

struct VizOptions {
  std::string topology;
  std::string op = "sum";
  std::string output;
  std::string schedule;
  bool all_to_all = false;
};

int run_page(const VizOptions& o, bool broadcast) {
  auto request = api::StarRequest::on(o.topology, broadcast ? api::Collective::ALLGATHER : api::Collective::ALLREDUCE);
  const int n = request.n;
  try {
    api::check_page_size(n);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{}: starnet {} --topology {} --trace FILE.json --trace-format chrome (or --trace "
                                 "FILE.jsonl)",
                                 command_line_message(e), broadcast ? "broadcast --all-to-all" : "allreduce",
                                 o.topology));
  }
  if (!o.schedule.empty()) {
    const auto loaded = api::load_schedule(o.schedule, o.topology);
    const auto page = api::schedule_page(loaded);
    write_file_atomically(o.output, page.html);
    if (o.output != "-") {
      std::cout << fmt::format("{}: schedule {} on star:{}, {}, {} (the paper: {}), {}\n", o.output,
                               o.schedule, n, plural(loaded.topology->num_nodes(), "node", "nodes"),
                               plural(page.steps, "step", "steps"),
                               algorithms::star::allreduce_steps(n), page.verified ? "verified" : "NOT VERIFIED");
    }
    return page.verified ? 0 : 1;
  }
  request.values.op = api::parse_op(o.op);
  request.trace = true;
  const api::StarResult out = api::run_star(request);
  const auto page = api::star_page(out);
  write_file_atomically(o.output, page.html);
  if (o.output != "-") {
    std::cout << fmt::format(
        "{}: {} on star:{}, {}, {}, {}, {}\n", o.output,
        broadcast ? "all-to-all broadcast" : "all-reduce (" + algorithms::star::to_string(request.values.op) + ")", n,
        plural(out.graph->size(), "node", "nodes"), plural(page.steps, "step", "steps"),
        plural(out.run.counters.messages, "message", "messages"),
        page.verified ? "verified" : "NOT VERIFIED");
  }
  return page.verified ? 0 : 1;
}

void add_page_options(CLI::App& cmd, VizOptions& o) {
  cmd.add_option("--topology", o.topology,
                 "star:N with N = 2..5 (larger N: write a trace instead, e.g. `starnet allreduce --topology star:7 "
                 "--trace t.json --trace-format chrome`)")
      ->required();
  cmd.add_option("-o,--output", o.output, "The HTML file to write (atomically; - for standard output)")
      ->required()
      ->check(output_file({}, true));
}

}  // namespace

void declare_viz_command(CLI::App& viz, Action& action) {
  static VizOptions o;
  viz.require_subcommand(0, 1);  // none: main() names the choices
  auto* allreduce = viz.add_subcommand(
      "allreduce",
      "The all-reduce of Oh, Choi, Primeaux (2005) step by step: messages on the links and each node's "
      "result and outgoing buffers. Exit 1 if the run or the page's reconstruction is not verified.");
  add_page_options(*allreduce, o);
  add_op_option(*allreduce, o.op, "Operator (node values are rank + 1)");
  allreduce->callback([&action] { action = [] { return run_page(o, false); }; });
  auto* broadcast = viz.add_subcommand(
      "broadcast",
      "The all-to-all broadcast (NODUP) step by step: meta messages on the links and the items each node "
      "holds. Exit 1 if the run or the page's reconstruction is not verified.");
  broadcast->add_flag("--all-to-all", o.all_to_all, "All-to-all broadcast (the only kind implemented)")->required();
  add_page_options(*broadcast, o);
  broadcast->add_option("--schedule", o.schedule,
                        "Step through this all-gather schedule file instead (e.g. a uniform gossip from `starnet "
                        "optimal --method uniform -o`), the paper's step count beside it");
  broadcast->callback([&action] { action = [] { return run_page(o, true); }; });
}

}  // namespace starnet::tools

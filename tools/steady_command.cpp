// `starnet steady scatter|gossip|reduce`: the optimal steady-state throughput of a series of
// collectives on a weighted platform (Legrand, Marchal, Robert 2004), certified exactly, and the
// periodic schedule that achieves it (matchings, trees, start-up), optionally for a fixed period;
// with --emulate K, the schedule run on the emulator and the operations it completes.
#include "command.hpp"
#include "json_output.hpp"
#include "trace_output.hpp"
#include "run_pictures.hpp"

#include <starnet/api/steady.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/core.hpp>

#include <fmt/format.h>

#include <limits>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

namespace starnet::tools {
namespace {


struct SteadyOptions {
  std::string topology;
  std::string source;   // scatter
  std::string sources;  // gossip
  std::string targets;  // scatter, gossip
  std::string participants;  // reduce
  std::string target;        // reduce
  std::string message_size = "1";
  std::string task_work = "1";
  std::string period;  // --period P: the fixed-period approximation
  std::string emulate;  // --emulate K: the horizon
  RunPictures pictures;  // --gantt, --swimlane FILE.svg: the emulated run
  TraceOutput trace;    // --trace FILE: the emulated run
  int iteration_limit = 0;
  bool whole_messages = false;
  bool json = false;
};

std::string emulation_text(const char* what, const api::ScheduleEmulation& e) {
  std::string out = fmt::format(
      "emulated {} for K = {}: {} operations completed, bound TP·K = {}, ratio {} ({:.4f}); Proposition 1 "
      "guarantees {}\n",
      what, e.plan.horizon.get_str(), e.report.completed.get_str(), e.plan.bound.get_str(), e.ratio.get_str(),
      e.ratio.get_d(), e.guaranteed.get_str());
  out += e.verified() ? fmt::format("  {} results verified, one port respected\n", e.report.verified)
                      : fmt::format("  NOT verified: {}\n", e.failure());
  return out;
}

std::string report_text(const api::SteadyResult& r) {
  const auto& s = r.schedule;
  const char* trees = r.request.collective == api::Collective::REDUCE ? "trees" : "routes";
  std::string out = fmt::format("{}\n", r.problem);
  out += fmt::format("throughput {} per time unit ({})\n", r.throughput.get_str(),
                     r.certified() ? "certified optimal in exact arithmetic" : "NOT certified: " + r.certificate_failure);
  out += fmt::format("period {}: {} operations, {} matching(s), {} {}, start-up {} period(s)\n", s.period.get_str(),
                     s.operations_per_period.get_str(), s.matchings, s.trees, trees, s.startup_periods);
  if (const auto& fixed = r.fixed_schedule) {
    out += fmt::format("fixed period {}: throughput {} ({} operations, {} matching(s); loss at most {} {} / {})\n",
                       fixed->period.get_str(), fixed->throughput.get_str(), fixed->operations_per_period.get_str(),
                       fixed->matchings, r.lp_trees, trees, fixed->period.get_str());
  }
  if (r.optimal) out += emulation_text("schedule", *r.optimal);
  if (r.fixed) out += emulation_text("fixed-period schedule", *r.fixed);
  return out;
}

/// parse options → plan → self-check → emulate → report. Exit 1 when an exact check or the
/// emulation fails.
int run_steady(api::Collective collective, const SteadyOptions& o) {
  if (o.emulate.empty() && o.pictures.wanted()) {
    throw UsageError(fmt::format("{} draws the emulated run: give --emulate K as well", o.pictures.flags()));
  }
  api::SteadyRequest request;
  request.collective = collective;
  request.topology = o.topology;
  request.source = o.source;
  request.sources = api::split_list(o.sources);
  request.targets = api::split_list(o.targets);
  request.participants = api::split_list(o.participants);
  request.target = o.target;
  request.message_size = api::parse_number(o.message_size, "message_size", 0, /*strictly=*/true);
  request.task_work = api::parse_number(o.task_work, "task_work", 0, /*strictly=*/true);
  if (!o.period.empty()) request.period = api::parse_number(o.period, "period", 0, /*strictly=*/true);
  if (!o.emulate.empty()) request.emulate = api::parse_number(o.emulate, "emulate", 0, /*strictly=*/true);
  request.iteration_limit = o.iteration_limit;
  request.whole_messages = o.whole_messages;
  request.trace = o.pictures.wanted() || o.trace.wanted();
  o.pictures.require(*request.topology.topology());
  const auto r = api::run_steady(request);
  if (r.optimal) {
    const auto& trace = r.optimal->run.trace;
    o.pictures.write(trace, *r.emulated_on, r.run_title());
    o.trace.write(trace, *r.emulated_on);
  }
  if (o.json) {
    print_json(r.to_json());
  } else {
    std::cout << report_text(r);
  }
  return r.verified() ? 0 : 1;
}

void add_common_options(CLI::App& cmd, SteadyOptions& o) {
  cmd.add_option("--topology", o.topology,
                 "Weighted platform: a .dot/.graphml file (cost, speed, role attributes), a SimGrid .xml platform, or "
                 "a family spec such as tiers:SEED")
      ->required();
  cmd.add_option("--period", o.period,
                 "Also build the fixed-period approximation (Section 4.6) for this period P > 0 (e.g. 10 or 7/2)");
  cmd.add_option("--iteration-limit", o.iteration_limit,
                 "Give up (exit 3) when GLPK's simplex needs more iterations than this (0: no limit)")
      ->capture_default_str()
      ->check(integer_in(0, std::numeric_limits<int>::max()));
  cmd.add_flag("--whole-messages", o.whole_messages,
               "Multiply the optimal schedule's period so that no message is split across matchings (the paper's "
               "second lcm); the --period schedule keeps its period");
  cmd.add_option("--emulate", o.emulate,
                 "Run the schedule on the emulator (timed, strict single-port) for K time units, e.g. 1000 or 7/2: "
                 "start-up, steady state and clean-up; count the operations completed, every result verified, "
                 "against TP·K (Lemma 1) and Proposition 1's guarantee. With --period, the fixed-period schedule too");
  o.pictures.add_to(cmd, "the emulated run of the schedule (needs --emulate)");
  o.trace.add_to(cmd, "every event of the emulated run of the schedule (needs --emulate)");
  cmd.add_flag("--json", o.json,
               "Print one JSON document: throughput, period, certified, matchings [{weight, transfers}], "
               "trees/routes [{weight, tasks}], computations, fixed_period, and with --emulate: emulated {horizon, "
               "completed, bound, ratio, proposition1, verified, ...}");
}

/// `steady NAME`: a series of @p collective, with the options every series shares; the caller
/// adds the collective's own (its participants).
CLI::App& add_series(CLI::App& steady, Action& action, SteadyOptions& o, api::Collective collective, const char* name,
                     const char* help) {
  auto& series = *steady.add_subcommand(name, help);
  add_common_options(series, o);
  series.callback([&action, &o, collective] { action = [&o, collective] { return run_steady(collective, o); }; });
  return series;
}

}  // namespace

void declare_steady_command(CLI::App& steady, Action& action) {
  static SteadyOptions o;
  steady.require_subcommand(0, 1);  // none: main() names the choices

  auto& scatter = add_series(steady, action, o, api::Collective::SCATTER, "scatter",
                             "Series of scatters: SOURCE sends a distinct message to each target");
  scatter.add_option("--source", o.source, "Source processor")->required();
  scatter.add_option("--targets", o.targets, "Target processors, comma-separated (A,B,C)")->required();

  auto& gossip = add_series(steady, action, o, api::Collective::ALLTOALL, "gossip",
                            "Series of personalised all-to-alls: every source sends a distinct message to every other "
                            "target");
  gossip.add_option("--sources", o.sources, "Source processors, comma-separated")->required();
  gossip.add_option("--targets", o.targets, "Target processors, comma-separated")->required();

  auto& reduce = add_series(steady, action, o, api::Collective::REDUCE, "reduce",
                            "Series of reduces v_0 ⊕ … ⊕ v_N (⊕ associative, non-commutative) to one target "
                            "processor");
  reduce.add_option("--participants", o.participants,
                    "Processors holding v_0, v_1, … in this order (the order of ⊕), comma-separated")
      ->required();
  reduce.add_option("--target", o.target, "Processor that receives v_0 ⊕ … ⊕ v_N")->required();
  reduce.add_option("--message-size", o.message_size, "Size of every partial result v[k,m], in unit messages")
      ->capture_default_str();
  reduce.add_option("--task-work", o.task_work, "Work of every task T[k,l,m]; it takes work/speed on a processor")
      ->capture_default_str();
}

}  // namespace starnet::tools

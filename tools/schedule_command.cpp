// `starnet schedule run|export`: collective schedules as data — the starnet JSON format and MSCCL's
// XML — run on the emulator and checked on every node and chunk; every built-in algorithm written
// as a schedule (issue 18; docs/schedules.md).
#include "command.hpp"
#include "json_output.hpp"
#include "gantt.hpp"
#include "schedule_load.hpp"
#include "star_runner.hpp"

#include <starnet/algorithms/generic/bounds.hpp>
#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/algorithms/schedule/builtins.hpp>
#include <starnet/algorithms/schedule/msccl.hpp>
#include <starnet/algorithms/schedule/schedule_json.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/input.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace starnet::tools {
namespace {

namespace sch = algorithms::schedule;

/// Most ports a node may have on the command line.
constexpr long MAX_PORTS = 1024;

struct PortOptions {
  int ports = 1;
  std::string duplex = "full";
  void add_to(CLI::App& cmd) {
    cmd.add_option("--ports", ports, "Ports per node k ≥ 1 (k-port model)")->capture_default_str();
    cmd.add_option("--duplex", duplex, "full (k sends and k receives at once) or half (k transfers in all)")
        ->check(CLI::IsMember({"full", "half"}))
        ->capture_default_str();
  }
  [[nodiscard]] emulator::PortModel model() const {
    if (ports < 1 || ports > MAX_PORTS) {
      throw UsageError(fmt::format("--ports {}: expected a number of ports in 1..{}", ports, MAX_PORTS));
    }
    return {static_cast<unsigned>(ports), duplex == "half"};
  }
};

struct RunOptions {
  std::string file;
  std::string topology;
  PortOptions ports;
  std::string checking;  // empty: strict for stepped schedules, arbitrated for programs
  std::string costs = "unit";
  std::string chunk_size = "1";
  std::string op = "sum";
  std::string values = "random";
  std::uint64_t seed = 1;
  std::string gantt;
  bool json = false;
  EngineOptions engine;
};

struct ExportOptions {
  std::string algorithm;
  std::string topology;
  std::string collective;
  std::string root = "0";
  PortOptions ports;
  std::string output;
};

/// MSCCL XML by extension, or by a first non-blank character '<' (standard input).
bool looks_like_xml(const std::string& path, std::string_view text) {
  if (path.ends_with(".xml")) return true;
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '<';
}

/// The lower bound whatif prints, for the collective a schedule claims (docs/schedules.md).
algorithms::generic::StepBound lower_bound(const sch::Schedule& s, const topology::Topology& t, const std::string& spec,
                                           const emulator::PortModel& ports) {
  using algorithms::generic::Collective;
  const auto kind = s.rules().kind();
  Collective as = Collective::ALLREDUCE;
  std::uint64_t distance = 0;
  if (sch::is_rooted(kind)) {
    const bool inward = kind == sch::Collective::REDUCE || kind == sch::Collective::GATHER;
    as = inward ? Collective::REDUCE : Collective::BROADCAST;
    distance = static_cast<std::uint64_t>(algorithms::generic::eccentricity(t, s.rules().root(), false).num());
  } else {
    // The +1 of half-duplex all-reduce holds for gossip too (every node must end full); the other
    // all-to-all collectives get the counting bound alone.
    if (kind != sch::Collective::ALLREDUCE && kind != sch::Collective::ALLGATHER) as = Collective::REDUCE;
    bool transitive = false;
    try {
      transitive = topology::is_vertex_transitive(spec);
    } catch (const TopologyError&) {
    }
    distance = static_cast<std::uint64_t>(algorithms::generic::diameter(t, false, transitive).value.num());
  }
  return algorithms::generic::step_lower_bound(as, ports, t.num_nodes(), distance);
}

int run(const RunOptions& o) {
  const LoadedSchedule l = load_schedule(o.file, o.topology);
  const sch::Schedule& s = *l.schedule;
  const topology::Topology& topo = *l.topology;
  if (!o.gantt.empty()) require_gantt_rows(topo);
  sch::ScheduleRunSettings settings;
  settings.config.ports = o.ports.model();
  settings.config.trace = o.engine.trace.wanted() || !o.gantt.empty();
  if (o.costs != "unit" && o.costs != "topology") {
    throw UsageError(fmt::format("--costs {}: expected unit (one step per transfer) or topology (timed: the links' "
                                 "costs times the message size)",
                                 o.costs));
  }
  const bool timed = o.costs == "topology";
  settings.config.time = timed ? emulator::TimeMode::TIMED : emulator::TimeMode::UNIT;
  const bool stepped = s.form() == sch::Form::STEPPED;
  settings.config.checking = o.checking.empty()
                                 ? (stepped && !timed ? emulator::Checking::STRICT : emulator::Checking::ARBITRATED)
                                 : emulator::parse_checking(o.checking, "--checking");
  settings.chunks.chunk_size = Rational::parse(o.chunk_size, "--chunk-size");
  if (!(settings.chunks.chunk_size > Rational(0))) {
    throw UsageError(fmt::format("--chunk-size {}: expected a positive size", o.chunk_size));
  }
  settings.op = algorithms::star::parse_op(o.op, "--op");
  if (o.values != "random" && o.values != "index") {
    throw UsageError(fmt::format("--values {}: expected random (seeded by --seed) or index (contribution id + 1)", o.values));
  }
  settings.values = {o.values == "random", o.seed};
  const unsigned workers = o.engine.worker_count();
  if (o.engine.processes) {
    throw UsageError(fmt::format("{}: schedule runs use the zmq engine's worker threads (--engine zmq --workers K)",
                                 o.engine.joined() ? "--listen " + o.engine.listen : "--processes"));
  }
  if (o.engine.engine == "local" && workers != 1) {
    throw UsageError(fmt::format("--workers {}: the local engine has one worker (use --engine zmq)", workers));
  }
  settings.zmq_workers = o.engine.engine == "zmq" ? workers : 0;
  const emulator::TopologyCosts<Rational> link_costs(topo);
  if (timed) settings.costs = &link_costs;
  o.engine.check_memory(o.engine.memory_estimate(topo.num_nodes(), s.transfers(), sch::run_memory_bytes(s),
                                                 fmt::format("chunk slots ({} per node) and the schedule", s.slots())),
                        fmt::format("schedule file \"{}\"", o.file));

  const auto r = [&] {
    try {
      return sch::run_schedule(s, topo, settings);
    } catch (const OverflowError& e) {
      throw OverflowError(fmt::format("schedule file \"{}\" on {} with {} costs: {} (exact times are kept or refused, "
                                      "never rounded)",
                                      o.file, l.spec, o.costs, e.what()));
    }
  }();
  o.engine.trace.write(r.run.trace, topo);
  if (!o.gantt.empty()) write_file_atomically(o.gantt, gantt_svg(r.run.trace, topo));

  const auto bound = lower_bound(s, topo, l.spec, settings.config.ports);
  const auto kind = sch::to_string(s.rules().kind());
  const std::string problem = r.report.first_problem();
  if (o.json) {
    nlohmann::json j = {{"file", o.file},
                        {"format", l.format},
                        {"collective", kind},
                        {"topology", l.spec},
                        {"nodes", s.nodes()},
                        {"chunks", s.rules().chunks()},
                        {"scratch", s.scratch()},
                        {"form", stepped ? "steps" : "programs"},
                        {"planned_steps", stepped ? nlohmann::json(s.steps()) : nlohmann::json(nullptr)},
                        {"transfers", s.transfers()},
                        {"messages", r.run.counters.messages},
                        {"chunks_moved", s.chunks_moved()},
                        {"ports", settings.config.ports.ports},
                        {"duplex", settings.config.ports.half_duplex ? "half" : "full"},
                        {"checking", emulator::to_string(settings.config.checking)},
                        {"time", emulator::to_string(settings.config.time)},
                        {"engine", o.engine.engine},
                        {"workers", workers},
                        {"lower_bound", bound.value()},
                        {"bound_counting", bound.counting},
                        {"bound_distance", bound.distance},
                        {"nodes_checked", r.report.nodes_checked},
                        {"chunks_checked", r.report.chunks_checked},
                        {"chunks_correct", r.report.chunks_correct},
                        {"verified", r.verified},
                        {"wall_seconds", r.run.wall_seconds}};
    if (timed) {
      j["steps"] = nullptr;
      put_exact(j, "makespan", r.run.makespan);
    } else {
      j["steps"] = r.run.makespan.num();
    }
    if (!r.verified) j["problem"] = problem;
    print_json(std::move(j));
  } else {
    std::cout << fmt::format("{} ({}): {} on {} ({} nodes), {} data chunk{} + {} scratch per node, {}\n", o.file, l.format,
                             kind, l.spec, s.nodes(), s.rules().chunks(), s.rules().chunks() == 1 ? "" : "s",
                             s.scratch(),
                             stepped ? fmt::format("{} steps planned", s.steps()) : std::string("per-node programs"));
    std::cout << fmt::format("ran: {} time, {}, {} checking, {} engine{}\n", emulator::to_string(settings.config.time),
                             settings.config.ports.to_string(), emulator::to_string(settings.config.checking),
                             o.engine.engine, o.engine.engine == "zmq" ? fmt::format(" ({} workers)", workers) : "");
    std::cout << fmt::format("{}: {}   messages: {}   chunks moved: {}   lower bound: {} steps (counting {}, distance {})\n",
                             timed ? "makespan" : "steps", r.run.makespan.to_string(), r.run.counters.messages,
                             s.chunks_moved(), bound.value(), bound.counting, bound.distance);
    if (r.verified) {
      std::cout << fmt::format("verified: all {} output chunks on {} nodes hold what the {} requires\n",
                               r.report.chunks_checked, r.report.nodes_checked, kind);
    } else {
      std::cout << fmt::format("NOT VERIFIED: {} of {} output chunks right; {}\n", r.report.chunks_correct,
                               r.report.chunks_checked, problem);
    }
    std::cout << fmt::format("wall time: {:.3f} s\n", r.run.wall_seconds);
  }
  return r.verified ? 0 : 1;
}

int export_schedule(const ExportOptions& o) {
  const auto algorithm = sch::find_builtin(o.algorithm);
  if (!algorithm) {
    throw UsageError(fmt::format("--algorithm {}: expected star-allreduce, star-broadcast, recursive-doubling, ring or "
                                 "bfs-tree",
                                 o.algorithm));
  }
  if (o.topology.empty()) throw UsageError("--topology is required (e.g. --topology star:5)");
  if (o.output.empty()) throw UsageError("-o FILE is required (- for standard output)");
  const auto topo = topology::make_topology(o.topology);
  sch::Collective collective = *algorithm == sch::Builtin::STAR_BROADCAST ? sch::Collective::ALLGATHER
                                                                          : sch::Collective::ALLREDUCE;
  if (!o.collective.empty()) {
    const auto c = sch::find_collective(o.collective);
    if (!c) throw UsageError(fmt::format("--collective {}: not a collective (docs/schedules.md lists them)", o.collective));
    collective = *c;
  }
  const auto root = algorithms::generic::find_node(*topo, o.root);
  if (!root) throw UsageError(fmt::format("--root {}: not a node of {}", o.root, o.topology));
  const auto s = sch::export_builtin(*algorithm, *topo, o.topology, collective, static_cast<std::uint32_t>(*root),
                                     o.ports.model());
  write_file_atomically(o.output, sch::write_schedule_json(s, *topo, o.topology,
                                                           fmt::format("{} exported by starnet", o.algorithm)));
  if (o.output != "-") {
    std::cout << fmt::format("{}: {} on {} ({} nodes), {} steps, {} transfers, {} chunks moved\n", o.output,
                             sch::to_string(collective), o.topology, s.nodes(), s.steps(), s.transfers(),
                             s.chunks_moved());
  }
  return 0;
}

}  // namespace

LoadedSchedule load_schedule(const std::string& file, const std::string& topology_spec) {
  const std::string where = fmt::format("schedule file \"{}\"", file);
  const std::string text = read_input(file, where, "a starnet schedule (JSON) or MSCCL algorithm (XML) file");
  LoadedSchedule l;
  const auto choose = [&](const std::string& from_file, const std::string& fallback) {
    l.spec = !topology_spec.empty() ? topology_spec : !from_file.empty() ? from_file : fallback;
    if (l.spec.empty()) {
      throw UsageError(fmt::format("{} names no topology: give --topology (e.g. --topology ring:8)", where));
    }
    l.topology = topology::make_topology(l.spec);
  };
  if (looks_like_xml(file, text)) {
    l.format = "msccl";
    auto algo = sch::read_msccl(text, where);
    choose("", fmt::format("complete:{}", algo.gpus));
    if (l.topology->num_nodes() != algo.gpus) {
      throw UsageError(fmt::format("--topology {}: has {} nodes, but {} has ngpus=\"{}\"", l.spec,
                                   l.topology->num_nodes(), where, algo.gpus));
    }
    l.schedule.emplace(std::move(algo.schedule));
  } else {
    l.format = "starnet";
    std::istringstream in(text);
    const auto file = sch::ScheduleFile::read(in, where);
    choose(file.topology(), "");
    l.schedule.emplace(file.resolve(*l.topology));
  }
  return l;
}


void add_schedule_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("schedule", "Collective schedules as data: run a starnet JSON or MSCCL XML schedule "
                                              "on the emulator and check it, or export a built-in algorithm "
                                              "(docs/schedules.md)");
  cmd->require_subcommand(0, 1);  // none: main() names the choices
  static RunOptions r;
  auto* run_cmd = cmd->add_subcommand(
      "run", "Run a schedule file (starnet JSON, or MSCCL XML) and check the collective it claims on every node and "
             "chunk. Exit 1 if a node sends what it does not hold, breaks the port model (strict), deadlocks or ends "
             "with a wrong chunk; 2 for a malformed file");
  run_cmd->add_option("file", r.file, "The schedule (.json: starnet format; .xml: MSCCL; - for standard input)")->required();
  run_cmd->add_option("--topology", r.topology,
                      "Topology spec or file (default: the file's \"topology\"; MSCCL: complete:NGPUS)");
  r.ports.add_to(*run_cmd);
  run_cmd->add_option("--checking", r.checking,
                      "strict (a second transfer beyond the port model or a missing link is an error; default for "
                      "stepped schedules) or arbitrated (contending transfers wait; default for programs)");
  run_cmd->add_option("--costs", r.costs, "unit (every transfer one step) or topology (timed: latency + size × link cost, the α–β model of "
                      "docs/topology.md)")
      ->capture_default_str();
  run_cmd->add_option("--chunk-size", r.chunk_size, "Size of one chunk in unit messages (timed runs)")
      ->capture_default_str();
  run_cmd->add_option("--op", r.op, "Reduction operator: sum (mod 2^64), min, max or xor")->capture_default_str();
  run_cmd->add_option("--values", r.values, "Chunk values: random (seeded) or index (contribution id + 1)")
      ->capture_default_str();
  run_cmd->add_option("--seed", r.seed, "Seed of --values random")->capture_default_str()->check(any_seed());
  run_cmd->add_option("--gantt", r.gantt, "Draw the run as a Gantt chart (SVG) to FILE (≤ 1000 nodes)")
      ->check(output_file({".svg"}));
  run_cmd->add_flag("--json", r.json, "Print one JSON document instead of the summary");
  r.engine.add_to(*run_cmd);
  run_cmd->callback([&action, run_cmd] {
    action = [run_cmd] {
      applies_only(*run_cmd, "--chunk-size", r.costs == "topology", "--costs topology");
      applies_only(*run_cmd, "--seed", r.values == "random", "--values random");
      const std::string no_processes = "--engine zmq --processes, which schedule runs do not take (their zmq workers "
                                       "are threads, over inproc://)";
      applies_only(*run_cmd, "--address", false, no_processes);
      applies_only(*run_cmd, "--port", false, no_processes);
      return run(r);
    };
  });

  static ExportOptions e;
  auto* export_cmd = cmd->add_subcommand("export", "Write a built-in collective algorithm as a starnet schedule file");
  export_cmd->add_option("--algorithm", e.algorithm,
                         "star-allreduce, star-broadcast (an allgather), recursive-doubling, ring or bfs-tree")
      ->required();
  export_cmd->add_option("--topology", e.topology, "Topology spec (star:N, hypercube:D, ring:N, torus:AxB, …)");
  export_cmd->add_option("--collective", e.collective, "bfs-tree: allreduce (default), reduce or broadcast");
  export_cmd->add_option("--root", e.root, "Root of reduce and broadcast (name or index)")->capture_default_str();
  e.ports.add_to(*export_cmd);
  export_cmd->add_option("-o,--output", e.output, "The schedule file to write (- for standard output)")
      ->check(output_file({}, true));
  export_cmd->callback([&action, export_cmd] {
    action = [export_cmd] {
      applies_only(*export_cmd, "--root", e.algorithm == "bfs-tree", "--algorithm bfs-tree");
      return export_schedule(e);
    };
  });
}

}  // namespace starnet::tools

// `starnet schedule run|export|convert`: collective schedules as data — the starnet JSON format and
// MSCCL's XML — run on the emulator and checked on every node and chunk; every built-in algorithm
// written as a schedule, in either format; a file converted from one to the other (api/schedule.hpp;
// docs/schedules.md, docs/gpu.md).
#include "command.hpp"
#include "engine_options.hpp"
#include "json_output.hpp"
#include "run_pictures.hpp"

#include <starnet/api/schedule.hpp>
#include <starnet/api/core.hpp>

#include <fmt/format.h>

#include <iostream>

namespace starnet::tools {
namespace {

namespace sch = algorithms::schedule;

struct PortOptions {
  long ports = 1;
  std::string duplex = "full";
  void add_to(CLI::App& cmd) {
    cmd.add_option("--ports", ports, fmt::format("Ports per node k in 1..{} (k-port model)", api::MAX_PORTS))
        ->capture_default_str();
    cmd.add_option("--duplex", duplex, "full (k sends and k receives at once) or half (k transfers in all)")
        ->check(CLI::IsMember({"full", "half"}))
        ->capture_default_str();
  }
  [[nodiscard]] emulator::PortModel model() const { return api::port_model(ports, duplex); }
};

struct RunOptions {
  std::string file;
  std::string topology;
  PortOptions ports;
  std::string checking;  // empty: strict for stepped schedules, arbitrated for programs
  std::string costs = "unit";
  std::string chunk_size = "1";
  std::string latency;
  std::string bandwidth;
  std::string op = "sum";
  std::string values = "random";
  std::uint64_t seed = 1;
  RunPictures pictures;  // --gantt, --swimlane
  std::string link_report;
  bool json = false;
  EngineOptions engine;
};

/// How a schedule is written: starnet JSON or MSCCL XML (by the output's extension unless told).
struct FormatOptions {
  std::string format;
  std::string protocol = "Simple";
  void add_to(CLI::App& cmd) {
    cmd.add_option("--format", format,
                   "starnet (JSON) or msccl (XML for GPU runtimes, docs/gpu.md); default: msccl for an output ending "
                   "in .xml, else starnet")
        ->check(CLI::IsMember({"starnet", "msccl"}));
    cmd.add_option("--protocol", protocol, "MSCCL's protocol (proto): Simple, LL128 or LL")
        ->check(CLI::IsMember({"Simple", "LL128", "LL"}))
        ->capture_default_str();
  }
  /// Writes @p l to @p output; @p name names the algorithm (a JSON file's comment, MSCCL's name).
  void write(const CLI::App& cmd, const api::LoadedSchedule& l, const std::string& output, const std::string& name) const {
    const bool msccl = api::parse_schedule_format(format, output) == api::ScheduleFormat::MSCCL;
    applies_only(cmd, "--protocol", msccl, "--format msccl (or an output ending in .xml)");
    write_file_atomically(output, msccl ? api::schedule_msccl(l, {name, protocol}) : api::schedule_json(l, name, output));
  }
};

struct ExportOptions {
  std::string algorithm;
  std::string topology;
  std::string collective;
  std::string root = std::string(api::DEFAULT_ROOT);
  PortOptions ports;
  FormatOptions format;
  std::string output;
};

struct ConvertOptions {
  std::string input;
  std::string output;
  std::string topology;
  FormatOptions format;
};

/// The line a written schedule file is reported with.
std::string written_line(const std::string& output, const api::LoadedSchedule& l) {
  const auto& s = *l.schedule;
  const bool stepped = s.form() == sch::Form::STEPPED;
  return fmt::format("{}: {} on {} ({}), {}, {}, {} moved\n", output, to_string(s.rules().kind()), l.spec,
                     plural(s.nodes(), "node", "nodes"),
                     stepped ? plural(s.steps(), "step", "steps") : std::string("per-node programs"),
                     plural(s.transfers(), "transfer", "transfers"), plural(s.chunks_moved(), "chunk", "chunks"));
}

std::string summary_text(const api::ScheduleRunResult& r) {
  const auto& l = r.request.schedule;
  const sch::Schedule& s = *l.schedule;
  const bool stepped = s.form() == sch::Form::STEPPED;
  const auto kind = to_string(s.rules().kind());
  const auto& ports = r.request.ports;
  std::string out = fmt::format("{} ({}): {} on {} ({}), {} + {} scratch per node, {}\n",
                                l.path.empty() ? l.source : l.path, l.format, kind, l.spec,
                                plural(s.nodes(), "node", "nodes"), plural(s.rules().chunks(), "data chunk", "data chunks"),
                                s.scratch(), stepped ? plural(s.steps(), "step planned", "steps planned")
                                                     : std::string("per-node programs"));
  out += fmt::format("ran: {}, {}, {} checking, {} engine{}\n", r.request.timed() ? "timed (α–β link costs)" : "unit time",
                     ports.to_string(), emulator::to_string(r.checking), api::to_string(r.request.engine.kind),
                     r.request.engine.kind == api::EngineKind::ZMQ
                         ? fmt::format(" ({})", plural(r.request.engine.worker_count(), "worker", "workers"))
                         : "");
  const auto& makespan = r.run.run.makespan;
  const std::string measured =
      r.request.timed() ? "makespan: " + time_text(makespan) : fmt::format("steps: {}", makespan.to_string());
  const std::string bound =
      r.time_bound ? fmt::format("{} (counting {}, distance {})", time_text(r.time_bound->value()),
                                 time_text(r.time_bound->counting), time_text(r.time_bound->distance))
                   : fmt::format("{} (counting {}, distance {})", plural(r.bound.value(), "step", "steps"),
                                 r.bound.counting, r.bound.distance);
  out += fmt::format("{}   messages: {}   chunks moved: {}   lower bound: {}\n", measured, r.run.run.counters.messages,
                     s.chunks_moved(), bound);
  if (r.verified) {
    out += fmt::format("verified: all {} output chunks on {} hold what the {} requires\n", r.run.report.chunks_checked,
                       plural(r.run.report.nodes_checked, "node", "nodes"), kind);
  } else {
    out += fmt::format("NOT VERIFIED: {} of {} output chunks right; {}\n", r.run.report.chunks_correct,
                       r.run.report.chunks_checked, r.problem);
  }
  out += fmt::format("wall time: {:.3f} s\n", r.run.run.wall_seconds);
  return out;
}

int run(const RunOptions& o) {
  api::ScheduleRunRequest request;
  request.schedule = api::load_schedule(o.file, o.topology);
  o.pictures.require(*request.schedule.topology);
  request.ports = o.ports.model();
  request.costs = api::parse_run_costs(o.costs);
  if (!o.checking.empty()) request.checking = api::parse_checking(o.checking);
  request.chunk_size = api::parse_number(o.chunk_size, "chunk_size", 0, /*strictly=*/true);
  if (!o.latency.empty()) request.latency = api::parse_number(o.latency, "latency", 0);
  if (!o.bandwidth.empty()) request.bandwidth = api::parse_number(o.bandwidth, "bandwidth", 0, /*strictly=*/true);
  request.values = {api::parse_op(o.op), api::parse_values(o.values), o.seed};
  request.engine = o.engine.choice();
  request.trace = o.engine.trace.wanted() || o.pictures.wanted();
  request.link_report = !o.link_report.empty();
  const api::ScheduleRunResult r = api::run_schedule(request);
  if (request.link_report) write_file_atomically(o.link_report, r.link_report_csv());
  o.engine.trace.write(r.run.run.trace, *request.schedule.topology);
  o.pictures.write(r.run.run.trace, *request.schedule.topology);
  if (o.json) {
    print_json(r.to_json());
  } else {
    std::cout << summary_text(r);
  }
  return r.verified ? 0 : 1;
}

int export_schedule(const CLI::App& cmd, const ExportOptions& o) {
  api::ExportRequest request;
  request.algorithm = o.algorithm;
  request.topology = o.topology;
  if (!o.collective.empty()) request.collective = api::parse_collective(o.collective);
  request.root = o.root;
  request.ports = o.ports.model();
  if (o.output.empty()) throw UsageError("-o FILE is required (- for standard output)");
  const api::LoadedSchedule l = api::export_schedule(request);
  o.format.write(cmd, l, o.output, fmt::format("{} exported by starnet", o.algorithm));
  if (o.output != "-") std::cout << written_line(o.output, l);
  return 0;
}

int convert(const CLI::App& cmd, const ConvertOptions& o) {
  const api::LoadedSchedule l = api::load_schedule(o.input, o.topology);
  o.format.write(cmd, l, o.output, fmt::format("converted by starnet from {}", o.input));
  if (o.output != "-") std::cout << written_line(o.output, l);
  return 0;
}

}  // namespace

void declare_schedule_command(CLI::App& cmd, Action& action) {
  cmd.require_subcommand(0, 1);  // none: main() names the choices
  static RunOptions r;
  auto* run_cmd = cmd.add_subcommand(
      "run", "Run a schedule file (starnet JSON, or MSCCL XML) and check the collective it claims on every node and "
             "chunk. Exit 1 if a node sends what it does not hold, breaks the port model (strict), deadlocks or ends "
             "with a wrong chunk (the summary, or the JSON document with \"problem\", says which); 2 for a malformed "
             "file");
  run_cmd->add_option("file", r.file, "The schedule (.json: starnet format; .xml: MSCCL; - for standard input)")->required();
  run_cmd->add_option("--topology", r.topology,
                      "Topology spec or file (default: the file's \"topology\", relative to the file's folder; "
                      "MSCCL: complete:NGPUS)");
  r.ports.add_to(*run_cmd);
  run_cmd->add_option("--checking", r.checking,
                      "strict (a second transfer beyond the port model or a missing link is an error; default for "
                      "stepped schedules in unit time) or arbitrated (contending transfers wait; default for programs "
                      "and timed runs)")
      ->check(CLI::IsMember({"strict", "arbitrated"}));
  run_cmd->add_option("--costs", r.costs, "unit (every transfer one step) or topology (timed: latency + size × link cost, "
                      "the α–β model of docs/topology.md)")
      ->capture_default_str()
      ->check(CLI::IsMember({"unit", "topology"}));
  run_cmd->add_option("--chunk-size", r.chunk_size, "Size of one chunk in unit messages (timed runs)")
      ->capture_default_str();
  run_cmd->add_option("--latency", r.latency,
                      "With --costs topology: every link's latency α instead of the topology's (an exact number, "
                      "e.g. 1e-6 or 1/1000000)");
  run_cmd->add_option("--bandwidth", r.bandwidth,
                      "With --costs topology: every link's bandwidth β (units per time, > 0): a transfer of c chunks "
                      "takes α + c·(--chunk-size)/β");
  add_op_option(*run_cmd, r.op, "Reduction operator");
  add_values_option(*run_cmd, r.values, "Chunk values: random (seeded) or index (contribution id + 1; rank is the same)");
  run_cmd->add_option("--seed", r.seed, "Seed of --values random")->capture_default_str()->check(any_seed());
  r.pictures.add_to(*run_cmd, "the run");
  run_cmd->add_option("--link-report", r.link_report,
                      "Also write what each directed link carried (messages, packets: chunks, units: chunks × "
                      "--chunk-size, busy time) as CSV to FILE, the columns of whatif's --link-report; "
                      "'topo draw --link-loads FILE' colours a drawing by it")
      ->check(output_file());
  run_cmd->add_flag("--json", r.json, "Print one JSON document instead of the summary (also when the run fails)");
  r.engine.add_to(*run_cmd, /*processes=*/false);
  run_cmd->callback([&action, run_cmd] {
    action = [run_cmd] {
      applies_only(*run_cmd, "--chunk-size", r.costs == "topology", "--costs topology");
      applies_only(*run_cmd, "--latency", r.costs == "topology", "--costs topology");
      applies_only(*run_cmd, "--bandwidth", r.costs == "topology", "--costs topology");
      applies_only(*run_cmd, "--seed", r.values == "random", "--values random");
      return run(r);
    };
  });

  static ExportOptions e;
  auto* export_cmd = cmd.add_subcommand("export", "Write a built-in collective algorithm as a schedule file: starnet JSON, or MSCCL XML for GPU runtimes (docs/gpu.md)");
  export_cmd->add_option("--algorithm", e.algorithm,
                         "A built-in of the catalogue (docs/collectives.md): star, recursive-doubling, recursive-halving, "
                         "ring, bruck, uniform, one-packet, combining, ring-split, rabenseifner, dimension-ordered, bfs-tree; "
                         "star-allreduce and star-broadcast name "
                         "the star algorithm's allreduce and allgather")
      ->required();
  export_cmd->add_option("--topology", e.topology, "Topology spec (star:N, hypercube:D, ring:N, torus:AxB, …)");
  export_cmd->add_option("--collective", e.collective,
                         "The collective (default: the first the algorithm computes there, allreduce first): " +
                             api::collective_choices());
  export_cmd->add_option("--root", e.root, "Root of reduce, broadcast, gather and scatter (name or index)")
      ->capture_default_str();
  e.ports.add_to(*export_cmd);
  e.format.add_to(*export_cmd);
  export_cmd->add_option("-o,--output", e.output,
                         "The schedule file to write (- for standard output; .xml: MSCCL); a topology file is written "
                         "relative to its folder")
      ->check(output_file({}, true));
  export_cmd->callback([&action, export_cmd] {
    action = [export_cmd] {
      applies_only(*export_cmd, "--root", e.algorithm == "bfs-tree", "--algorithm bfs-tree");
      return export_schedule(*export_cmd, e);
    };
  });

  static ConvertOptions c;
  auto* convert_cmd = cmd.add_subcommand(
      "convert", "Rewrite a schedule file in the other format: starnet JSON to MSCCL XML (for GPU runtimes, "
                 "docs/gpu.md) or back, by the files' extensions (.xml: MSCCL). The MSCCL file is read back and "
                 "compared transfer for transfer; what MSCCL cannot express is exit 2, naming the reason");
  convert_cmd->add_option("input", c.input, "The schedule to read (.json: starnet; .xml: MSCCL; - for standard input)")
      ->required();
  convert_cmd->add_option("output", c.output, "The file to write (.xml: MSCCL, else starnet JSON; - for standard output)")
      ->required()
      ->check(output_file({}, true));
  convert_cmd->add_option("--topology", c.topology,
                          "Topology spec or file (default: the file's; MSCCL: complete:NGPUS)");
  c.format.add_to(*convert_cmd);
  convert_cmd->callback([&action, convert_cmd] { action = [convert_cmd] { return convert(*convert_cmd, c); }; });
}

}  // namespace starnet::tools

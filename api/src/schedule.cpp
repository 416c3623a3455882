#include <starnet/api/schedule.hpp>

#include <starnet/algorithms/collectives/catalogue.hpp>
#include <starnet/algorithms/collectives/link_loads.hpp>
#include <starnet/algorithms/generic/bounds.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/api/json.hpp>
#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/algorithms/schedule/msccl.hpp>
#include <starnet/algorithms/schedule/msccl_export.hpp>
#include <starnet/algorithms/schedule/schedule_json.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/input.hpp>
#include <starnet/topology/spec.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <limits>
#include <sstream>

namespace starnet::api {
namespace {

namespace fs = std::filesystem;
namespace sch = algorithms::schedule;
namespace coll = algorithms::collectives;

/// MSCCL XML by extension, or by a first non-blank character '<' (standard input).
bool looks_like_xml(const std::string& path, std::string_view text) {
  if (path.ends_with(".xml") || path.ends_with(".XML")) return true;
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '<';
}

/// Whether @p spec names a file (not a family), so that a relative path in it can be resolved.
bool is_file_spec(const std::string& spec) {
  try {
    return topology::parse_spec(spec).family == "file";
  } catch (const TopologyError&) {
    return false;
  }
}

/// The topology @p spec names; @p from_file says that the spec came from the schedule @p where.
std::shared_ptr<const topology::Topology> topology_of(const std::string& spec, bool from_file, const std::string& where) {
  if (!from_file) return topology::make_topology(spec);
  try {
    return topology::make_topology(spec);
  } catch (const InputError& e) {
    throw TopologyError(fmt::format("{} names the topology \"{}\": {}", where, spec, e.what()));
  }
}

std::string where_of(const std::string& path) { return fmt::format("schedule file \"{}\"", path); }

/// @p base with every link costing what a message of one chunk takes on it, latency included (the
/// command line's α and β where given): the weights of the timed lower bound.
class ChunkTimes final : public topology::Topology {
 public:
  ChunkTimes(const topology::Topology& base, Rational chunk_size, emulator::AlphaBeta given)
      : base_(base), chunk_size_(std::move(chunk_size)), given_(std::move(given)) {}
  [[nodiscard]] std::string name() const override { return base_.name(); }
  [[nodiscard]] topology::NodeId num_nodes() const override { return base_.num_nodes(); }
  [[nodiscard]] topology::Port degree(topology::NodeId v) const override { return base_.degree(v); }
  [[nodiscard]] topology::NodeId neighbor(topology::NodeId v, topology::Port p) const override {
    return base_.neighbor(v, p);
  }
  [[nodiscard]] topology::Port find_port(topology::NodeId v, topology::NodeId u) const override {
    return base_.find_port(v, u);
  }
  [[nodiscard]] std::string node_name(topology::NodeId v) const override { return base_.node_name(v); }
  [[nodiscard]] std::string link_name(topology::NodeId v, topology::Port p) const override {
    return base_.link_name(v, p);
  }
  [[nodiscard]] Rational link_cost(topology::NodeId v, topology::Port p) const override {
    return given_.time(base_, v, p, chunk_size_);
  }
  [[nodiscard]] Rational speed(topology::NodeId v) const override { return base_.speed(v); }

 private:
  const topology::Topology& base_;
  Rational chunk_size_;
  emulator::AlphaBeta given_;
};

/// The timed lower bound of @p s on @p t (ScheduleRunResult::time_bound).
algorithms::generic::TimeBound timed_lower_bound(const sch::Schedule& s, const topology::Topology& t,
                                                 const ScheduleRunRequest& request) {
  const ChunkTimes times(t, request.chunk_size, {request.latency, request.bandwidth});
  const auto& ports = request.ports;
  std::optional<Rational> cheapest;
  for (topology::NodeId v = 0; v < t.num_nodes(); ++v) {
    for (topology::Port p = 0; p < t.degree(v); ++p) {
      const Rational c = times.link_cost(v, p);
      if (!cheapest || c < *cheapest) cheapest = c;
    }
  }
  const Rational distance = algorithms::is_rooted(s.rules().kind())
                                ? algorithms::generic::eccentricity(times, s.rules().root(), true)
                                : algorithms::generic::diameter(times, true, false).value;
  if (!cheapest) return {Rational(0), distance};
  return algorithms::generic::time_lower_bound(ports, t.num_nodes(), *cheapest, distance);
}

/// What each link carried in a run whose @p trace holds its sends: a send of size s (units) is
/// s / chunk size chunks, and holds its links for its transfer's time under @p settings' costs.
std::vector<LinkLoad> link_loads(const std::vector<emulator::TraceEvent<Rational>>& trace,
                                 const topology::Topology& topo, const sch::ScheduleRunSettings& settings) {
  algorithms::collectives::LinkTally tally(topo);
  for (const auto& e : trace) {
    if (e.kind != emulator::EventKind::SEND) continue;
    const Rational busy = settings.costs != nullptr ? settings.costs->transfer(e.node, e.port, e.peer, e.size) : Rational(1);
    tally.add(e.node, e.peer, e.size / settings.chunks.chunk_size, busy);
  }
  return tally.loads(std::numeric_limits<std::size_t>::max());
}

/// The link report's lines of @p r: one run, row 0, algorithm "schedule".
nlohmann::json link_report_json(const ScheduleRunResult& r) {
  nlohmann::json out = nlohmann::json::array();
  add_link_report(out, {0, r.request.schedule.spec, to_string(coll::Algorithm::SCHEDULE), r.request.ports,
                        r.request.chunk_size},
                  r.link_loads);
  return out;
}

}  // namespace

namespace {

LoadedSchedule parse_as(const std::string& text, const std::string& where, const std::optional<TopologyRef>& topology,
                        const std::string& folder, bool xml) {
  LoadedSchedule l;
  l.source = where;
  const auto choose = [&](const std::string& from_file, const std::string& fallback) {
    if (topology) {
      l.spec = topology->spec();
      l.topology = topology->topology();
      if (!topology->from_spec()) l.in_memory = topology->platform();
      return;
    }
    l.spec = !from_file.empty() ? from_file : fallback;
    if (l.spec.empty()) {
      throw UsageError(Setting{"topology", ""}, fmt::format("{} names no topology: give one (e.g. ring:8)", where));
    }
    if (!from_file.empty() && is_file_spec(from_file) && fs::path(from_file).is_relative() && !folder.empty()) {
      l.spec = (fs::path(folder) / from_file).lexically_normal().string();
    }
    l.topology = topology_of(l.spec, !from_file.empty(), where);
  };
  if (xml) {
    l.format = "msccl";
    auto algo = sch::read_msccl(text, where);
    choose("", fmt::format("complete:{}", algo.gpus));
    if (l.topology->num_nodes() != algo.gpus) {
      throw UsageError(Setting{"topology", l.spec}, fmt::format("has {} nodes, but {} has ngpus=\"{}\"",
                                                                l.topology->num_nodes(), where, algo.gpus));
    }
    l.schedule = std::make_shared<const sch::Schedule>(std::move(algo.schedule));
  } else {
    l.format = "starnet";
    std::istringstream in(text);
    const auto file = sch::ScheduleFile::read(in, where);
    choose(file.topology(), "");
    l.schedule = std::make_shared<const sch::Schedule>(file.resolve(*l.topology));
  }
  return l;
}

}  // namespace

LoadedSchedule parse_schedule(const std::string& text, const std::string& where,
                              const std::optional<TopologyRef>& topology, const std::string& folder) {
  const StopScope scope;
  return parse_as(text, where, topology, folder, looks_like_xml({}, text));
}

ItemOp parse_item_op(std::string_view text, std::string_view setting) {
  if (text == "copy") return ItemOp::COPY;
  if (text == "reduce") return ItemOp::REDUCE;
  throw UsageError(Setting{std::string(setting), std::string(text)}, "expected copy or reduce");
}

LoadedSchedule build_schedule(const ScheduleDraft& draft, const std::string& where) {
  // The draft becomes the document a file would hold, so that one reader checks both.
  const auto op_name = [](ItemOp op) { return op == ItemOp::REDUCE ? "reduce" : "copy"; };
  const auto node = [](const ScheduleDraft::Node& n) {
    return std::visit([](const auto& v) { return nlohmann::json(v); }, n);
  };
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& t : draft.transfers) {
    while (steps.size() <= t.step) steps.push_back(nlohmann::json::array());
    nlohmann::json items = nlohmann::json::array();
    for (const auto& i : t.items) {
      nlohmann::json item = {i.from_chunk, i.to_chunk};
      if (i.op) item.push_back(op_name(*i.op));
      items.push_back(std::move(item));
    }
    steps[t.step].push_back({{"f", node(t.from)}, {"t", node(t.to)}, {"c", std::move(items)}, {"op", op_name(t.op)}});
  }
  nlohmann::json doc = {{"format", "starnet-schedule"}, {"version", 1}, {"collective", to_string(draft.collective)},
                        {"chunks", draft.chunks}, {"scratch", draft.scratch}};
  if (draft.root) doc["root"] = node(*draft.root);
  if (draft.topology.from_spec()) doc["topology"] = draft.topology.spec();
  doc["steps"] = std::move(steps);
  return parse_schedule(doc.dump(), where, draft.topology);
}

ScheduleHeader read_schedule_header(const std::string& text, const std::string& where) {
  ScheduleHeader h;
  if (looks_like_xml({}, text)) {
    const auto algo = sch::read_msccl(text, where);
    h.collective = algo.schedule.rules().kind();
    h.nodes = algo.gpus;
    h.topology = fmt::format("complete:{}", algo.gpus);
    return h;
  }
  std::istringstream in(text);
  const auto file = sch::ScheduleFile::read(in, where);
  h.collective = file.collective();
  h.nodes = file.nodes();
  h.topology = file.topology();
  return h;
}

LoadedSchedule load_schedule(const std::string& path, const std::string& topology) {
  return load_schedule(path, topology.empty() ? std::nullopt : std::optional<TopologyRef>(topology));
}

LoadedSchedule load_schedule(const std::string& path, const std::optional<TopologyRef>& topology) {
  const StopScope scope;
  const std::string where = where_of(path);
  const std::string text = read_input(path, where, "a starnet schedule (JSON) or MSCCL algorithm (XML) file");
  const std::string folder = path == "-" ? std::string() : fs::path(path).parent_path().string();
  LoadedSchedule l = parse_as(text, where, topology, folder, looks_like_xml(path, text));
  l.path = path;
  return l;
}

TopologyRef LoadedSchedule::topology_ref() const { return in_memory ? TopologyRef::of(in_memory) : TopologyRef(spec); }

namespace {

/// Where a schedule saved at @p path keeps the topology built in memory it runs on.
fs::path topology_beside(const std::string& path) {
  const fs::path p(path);
  return p.parent_path() / (p.stem().string() + ".topology.graphml");
}

}  // namespace

std::string schedule_json(const LoadedSchedule& l, const std::string& comment, const std::string& output_path) {
  const StopScope scope;
  const bool to_file = !output_path.empty() && output_path != "-";
  if (l.in_memory) {
    const std::string beside = to_file ? topology_beside(output_path).filename().string() : std::string();
    return sch::write_schedule_json(*l.schedule, *l.topology, beside, comment);
  }
  std::string spec = l.spec;
  if (is_file_spec(spec) && to_file) {
    const fs::path out_folder = fs::absolute(fs::path(output_path)).parent_path();
    spec = fs::absolute(spec).lexically_normal().lexically_relative(out_folder).string();
  }
  return sch::write_schedule_json(*l.schedule, *l.topology, spec, comment);
}

std::uint64_t default_chunks(Collective collective, std::uint64_t nodes) {
  return algorithms::is_blocked(collective) ? nodes : 1;
}

ScheduleFormat parse_schedule_format(std::string_view text, const std::string& path) {
  if (text == "starnet") return ScheduleFormat::STARNET;
  if (text == "msccl") return ScheduleFormat::MSCCL;
  if (!text.empty()) throw UsageError(Setting{"format", std::string(text)}, "expected starnet or msccl");
  return path != "-" && looks_like_xml(path, {}) ? ScheduleFormat::MSCCL : ScheduleFormat::STARNET;
}

std::string schedule_msccl(const LoadedSchedule& l, const MscclSettings& settings) {
  const StopScope scope;
  if (!sch::is_msccl_protocol(settings.protocol)) {
    throw UsageError(Setting{"protocol", settings.protocol}, "expected Simple, LL128 or LL");
  }
  auto file = sch::write_msccl(*l.schedule, {.name = settings.name, .protocol = settings.protocol});
  // The self-check: the importer reads the same transfers back.
  const auto back = sch::read_msccl(file.xml, fmt::format("the MSCCL file written for {}", l.source));
  if (const auto difference = sch::transfer_difference(*l.schedule, back.schedule)) {
    throw Error(fmt::format("{} written as MSCCL reads back differently: {}", l.source, *difference));
  }
  return std::move(file.xml);
}

std::string schedule_text(const LoadedSchedule& l, const std::string& comment, const std::string& output_path) {
  if (parse_schedule_format({}, output_path) == ScheduleFormat::STARNET) return schedule_json(l, comment, output_path);
  return schedule_msccl(l, {.name = comment.empty() ? std::string("starnet") : comment});
}

std::vector<OutputFile> schedule_files(const LoadedSchedule& l, const std::string& path, const std::string& comment) {
  std::vector<OutputFile> out;
  if (parse_schedule_format({}, path) == ScheduleFormat::MSCCL) {
    out.push_back({path, schedule_text(l, comment, path)});
    return out;
  }
  if (l.in_memory) {
    if (path.empty() || path == "-") {
      throw UsageError(Setting{"path", path}, fmt::format("the topology \"{}\" was built in memory: a schedule on it is "
                                                          "saved to a file, beside which its topology is written",
                                                          l.spec));
    }
    const auto beside = topology_beside(path).string();
    const auto text = topology::write_platform(*l.in_memory, topology::FileFormat::GRAPHML);
    const auto back = topology::parse_platform(text, topology::FileFormat::GRAPHML, beside);
    auto problem = topology::difference(*l.in_memory, back);
    for (topology::NodeId v = 0; !problem && v < back.num_nodes(); ++v) {
      if (back.graph()[v].name != l.in_memory->graph()[v].name) {
        problem = fmt::format("node {} reads back as \"{}\", not \"{}\"", v, back.graph()[v].name,
                              l.in_memory->graph()[v].name);
      }
    }
    if (problem) {
      throw TopologyError(fmt::format("topology \"{}\" written to {} reads back differently: {}", l.spec, beside,
                                      *problem));
    }
    out.push_back({beside, text});
  }
  out.push_back({path, schedule_json(l, comment, path)});
  return out;
}

emulator::Checking default_checking(const sch::Schedule& schedule, bool timed) {
  return emulator::default_checking(schedule.form() == sch::Form::STEPPED,
                                    timed ? emulator::TimeMode::TIMED : emulator::TimeMode::UNIT);
}

algorithms::generic::StepBound schedule_lower_bound(const sch::Schedule& s, const topology::Topology& t,
                                                    const std::string& spec, const emulator::PortModel& ports) {
  const auto kind = s.rules().kind();
  Collective as = Collective::ALLREDUCE;
  std::uint64_t distance = 0;
  if (algorithms::is_rooted(kind)) {
    const bool inward = kind == Collective::REDUCE || kind == Collective::GATHER;
    as = inward ? Collective::REDUCE : Collective::BROADCAST;
    distance = static_cast<std::uint64_t>(algorithms::generic::eccentricity(t, s.rules().root(), false).num());
  } else {
    // The +1 of half-duplex all-reduce holds for all-gather too (every node must end full); the
    // other all-to-all collectives get the counting bound alone.
    as = kind == Collective::ALLGATHER ? Collective::ALLGATHER : kind == Collective::ALLREDUCE ? kind : Collective::REDUCE;
    bool transitive = false;
    try {
      transitive = topology::is_vertex_transitive(spec);
    } catch (const TopologyError&) {
    }
    distance = static_cast<std::uint64_t>(algorithms::generic::diameter(t, false, transitive).value.num());
  }
  return algorithms::generic::step_lower_bound(as, ports, t.num_nodes(), distance);
}

ScheduleRunResult run_schedule(const ScheduleRunRequest& request) {
  const StopScope scope;
  const sch::Schedule& s = *request.schedule.schedule;
  const topology::Topology& topo = *request.schedule.topology;
  request.engine.check(/*processes_allowed=*/false);
  if (!(request.chunk_size > 0)) {
    throw UsageError(Setting{"chunk_size", request.chunk_size.to_string()}, "expected a positive size");
  }
  if (!request.timed() && request.chunk_size != 1) {
    throw UsageError(Setting{"chunk_size", request.chunk_size.to_string()},
                     "applies only to timed runs («costs» topology)");
  }
  algorithms::generic::check_alpha_beta(request.latency, request.bandwidth);
  if (!request.timed() && (request.latency || request.bandwidth)) {
    throw UsageError(request.latency ? Setting{"latency", request.latency->to_string()}
                                     : Setting{"bandwidth", request.bandwidth->to_string()},
                     "applies only to timed runs («costs» topology)");
  }
  ScheduleRunResult out;
  out.request = request;
  sch::ScheduleRunSettings settings;
  settings.config.ports = request.ports;
  settings.config.trace = request.trace || request.link_report;
  settings.config.time = request.timed() ? emulator::TimeMode::TIMED : emulator::TimeMode::UNIT;
  out.checking = request.checking.value_or(default_checking(s, request.timed()));
  settings.config.checking = out.checking;
  settings.chunks.chunk_size = request.chunk_size;
  settings.op = request.values.op;
  settings.values = make_values(request.values);
  settings.zmq_workers = request.engine.kind == EngineKind::ZMQ ? request.engine.worker_count() : 0;
  settings.zmq_timeout_seconds = request.engine.barrier_timeout();
  const emulator::TopologyCosts<Rational> link_costs(topo);
  const emulator::TopologyCosts<Rational> alpha_beta(topo, {request.latency, request.bandwidth});
  if (request.timed()) settings.costs = request.latency || request.bandwidth
                                          ? static_cast<const emulator::CostModel<Rational>*>(&alpha_beta)
                                          : &link_costs;
  request.engine.check_memory(request.engine.memory_estimate(topo.num_nodes(), s.transfers(), settings.config.trace,
                                                             sch::run_memory_bytes(s),
                                                             fmt::format("chunk slots ({} per node) and the schedule",
                                                                         s.slots())),
                              request.schedule.source);
  out.bound = schedule_lower_bound(s, topo, request.schedule.spec, request.ports);
  if (request.timed()) out.time_bound = timed_lower_bound(s, topo, request);
  try {
    out.run = sch::run_schedule(s, topo, settings);
    if (request.link_report) out.link_loads = link_loads(out.run.run.trace, topo, settings);
    if (request.link_report && !request.trace) out.run.run.trace = {};
    out.verified = out.run.verified;
    if (!out.verified) out.problem = out.run.report.first_problem();
  } catch (const ModelViolation& e) {
    out.verified = false;
    out.problem = e.what();
  } catch (const OverflowError& e) {
    throw OverflowError(fmt::format("{} on {} with {} costs: {} (exact times are kept or refused, never rounded)",
                                    request.schedule.source, request.schedule.spec,
                                    request.timed() ? "topology" : "unit", e.what()));
  }
  return out;
}

nlohmann::json ScheduleRunResult::to_json() const {
  const auto& l = request.schedule;
  const sch::Schedule& s = *l.schedule;
  const bool stepped = s.form() == sch::Form::STEPPED;
  const bool ran = run.report.nodes_checked > 0 || verified;
  nlohmann::json j = {{"file", l.path.empty() ? l.source : l.path},
                      {"format", l.format},
                      {"collective", to_string(s.rules().kind())},
                      {"topology", l.spec},
                      {"nodes", s.nodes()},
                      {"chunks", s.rules().chunks()},
                      {"scratch", s.scratch()},
                      {"form", stepped ? "steps" : "programs"},
                      {"planned_steps", stepped ? nlohmann::json(s.steps()) : nlohmann::json(nullptr)},
                      {"transfers", s.transfers()},
                      {"messages", run.run.counters.messages},
                      {"chunks_moved", s.chunks_moved()},
                      {"ports", request.ports.ports},
                      {"duplex", duplex_name(request.ports)},
                      {"checking", emulator::to_string(checking)},
                      {"time", request.timed() ? "timed" : "unit"},
                      {"latency", nullptr},
                      {"bandwidth", nullptr},
                      {"engine", to_string(request.engine.kind)},
                      {"workers", request.engine.worker_count()},
                      {"lower_bound", bound.value()},
                      {"bound_counting", bound.counting},
                      {"bound_distance", bound.distance},
                      {"nodes_checked", run.report.nodes_checked},
                      {"chunks_checked", run.report.chunks_checked},
                      {"chunks_correct", run.report.chunks_correct},
                      {"verified", verified},
                      {"wall_seconds", run.run.wall_seconds}};
  if (!ran) {
    j["steps"] = nullptr;
    j["makespan"] = nullptr;
  } else if (request.timed()) {
    j["steps"] = nullptr;
    put_exact(j, "makespan", run.run.makespan);
  } else {
    j["steps"] = run.run.makespan.num();
  }
  if (request.latency) put_exact(j, "latency", *request.latency);
  if (request.bandwidth) put_exact(j, "bandwidth", *request.bandwidth);
  if (time_bound) {
    put_exact(j, "lower_bound_time", time_bound->value());
    put_exact(j, "bound_counting_time", time_bound->counting);
    put_exact(j, "bound_distance_time", time_bound->distance);
  }
  if (!verified) j["problem"] = problem;
  if (request.link_report) j["link_report"] = link_report_json(*this);
  return j;
}

std::string ScheduleRunResult::link_report_csv() const { return api::link_report_csv(link_report_json(*this)); }

coll::Algorithm parse_builtin(std::string_view text) {
  if (const auto b = coll::find_builtin(text)) return *b;
  throw UsageError(Setting{"algorithm", std::string(text)},
                   fmt::format("not a built-in algorithm (expected {}; star-allreduce and star-broadcast name the star "
                               "algorithm's allreduce and allgather)",
                               coll::builtin_choices()));
}

LoadedSchedule export_schedule(const ExportRequest& request) {
  const StopScope scope;
  const auto algorithm = parse_builtin(request.algorithm);
  const auto& spec = request.topology.spec();
  if (request.topology.from_spec() && spec.empty()) {
    throw UsageError(Setting{"topology", ""}, "is required (e.g. star:5)");
  }
  refuse_routers(request.topology, "a built-in schedule");
  LoadedSchedule l;
  l.spec = spec;
  l.topology = request.topology.topology();
  if (!request.topology.from_spec()) l.in_memory = request.topology.platform();
  // A platform built in memory lends no family knowledge from its name (a name is not a spec).
  const std::string family = request.topology.from_spec() ? spec : fmt::format("{} (built in memory)", spec);
  const auto shape = coll::shape_of(*l.topology, family);
  std::optional<Collective> collective = request.collective;
  if (!collective && request.algorithm == "star-broadcast") collective = Collective::ALLGATHER;
  for (const Collective c : algorithms::ALL_COLLECTIVES) {
    if (!collective && !coll::why_not(algorithm, c, shape)) collective = c;
  }
  if (!collective || coll::why_not(algorithm, *collective, shape)) {
    std::vector<std::string> computes;
    for (const Collective c : algorithms::ALL_COLLECTIVES) {
      if (!coll::why_not(algorithm, c, shape)) computes.push_back(to_string(c));
    }
    std::string reason = collective ? *coll::why_not(algorithm, *collective, shape) : std::string();
    for (const Collective c : algorithms::ALL_COLLECTIVES) {
      // No collective given: say where the algorithm runs (the first reason that is not a collective's).
      const auto why = coll::why_not(algorithm, c, shape);
      if (reason.empty() && why && why->find(" computes ") == std::string::npos) reason = *why;
    }
    throw UsageError(collective ? Setting{"collective", to_string(*collective)} : Setting{"algorithm", request.algorithm},
                     computes.empty() ? reason
                                      : fmt::format("{} (on {} it computes {})", reason, spec,
                                                    fmt::join(computes, ", ")));
  }
  const auto root = algorithms::generic::find_node(*l.topology, request.root);
  if (!root) throw UsageError(Setting{"root", request.root}, fmt::format("not a node of {}", spec));
  auto built = coll::build(algorithm, *collective, *l.topology, family, *root, request.ports);
  l.schedule = std::make_shared<const sch::Schedule>(std::move(built.schedule));
  l.format = "starnet";
  l.source = fmt::format("{} ({}) exported by starnet", coll::to_string(algorithm), built.variant);
  return l;
}

}  // namespace starnet::api

#include <starnet/api/star.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/api/json.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/zmq_engine.hpp>
#include <starnet/topology/spec.hpp>

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace starnet::api {
namespace {

using algorithms::star::StarReport;
using emulator::NodeRange;
using topology::StarGraph;

/// Wraps a program so that its process fails at a given step: how tests make a worker die, hang
/// or crawl mid-run.
class FaultAtStep final : public emulator::NodeProgram {
 public:
  FaultAtStep(std::unique_ptr<emulator::NodeProgram> inner, StarFault fault) : inner_(std::move(inner)), fault_(fault) {}
  void react(emulator::Context& ctx) override {
    if (ctx.step() >= fault_.step) {
      if (fault_.kind == StarFault::Kind::STOP) ::raise(SIGSTOP);  // never continued
      if (fault_.kind == StarFault::Kind::EXIT) std::_Exit(70);
      if (fault_.kind == StarFault::Kind::SLEEP && !slept_) {
        slept_ = true;
        std::this_thread::sleep_for(std::chrono::duration<double>(FAULT_SLEEP_SECONDS));
      }
    }
    inner_->react(ctx);
  }
  [[nodiscard]] std::string report() const override { return inner_->report(); }
  // The same path as the other workers' programs (the dense step path's batches or the general
  // core's requests): every worker of a run must take the same.
  [[nodiscard]] bool sends_only() const override { return inner_->sends_only(); }
  [[nodiscard]] bool reacts_to_sends() const override { return inner_->reacts_to_sends(); }

 private:
  std::unique_ptr<emulator::NodeProgram> inner_;
  StarFault fault_;
  bool slept_ = false;
};

bool broadcast(const StarRequest& r) { return r.collective == Collective::ALLGATHER; }

emulator::ProgramFactory star_factory(const StarGraph& g, const StarRequest& r, std::uint64_t expected) {
  return [&g, r, expected](NodeRange range) {
    return broadcast(r) ? algorithms::star::make_broadcast_program(g, range)
                        : algorithms::star::make_allreduce_program(g, r.values.op, make_values(r.values), expected,
                                                                   range);
  };
}

std::uint64_t expected_value(const StarGraph& g, const StarRequest& r) {
  return broadcast(r) ? 0 : algorithms::star::reduce_sequentially(g, r.values.op, make_values(r.values));
}

/// What a star collective of @p r needs on its engine (on the local engine, the dense step path),
/// its trace counted as one record per node and step.
emulator::MemoryEstimate star_memory(const StarRequest& r) {
  const auto nodes = StarGraph::factorial(r.n);
  return r.engine.memory_estimate(nodes, nodes * algorithms::star::allreduce_steps(r.n), r.trace, 0, {},
                                  LocalPath::DENSE,
                                  broadcast(r) ? algorithms::star::BROADCAST_PROGRAM_BYTES_PER_NODE
                                               : algorithms::star::ALLREDUCE_PROGRAM_BYTES_PER_NODE);
}

void check_request(const StarRequest& r) {
  if (r.collective != Collective::ALLREDUCE && r.collective != Collective::ALLGATHER) {
    throw UsageError(Setting{"collective", to_string(r.collective)},
                     "the star collectives are the all-reduce and the all-to-all broadcast (allgather)");
  }
  if (r.n < 1 || r.n > StarGraph::MAX_N) {
    throw UsageError(Setting{"topology", fmt::format("star:{}", r.n)},
                     fmt::format("expected star:N with N in 1..{}", StarGraph::MAX_N));
  }
  r.engine.check();
  if (r.fault) {
    const char* kinds[] = {"fault_exit", "fault_stop", "fault_sleep"};
    const Setting fault{kinds[static_cast<int>(r.fault->kind)], fmt::format("{}:{}", r.fault->worker, r.fault->step)};
    if (!r.engine.processes && !r.engine.joined()) {
      throw UsageError(fault, "applies only to worker processes («engine» zmq, «processes»)");
    }
    if (r.fault->worker >= r.engine.worker_count()) {
      throw UsageError(fault, fmt::format("there is no worker {} (expected a worker in 0..{})", r.fault->worker,
                                          r.engine.worker_count() - 1));
    }
  }
}

std::string self_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

}  // namespace

StarRequest StarRequest::on(const std::string& topology, Collective collective) {
  StarRequest r;
  r.collective = collective;
  r.n = topology::star_dimension(topology::parse_spec(topology));
  return r;
}

std::string StarRequest::to_job() const {
  nlohmann::json j = {{"collective", broadcast(*this) ? "broadcast" : "allreduce"},
                      {"n", n},
                      {"op", algorithms::star::to_string(values.op)},
                      {"random", values.kind == ValuesKind::RANDOM},
                      {"seed", values.seed}};
  if (fault) j["exit_worker"] = fault->worker, j["exit_step"] = fault->step, j["fault"] = static_cast<int>(fault->kind);
  return j.dump();
}

StarRequest StarRequest::from_job(const std::string& text) {
  try {
    const auto j = nlohmann::json::parse(text);
    StarRequest r;
    r.collective = j.at("collective") == "broadcast" ? Collective::ALLGATHER : Collective::ALLREDUCE;
    r.n = j.at("n");
    r.values.op = parse_op(j.at("op").get<std::string>());
    r.values.kind = j.at("random").get<bool>() ? ValuesKind::RANDOM : ValuesKind::INDEX;
    r.values.seed = j.at("seed");
    if (j.contains("exit_worker")) {
      const int kind = j.at("fault");
      if (kind < 0 || kind > static_cast<int>(StarFault::Kind::SLEEP)) throw TransportError("job: an unknown fault");
      r.fault = StarFault{static_cast<StarFault::Kind>(kind), j.at("exit_worker").get<unsigned>(), j.at("exit_step")};
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw TransportError(fmt::format("job: not a star job from a coordinator ({})", e.what()));
  }
}

StarResult run_star(const StarRequest& request) {
  const StopScope scope;
  check_request(request);
  StarResult out;
  out.request = request;
  auto graph = std::make_shared<const StarGraph>(request.n);
  out.graph = graph;
  const StarGraph& g = *graph;
  out.expected_value = expected_value(g, request);
  out.expected_steps = algorithms::star::allreduce_steps(request.n);
  out.memory = star_memory(request);
  request.engine.check_memory(out.memory, fmt::format("{} on star:{}", broadcast(request) ? "the all-to-all broadcast"
                                                                                          : "the all-reduce",
                                                      request.n));
  emulator::RunConfig config;
  config.trace = request.trace;
  config.threads = request.engine.thread_count();
  const emulator::UnitCosts<Rational> costs;
  const unsigned k = request.engine.worker_count();
  if (request.engine.kind == EngineKind::LOCAL) {
    out.run = emulator::LocalEngine<Rational>().run(g, costs, star_factory(g, request, out.expected_value), config);
  } else if (!request.engine.processes && !request.engine.joined()) {
    out.run = emulator::run_zmq_threads<Rational>(g, costs, star_factory(g, request, out.expected_value), config, k,
                                                   request.engine.barrier_timeout());
  } else {
    emulator::ProcessOptions options = request.engine.process_options();
    options.executable = request.engine.executable.empty() ? self_executable() : request.engine.executable;
    const bool key_written = request.engine.joined() && !std::filesystem::exists(request.engine.key_file);
    if (request.engine.on_listening) {
      options.on_listening = [&request, key_written](const std::string& endpoint) {
        request.engine.on_listening(endpoint, key_written);
      };
    }
    out.run = emulator::run_zmq_processes(g, config, request.to_job(), options);
  }
  for (const auto& text : out.run.reports) out.report.merge(StarReport::parse(text));
  const auto nodes = StarGraph::factorial(request.n);
  out.verified = out.report.nodes_checked == nodes && out.report.nodes_correct == nodes &&
                 out.run.makespan == Rational(static_cast<std::int64_t>(out.expected_steps)) &&
                 (!broadcast(request) || (out.report.duplicates == 0 && out.report.items_received == nodes * (nodes - 1)));
  return out;
}

std::string StarResult::run_title() const {
  return fmt::format("{} on {}: makespan {}", broadcast(request) ? "broadcast" : "allreduce", graph->name(),
                     run.makespan.to_string());
}

nlohmann::json StarResult::to_json() const {
  const auto& c = run.counters;
  const int n = request.n;
  nlohmann::json levels = nlohmann::json::array();
  for (int m = 2; m <= n; ++m) {
    const auto first = report.level_first[static_cast<std::size_t>(m)];
    const auto last = report.level_last[static_cast<std::size_t>(m)];
    levels.push_back({{"level", m}, {"first_step", first}, {"last_step", last}, {"steps", last - first}});
  }
  const auto& engine = request.engine;
  nlohmann::json j = {{"topology", fmt::format("star:{}", n)},
                      {"nodes", StarGraph::factorial(n)},
                      {"steps", run.makespan.num()},
                      {"expected_steps", expected_steps},
                      {"messages", c.messages},
                      {"payload_bytes", c.payload_bytes},
                      {"max_messages_per_node_per_step", std::max(c.max_concurrent_sends, c.max_concurrent_receives)},
                      {"levels", levels},
                      {"verified", verified},
                      {"memory_estimate_bytes", memory.bytes},
                      {"nodes_verified", report.nodes_correct},
                      {"engine", to_string(engine.kind)},
                      {"workers", engine.worker_count()},
                      {"transport", engine.transport()},
                      {"wall_seconds", run.wall_seconds}};
  if (engine.processes || engine.joined()) {
    const auto options = engine.process_options();
    j["address"] = options.address;
    j["curve"] = emulator::uses_curve(options);
    j["stray_messages"] = run.stray_messages;
    j["worker_peak_bytes"] = run.worker_peak_bytes;
    j["worker_hosts"] = run.worker_hosts;
    j["refused_connections"] = run.refused_connections;
    j["longest_worker_silence_seconds"] = run.longest_silence_seconds;
    j["stranger_addresses"] = run.stranger_addresses;
  }
  if (broadcast(request)) {
    j["collective"] = "broadcast";  // the names the request takes (to_json above), not prose
    j["payload_items"] = report.items_received;
    j["nodup"] = report.duplicates == 0;
  } else {
    j["collective"] = "allreduce";
    j["op"] = algorithms::star::to_string(request.values.op);
    j["values"] = request.values.kind == ValuesKind::RANDOM ? fmt::format("random (seed {})", request.values.seed)
                                                       : "rank + 1 (1..n!)";
    j["result"] = expected_value;
  }
  return j;
}

namespace {

// Table 2 of the paper as printed (dimension 3..10): Tseng [11], Sheu [10], ours.
constexpr int PAPER_TSENG[] = {12, 27, 48, 75, 108, 127, 192, 243};
constexpr int PAPER_SHEU[] = {6, 12, 18, 26, 34, 42, 50, 60};
constexpr int PAPER_OURS[] = {3, 6, 10, 15, 21, 28, 36, 45};
constexpr int TABLE2_FIRST_N = 3;
constexpr int TABLE2_LAST_N = 10;

}  // namespace

Table2Result star_table2(int max_n, const EngineChoice& engine, const NodeValues& values) {
  if (max_n < TABLE2_FIRST_N || max_n > TABLE2_LAST_N) {
    throw UsageError(Setting{"max_n", std::to_string(max_n)},
                     fmt::format("Table 2 covers n = {}..{}", TABLE2_FIRST_N, TABLE2_LAST_N));
  }
  Table2Result out;
  out.verified = true;
  for (int n = TABLE2_FIRST_N; n <= max_n; ++n) {
    progress_detail(fmt::format("S_{} of S_{}..S_{}", n, TABLE2_FIRST_N, max_n));
    progress_count(static_cast<std::uint64_t>(n - TABLE2_FIRST_N), static_cast<std::uint64_t>(max_n - TABLE2_FIRST_N + 1));
    StarRequest request;
    request.n = n;
    request.values = values;
    request.engine = engine;
    const StarResult r = run_star(request);
    Table2Row row;
    row.n = n;
    row.size = StarGraph::factorial(n);
    row.tseng_formula = 3 * (n - 1) * (n - 1);
    for (int i = 2; i <= n; ++i) row.sheu_formula += static_cast<int>(std::ceil(std::log2(i - 1))) + 1;
    row.sheu_formula *= 2;
    const auto i = static_cast<std::size_t>(n - TABLE2_FIRST_N);
    row.tseng_paper = PAPER_TSENG[i];
    row.sheu_paper = PAPER_SHEU[i];
    row.paper = PAPER_OURS[i];
    row.measured = r.run.makespan.num();
    row.lower_bound = static_cast<int>(std::ceil(std::log2(static_cast<double>(row.size))));
    row.verified = r.verified;
    out.verified = out.verified && r.verified;
    if (row.tseng_paper != row.tseng_formula) {
      out.notes.push_back(fmt::format("n = {}: the paper prints {} for Tseng, but its formula 3(n−1)² gives {}", n,
                                      row.tseng_paper, row.tseng_formula));
    }
    if (row.sheu_paper != row.sheu_formula) {
      out.notes.push_back(
          fmt::format("n = {}: the paper prints {} for Sheu, but its formula gives {}", n, row.sheu_paper, row.sheu_formula));
    }
    if (row.paper != row.measured) {
      out.notes.push_back(
          fmt::format("n = {}: the paper prints {} steps, the emulator measured {}", n, row.paper, row.measured));
    }
    out.rows.push_back(row);
  }
  return out;
}

// A row's document: its fields under their own names.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Table2Row, n, size, tseng_formula, tseng_paper, sheu_formula, sheu_paper, measured,
                                   paper, lower_bound, verified)

nlohmann::json Table2Result::to_json() const { return {{"rows", rows}, {"notes", notes}, {"verified", verified}}; }

namespace {

/// How a worker process rebuilds a run from its job text (`starnet worker`).
emulator::WorkerSetup star_worker_setup(const std::string& text, unsigned index) {
  const StarRequest request = StarRequest::from_job(text);
  auto g = std::make_shared<StarGraph>(request.n);
  emulator::WorkerSetup setup;
  setup.topology = g;
  setup.costs = std::make_shared<emulator::UnitCosts<Rational>>();
  auto inner = star_factory(*g, request, expected_value(*g, request));
  if (request.fault && request.fault->worker == index) {
    setup.factory = [inner, fault = *request.fault](NodeRange r) { return std::make_unique<FaultAtStep>(inner(r), fault); };
  } else {
    setup.factory = inner;
  }
  return setup;
}

}  // namespace

int serve_partition(const WorkerOptions& options) { return emulator::run_zmq_worker(options, star_worker_setup); }

int join_run(const JoinRequest& request) {
  if (request.join.empty()) throw UsageError(Setting{"join", ""}, "expected HOST:PORT of a coordinator that listens");
  if (request.key_file.empty()) {
    throw UsageError(Setting{"join", request.join},
                     "needs «key_file», the run's key file (from the coordinator's host)");
  }
  if (request.index && *request.index >= MAX_WORKERS) {
    throw UsageError(Setting{"index", std::to_string(*request.index)},
                     fmt::format("expected a worker index in 0..{}", MAX_WORKERS - 1));
  }
  if (!(request.timeout_seconds > 0) || !std::isfinite(request.timeout_seconds)) {
    throw UsageError(Setting{"timeout", fmt::format("{}", request.timeout_seconds)}, "expected a number of seconds > 0");
  }
  if (!(request.peer_timeout_seconds >= emulator::MIN_PEER_TIMEOUT_SECONDS) ||
      !std::isfinite(request.peer_timeout_seconds)) {
    throw UsageError(Setting{"peer_timeout", fmt::format("{}", request.peer_timeout_seconds)},
                     fmt::format("expected a number of seconds ≥ {}", emulator::MIN_PEER_TIMEOUT_SECONDS));
  }
  emulator::WorkerOptions o;
  o.coordinator = HostPort::parse(request.join, "join", /*any_port=*/false).endpoint();
  o.key_file = request.key_file;
  if (request.index) o.index = *request.index;
  o.address = request.address;
  o.timeout_seconds = request.timeout_seconds;
  o.peer_timeout_seconds = request.peer_timeout_seconds;
  return emulator::run_zmq_worker(o, star_worker_setup);
}

void write_key_file(const std::string& path) {
  try {
    emulator::write_key_file(path);
  } catch (const UsageError& e) {
    throw UsageError(Setting{"key_file", path}, e.what());
  }
}

}  // namespace starnet::api

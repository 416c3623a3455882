#include "star_runner.hpp"

#include "command.hpp"

#include <starnet/core/error.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <thread>

namespace starnet::tools {

namespace {

// Memory of a run, measured as peak resident sets (/usr/bin/time -f %M) of `allreduce` on star:7
// to star:10 (docs/limits.md has the table); the estimate is tested against measured peaks.
constexpr std::uint64_t MIB = std::uint64_t{1} << 20;
/// A starnet process before its nodes: code, libraries, allocator arenas.
constexpr std::uint64_t PROCESS_BYTES = 12 * MIB;
/// Per node: the local engine's agenda and node state, and the star program's.
constexpr std::uint64_t LOCAL_BYTES_PER_NODE = 232;
/// Per node, the star all-reduce's own state: its value and the value it forwards (the all-to-all
/// broadcast holds 6).
constexpr std::uint64_t STAR_PROGRAM_BYTES_PER_NODE = 16;
/// Per node on the local engine's dense step path: the path's and the program's.
constexpr std::uint64_t DENSE_BYTES_PER_NODE = emulator::DENSE_STEP_BYTES_PER_NODE + STAR_PROGRAM_BYTES_PER_NODE;
/// Per node with zmq worker threads: the same plus the batches in flight between workers.
constexpr std::uint64_t ZMQ_BYTES_PER_NODE = 333;
/// Per node of a worker process (--processes): as threads, plus a process's own buffers.
constexpr std::uint64_t PROCESS_WORKER_BYTES_PER_NODE = 364;
/// Per message of a kept trace: its record and its share of the written text.
constexpr std::uint64_t TRACE_BYTES_PER_MESSAGE = 1100;
/// The largest TCP port number.
constexpr long long MAX_TCP_PORT = 65535;


/// a · b, saturating: the estimate of a hopeless run only has to be too big.
std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  std::uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? std::numeric_limits<std::uint64_t>::max() : product;
}

std::uint64_t plus(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

}  // namespace

using algorithms::star::StarReport;
using emulator::NodeRange;
using topology::StarGraph;

std::string StarJob::to_json() const {
  nlohmann::json j = {{"collective", broadcast ? "broadcast" : "allreduce"},
                      {"n", n},
                      {"op", algorithms::star::to_string(op)},
                      {"random", values.random},
                      {"seed", values.seed}};
  if (exit_worker) j["exit_worker"] = *exit_worker, j["exit_step"] = exit_step, j["fault"] = static_cast<int>(fault);
  return j.dump();
}

StarJob StarJob::from_json(const std::string& text) {
  const auto j = nlohmann::json::parse(text);
  StarJob job;
  job.broadcast = j.at("collective") == "broadcast";
  job.n = j.at("n");
  job.op = algorithms::star::parse_op(j.at("op").get<std::string>(), "job op");
  job.values.random = j.at("random");
  job.values.seed = j.at("seed");
  if (j.contains("exit_worker")) {
    job.exit_worker = j.at("exit_worker").get<unsigned>();
    job.exit_step = j.at("exit_step");
    const int fault = j.at("fault");
    if (fault < 0 || fault > static_cast<int>(Fault::SLEEP)) throw TransportError("job: an unknown fault");
    job.fault = static_cast<Fault>(fault);
  }
  return job;
}

void EngineOptions::add_to(CLI::App& app) {
  app.add_option("--engine", engine, "local (one process, no sockets) or zmq (workers exchanging ZeroMQ batches)")
      ->check(CLI::IsMember({"local", "zmq"}))
      ->capture_default_str();
  app.add_option("--workers", workers,
                 "Number of zmq workers, each owning a range of sub-stars (default: 2 with --engine zmq)");
  app.add_flag("--processes", processes,
               "Run zmq workers as separate processes over tcp (on 127.0.0.1 unless --address) instead of threads "
               "over inproc://");
  app.add_option("--address", address,
                 "With --processes: the address the coordinator and every worker listen on, a numeric IPv4 or IPv6 "
                 "address of this machine or localhost (default 127.0.0.1). Not loopback: every connection is "
                 "encrypted and authenticated with ZeroMQ CURVE, one fresh key pair per run (docs/emulator.md). "
                 "Workers still run on this machine");
  app.add_option("--port", port, "TCP port of the coordinator with --processes (0: any free port)")
      ->capture_default_str()
      ->check(integer_in(0, MAX_TCP_PORT));
  app.add_option("--listen", listen,
                 "Workers on other hosts: listen on HOST:PORT (an address of this machine) for --workers K workers "
                 "started with `starnet worker --join HOST:PORT --key-file FILE`; implies --processes, always CURVE")
      ->each([this](const std::string&) { processes = true; });
  app.add_option("--key-file", key_file,
                 "With --listen: the run's key file, mode 0600 (written here when it does not exist; or made by "
                 "`starnet keygen`); copy it to every worker host, never to anyone else");
  peer_timeout_option =
      app.add_option("--peer-timeout", peer_timeout,
                     "With --processes: seconds without a heartbeat after which a worker is declared gone (exit 3); "
                     "default 5 s beyond the longest step seen")
          ->check(finite_number(emulator::MIN_PEER_TIMEOUT_SECONDS));
  app.add_option("--timeout", timeout,
                 "With --processes: seconds to wait for every worker to join (--listen) or say hello, and for any "
                 "answer while running")
      ->capture_default_str()
      ->check(finite_number(0));
  app.add_flag("--force", force,
               "Run even when the memory estimate exceeds what this process may use (available memory, ulimit, "
               "cgroup); without it such a run is refused before it starts (docs/limits.md)");
  trace.add_to(app);
}

unsigned EngineOptions::worker_count() const {
  if (workers == -1) return engine == "local" ? 1U : 2U;
  if (workers < 1 || workers > MAX_WORKERS) {
    throw UsageError(fmt::format("--workers {}: expected a number of workers in 1..{}", workers, MAX_WORKERS));
  }
  return static_cast<unsigned>(workers);
}

emulator::MemoryEstimate EngineOptions::memory_estimate(std::uint64_t nodes, std::uint64_t traced_messages,
                                                        std::uint64_t program_bytes, std::string_view program_what,
                                                        LocalPath path) const {
  const bool trace_kept = keep_trace || trace.wanted();
  const std::uint64_t traced = trace_kept ? traced_messages : 0;
  std::uint64_t per_node = path == LocalPath::DENSE ? DENSE_BYTES_PER_NODE : LOCAL_BYTES_PER_NODE;
  std::uint64_t processes = 1;
  if (engine == "zmq") {
    per_node = this->processes ? PROCESS_WORKER_BYTES_PER_NODE : ZMQ_BYTES_PER_NODE;
    if (this->processes && !joined()) processes += worker_count();
  }
  // Workers that join run on their own hosts: this one holds the coordinator and the trace.
  if (joined()) nodes = 0;
  emulator::MemoryEstimate e;
  e.bytes = plus(plus(times(processes, PROCESS_BYTES), times(nodes, per_node)), times(traced, TRACE_BYTES_PER_MESSAGE));
  const std::string where = engine != "zmq" ? "the local engine" : this->processes ? "zmq worker processes" : "zmq worker threads";
  e.breakdown = fmt::format("{} nodes × {} B in {} + {} process{} × {}", nodes, per_node, where, processes,
                            processes > 1 ? "es" : "", emulator::human_bytes(PROCESS_BYTES));
  if (traced > 0) e.breakdown += fmt::format(" + {} traced messages × {} B", traced, TRACE_BYTES_PER_MESSAGE);
  if (program_bytes > 0) {
    e.bytes = plus(e.bytes, program_bytes);
    e.breakdown += fmt::format(" + {} of {}", emulator::human_bytes(program_bytes), program_what);
  }
  return e;
}

void EngineOptions::check_memory(const emulator::MemoryEstimate& need, std::string_view what) const {
  emulator::check_memory(need, emulator::usable_memory(), force, what,
                         "a smaller topology, no --trace or a machine with more memory; or --force to run anyway");
}

emulator::ProcessOptions EngineOptions::process_options() const {
  if (!address.empty() && !processes) {
    throw UsageError(fmt::format("--address {}: needs --processes (worker threads talk over inproc://, no address)",
                                 address));
  }
  if (port != 0 && !processes) {
    throw UsageError(fmt::format("--port {}: needs --processes (worker threads talk over inproc://, no port)", port));
  }
  emulator::ProcessOptions options;
  const bool peer_timeout_given = peer_timeout_option != nullptr && peer_timeout_option->count() > 0;
  if (!processes && (peer_timeout_given || timeout != options.timeout_seconds)) {
    throw UsageError(fmt::format("--{}: applies only with --processes or --listen (worker threads need no timeout; "
                                 "it would be ignored)",
                                 peer_timeout_given ? "peer-timeout" : "timeout"));
  }
  options.workers = worker_count();
  if (!address.empty()) options.address = address;
  options.port = port;
  options.peer_timeout = {peer_timeout, /*grows=*/!peer_timeout_given};
  options.timeout_seconds = timeout;
  if (!key_file.empty() && !joined()) {
    throw UsageError(fmt::format("--key-file {}: applies only with --listen (workers that join from other hosts; "
                                 "workers started here get a fresh key per run)",
                                 key_file));
  }
  if (joined()) {
    if (!address.empty() || port != 0) {
      throw UsageError(fmt::format("--listen {}: gives the address and port itself (no --address or --port)", listen));
    }
    if (key_file.empty()) {
      throw UsageError(fmt::format("--listen {}: needs --key-file FILE, the run's key that every worker joins with",
                                   listen));
    }
    const auto where = HostPort::parse(listen, "--listen", /*any_port=*/true);
    options.address = where.ip;
    options.port = where.port;
    options.join = true;
    options.key_file = key_file;
  }
  return options;
}

HostPort HostPort::parse(const std::string& text, std::string_view option, bool any_port) {
  const auto colon = text.rfind(':');
  const auto bad = [&](std::string_view why) {
    return UsageError(fmt::format("{} {}: {} (expected HOST:PORT, HOST an address, [IPv6] or a host name)", option,
                                  printable(text, Lines::ONE), why));
  };
  if (colon == std::string::npos || colon == 0) throw bad("no port");
  const std::string host = text.substr(0, colon);
  const std::string port_text = text.substr(colon + 1);
  char* end = nullptr;
  const long port = std::strtol(port_text.c_str(), &end, 10);
  if (port_text.empty() || *end != '\0' || port < (any_port ? 0 : 1) || port > MAX_TCP_PORT) {
    throw bad(fmt::format("the port is not in {}..{}", any_port ? 0 : 1, MAX_TCP_PORT));
  }
  if (host.find(':') != std::string::npos && host.front() != '[') throw bad("an IPv6 address needs brackets");
  return {emulator::resolve_host(host, option), static_cast<int>(port)};
}

std::string HostPort::endpoint() const {
  return ip.find(':') != std::string::npos ? fmt::format("tcp://[{}]:{}", ip, port) : fmt::format("tcp://{}:{}", ip, port);
}

namespace {

/// Wraps a program so that its process fails at a given step: how tests make a worker die, hang
/// or crawl mid-run.
class FaultAtStep final : public emulator::NodeProgram {
 public:
  FaultAtStep(std::unique_ptr<emulator::NodeProgram> inner, std::uint64_t step, StarJob::Fault fault)
      : inner_(std::move(inner)), step_(step), fault_(fault) {}
  void react(emulator::Context& ctx) override {
    if (ctx.step() >= step_ && fault_ == StarJob::Fault::STOP) ::raise(SIGSTOP);  // never continued
    if (ctx.step() >= step_ && fault_ == StarJob::Fault::EXIT) std::_Exit(70);
    if (ctx.step() >= step_ && fault_ == StarJob::Fault::SLEEP && !slept_) {
      slept_ = true;
      std::this_thread::sleep_for(std::chrono::duration<double>(FAULT_SLEEP_SECONDS));
    }
    inner_->react(ctx);
  }
  [[nodiscard]] std::string report() const override { return inner_->report(); }

 private:
  std::unique_ptr<emulator::NodeProgram> inner_;
  std::uint64_t step_;
  StarJob::Fault fault_;
  bool slept_ = false;
};

emulator::ProgramFactory star_factory(const StarGraph& g, const StarJob& job, std::uint64_t expected) {
  return [&g, job, expected](NodeRange r) {
    return job.broadcast ? algorithms::star::make_broadcast_program(g, r)
                         : algorithms::star::make_allreduce_program(g, job.op, job.values, expected, r);
  };
}

std::uint64_t expected_value(const StarGraph& g, const StarJob& job) {
  return job.broadcast ? 0 : algorithms::star::reduce_sequentially(g, job.op, job.values);
}

/// "ipc" or "tcp": how the processes of a --processes run talk.
std::string process_protocol(const EngineOptions& engine) {
  return emulator::uses_ipc(engine.process_options()) ? "ipc" : "tcp";
}

std::string process_transport(const EngineOptions& engine) {
  const auto options = engine.process_options();
  if (emulator::uses_ipc(options)) return "processes over ipc:// in a private folder";
  if (engine.joined()) return fmt::format("processes that joined {} over tcp, CURVE", engine.listen);
  return fmt::format("processes over tcp on {}{}", options.address, emulator::uses_curve(options) ? ", CURVE" : "");
}

/// Tells the user where to start the workers of a --listen run, once the coordinator listens.
void announce(const EngineOptions& engine, const std::string& endpoint, bool key_written) {
  constexpr std::string_view scheme = "tcp://";
  const std::string where = endpoint.starts_with(scheme) ? endpoint.substr(scheme.size()) : endpoint;
  const unsigned k = engine.worker_count();
  std::cerr << fmt::format("starnet: listening on {} for {} worker{}{}; on each worker host run: starnet worker --join "
                           "{} --key-file {}\n",
                           endpoint, k, k > 1 ? "s" : "",
                           key_written ? fmt::format(" (wrote the run's key to {}: copy it there first)", engine.key_file)
                                       : "",
                           where, engine.key_file)
            << std::flush;
}

std::string self_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

/// What a star collective of @p job needs on @p engine (on the local engine, its dense step path),
/// its trace counted as one record per node and step.
emulator::MemoryEstimate star_memory(const StarJob& job, const EngineOptions& engine) {
  const auto nodes = StarGraph::factorial(job.n);
  return engine.memory_estimate(nodes, nodes * algorithms::star::allreduce_steps(job.n), 0, {}, LocalPath::DENSE);
}

}  // namespace

StarOutcome run_star_job(const StarJob& job, const EngineOptions& engine) {
  const StarGraph g(job.n);
  StarOutcome out;
  out.expected_value = expected_value(g, job);
  out.expected_steps = algorithms::star::allreduce_steps(job.n);
  emulator::RunConfig config;
  config.trace = engine.keep_trace || engine.trace.wanted();
  const emulator::UnitCosts<Rational> costs;
  const unsigned k = engine.worker_count();
  emulator::ProcessOptions options = engine.process_options();  // rejects --address without --processes
  const auto nodes = StarGraph::factorial(job.n);
  engine.check_memory(star_memory(job, engine),
                      fmt::format("{} on star:{}", job.broadcast ? "the all-to-all broadcast" : "the all-reduce", job.n));
  if (engine.engine == "local") {
    if (k != 1) throw UsageError(fmt::format("--workers {}: the local engine has one worker (use --engine zmq)", k));
    if (engine.processes) throw UsageError("--processes: only the zmq engine runs workers as processes");
    out.run = emulator::LocalEngine<Rational>().run(g, costs, star_factory(g, job, out.expected_value), config);
  } else if (!engine.processes) {
    out.run = emulator::run_zmq_threads<Rational>(g, costs, star_factory(g, job, out.expected_value), config, k);
  } else {
    options.executable = self_executable();
    const bool key_written = engine.joined() && !std::filesystem::exists(engine.key_file);
    options.on_listening = [&engine, key_written](const std::string& endpoint) { announce(engine, endpoint, key_written); };
    out.run = emulator::run_zmq_processes(g, config, job.to_json(), options);
  }
  for (const auto& text : out.run.reports) out.report.merge(StarReport::parse(text));
  out.verified = out.report.nodes_checked == nodes && out.report.nodes_correct == nodes &&
                 out.run.makespan == Rational(static_cast<std::int64_t>(out.expected_steps)) &&
                 (!job.broadcast || (out.report.duplicates == 0 && out.report.items_received == nodes * (nodes - 1)));
  engine.trace.write(out.run.trace, g);
  return out;
}

nlohmann::json star_json(const StarJob& job, const EngineOptions& engine, const StarOutcome& o) {
  const auto& c = o.run.counters;
  nlohmann::json levels = nlohmann::json::array();
  for (int m = 2; m <= job.n; ++m) {
    const auto first = o.report.level_first[static_cast<std::size_t>(m)];
    const auto last = o.report.level_last[static_cast<std::size_t>(m)];
    levels.push_back({{"level", m}, {"first_step", first}, {"last_step", last}, {"steps", last - first}});
  }
  nlohmann::json j = {{"topology", fmt::format("star:{}", job.n)},
                      {"nodes", StarGraph::factorial(job.n)},
                      {"steps", o.run.makespan.num()},
                      {"expected_steps", o.expected_steps},
                      {"messages", c.messages},
                      {"payload_bytes", c.payload_bytes},
                      {"max_messages_per_node_per_step", std::max(c.max_concurrent_sends, c.max_concurrent_receives)},
                      {"levels", levels},
                      {"verified", o.verified},
                      {"memory_estimate_bytes", star_memory(job, engine).bytes},
                      {"nodes_verified", o.report.nodes_correct},
                      {"engine", engine.engine},
                      {"workers", engine.worker_count()},
                      {"transport", engine.engine == "local" ? "none" : engine.processes ? process_protocol(engine) : "inproc"},
                      {"wall_seconds", o.run.wall_seconds}};
  if (engine.processes) {
    const auto options = engine.process_options();
    j["address"] = options.address;
    j["curve"] = emulator::uses_curve(options);
    j["stray_messages"] = o.run.stray_messages;
    j["worker_peak_bytes"] = o.run.worker_peak_bytes;
    j["worker_hosts"] = o.run.worker_hosts;
    j["refused_connections"] = o.run.refused_connections;
    j["longest_worker_silence_seconds"] = o.run.longest_silence_seconds;
    j["stranger_addresses"] = o.run.stranger_addresses;
  }
  if (job.broadcast) {
    j["collective"] = "all-to-all broadcast";
    j["payload_items"] = o.report.items_received;
    j["nodup"] = o.report.duplicates == 0;
  } else {
    j["collective"] = "all-reduce";
    j["op"] = algorithms::star::to_string(job.op);
    j["values"] = job.values.random ? fmt::format("random (seed {})", job.values.seed) : "rank + 1 (1..n!)";
    j["result"] = o.expected_value;
  }
  return j;
}

std::string star_text(const StarJob& job, const EngineOptions& engine, const StarOutcome& o) {
  const auto nodes = StarGraph::factorial(job.n);
  std::string s = fmt::format(
      "{} on star:{} ({} nodes), {} engine", job.broadcast ? "all-to-all broadcast (NODUP)" : "all-reduce (" +
                                                                 algorithms::star::to_string(job.op) + ")",
      job.n, nodes, engine.engine);
  if (engine.engine == "zmq") {
    s += fmt::format(", {} workers ({})", engine.worker_count(),
                     engine.processes ? process_transport(engine) : "threads");
  }
  s += "\n";
  for (int m = 2; m <= job.n; ++m) {
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
                   job.broadcast ? o.report.items_received : c.payload_bytes, job.broadcast ? "items" : "bytes",
                   std::max(c.max_concurrent_sends, c.max_concurrent_receives));
  if (o.verified) {
    s += job.broadcast ? fmt::format("verified: each of the {} nodes holds all {} items, none received twice\n", nodes,
                                     nodes)
                       : fmt::format("verified: each of the {} nodes holds {}, the sequential {} of all values\n",
                                     nodes, o.expected_value, algorithms::star::to_string(job.op));
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
  if (engine.joined()) {
    std::vector<std::string> hosts;
    for (std::size_t i = 0; i < o.run.worker_hosts.size(); ++i) hosts.push_back(fmt::format("{} on {}", i, o.run.worker_hosts[i]));
    s += fmt::format("workers: {}\n", fmt::join(hosts, ", "));
  }
  if (o.run.refused_connections > 0) {
    s += fmt::format("refused {} connection{} without the run's key\n", o.run.refused_connections,
                     o.run.refused_connections > 1 ? "s" : "");
  }
  if (o.run.stray_messages > 0) {
    s += fmt::format("dropped {} messages from peers that are not workers of this run (they change no result)\n",
                     o.run.stray_messages);
  }
  if (!o.run.stranger_addresses.empty()) {
    s += fmt::format("strangers came from: {}\n", fmt::join(o.run.stranger_addresses, ", "));
  }
  s += fmt::format("wall time: {:.3f} s\n", o.run.wall_seconds);
  return s;
}

emulator::WorkerSetup star_worker_setup(const std::string& text, unsigned index) {
  const StarJob job = StarJob::from_json(text);
  auto g = std::make_shared<StarGraph>(job.n);
  emulator::WorkerSetup setup;
  setup.topology = g;
  setup.costs = std::make_shared<emulator::UnitCosts<Rational>>();
  auto inner = star_factory(*g, job, expected_value(*g, job));
  if (job.exit_worker == index) {
    setup.factory = [inner, step = job.exit_step, fault = job.fault](NodeRange r) {
      return std::make_unique<FaultAtStep>(inner(r), step, fault);
    };
  } else {
    setup.factory = inner;
  }
  return setup;
}

}  // namespace starnet::tools

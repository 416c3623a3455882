#include <starnet/api/engine.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/core/error.hpp>
#include <starnet/emulator/memory.hpp>
#include <starnet/emulator/zmq_engine.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <limits>

namespace starnet::api {
namespace {

// Memory of a run, measured as peak resident sets (/usr/bin/time -f %M) of `allreduce` on star:7
// to star:10 (docs/limits.md has the table); the estimate is tested against measured peaks.
constexpr std::uint64_t MIB = std::uint64_t{1} << 20;
/// A starnet process before its nodes: code, libraries, allocator arenas.
constexpr std::uint64_t PROCESS_BYTES = 12 * MIB;
/// Per node: the local engine's agenda and node state, and the star program's.
constexpr std::uint64_t LOCAL_BYTES_PER_NODE = 232;
/// Per node on the local engine's dense step path, its program's aside (the star all-reduce's 16
/// bytes, the all-to-all broadcast's 6: algorithms/star/allreduce.hpp).
constexpr std::uint64_t DENSE_BYTES_PER_NODE = emulator::DENSE_STEP_BYTES_PER_NODE;
/// Per node with zmq worker threads on the general core: its node state and the batches in flight.
constexpr std::uint64_t ZMQ_BYTES_PER_NODE = 333;
/// Per node of a worker process on the general core: as threads, plus a process's own buffers.
constexpr std::uint64_t PROCESS_WORKER_BYTES_PER_NODE = 364;
/// Per node of a step's batch between workers on the dense path: at most one 16-byte row
/// (receiver, sender, payload) per node, written once (emulator/src/dense_batch.hpp).
constexpr std::uint64_t DENSE_BATCH_BYTES_PER_NODE = 16;
/// Per node with zmq worker threads on the dense path, the program's aside: the path's and the
/// batches, which pass from worker to worker without a copy.
constexpr std::uint64_t ZMQ_DENSE_BYTES_PER_NODE = DENSE_BYTES_PER_NODE + DENSE_BATCH_BYTES_PER_NODE;
/// Per node of a worker process on the dense path: the batch it sends and the one it receives.
constexpr std::uint64_t PROCESS_DENSE_BYTES_PER_NODE = DENSE_BYTES_PER_NODE + 2 * DENSE_BATCH_BYTES_PER_NODE;
/// Per message of a kept trace: its record and its share of the written text.
constexpr std::uint64_t TRACE_BYTES_PER_MESSAGE = 1100;
/// The largest TCP port number.
constexpr long MAX_TCP_PORT = 65535;

/// a · b, saturating: the estimate of a hopeless run only has to be too big.
std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  std::uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? std::numeric_limits<std::uint64_t>::max() : product;
}

std::uint64_t plus(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

/// Refuses @p setting when it was given but needs worker processes.
void needs_processes(bool given, const char* setting, const std::string& value, const char* why) {
  if (given) throw UsageError(Setting{setting, value}, fmt::format("applies only with «processes» ({})", why));
}

std::string seconds_text(const std::optional<double>& s) { return s ? fmt::format("{}", *s) : std::string(); }

}  // namespace

std::string to_string(EngineKind kind) { return kind == EngineKind::ZMQ ? "zmq" : "local"; }

EngineKind parse_engine(std::string_view text) {
  if (text == "local") return EngineKind::LOCAL;
  if (text == "zmq") return EngineKind::ZMQ;
  throw UsageError(Setting{"engine", std::string(text)},
                   "not an engine (expected local — one process, no sockets — or zmq — workers exchanging ZeroMQ "
                   "batches)");
}

unsigned EngineChoice::worker_count() const {
  if (!workers) return kind == EngineKind::LOCAL ? 1U : 2U;
  if (*workers < 1 || *workers > static_cast<long>(MAX_WORKERS)) {
    throw UsageError(Setting{"workers", std::to_string(*workers)},
                     fmt::format("expected a number of workers in 1..{}", MAX_WORKERS));
  }
  if (kind == EngineKind::LOCAL && *workers != 1) {
    throw UsageError(Setting{"workers", std::to_string(*workers)},
                     "the local engine has one worker (use the zmq engine: «engine» zmq)");
  }
  return static_cast<unsigned>(*workers);
}

unsigned EngineChoice::thread_count() const {
  if (threads && (*threads < 0 || *threads > static_cast<long>(MAX_THREADS))) {
    throw UsageError(Setting{"threads", std::to_string(*threads)},
                     fmt::format("expected a number of threads in 0..{} (0: every core)", MAX_THREADS));
  }
  if (threads && kind != EngineKind::LOCAL) {
    throw UsageError(Setting{"threads", std::to_string(*threads)},
                     "applies to the local engine (the zmq engine runs one thread per worker: «workers»)");
  }
  if (threads && *threads > 0) return static_cast<unsigned>(*threads);
  return std::max(1U, std::thread::hardware_concurrency());
}

void EngineChoice::check(bool processes_allowed) const {
  (void)worker_count();
  (void)thread_count();
  const bool any_processes = processes || joined();
  if (any_processes && kind != EngineKind::ZMQ) {
    throw UsageError(Setting{joined() ? "listen" : "processes", joined() ? listen : "true"},
                     "only the zmq engine runs workers as processes («engine» zmq)");
  }
  if (any_processes && !processes_allowed) {
    throw UsageError(Setting{joined() ? "listen" : "processes", joined() ? listen : "true"},
                     "this call runs its zmq workers as threads, over inproc:// (worker processes are for the star "
                     "collectives)");
  }
  const char* inproc = "worker threads talk over inproc://: no address, port, key or peer timeout";
  needs_processes(!any_processes && !address.empty(), "address", address, inproc);
  needs_processes(!any_processes && port.has_value(), "port", port ? std::to_string(*port) : "", inproc);
  needs_processes(!any_processes && peer_timeout.has_value(), "peer_timeout", seconds_text(peer_timeout), inproc);
  if (kind != EngineKind::ZMQ && timeout) {
    throw UsageError(Setting{"timeout", seconds_text(timeout)},
                     "applies only to the zmq engine (how long a worker waits for its peers at a step's barrier)");
  }
  if (port && (*port < 0 || *port > MAX_TCP_PORT)) {
    throw UsageError(Setting{"port", std::to_string(*port)}, fmt::format("expected a TCP port in 0..{}", MAX_TCP_PORT));
  }
  if (peer_timeout && !(*peer_timeout >= emulator::MIN_PEER_TIMEOUT_SECONDS && *peer_timeout < 1e9)) {
    throw UsageError(Setting{"peer_timeout", seconds_text(peer_timeout)},
                     fmt::format("expected a number of seconds ≥ {} (four heartbeats)", emulator::MIN_PEER_TIMEOUT_SECONDS));
  }
  if (timeout && !(*timeout >= 0 && *timeout < 1e9)) {
    throw UsageError(Setting{"timeout", seconds_text(timeout)}, "expected a number of seconds ≥ 0");
  }
  if (!key_file.empty() && !joined()) {
    throw UsageError(Setting{"key_file", key_file},
                     "applies only with «listen» (workers that join from other hosts; workers started here get a "
                     "fresh key per run)");
  }
  if (joined()) {
    if (!address.empty() || port) {
      throw UsageError(Setting{"listen", listen}, "gives the address and port itself (no «address» or «port»)");
    }
    if (key_file.empty()) {
      throw UsageError(Setting{"listen", listen}, "needs «key_file», the run's key that every worker joins with");
    }
  }
}

emulator::ProcessOptions EngineChoice::process_options() const {
  check();
  emulator::ProcessOptions options;
  options.workers = worker_count();
  if (!address.empty()) options.address = address;
  options.port = static_cast<int>(port.value_or(0));
  options.peer_timeout = {peer_timeout.value_or(emulator::DEFAULT_PEER_TIMEOUT_SECONDS), /*grows=*/!peer_timeout};
  if (timeout) options.timeout_seconds = *timeout;
  if (joined()) {
    const auto where = HostPort::parse(listen, "listen", /*any_port=*/true);
    options.address = where.ip;
    options.port = where.port;
    options.join = true;
    options.key_file = key_file;
  }
  return options;
}

std::string EngineChoice::transport() const {
  if (kind == EngineKind::LOCAL) return "none";
  if (!processes && !joined()) return "inproc";
  return emulator::uses_ipc(process_options()) ? "ipc" : "tcp";
}

std::string EngineChoice::transport_text() const {
  if (kind == EngineKind::LOCAL) return "one process";
  if (!processes && !joined()) return "threads";
  const auto options = process_options();
  if (emulator::uses_ipc(options)) return "processes over ipc:// in a private folder";
  if (joined()) return fmt::format("processes that joined {} over tcp, CURVE", listen);
  return fmt::format("processes over tcp on {}{}", options.address, emulator::uses_curve(options) ? ", CURVE" : "");
}

emulator::MemoryEstimate EngineChoice::memory_estimate(std::uint64_t nodes, std::uint64_t traced_messages, bool trace,
                                                       std::uint64_t program_bytes, std::string_view program_what,
                                                       LocalPath path, std::uint64_t dense_program_bytes) const {
  const std::uint64_t traced = trace ? traced_messages : 0;
  std::uint64_t per_node = path == LocalPath::DENSE ? DENSE_BYTES_PER_NODE : LOCAL_BYTES_PER_NODE;
  std::uint64_t process_count = 1;
  const bool worker_processes = processes || joined();
  if (kind == EngineKind::ZMQ) {
    if (path == LocalPath::DENSE) {
      per_node = worker_processes ? PROCESS_DENSE_BYTES_PER_NODE : ZMQ_DENSE_BYTES_PER_NODE;
    } else {
      per_node = worker_processes ? PROCESS_WORKER_BYTES_PER_NODE : ZMQ_BYTES_PER_NODE;
    }
    if (worker_processes && !joined()) process_count += worker_count();
  }
  if (path == LocalPath::DENSE) per_node += dense_program_bytes;
  // Workers that join run on their own hosts: this one holds the coordinator and the trace.
  if (joined()) nodes = 0;
  emulator::MemoryEstimate e;
  e.bytes = plus(plus(times(process_count, PROCESS_BYTES), times(nodes, per_node)),
                 times(traced, TRACE_BYTES_PER_MESSAGE));
  const std::string where = kind != EngineKind::ZMQ ? "the local engine"
                            : worker_processes       ? "zmq worker processes"
                                                     : "zmq worker threads";
  e.breakdown = fmt::format("{} nodes × {} B in {} + {} process{} × {}", nodes, per_node, where, process_count,
                            process_count > 1 ? "es" : "", emulator::human_bytes(PROCESS_BYTES));
  if (traced > 0) e.breakdown += fmt::format(" + {} traced messages × {} B", traced, TRACE_BYTES_PER_MESSAGE);
  if (program_bytes > 0) {
    e.bytes = plus(e.bytes, program_bytes);
    e.breakdown += fmt::format(" + {} of {}", emulator::human_bytes(program_bytes), program_what);
  }
  return e;
}

void EngineChoice::check_memory(const emulator::MemoryEstimate& need, std::string_view what) const {
  emulator::check_memory(need, emulator::usable_memory(), force, what,
                         "a smaller topology, no trace or a machine with more memory; or «force» to run anyway");
}

HostPort HostPort::parse(const std::string& text, std::string_view setting, bool any_port) {
  const auto colon = text.rfind(':');
  const auto bad = [&](std::string_view why) {
    return UsageError(Setting{std::string(setting), text},
                      fmt::format("{} (expected HOST:PORT, HOST an address, [IPv6] or a host name)", why));
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
  return {emulator::resolve_host(host, setting), static_cast<int>(port)};
}

std::string HostPort::endpoint() const {
  return ip.find(':') != std::string::npos ? fmt::format("tcp://[{}]:{}", ip, port) : fmt::format("tcp://{}:{}", ip, port);
}

}  // namespace starnet::api

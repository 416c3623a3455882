// A worker process (`run_zmq_worker`, the body of `starnet worker`): says hello, beats, runs its
// partition, reports.
#include "zmq_processes.hpp"

#include <starnet/emulator/memory.hpp>
#include <starnet/emulator/zmq_engine.hpp>
#include <starnet/core/interrupt.hpp>

#include <fmt/format.h>

#include <array>
#include <climits>
#include <cmath>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <unistd.h>

namespace starnet::emulator {
namespace {

std::string this_host() {
  std::array<char, HOST_NAME_MAX + 1> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "?";
  return name.data();
}

/// A worker's heartbeat to its coordinator: a thread and a socket of its own, so that it beats
/// while the worker computes a long step, and stops only with the process (or this object).
class Heartbeat {
 public:
  /// Each beat carries @p nonce and the longest step this worker has seen (@p longest_step), from
  /// which the coordinator learns how long steps take.
  Heartbeat(const TcpTransport& tcp, const std::string& coordinator, const std::string& nonce,
            const std::atomic<double>& longest_step) {
    thread_ = std::thread([this, &tcp, coordinator, nonce, &longest_step] {
      try {
        // A context of its own: its I/O thread is not the one busy with the run's batches.
        zmq::context_t ctx;
        zmq::socket_t s = make_socket(ctx, zmq::socket_type::dealer);
        s.set(zmq::sockopt::linger, 0);
        s.set(zmq::sockopt::sndhwm, HEARTBEAT_QUEUE);
        tcp.connect(s, coordinator);
        std::unique_lock lock(mutex_);
        while (!stop_) {
          wire::Writer w;
          put_heartbeat(w, nonce, longest_step.load());
          (void)s.send(zmq::buffer(w.str()), zmq::send_flags::dontwait);
          wake_.wait_for(lock, milliseconds(HEARTBEAT_SECONDS));
        }
      } catch (const zmq::error_t&) {  // no heartbeat: the coordinator reports this worker silent
      }
    });
  }
  ~Heartbeat() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

std::string random_nonce() {
  std::string nonce(NONCE_BYTES, '\0');
  std::random_device device;
  for (auto& c : nonce) c = static_cast<char>(device());
  return nonce;
}

/// The host of a tcp:// endpoint, without brackets ("" for another transport).
std::string endpoint_host(const std::string& endpoint) {
  constexpr std::string_view scheme = "tcp://";
  if (!endpoint.starts_with(scheme)) return {};
  std::string rest = endpoint.substr(scheme.size(), endpoint.rfind(':') - scheme.size());
  if (rest.size() > 2 && rest.front() == '[') rest = rest.substr(1, rest.size() - 2);
  return rest;
}

/// Whether a worker joined from another host, rather than being started by its coordinator. One
/// started by its coordinator shares its terminal, and the coordinator reports its failures; one
/// that joined reports them itself.
bool joined(const WorkerOptions& options) { return !options.key_file.empty(); }

/// The exit status of a worker started by its coordinator whose run failed (the coordinator
/// reports why).
constexpr int FAILED_WORKER_EXIT = 3;

/// "worker I", or "worker" for one that joins without an index.
std::string who(const WorkerOptions& options) {
  return options.index == WorkerOptions::ANY_INDEX ? std::string("worker") : fmt::format("worker {}", options.index);
}

/// Waits for the coordinator's CONFIG (std::nullopt: the run was aborted before, and the coordinator
/// reports why), taking its heartbeats meanwhile, and starts @p heartbeat
/// (to @p endpoint over @p tcp, with @p nonce) once it hears from the coordinator: only then does
/// the coordinator know the nonce, so no earlier beat is taken for a stray's.
/// @throws TransportError when it aborts the run or is silent; UsageError when it refuses this
/// worker's key.
std::optional<WorkerConfig> await_config(zmq::context_t& ctx, zmq::socket_t& control, const WorkerOptions& options,
                          const TcpTransport& tcp, const std::string& nonce,
                                        const std::atomic<double>& longest_step, std::optional<Heartbeat>& heartbeat) {
  HandshakeMonitor handshakes(ctx, control);
  const auto start = Clock::now();
  std::optional<Clock::time_point> heard;
  for (;;) {
    throw_if_stopped("the worker");  // a worker joined from Python stops on Ctrl-C while it waits
    std::vector<zmq::pollitem_t> items = {{control.handle(), 0, ZMQ_POLLIN, 0}, handshakes.item()};
    zmq::poll(items, POLL);
    if ((items[1].revents & ZMQ_POLLIN) != 0) handshakes.take();
    if (!heard && handshakes.failed() >= HANDSHAKE_ATTEMPTS) {
      throw UsageError(fmt::format("{}: the coordinator at {} closed {} connections during the CURVE handshake: {} not "
                                   "the key of the run there (or no starnet coordinator listens there)",
                                   who(options), options.coordinator, HANDSHAKE_ATTEMPTS,
                                   options.key_file.empty() ? "the key given is" : "key file " + options.key_file + " is"));
    }
    if ((items[0].revents & ZMQ_POLLIN) != 0) {
      zmq::message_t m;
      (void)control.recv(m);
      heard = Clock::now();
      if (!heartbeat) heartbeat.emplace(tcp, options.coordinator, nonce, longest_step);
      wire::Reader r(m.to_string_view());
      const char type = r.get<char>();
      if (type == CONFIG) return get_worker_config(r);
      if (type == ABORT_RUN && !joined(options)) return std::nullopt;
      if (type == ABORT_RUN) throw TransportError(fmt::format("{}: the coordinator at {} ended the run: {}", who(options),
                                                              options.coordinator, r.get_string()));
      continue;  // a heartbeat
    }
    if (!heard && seconds_since(start) > options.timeout_seconds) {
      throw TransportError(fmt::format("{}: no coordinator answered at {} within {} s (workers are started by a "
                                       "coordinator: a zmq run in worker processes, or one that waits for workers to join)",
                                       who(options), options.coordinator, options.timeout_seconds));
    }
    if (heard && seconds_since(*heard) > options.peer_timeout_seconds) {
      throw TransportError(fmt::format("{}: the coordinator at {} has not been heard from for {} s", who(options),
                                       options.coordinator, options.peer_timeout_seconds));
    }
  }
}

std::optional<CurveKeys> worker_keys(const WorkerOptions& options) {
  if (!options.key_file.empty()) return CurveKeys::read_file(options.key_file);
  if (options.key_fd >= 0) return CurveKeys::read_from(options.key_fd);
  return std::nullopt;
}

/// Where a worker listens: as told, on loopback for an ipc:// run, else on the address of this
/// machine that reaches the coordinator.
std::string worker_address(const WorkerOptions& options) {
  if (!options.address.empty()) return options.address;
  const std::string host = endpoint_host(options.coordinator);
  return host.empty() ? "127.0.0.1" : local_address_towards(host);
}

int serve_as_worker(const WorkerOptions& options, const WorkerSetupFunction& setup) {
  zmq::context_t ctx;
  const TcpTransport tcp(ctx, TcpAddress::parse(worker_address(options)), worker_keys(options),
                         ipc_directory(options.coordinator));
  zmq::socket_t control = make_socket(ctx, zmq::socket_type::dealer);
  try {
    tcp.connect(control, options.coordinator);
  } catch (const zmq::error_t& e) {
    throw UsageError(Setting{"coordinator", options.coordinator},
                     fmt::format("not an endpoint ZeroMQ can connect to ({}; expected tcp://ADDRESS:PORT)", e.what()));
  }
  zmq::socket_t pull = make_socket(ctx, zmq::socket_type::pull);
  const std::string nonce = random_nonce();
  {
    wire::Writer w;
    put_hello(w, {options.index, tcp.bind(pull, 0), this_host(), ::getpid(), nonce});
    control.send(zmq::buffer(w.str()), zmq::send_flags::none);
  }
  std::atomic<double> longest_step{0};
  std::optional<Heartbeat> heartbeat;
  const auto config = await_config(ctx, control, options, tcp, nonce, longest_step, heartbeat);
  if (!config) return FAILED_WORKER_EXIT;
  const WorkerConfig& c = *config;
  wire::Writer answer;
  std::optional<ZmqExchange<Rational>> exchange;
  std::exception_ptr failure;
  try {
    const WorkerSetup s = setup(c.job, c.index);
    exchange.emplace(ctx, c.index, std::move(pull), c.endpoints, &control, &tcp, c.barrier_timeout_seconds);
    exchange->watch_coordinator(c.peer_timeout, &longest_step);
    auto program = s.factory(c.parts.at(c.index));
    PartitionRun<Rational> worker;
    worker.run(*s.topology, *s.costs, c.config, c.parts, c.index, *program, *exchange);
    answer.put(RESULT);
    answer.put(worker.makespan());
    answer.put(worker.counters());
    answer.put(program->report());
    answer.put(static_cast<std::uint64_t>(worker.trace().size()));
    for (const auto& e : worker.trace()) put_trace_event(answer, e);
    answer.put(peak_resident_bytes());
  } catch (const Error& e) {
    if (exchange) exchange->abort(e.what());
    failure = std::current_exception();
    answer = {};
    answer.put(FAILED);
    answer.put(e.exit_code());
    answer.put(std::string(e.what()));
  } catch (const std::exception& e) {
    if (exchange) exchange->abort(e.what());
    failure = std::make_exception_ptr(TransportError(fmt::format("worker {}: {}", c.index, e.what())));
    answer = {};
    answer.put(FAILED);
    answer.put(3);
    answer.put(fmt::format("worker {}: {}", c.index, e.what()));
  }
  control.send(zmq::buffer(answer.str()), zmq::send_flags::none);
  if (failure && joined(options)) std::rethrow_exception(failure);
  return failure ? FAILED_WORKER_EXIT : 0;
}

}  // namespace

int run_zmq_worker(const WorkerOptions& options, const WorkerSetupFunction& setup) {
  try {
    return serve_as_worker(options, setup);
  } catch (const zmq::error_t& e) {
    throw zmq_failure(e);
  }
}

}  // namespace starnet::emulator

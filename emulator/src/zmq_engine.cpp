#include "secure.hpp"
#include "wire.hpp"
#include "worker.hpp"

#include <starnet/emulator/memory.hpp>
#include <starnet/emulator/zmq_engine.hpp>
#include <starnet/topology/error.hpp>

#include <fmt/format.h>
#include <zmq.hpp>

#include <atomic>
#include <cerrno>
#include <array>
#include <chrono>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <exception>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace starnet::emulator {
namespace {

// libzmq is not built with ThreadSanitizer, so TSan cannot see that a message's bytes are
// written before they are sent and read after they arrive; tell it (inproc workers are threads).
#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
char tsan_channel;
void before_send() { __tsan_release(&tsan_channel); }
void after_receive() { __tsan_acquire(&tsan_channel); }
#else
void before_send() {}
void after_receive() {}
#endif

constexpr std::uint8_t BATCH = 0;
constexpr std::uint8_t ABORT = 1;
/// The first byte of a coordinator's heartbeat to a worker (its other messages: below, processes).
constexpr char COORDINATOR_HEARTBEAT = 'B';
constexpr auto POLL = std::chrono::milliseconds(100);

/// A ZeroMQ failure (too many sockets or open files, an endpoint it cannot use) as the runtime
/// failure it is, exit 3, rather than an internal error.
TransportError zmq_failure(const zmq::error_t& e) {
  const char* hint = e.num() == EMFILE ? "; each worker thread holds a socket per worker: use fewer workers, or raise "
                                         "the limit of open files (ulimit -n)"
                                       : "";
  return TransportError(fmt::format("ZeroMQ failed: {} (error {}{})", e.what(), e.num(), hint));
}

zmq::socket_t make_socket(zmq::context_t& ctx, zmq::socket_type type) {
  zmq::socket_t s(ctx, type);
  s.set(zmq::sockopt::linger, 2000);  // let a last result or abort reach its peer, then give up
  s.set(zmq::sockopt::sndhwm, 0);
  s.set(zmq::sockopt::rcvhwm, 0);
  return s;
}

/// Exchange between worker peers over PUSH/PULL sockets. In process mode a control socket to the
/// coordinator is polled too, so that an abort reaches a worker waiting for a dead peer.
template <class Time>
class ZmqExchange final : public Exchange<Time> {
 public:
  /// @param tcp how the push sockets connect to the peers (processes only; nullptr over inproc).
  /// @param stop set by a sibling thread that failed (threads only): checked while waiting, so a
  /// failure that could not even send its abort message (out of memory) still stops everyone.
  ZmqExchange(zmq::context_t& ctx, unsigned self, zmq::socket_t pull, const std::vector<std::string>& endpoints,
              zmq::socket_t* control, const TcpTransport* tcp, double timeout_seconds,
              const std::atomic<bool>* stop = nullptr)
      : self_(self), pull_(std::move(pull)), control_(control), timeout_(timeout_seconds), stop_(stop) {
    for (unsigned j = 0; j < endpoints.size(); ++j) {
      push_.emplace_back(make_socket(ctx, zmq::socket_type::push));
      if (j == self) continue;
      if (tcp != nullptr) {
        tcp->connect(push_.back(), endpoints[j]);
      } else {
        push_.back().connect(endpoints[j]);
      }
    }
  }

  void exchange(std::vector<Batch<Time>>& out, std::vector<Batch<Time>>& in) override {
    ++seq_;
    for (unsigned j = 0; j < push_.size(); ++j) {
      if (j == self_) continue;
      wire::Writer w;
      w.put(BATCH);
      w.put(self_);
      w.put(seq_);
      wire::put_batch(w, out[j]);
      auto head = adopt(std::move(w.str()));
      auto requests = adopt(std::move(out[j].requests));
      out[j].requests = {};
      before_send();  // after the last write of what the receiver reads (and its deleter frees)
      send(j, head, zmq::send_flags::sndmore);
      send(j, requests, zmq::send_flags::none);
    }
    std::swap(in[self_], out[self_]);
    auto& got = early_[seq_];
    got.resize(push_.size(), false);
    unsigned missing = static_cast<unsigned>(push_.size()) - 1;
    for (unsigned j = 0; j < got.size(); ++j) {
      if (j != self_ && got[j]) {
        auto& stashed = stash_[{seq_, j}];
        take(stashed.first, std::move(stashed.second), in[j]);
        stash_.erase({seq_, j});
        --missing;
      }
    }
    auto last = std::chrono::steady_clock::now();
    while (missing > 0) {
      std::vector<zmq::pollitem_t> items = {{pull_.handle(), 0, ZMQ_POLLIN, 0}};
      if (control_ != nullptr) items.push_back({control_->handle(), 0, ZMQ_POLLIN, 0});
      zmq::poll(items, POLL);
      if (control_ != nullptr && (items[1].revents & ZMQ_POLLIN) != 0) take_control();
      if ((items[0].revents & ZMQ_POLLIN) == 0) {
        if (stop_ != nullptr && stop_->load()) throw TransportError(fmt::format("worker {}: a peer worker failed", self_));
        if (coordinator_timeout_ > 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - heard_).count() > coordinator_timeout_) {
          throw TransportError(fmt::format("worker {}: the coordinator has not been heard from for {} s", self_,
                                           coordinator_timeout_));
        }
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - last).count() > timeout_) {
          throw TransportError(fmt::format("worker {} waited {} s for its peers' batches (step barrier)", self_,
                                           timeout_));
        }
        continue;
      }
      last = std::chrono::steady_clock::now();
      zmq::message_t m;
      (void)pull_.recv(m);
      zmq::message_t requests;
      if (m.more()) (void)pull_.recv(requests);
      after_receive();
      wire::Reader r(m.to_string_view());
      const auto type = r.get<std::uint8_t>();
      const auto from = r.get<unsigned>();
      const auto seq = r.get<std::uint64_t>();
      if (from >= push_.size() || from == self_) wire::Reader::malformed("unknown sender");
      if (type == ABORT) throw TransportError(fmt::format("worker {} failed: {}", from, r.get_string()));
      // One batch from each peer in each exchange, none of an exchange already done.
      if (seq < seq_) wire::Reader::malformed("a batch of a past exchange");
      auto& arrived = early_[seq];
      arrived.resize(push_.size(), false);
      if (arrived[from]) wire::Reader::malformed("two batches from one worker in one exchange");
      arrived[from] = true;
      if (seq == seq_) {
        take(m, std::move(requests), in[from]);
        --missing;
      } else {
        // A peer already in a later exchange: keep its batch for then.
        stash_[{seq, from}] = {std::move(m), std::move(requests)};
      }
    }
    early_.erase(seq_);
  }

  /// Ends the run (TransportError) when the coordinator has sent nothing, heartbeats included, for
  /// @p seconds while this worker waits at a barrier.
  void watch_coordinator(double seconds) {
    coordinator_timeout_ = seconds;
    heard_ = std::chrono::steady_clock::now();
  }

  /// Tells every peer this worker is gone, so that none waits for it.
  void abort(const std::string& reason) noexcept {
    try {
      for (unsigned j = 0; j < push_.size(); ++j) {
        if (j == self_) continue;
        wire::Writer w;
        w.put(ABORT);
        w.put(self_);
        w.put(seq_);
        w.put(reason);
        zmq::message_t message(w.str().data(), w.str().size());
        before_send();
        (void)push_[j].send(message, zmq::send_flags::dontwait);
      }
    } catch (...) {  // best effort: the peer may be gone already
    }
  }

 private:
  unsigned self_;
  zmq::socket_t pull_;
  std::vector<zmq::socket_t> push_;
  zmq::socket_t* control_;
  double timeout_;
  const std::atomic<bool>* stop_;
  double coordinator_timeout_ = 0;  // 0: not watched (threads)
  std::chrono::steady_clock::time_point heard_;
  std::uint64_t seq_ = 0;
  std::map<std::uint64_t, std::vector<bool>> early_;
  std::map<std::pair<std::uint64_t, unsigned>, std::pair<zmq::message_t, zmq::message_t>> stash_;

  /// A message from the coordinator: a heartbeat, or the end of the run.
  void take_control() {
    zmq::message_t m;
    (void)control_->recv(m);
    heard_ = std::chrono::steady_clock::now();
    const auto text = m.to_string_view();
    if (!text.empty() && text[0] == COORDINATOR_HEARTBEAT) return;
    std::string reason = "(no reason given)";
    try {
      wire::Reader r(text);
      (void)r.get<char>();
      reason = r.get_string();
    } catch (const TransportError&) {
    }
    throw TransportError("run aborted by the coordinator: " + reason);
  }

  /// Never blocks: with no high-water mark a push only refuses a message once its peer has closed
  /// its end (a worker that failed and left: inproc pipes do not outlive the socket), and waiting
  /// for it then would hang the run.
  void send(unsigned peer, zmq::message_t& message, zmq::send_flags flags) {
    if (!push_[peer].send(message, flags | zmq::send_flags::dontwait)) {
      throw TransportError(fmt::format("worker {}: peer worker {} is gone", self_, peer));
    }
  }

  /// A message that owns @p bytes: zmq frees them once sent (inproc: once the receiver is done).
  static zmq::message_t adopt(std::string bytes) {
    auto* owned = new std::string(std::move(bytes));
    return zmq::message_t(owned->data(), owned->size(),
                          [](void*, void* hint) {
                            after_receive();
                            delete static_cast<std::string*>(hint);
                          },
                          owned);
  }

  /// Decodes a peer's batch; its requests stay in the received message, decoded by the worker.
  static void take(const zmq::message_t& head, zmq::message_t requests, Batch<Time>& batch) {
    wire::Reader r(head.to_string_view());
    (void)r.get<std::uint8_t>();
    (void)r.get<unsigned>();
    (void)r.get<std::uint64_t>();
    wire::get_batch(r, batch);
    auto holder = std::make_shared<zmq::message_t>(std::move(requests));
    batch.received = holder->to_string_view();
    batch.holder = std::move(holder);
  }
};

template <class Time>
void merge_into(RunResult<Time>& result, Worker<Time>& worker) {
  result.makespan = std::max(result.makespan, worker.makespan());
  result.counters.merge(worker.counters());
  auto& t = worker.trace();
  result.trace.insert(result.trace.end(), std::make_move_iterator(t.begin()), std::make_move_iterator(t.end()));
}

template <class Time>
void sort_trace(RunResult<Time>& result) {
  std::sort(result.trace.begin(), result.trace.end(), [](const auto& a, const auto& b) { return a.key() < b.key(); });
}

std::atomic<unsigned> run_counter{0};

template <class Time>
RunResult<Time> run_threads(const topology::Topology& topology, const CostModel<Time>& costs,
                            const ProgramFactory& factory, const RunConfig& config, unsigned workers) {
  const auto start = std::chrono::steady_clock::now();
  const auto parts = partition_nodes(topology, workers);
  zmq::context_t ctx;
  std::vector<std::string> endpoints;
  std::vector<zmq::socket_t> pulls;
  const unsigned run = run_counter.fetch_add(1);
  for (unsigned i = 0; i < workers; ++i) {
    pulls.push_back(make_socket(ctx, zmq::socket_type::pull));
    endpoints.push_back(fmt::format("inproc://starnet-{}-{}-{}", ::getpid(), run, i));
    pulls.back().bind(endpoints.back());
  }
  RunResult<Time> result;
  for (const auto& p : parts) result.programs.push_back(factory(p));
  std::vector<Worker<Time>> cores(workers);
  std::vector<std::exception_ptr> errors(workers);
  std::atomic<bool> failed{false};
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < workers; ++i) {
    threads.emplace_back([&, i] {
      std::optional<ZmqExchange<Time>> exchange;
      try {
        exchange.emplace(ctx, i, std::move(pulls[i]), endpoints, nullptr, nullptr, 600, &failed);
        cores[i].reset(topology, costs, config, parts, i, *result.programs[i], &*exchange);
        cores[i].run();
      } catch (const zmq::error_t& e) {
        errors[i] = std::make_exception_ptr(zmq_failure(e));
        failed = true;
        if (exchange) exchange->abort(e.what());
      } catch (const std::exception& e) {
        errors[i] = std::current_exception();
        failed = true;
        if (exchange) exchange->abort(e.what());
      }
    });
  }
  for (auto& t : threads) t.join();
  // Every worker reports the same port-model violation; otherwise the first failure that is not
  // the echo of another worker's failure is the cause.
  std::exception_ptr cause;
  for (const auto& e : errors) {
    if (!e) continue;
    try {
      std::rethrow_exception(e);
    } catch (const ModelViolation&) {
      cause = e;
      break;
    } catch (const TransportError&) {
      if (!cause) cause = e;
    } catch (...) {
      cause = e;
    }
  }
  if (cause) std::rethrow_exception(cause);
  for (auto& core : cores) merge_into(result, core);
  sort_trace(result);
  for (const auto& p : result.programs) result.reports.push_back(p->report());
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace

template <class Time>
RunResult<Time> run_zmq_threads(const topology::Topology& topology, const CostModel<Time>& costs,
                                const ProgramFactory& factory, const RunConfig& config, unsigned workers) {
  try {
    return run_threads(topology, costs, factory, config, workers);
  } catch (const zmq::error_t& e) {
    throw zmq_failure(e);
  }
}

template RunResult<Rational> run_zmq_threads(const topology::Topology&, const CostModel<Rational>&,
                                             const ProgramFactory&, const RunConfig&, unsigned);
template RunResult<double> run_zmq_threads(const topology::Topology&, const CostModel<double>&,
                                           const ProgramFactory&, const RunConfig&, unsigned);

// ---- processes ------------------------------------------------------------------------------
//
// Coordinator (ROUTER) ⇄ workers (DEALER): HELLO {index or any, pull endpoint, host, pid, nonce} →
// CONFIG {index, job, config, peer timeout, partitions, endpoints} → RESULT {makespan, counters,
// report, trace, peak resident bytes} or FAILED {exit, message}. Meanwhile each side sends
// HEARTBEAT every HEARTBEAT_SECONDS: a worker from a socket and thread of its own (carrying the
// nonce of its hello, so that no one else can beat for it), the coordinator to every worker.
// The coordinator sends ABORT {reason} when the run ends early, and reaps every child it started.

namespace {

constexpr char HELLO = 'H';
constexpr char CONFIG = 'C';
constexpr char RESULT = 'R';
constexpr char FAILED = 'F';
constexpr char HEARTBEAT = COORDINATOR_HEARTBEAT;
constexpr char ABORT_RUN = 'A';
/// Bytes of a worker's nonce: enough that no stray peer guesses it.
constexpr std::size_t NONCE_BYTES = 16;
/// Failed handshakes after which a worker gives up on its key: one may be a network hiccup.
constexpr std::uint64_t HANDSHAKE_ATTEMPTS = 3;
/// Heartbeats a worker queues while its coordinator is unreachable, then drops.
constexpr int HEARTBEAT_QUEUE = 16;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::chrono::milliseconds milliseconds(double seconds) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::duration<double>(seconds));
}

void put_config(wire::Writer& w, const RunConfig& c) {
  w.put(c.ports.ports);
  w.put(static_cast<std::uint8_t>(c.ports.half_duplex));
  w.put(static_cast<std::uint8_t>(c.checking));
  w.put(static_cast<std::uint8_t>(c.time));
  w.put(static_cast<std::uint8_t>(c.trace));
  w.put(static_cast<std::uint8_t>(c.horizon.has_value()));
  w.put(c.horizon.value_or(0));
}

RunConfig get_config(wire::Reader& r) {
  RunConfig c;
  c.ports.ports = r.get<unsigned>();
  c.ports.half_duplex = r.get_flag();
  c.checking = r.get_enum(Checking::ARBITRATED);
  c.time = r.get_enum(TimeMode::TIMED);
  c.trace = r.get_flag();
  const bool horizon = r.get_flag();
  const Rational h = r.get_rational();
  if (horizon) c.horizon = h;
  return c;
}

void put_trace_event(wire::Writer& w, const TraceEvent<Rational>& e) {
  w.put(e.step);
  w.put(e.round);
  w.put(e.time);
  w.put(e.kind);
  w.put(e.node);
  w.put(e.peer);
  w.put(e.port);
  w.put(e.tag);
  w.put(e.size);
  w.put(e.bytes);
  w.put(e.payload);
}

TraceEvent<Rational> get_trace_event(wire::Reader& r) {
  TraceEvent<Rational> e;
  e.step = r.get<std::uint64_t>();
  e.round = r.get<std::uint32_t>();
  e.time = r.get_rational();
  e.kind = r.get_enum(EventKind::TIMER);
  e.node = r.get<NodeId>();
  e.peer = r.get<NodeId>();
  e.port = r.get<Port>();
  e.tag = r.get<std::uint64_t>();
  e.size = r.get_rational();
  e.bytes = r.get<std::uint64_t>();
  e.payload = r.get_string();
  return e;
}

/// A worker of the run: a child process this coordinator started, or one that joined.
struct Child {
  pid_t pid = -1;        // a child started here; -1 for one that joined
  bool reaped = false;
  bool answered = false;
  std::string identity;  // empty until its hello
  std::string endpoint;
  std::string host;      // "HOST (ADDRESS)" for messages
  pid_t remote_pid = -1;
  std::string nonce;
  Clock::time_point heard;
  int status = 0;  // once reaped
  Clock::time_point exited;
};

/// How long the answer of a child that exited may take to arrive.
constexpr double EXIT_GRACE_SECONDS = 1;

/// Whether process @p pid is stopped (state T or t of /proc/PID/stat).
bool is_stopped(pid_t pid) {
  std::ifstream in(fmt::format("/proc/{}/stat", pid));
  std::string text;
  std::getline(in, text);
  // "PID (COMMAND) STATE ...": the command may hold spaces and parentheses, the last ')' ends it.
  const auto close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && (text[close + 2] == 'T' || text[close + 2] == 't');
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) return fmt::format("was killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  return fmt::format("exited with status {}", WEXITSTATUS(status));
}

/// Starts @p argv; @p inherited (if not -1) is the one close-on-exec descriptor the child keeps.
pid_t spawn(const std::vector<std::string>& argv, int inherited) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw TransportError(fmt::format("cannot start a worker process ({})", std::strerror(errno)));
  if (pid == 0) {
    // A worker must not outlive its coordinator.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(126);
    if (inherited >= 0 && ::fcntl(inherited, F_SETFD, 0) != 0) ::_exit(126);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  return pid;
}

std::string this_host() {
  std::array<char, HOST_NAME_MAX + 1> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "?";
  return name.data();
}

/// The run's keys: none on loopback without CURVE; from the key file of a join run (written
/// there when absent); otherwise a fresh pair.
std::optional<CurveKeys> run_keys(const ProcessOptions& options) {
  if (!uses_curve(options)) return std::nullopt;
  if (!options.join) return CurveKeys::generate();
  if (::access(options.key_file.c_str(), F_OK) == 0) return CurveKeys::read_file(options.key_file);
  auto keys = CurveKeys::generate();
  keys.write_file(options.key_file);
  return keys;
}

struct Received {
  std::string identity;
  zmq::message_t body;
};

class Coordinator {
 public:
  explicit Coordinator(const ProcessOptions& options)
      : options_(options),
        dir_(uses_ipc(options) ? std::make_unique<PrivateDirectory>() : nullptr),
        tcp_(ctx_, TcpAddress::parse(options.address), run_keys(options),
             dir_ ? std::optional(dir_->path()) : std::nullopt),
        router_(make_socket(ctx_, zmq::socket_type::router)),
        handshakes_(ctx_, router_) {
    // Workers started here are killed when the run ends; workers on other hosts must get the
    // last abort.
    if (!options.join) router_.set(zmq::sockopt::linger, 0);
    endpoint_ = tcp_.bind(router_, options.port);
    if (options.join && options.on_listening) options.on_listening(endpoint_);
  }

  ~Coordinator() {
    for (auto& c : children_) {
      if (c.pid > 0 && !c.reaped) {
        ::kill(c.pid, SIGKILL);
        ::waitpid(c.pid, nullptr, 0);
      }
    }
  }

  RunResult<Rational> run(const topology::Topology& topology, const RunConfig& config, const std::string& job) {
    const auto start = Clock::now();
    const unsigned k = options_.workers;
    children_.resize(k);
    if (!options_.join) start_children();
    gather_hellos();
    send_configs(partition_nodes(topology, k), config, job);
    RunResult<Rational> result = collect_results();
    sort_trace(result);
    result.wall_seconds = seconds_since(start);
    result.stray_messages = strays_;
    result.refused_connections = refused();
    for (const auto& c : children_) result.worker_hosts.push_back(c.host);
    return result;
  }

 private:
  void start_children() {
    for (unsigned i = 0; i < children_.size(); ++i) {
      std::vector<std::string> argv = {options_.executable, "worker",    "--connect", endpoint_, "--index",
                                       std::to_string(i),   "--address", tcp_.address().ip, "--timeout",
                                       fmt::format("{}", options_.timeout_seconds)};
      std::optional<KeyPipe> key;
      if (tcp_.keys()) {
        key.emplace(*tcp_.keys());
        argv.insert(argv.end(), {"--key-fd", std::to_string(key->fd())});
      }
      if (options_.extra_arguments) {
        for (auto& a : options_.extra_arguments(i)) argv.push_back(std::move(a));
      }
      children_[i].pid = spawn(argv, key ? key->fd() : -1);
    }
  }

  /// HELLO from every worker. Anything else is a stray peer's: dropped, and a worker too many is
  /// told to leave.
  void gather_hellos() {
    const unsigned k = static_cast<unsigned>(children_.size());
    const auto start = Clock::now();
    for (unsigned hellos = 0; hellos < k;) {
      auto m = receive(options_.join ? "waiting for workers to join" : "connecting", start);
      if (!m) {
        auto error = missing_workers(hellos);
        abort_all(fmt::format("not every worker joined within {} s", options_.timeout_seconds));
        throw error;
      }
      try {
        wire::Reader r(m->body.to_string_view());
        if (r.get<char>() != HELLO) throw TransportError("not a hello");
        unsigned index = r.get<unsigned>();
        std::string endpoint = r.get_string();
        std::string host = r.get_string();
        const auto pid = r.get<pid_t>();
        std::string nonce = r.get_string();
        if (options_.join && index == WorkerOptions::ANY_INDEX) index = first_free();
        if (index >= k || !children_[index].identity.empty() || (!options_.join && pid != children_[index].pid)) {
          tell_to_leave(m->identity, fmt::format("this run has no free worker index {} (it takes {} workers)",
                                                 index == WorkerOptions::ANY_INDEX ? std::string("left")
                                                                                   : std::to_string(index), k));
          throw TransportError("no such worker, or said twice");
        }
        auto& c = children_[index];
        c.identity = m->identity;
        c.endpoint = std::move(endpoint);
        c.host = dir_ ? host : fmt::format("{} ({})", host, peer_address(m->body));  // ipc:// has no address
        c.remote_pid = pid;
        c.nonce = std::move(nonce);
        c.heard = Clock::now();
        ++hellos;
      } catch (const TransportError&) {
        ++strays_;
      }
    }
  }

  void send_configs(const std::vector<NodeRange>& parts, const RunConfig& config, const std::string& job) {
    const unsigned k = static_cast<unsigned>(children_.size());
    for (unsigned i = 0; i < k; ++i) {
      wire::Writer w;
      w.put(CONFIG);
      w.put(i);
      w.put(job);
      put_config(w, config);
      w.put(options_.peer_timeout_seconds);
      w.put(k);
      for (const auto& p : parts) {
        w.put(p.begin);
        w.put(p.end);
      }
      for (const auto& c : children_) w.put(c.endpoint);
      send(children_[i].identity, w.str());
    }
  }

  RunResult<Rational> collect_results() {
    const unsigned k = static_cast<unsigned>(children_.size());
    RunResult<Rational> result;
    result.reports.resize(k);
    result.worker_peak_bytes.resize(k);
    std::optional<std::pair<int, std::string>> failure;
    for (unsigned answers = 0; answers < k;) {
      auto m = receive("running", Clock::now());
      if (!m) {
        abort_all("timeout");
        throw TransportError(fmt::format("no worker answered for {} s while running (increase the timeout?)",
                                         options_.timeout_seconds));
      }
      const auto index = worker_of(m->identity);
      if (index == k || children_[index].answered) {
        ++strays_;
        continue;
      }
      children_[index].answered = true;
      ++answers;
      wire::Reader r(m->body.to_string_view());
      const char type = r.get<char>();
      if (type == FAILED) {
        const int code = r.get<int>();
        std::string message = r.get_string();
        // Prefer the cause over echoes of it (a peer noticing that this worker stopped).
        if (!failure || (failure->first == 3 && code != 3)) failure = {code, std::move(message)};
        continue;
      }
      if (type != RESULT) throw TransportError("a worker sent an unexpected message");
      result.makespan = std::max(result.makespan, r.get_rational());
      Counters c = r.get<Counters>();
      result.counters.merge(c);
      result.reports[index] = r.get_string();
      const auto events = r.get<std::uint64_t>();
      for (std::uint64_t e = 0; e < events; ++e) result.trace.push_back(get_trace_event(r));
      result.worker_peak_bytes[index] = r.get<std::uint64_t>();
    }
    if (failure) {
      if (failure->first == 1) throw ModelViolation(failure->second);
      if (failure->first == 2) throw ScheduleError(failure->second);
      throw TransportError(failure->second);
    }
    return result;
  }

  unsigned first_free() const {
    unsigned i = 0;
    while (i < children_.size() && !children_[i].identity.empty()) ++i;
    return i;
  }

  unsigned worker_of(const std::string& identity) const {
    unsigned i = 0;
    while (i < children_.size() && children_[i].identity != identity) ++i;
    return i;
  }

  TransportError missing_workers(unsigned joined) const {
    std::vector<std::string> present;
    std::vector<unsigned> missing;
    for (unsigned i = 0; i < children_.size(); ++i) {
      if (children_[i].identity.empty()) {
        missing.push_back(i);
      } else {
        present.push_back(fmt::format("{} on {}", i, children_[i].host));
      }
    }
    const auto refusals = tcp_.refusals();
    const auto refused = this->refused();
    const auto from = refusals.addresses.empty() ? std::string() : fmt::format(" (from {})", fmt::join(refusals.addresses, ", "));
    return TransportError(fmt::format(
        "{} of {} workers {} within {} s; worker{} {} never did{}{}", joined, children_.size(),
        options_.join ? "joined " + endpoint_ : "answered", options_.timeout_seconds, missing.size() > 1 ? "s" : "",
        fmt::join(missing, ", "), present.empty() ? "" : fmt::format(" (joined: {})", fmt::join(present, ", ")),
        refused == 0 ? ""
                     : fmt::format("; {} connection{} refused for not holding the run's key or not speaking ZeroMQ{}",
                                   refused, refused > 1 ? "s" : "", from)));
  }

  /// Connections refused so far: their handshake failed (the ZAP handler's refusals among them) or
  /// never ended.
  [[nodiscard]] std::uint64_t refused() const { return handshakes_.not_admitted(); }

  static std::string peer_address(zmq::message_t& m) {
    try {
      return m.gets("Peer-Address");
    } catch (const zmq::error_t&) {
      return "address unknown";
    }
  }

  void send(const std::string& identity, const std::string& body) {
    router_.send(zmq::buffer(identity), zmq::send_flags::sndmore);
    router_.send(zmq::buffer(body), zmq::send_flags::none);
  }

  void tell_to_leave(const std::string& identity, const std::string& reason) {
    wire::Writer w;
    w.put(ABORT_RUN);
    w.put(reason);
    try {
      router_.send(zmq::buffer(identity), zmq::send_flags::sndmore | zmq::send_flags::dontwait);
      router_.send(zmq::buffer(w.str()), zmq::send_flags::dontwait);
    } catch (const zmq::error_t&) {  // best effort: the destructor kills what remains
    }
  }

  /// The next message from a worker that is not a heartbeat, watching meanwhile for dead, stopped
  /// or silent workers; std::nullopt once options_.timeout_seconds have passed since @p since.
  std::optional<Received> receive(const char* phase, Clock::time_point since) {
    for (;;) {
      std::vector<zmq::pollitem_t> items = {{router_.handle(), 0, ZMQ_POLLIN, 0}, handshakes_.item()};
      zmq::poll(items, POLL);
      if ((items[1].revents & ZMQ_POLLIN) != 0) handshakes_.take();
      beat();
      check_children(phase);
      check_heard(phase);
      if ((items[0].revents & ZMQ_POLLIN) != 0) {
        Received m;
        zmq::message_t identity;
        (void)router_.recv(identity);
        (void)router_.recv(m.body);
        while (m.body.more()) {  // a stray peer's extra frames
          (void)router_.recv(m.body);
          ++strays_;
        }
        m.identity = identity.to_string();
        if (!take_heartbeat(m)) return m;
      }
      if (seconds_since(since) > options_.timeout_seconds) return std::nullopt;
    }
  }

  /// Whether @p m is a heartbeat (from a worker, or dropped as a stray).
  bool take_heartbeat(const Received& m) {
    const auto body = m.body.to_string_view();
    const auto index = worker_of(m.identity);
    if (index < children_.size()) children_[index].heard = Clock::now();
    if (body.empty() || body[0] != HEARTBEAT) return false;
    try {
      wire::Reader r(body);
      (void)r.get<char>();
      const std::string nonce = r.get_string();
      for (auto& c : children_) {
        if (!c.nonce.empty() && c.nonce == nonce) {
          c.heard = Clock::now();
          return true;
        }
      }
    } catch (const TransportError&) {
    }
    ++strays_;
    return true;
  }

  void beat() {
    if (seconds_since(last_beat_) < HEARTBEAT_SECONDS) return;
    last_beat_ = Clock::now();
    for (const auto& c : children_) {
      if (c.identity.empty() || c.answered) continue;
      try {
        (void)router_.send(zmq::buffer(c.identity), zmq::send_flags::sndmore | zmq::send_flags::dontwait);
        (void)router_.send(zmq::buffer(&HEARTBEAT, 1), zmq::send_flags::dontwait);
      } catch (const zmq::error_t&) {  // a worker that cannot take it is caught by its own silence
      }
    }
  }

  /// Ends the run when a child has exited without answering: killed, or EXIT_GRACE_SECONDS after
  /// an exit (its answer may still be on its way: a child sends it, then exits).
  void check_children(const char* phase) {
    for (unsigned i = 0; i < children_.size(); ++i) {
      auto& c = children_[i];
      if (c.pid <= 0 || c.answered) continue;
      if (!c.reaped) {
        if (::waitpid(c.pid, &c.status, WNOHANG) != c.pid) continue;
        c.reaped = true;
        c.exited = Clock::now();
      }
      if (!WIFSIGNALED(c.status) && seconds_since(c.exited) < EXIT_GRACE_SECONDS) continue;
      abort_all(fmt::format("worker {} died", i));
      throw TransportError(fmt::format("worker {} (pid {}) {} while {}; the run was stopped", i, c.pid,
                                       describe_status(c.status), phase));
    }
  }

  /// Ends the run when a worker has sent nothing, heartbeats included, for the peer timeout.
  void check_heard(const char* phase) {
    for (unsigned i = 0; i < children_.size(); ++i) {
      const auto& c = children_[i];
      if (c.identity.empty() || c.answered || seconds_since(c.heard) <= options_.peer_timeout_seconds) continue;
      const bool stopped = c.pid > 0 && is_stopped(c.pid);
      abort_all(fmt::format("worker {} went silent", i));
      throw TransportError(fmt::format(
          "worker {} (pid {} on {}) has not been heard from for {} s while {} ({}); the run was stopped", i,
          c.remote_pid, c.host, options_.peer_timeout_seconds, phase,
          stopped ? "its process is stopped: SIGSTOP or a debugger" : "stopped, hung, or its network is down"));
    }
  }

  void abort_all(const std::string& reason) {
    for (const auto& c : children_) {
      if (!c.identity.empty() && !c.reaped) tell_to_leave(c.identity, reason);
    }
  }

  ProcessOptions options_;
  zmq::context_t ctx_;
  std::unique_ptr<PrivateDirectory> dir_;  // ipc runs: the endpoints' folder, removed last
  TcpTransport tcp_;  // before router_: its ZAP handler must outlive every server socket
  zmq::socket_t router_;
  HandshakeMonitor handshakes_;  // of router_: clients refused by CURVE, or not speaking ZMTP
  std::string endpoint_;
  std::vector<Child> children_;
  std::uint64_t strays_ = 0;  ///< messages dropped: from no worker of the run, or out of protocol
  Clock::time_point last_beat_;
};

}  // namespace

void write_key_file(const std::string& path) { CurveKeys::generate().write_file(path); }

bool uses_curve(const ProcessOptions& options) {
  const bool loopback = TcpAddress::parse(options.address).loopback;
  return options.join || options.security == Security::CURVE || !loopback;
}

bool uses_ipc(const ProcessOptions& options) { return !uses_curve(options) && options.port == 0; }

RunResult<Rational> run_zmq_processes(const topology::Topology& topology, const RunConfig& config,
                                      const std::string& job, const ProcessOptions& options) {
  try {
    Coordinator coordinator(options);
    return coordinator.run(topology, config, job);
  } catch (const zmq::error_t& e) {
    throw zmq_failure(e);
  }
}

namespace {

/// A worker's heartbeat to its coordinator: a thread and a socket of its own, so that it beats
/// while the worker computes a long step, and stops only with the process (or this object).
class Heartbeat {
 public:
  Heartbeat(zmq::context_t& ctx, const TcpTransport& tcp, const std::string& coordinator, const std::string& nonce) {
    wire::Writer w;
    w.put(HEARTBEAT);
    w.put(nonce);
    thread_ = std::thread([this, &ctx, &tcp, coordinator, beat = std::move(w.str())] {
      try {
        zmq::socket_t s = make_socket(ctx, zmq::socket_type::dealer);
        s.set(zmq::sockopt::linger, 0);
        s.set(zmq::sockopt::sndhwm, HEARTBEAT_QUEUE);
        tcp.connect(s, coordinator);
        std::unique_lock lock(mutex_);
        while (!stop_) {
          (void)s.send(zmq::buffer(beat), zmq::send_flags::dontwait);
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

/// What the coordinator sends a worker: its index, the run, and who its peers are.
struct WorkerConfig {
  unsigned index = 0;
  std::string job;
  RunConfig config;
  double peer_timeout = DEFAULT_PEER_TIMEOUT_SECONDS;
  std::vector<NodeRange> parts;
  std::vector<std::string> endpoints;
};

WorkerConfig get_worker_config(wire::Reader& r) {
  WorkerConfig c;
  c.index = r.get<unsigned>();
  c.job = r.get_string();
  c.config = get_config(r);
  c.peer_timeout = r.get<double>();
  if (!(c.peer_timeout > 0) || !std::isfinite(c.peer_timeout)) wire::Reader::malformed("bad peer timeout");
  // Per worker: a range and an endpoint (at least its length).
  const auto k = r.get_count<unsigned>(2 * sizeof(NodeId) + sizeof(std::uint64_t));
  c.parts.resize(k);
  for (auto& p : c.parts) {
    p.begin = r.get<NodeId>();
    p.end = r.get<NodeId>();
  }
  c.endpoints.resize(k);
  for (auto& e : c.endpoints) e = r.get_string();
  if (c.index >= k) wire::Reader::malformed("worker index beyond the run");
  return c;
}

/// Waits for the coordinator's CONFIG (std::nullopt: the run was aborted before, and the coordinator
/// reports why), taking its heartbeats meanwhile, and starts @p heartbeat
/// (to @p endpoint over @p tcp, with @p nonce) once it hears from the coordinator: only then does
/// the coordinator know the nonce, so no earlier beat is taken for a stray's.
/// @throws TransportError when it aborts the run or is silent; UsageError when it refuses this
/// worker's key.
std::optional<WorkerConfig> await_config(zmq::context_t& ctx, zmq::socket_t& control, const WorkerOptions& options,
                          const TcpTransport& tcp, const std::string& nonce, std::optional<Heartbeat>& heartbeat) {
  HandshakeMonitor handshakes(ctx, control);
  const auto start = Clock::now();
  std::optional<Clock::time_point> heard;
  for (;;) {
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
      if (!heartbeat) heartbeat.emplace(ctx, tcp, options.coordinator, nonce);
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
                                       "run with --engine zmq --processes, or join one started with --listen)",
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
    throw UsageError(fmt::format("--connect {}: not an endpoint ZeroMQ can connect to ({}; expected tcp://ADDRESS:PORT)",
                                 options.coordinator, e.what()));
  }
  zmq::socket_t pull = make_socket(ctx, zmq::socket_type::pull);
  const std::string nonce = random_nonce();
  {
    wire::Writer w;
    w.put(HELLO);
    w.put(options.index);
    w.put(tcp.bind(pull, 0));
    w.put(this_host());
    w.put(::getpid());
    w.put(nonce);
    control.send(zmq::buffer(w.str()), zmq::send_flags::none);
  }
  std::optional<Heartbeat> heartbeat;
  const auto config = await_config(ctx, control, options, tcp, nonce, heartbeat);
  if (!config) return FAILED_WORKER_EXIT;
  const WorkerConfig& c = *config;
  wire::Writer answer;
  std::optional<ZmqExchange<Rational>> exchange;
  std::exception_ptr failure;
  try {
    const WorkerSetup s = setup(c.job, c.index);
    exchange.emplace(ctx, c.index, std::move(pull), c.endpoints, &control, &tcp, 600);
    exchange->watch_coordinator(c.peer_timeout);
    auto program = s.factory(c.parts.at(c.index));
    Worker<Rational> worker;
    worker.reset(*s.topology, *s.costs, c.config, c.parts, c.index, *program, &*exchange);
    worker.run();
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

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
#include <chrono>
#include <csignal>
#include <exception>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
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
      if (control_ != nullptr && (items[1].revents & ZMQ_POLLIN) != 0) {
        zmq::message_t m;
        (void)control_->recv(m);
        throw TransportError("run aborted by the coordinator: " + m.to_string());
      }
      if ((items[0].revents & ZMQ_POLLIN) == 0) {
        if (stop_ != nullptr && stop_->load()) throw TransportError(fmt::format("worker {}: a peer worker failed", self_));
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
  std::uint64_t seq_ = 0;
  std::map<std::uint64_t, std::vector<bool>> early_;
  std::map<std::pair<std::uint64_t, unsigned>, std::pair<zmq::message_t, zmq::message_t>> stash_;

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
// Coordinator (ROUTER) ⇄ workers (DEALER): HELLO {index, pull endpoint} → CONFIG {job, config,
// partitions, endpoints} → RESULT {makespan, counters, report, trace, peak resident bytes} or
// FAILED {exit, message}.
// The coordinator sends ABORT when a worker dies, and reaps every child it started.

namespace {

constexpr char HELLO = 'H';
constexpr char CONFIG = 'C';
constexpr char RESULT = 'R';
constexpr char FAILED = 'F';

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

struct Child {
  pid_t pid = -1;
  bool reaped = false;
  bool answered = false;
  std::string identity;
  std::string endpoint;
  std::optional<std::chrono::steady_clock::time_point> stopped_since;
};

/// How long a worker process may stay stopped (SIGSTOP, a debugger) before the run is ended: its
/// peers would wait for it at the next barrier for ever.
constexpr double STOPPED_WORKER_SECONDS = 5;

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

class Coordinator {
 public:
  Coordinator(const ProcessOptions& options)
      : options_(options),
        dir_(uses_ipc(options) ? std::make_unique<PrivateDirectory>() : nullptr),
        tcp_(ctx_, TcpAddress::parse(options.address),
             uses_curve(options) ? std::optional(CurveKeys::generate()) : std::nullopt,
             dir_ ? std::optional(dir_->path()) : std::nullopt),
        router_(make_socket(ctx_, zmq::socket_type::router)) {
    router_.set(zmq::sockopt::linger, 0);
    endpoint_ = tcp_.bind(router_, options.port);
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
    const auto start = std::chrono::steady_clock::now();
    const unsigned k = options_.workers;
    const auto parts = partition_nodes(topology, k);
    children_.resize(k);
    for (unsigned i = 0; i < k; ++i) {
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
    // HELLO from everyone, then CONFIG to everyone. Anything else is a stray peer's: dropped.
    unsigned hellos = 0;
    while (hellos < k) {
      auto [identity, body] = receive("connecting");
      try {
        wire::Reader r(body);
        if (r.get<char>() != HELLO) throw TransportError("not a hello");
        const auto index = r.get<unsigned>();
        if (index >= k || !children_[index].identity.empty()) throw TransportError("no such worker, or said twice");
        std::string endpoint = r.get_string();
        children_[index].identity = identity;
        children_[index].endpoint = std::move(endpoint);
        ++hellos;
      } catch (const TransportError&) {
        ++strays_;
      }
    }
    for (unsigned i = 0; i < k; ++i) {
      wire::Writer w;
      w.put(CONFIG);
      w.put(job);
      put_config(w, config);
      w.put(k);
      for (const auto& p : parts) {
        w.put(p.begin);
        w.put(p.end);
      }
      for (const auto& c : children_) w.put(c.endpoint);
      send(i, w.str());
    }
    RunResult<Rational> result;
    result.reports.resize(k);
    result.worker_peak_bytes.resize(k);
    std::optional<std::pair<int, std::string>> failure;
    for (unsigned answers = 0; answers < k;) {
      auto [identity, body] = receive("running");
      unsigned index = k;
      for (unsigned i = 0; i < k; ++i) index = children_[i].identity == identity ? i : index;
      if (index == k || children_[index].answered) {
        ++strays_;
        continue;
      }
      children_[index].answered = true;
      ++answers;
      wire::Reader r(body);
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
    sort_trace(result);
    result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.stray_messages = strays_;
    return result;
  }

 private:
  void send(unsigned index, const std::string& body) {
    router_.send(zmq::buffer(children_[index].identity), zmq::send_flags::sndmore);
    router_.send(zmq::buffer(body), zmq::send_flags::none);
  }

  /// The next message from a worker, watching for dead children meanwhile.
  std::pair<std::string, std::string> receive(const char* phase) {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      std::vector<zmq::pollitem_t> items = {{router_.handle(), 0, ZMQ_POLLIN, 0}};
      zmq::poll(items, POLL);
      if ((items[0].revents & ZMQ_POLLIN) != 0) {
        zmq::message_t identity;
        zmq::message_t body;
        (void)router_.recv(identity);
        (void)router_.recv(body);
        return {identity.to_string(), body.to_string()};
      }
      check_children(phase);
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > options_.timeout_seconds) {
        abort_all("timeout");
        throw TransportError(fmt::format("no worker answered for {} s while {} (increase the timeout?)",
                                         options_.timeout_seconds, phase));
      }
    }
  }

  void check_children(const char* phase) {
    for (unsigned i = 0; i < children_.size(); ++i) {
      auto& c = children_[i];
      if (c.reaped || c.answered) continue;
      int status = 0;
      if (::waitpid(c.pid, &status, WNOHANG) != c.pid) {
        check_stopped(i, phase);
        continue;
      }
      c.reaped = true;
      abort_all(fmt::format("worker {} died", i));
      throw TransportError(fmt::format("worker {} (pid {}) {} while {}; the run was stopped", i, c.pid,
                                       describe_status(status), phase));
    }
  }

  /// Ends the run when child @p i has been stopped for STOPPED_WORKER_SECONDS.
  void check_stopped(unsigned i, const char* phase) {
    auto& c = children_[i];
    if (!is_stopped(c.pid)) {
      c.stopped_since.reset();
      return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (!c.stopped_since) c.stopped_since = now;
    if (std::chrono::duration<double>(now - *c.stopped_since).count() < STOPPED_WORKER_SECONDS) return;
    abort_all(fmt::format("worker {} is stopped", i));
    throw TransportError(fmt::format("worker {} (pid {}) has been stopped (SIGSTOP or a debugger) for {} s while {}; "
                                     "the run was stopped",
                                     i, c.pid, STOPPED_WORKER_SECONDS, phase));
  }

  void abort_all(const std::string& reason) {
    for (unsigned i = 0; i < children_.size(); ++i) {
      if (children_[i].identity.empty() || children_[i].reaped) continue;
      try {
        router_.send(zmq::buffer(children_[i].identity), zmq::send_flags::sndmore | zmq::send_flags::dontwait);
        router_.send(zmq::buffer(reason), zmq::send_flags::dontwait);
      } catch (const zmq::error_t&) {  // best effort: the destructor kills what remains
      }
    }
  }

  ProcessOptions options_;
  zmq::context_t ctx_;
  std::unique_ptr<PrivateDirectory> dir_;  // ipc runs: the endpoints' folder, removed last
  TcpTransport tcp_;  // before router_: its ZAP handler must outlive every server socket
  zmq::socket_t router_;
  std::string endpoint_;
  std::vector<Child> children_;
  std::uint64_t strays_ = 0;  ///< messages dropped: from no worker of the run, or out of protocol
};

}  // namespace

bool uses_curve(const ProcessOptions& options) {
  const bool loopback = TcpAddress::parse(options.address).loopback;
  return options.security == Security::CURVE || !loopback;
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

int serve_as_worker(const WorkerOptions& options, const WorkerSetupFunction& setup) {
  const unsigned index = options.index;
  zmq::context_t ctx;
  const TcpTransport tcp(ctx, TcpAddress::parse(options.address),
                         options.key_fd >= 0 ? std::optional(CurveKeys::read_from(options.key_fd)) : std::nullopt,
                         ipc_directory(options.coordinator));
  zmq::socket_t control = make_socket(ctx, zmq::socket_type::dealer);
  try {
    tcp.connect(control, options.coordinator);
  } catch (const zmq::error_t& e) {
    throw UsageError(fmt::format("--connect {}: not an endpoint ZeroMQ can connect to ({}; expected tcp://ADDRESS:PORT)",
                                 options.coordinator, e.what()));
  }
  zmq::socket_t pull = make_socket(ctx, zmq::socket_type::pull);
  {
    wire::Writer w;
    w.put(HELLO);
    w.put(index);
    w.put(tcp.bind(pull, 0));
    control.send(zmq::buffer(w.str()), zmq::send_flags::none);
  }
  std::vector<zmq::pollitem_t> items = {{control.handle(), 0, ZMQ_POLLIN, 0}};
  zmq::poll(items, std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::duration<double>(options.timeout_seconds)));
  if ((items[0].revents & ZMQ_POLLIN) == 0) {
    throw TransportError(fmt::format("worker {}: no coordinator answered at {} within {} s (workers are started by "
                                     "a run with --engine zmq --processes)",
                                     index, options.coordinator, options.timeout_seconds));
  }
  zmq::message_t m;
  (void)control.recv(m);
  wire::Reader r(m.to_string_view());
  if (r.get<char>() != CONFIG) return 3;  // aborted before the run started
  const std::string job = r.get_string();
  const RunConfig config = get_config(r);
  // Per worker: a range and an endpoint (at least its length).
  const auto k = r.get_count<unsigned>(2 * sizeof(NodeId) + sizeof(std::uint64_t));
  std::vector<NodeRange> parts(k);
  for (auto& p : parts) {
    p.begin = r.get<NodeId>();
    p.end = r.get<NodeId>();
  }
  std::vector<std::string> endpoints(k);
  for (auto& e : endpoints) e = r.get_string();

  wire::Writer answer;
  std::optional<ZmqExchange<Rational>> exchange;
  try {
    const WorkerSetup s = setup(job, index);
    exchange.emplace(ctx, index, std::move(pull), endpoints, &control, &tcp, 600);
    auto program = s.factory(parts.at(index));
    Worker<Rational> worker;
    worker.reset(*s.topology, *s.costs, config, parts, index, *program, &*exchange);
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
    answer = {};
    answer.put(FAILED);
    answer.put(e.exit_code());
    answer.put(std::string(e.what()));
  } catch (const std::exception& e) {
    if (exchange) exchange->abort(e.what());
    answer = {};
    answer.put(FAILED);
    answer.put(3);
    answer.put(fmt::format("worker {}: {}", index, e.what()));
  }
  control.send(zmq::buffer(answer.str()), zmq::send_flags::none);
  return 0;
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

// The coordinator of worker processes (`run_zmq_processes`): it starts them or lets them join,
// hands out the run, watches that every worker lives, and gathers the results.
#include "zmq_processes.hpp"

#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/emulator/zmq_engine.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <optional>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace starnet::emulator {
namespace {

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

/// Addresses of strangers named in a summary: a scanner's many are counted, not listed.
constexpr std::size_t MAX_NAMED_STRANGERS = 4;

/// How long the answer of a child that exited may take to arrive.
constexpr double EXIT_GRACE_SECONDS = 1;

/// What a worker that cannot join is told: the index it asked for is taken, or none is left.
std::string no_free_index(unsigned asked, unsigned workers) {
  return fmt::format("this run has no free worker index {} (it takes {} workers)",
                     asked == WorkerOptions::ANY_INDEX ? std::string("left") : std::to_string(asked), workers);
}

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
    const auto parts = partition_nodes(topology, k);  // refuses too many workers before any joins
    children_.resize(k);
    if (!options_.join) start_children();
    gather_hellos();
    send_configs(parts, config, job);
    RunResult<Rational> result = collect_results();
    sort_trace(result.trace);
    result.wall_seconds = seconds_since(start);
    result.stray_messages = strays_;
    result.refused_connections = refused();
    result.longest_silence_seconds = longest_silence_;
    result.stranger_addresses = strangers();
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
        auto [asked, endpoint, host, pid, nonce] = get_hello(r);
        const unsigned index = options_.join && asked == WorkerOptions::ANY_INDEX ? first_free() : asked;
        if (index >= k || !children_[index].identity.empty() || (!options_.join && pid != children_[index].pid)) {
          tell_to_leave(m->identity, no_free_index(asked, k));
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
        drop(m->body);
      }
    }
  }

  void send_configs(const std::vector<NodeRange>& parts, const RunConfig& config, const std::string& job) {
    const unsigned k = static_cast<unsigned>(children_.size());
    std::vector<std::string> endpoints;
    for (const auto& c : children_) endpoints.push_back(c.endpoint);
    for (unsigned i = 0; i < k; ++i) {
      wire::Writer w;
      put_worker_config(w, {i, job, config, options_.peer_timeout, options_.timeout_seconds, parts, endpoints});
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
        // A worker that joins late: tell it, rather than let it wait for a configuration.
        if (index == k && !m->body.empty() && m->body.data<char>()[0] == HELLO) {
          tell_to_leave(m->identity, no_free_index(WorkerOptions::ANY_INDEX, k));
        }
        drop(m->body);
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
      throw_if_stopped();  // the destructor kills the workers started here
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
          drop(m.body);
        }
        m.identity = identity.to_string();
        if (!take_heartbeat(m)) return m;
      }
      if (seconds_since(since) > options_.timeout_seconds) return std::nullopt;
    }
  }

  /// Notes that @p c was heard from now, and how long it had been silent.
  void hear(Child& c) {
    const auto now = Clock::now();
    if (!c.answered) longest_silence_ = std::max(longest_silence_, std::chrono::duration<double>(now - c.heard).count());
    c.heard = now;
  }

  /// Whether @p m is a heartbeat (from a worker, or dropped as a stray).
  bool take_heartbeat(Received& m) {
    const auto body = m.body.to_string_view();
    const auto index = worker_of(m.identity);
    if (index < children_.size()) hear(children_[index]);
    if (body.empty() || body[0] != HEARTBEAT) return false;
    try {
      wire::Reader r(body);
      (void)r.get<char>();
      const std::string nonce = r.get_string();
      const auto step = r.get<double>();
      for (auto& c : children_) {
        if (!c.nonce.empty() && c.nonce == nonce) {
          hear(c);
          // A member's figure; bounded all the same, so that no value turns the check off.
          if (std::isfinite(step) && step > 0) longest_step_ = std::max(longest_step_, std::min(step, options_.timeout_seconds));
          return true;
        }
      }
    } catch (const TransportError&) {
    }
    drop(m.body);
    return true;
  }

  /// Counts @p m as a stray's message, and notes where it came from.
  void drop(zmq::message_t& m) {
    ++strays_;
    if (dir_) return;  // ipc:// has no address
    std::string address = peer_address(m);
    if (strangers_.size() < MAX_NAMED_STRANGERS &&
        std::find(strangers_.begin(), strangers_.end(), address) == strangers_.end()) {
      strangers_.push_back(std::move(address));
    }
  }

  /// Where the clients that were refused or sent stray messages came from.
  [[nodiscard]] std::vector<std::string> strangers() const {
    auto all = tcp_.refusals().addresses;
    for (const auto& a : strangers_) {
      if (all.size() < MAX_NAMED_STRANGERS && std::find(all.begin(), all.end(), a) == all.end()) all.push_back(a);
    }
    return all;
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
      const double limit = tenths(options_.peer_timeout.after(longest_step_));
      if (c.identity.empty() || c.answered || seconds_since(c.heard) <= limit) continue;
      const bool stopped = c.pid > 0 && is_stopped(c.pid);
      abort_all(fmt::format("worker {} went silent", i));
      throw TransportError(fmt::format(
          "worker {} (pid {} on {}) has not been heard from for {} s while {} ({}); the run was stopped", i,
          c.remote_pid, c.host, limit, phase,
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
  std::vector<std::string> strangers_;  ///< the addresses they came from (the first few)
  Clock::time_point last_beat_;
  double longest_silence_ = 0;  ///< seconds, the longest any worker went unheard while running
  double longest_step_ = 0;     ///< seconds, the longest step a worker has reported in its heartbeats
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
  // Worker processes build their programs from the job's name; a law or a callable of the
  // caller's cannot travel to them.
  if (config.asynchrony) throw UsageError("asynchronous runs (delays, loss, faults) run on the local or zmq-threads engine");
  try {
    Coordinator coordinator(options);
    return coordinator.run(topology, config, job);
  } catch (const zmq::error_t& e) {
    throw zmq_failure(e);
  }
}

}  // namespace starnet::emulator

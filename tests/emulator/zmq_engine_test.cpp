// The zmq engine has the local engine's semantics: same traces for any worker count, threads or
// processes, plain or CURVE tcp; same errors; and a failing worker never leaves the others waiting.
#include "../../emulator/src/secure.hpp"
#include "../../emulator/src/zmq_processes.hpp"
#include "../core/expect_error.hpp"

#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/zmq_engine.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/network.hpp>
#include <starnet/topology/platform.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <algorithm>
#include <iostream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace starnet::emulator {
namespace {

using ::testing::HasSubstr;
using topology::StarGraph;

class Lambda final : public NodeProgram {
 public:
  /// @p sends_only: the program promises to only send, and takes no send notices (the dense path).
  explicit Lambda(std::function<void(Context&)> f, bool sends_only = false) : f_(std::move(f)), only_(sends_only) {}
  void react(Context& ctx) override { f_(ctx); }
  [[nodiscard]] bool sends_only() const override { return only_; }
  [[nodiscard]] bool reacts_to_sends() const override { return !only_; }

 private:
  std::function<void(Context&)> f_;
  bool only_;
};

template <class Time>
std::vector<std::string> lines(const RunResult<Time>& r, const topology::Topology& g) {
  std::vector<std::string> out;
  for (const auto& e : r.trace) out.push_back(to_json_line(e, g));
  return out;
}

// Every node sends to a pseudo-random neighbour whenever it has a free port, 3 times, and
// computes on every receipt: contention, arbitration queues and overlapping computations.
void gossip(Context& ctx) {
  const auto v = ctx.node();
  const auto round = ctx.starting() ? 0 : ctx.completed().size() + ctx.received().size();
  for (const auto& m : ctx.received()) ctx.compute(/*work=*/m.size, m.from);
  if (ctx.starting() || (ctx.step() < 6 && round % 2 == 1)) {
    const auto port = static_cast<Port>((v * 7 + ctx.step() * 3) % ctx.topology().degree(v));
    ctx.send(port, std::to_string(v), /*size=*/Rational(1 + static_cast<std::int64_t>(v % 3), 2), v);
  }
}

TEST(ZmqEngine, TheCoordinatorsTimeoutReachesEveryWorkersBarrier) {
  // Worker processes wait at a step's barrier as long as the run's timeout, carried by CONFIG.
  WorkerConfig c;
  c.index = 1;
  c.job = "job";
  c.barrier_timeout_seconds = 7.5;
  c.parts = {{0, 3}, {3, 6}};
  c.endpoints = {"tcp://127.0.0.1:1", "tcp://127.0.0.1:2"};
  wire::Writer w;
  put_worker_config(w, c);
  wire::Reader r(std::string_view(w.str()).substr(1));  // after the type byte
  EXPECT_EQ(get_worker_config(r).barrier_timeout_seconds, 7.5);
  EXPECT_EQ(WorkerConfig{}.barrier_timeout_seconds, ProcessOptions{}.timeout_seconds);
}

TEST(ZmqEngine, TheTimeoutReachesEveryWorkerThreadsBarrier) {
  // Node 0's program takes 1 s over one reaction: worker 1 gives up at the barrier after 0.3 s,
  // on the dense step path and on the general core alike.
  const StarGraph g(/*n=*/4);
  const UnitCosts<Rational> costs;
  for (const bool dense : {true, false}) {
    RunConfig config;
    config.dense_steps = dense;
    const auto slow = [](NodeRange) {
      return std::make_unique<Lambda>([](Context& ctx) {
        if (ctx.node() == 0 && ctx.step() == 1) std::this_thread::sleep_for(std::chrono::seconds(1));
        if (ctx.step() < 3) ctx.send(static_cast<Port>(ctx.step() % 3), "x");
      }, /*sends_only=*/true);
    };
    EXPECT_ERROR(TransportError, ZmqThreadsEngine<Rational>(2, 0.3).run(g, costs, slow, config),
                 "worker 1 waited 0.3 s for its peers' batches (step barrier)");
  }
}

TEST(ZmqEngine, SameTraceAsLocalForAnyWorkerCount) {
  const StarGraph g(/*n=*/5);
  const TopologyCosts<Rational> costs(g);
  RunConfig config;
  config.trace = true;
  config.checking = Checking::ARBITRATED;
  config.time = TimeMode::TIMED;
  const ProgramFactory factory = [](NodeRange) { return std::make_unique<Lambda>(gossip); };
  // Both through the one interface of the in-process engines, as a caller that picks one holds them.
  LocalEngine<Rational> local_engine;
  const auto local = static_cast<Engine<Rational>&>(local_engine).run(g, costs, factory, config);
  ASSERT_GT(local.trace.size(), 500U);
  for (const unsigned k : {1U, 2U, 3U, 7U}) {
    ZmqThreadsEngine<Rational> threads(k);
    const auto zmq = static_cast<Engine<Rational>&>(threads).run(g, costs, factory, config);
    EXPECT_EQ(lines(zmq, g), lines(local, g)) << " workers=" << k;
    EXPECT_EQ(zmq.makespan, local.makespan) << " workers=" << k;
    EXPECT_EQ(zmq.counters.messages, local.counters.messages) << " workers=" << k;
    EXPECT_EQ(zmq.counters.payload_bytes, local.counters.payload_bytes) << " workers=" << k;
    EXPECT_EQ(zmq.counters.event_times, local.counters.event_times) << " workers=" << k;
  }
}

// On a network of switches every worker holds every link's state, as it holds every port's: the
// waits for links, and the violation strict checking finds, are the local engine's.
TEST(ZmqEngine, LinksOfANetworkWaitAndViolateAsOnTheLocalEngine) {
  topology::NetworkOptions shuffled;
  shuffled.placement = topology::parse_placement("random:1");  // ranks at random: routes meet
  const topology::HostNetwork hosts(std::make_shared<const topology::Platform>(topology::fattree_platform(4)), shuffled);
  const TopologyCosts<Rational> costs(hosts);
  RunConfig config;
  config.trace = true;
  config.checking = Checking::ARBITRATED;
  config.time = TimeMode::TIMED;
  // Two sends a host; with ranks placed at random their routes meet on the switches' links.
  const ProgramFactory factory = [](NodeRange) {
    return std::make_unique<Lambda>([](Context& ctx) {
      if (!ctx.starting()) return;
      const NodeId n = ctx.topology().num_nodes();
      // Tags tell the two apart where both go to one peer (the trace's order, TraceEvent::key()).
      ctx.send_to((ctx.node() + 5) % n, "a", 1, /*tag=*/1);
      ctx.send_to((ctx.node() * 7 + 3) % n == ctx.node() ? (ctx.node() + 1) % n : (ctx.node() * 7 + 3) % n, "b", 1,
                  /*tag=*/2);
    });
  };
  const auto local = LocalEngine<Rational>().run(hosts, costs, factory, config);
  ASSERT_GT(local.makespan, Rational(2));  // messages waited for links as well as ports
  for (const unsigned k : {2U, 3U}) {
    const auto zmq = ZmqThreadsEngine<Rational>(k).run(hosts, costs, factory, config);
    EXPECT_EQ(lines(zmq, hosts), lines(local, hosts)) << " workers=" << k;
    EXPECT_EQ(zmq.makespan, local.makespan) << " workers=" << k;
  }
  config.checking = Checking::STRICT;
  config.time = TimeMode::UNIT;
  const UnitCosts<Rational> unit;
  std::string local_violation;
  try {
    (void)LocalEngine<Rational>().run(hosts, unit, factory, config);
  } catch (const ModelViolation& e) {
    local_violation = e.what();
  }
  ASSERT_FALSE(local_violation.empty());
  EXPECT_ERROR(ModelViolation, (void)ZmqThreadsEngine<Rational>(2).run(hosts, unit, factory, config), local_violation);
}

// Sizes, durations and event times beyond 64 bits travel between workers exactly: in the
// requests' records and in the round headers' next event times.
TEST(ZmqEngine, TimesBeyond64BitsCrossWorkersExactly) {
  const StarGraph g(/*n=*/4);
  const TopologyCosts<Rational> costs(g);
  const Rational tiny = Rational(1, 1250000000) * Rational(1, 41279125) * Rational(1, 34285625);
  ASSERT_FALSE(tiny.is_small());
  RunConfig config;
  config.trace = true;
  config.checking = Checking::ARBITRATED;
  config.time = TimeMode::TIMED;
  const ProgramFactory factory = [&](NodeRange) {
    return std::make_unique<Lambda>([&](Context& ctx) {
      const auto v = ctx.node();
      for (const auto& m : ctx.received()) ctx.compute(/*work=*/m.size, m.from);
      if (ctx.starting() || (ctx.step() < 4 && !ctx.received().empty())) {
        const auto port = static_cast<Port>((v + ctx.step()) % ctx.topology().degree(v));
        ctx.send(port, std::to_string(v), /*size=*/Rational(1, 3) + tiny * static_cast<std::int64_t>(v + 1), v);
      }
    });
  };
  const auto local = LocalEngine<Rational>().run(g, costs, factory, config);
  ASSERT_FALSE(local.makespan.is_small()) << local.makespan;
  for (const unsigned k : {2U, 3U}) {
    const auto zmq = ZmqThreadsEngine<Rational>(k).run(g, costs, factory, config);
    EXPECT_EQ(lines(zmq, g), lines(local, g)) << " workers=" << k;
    EXPECT_EQ(zmq.makespan, local.makespan) << " workers=" << k;
  }
}

bool odd_permutation(const std::string& label) {
  bool odd = false;
  for (std::size_t i = 0; i < label.size(); ++i) {
    for (std::size_t j = i + 1; j < label.size(); ++j) odd ^= label[i] > label[j];
  }
  return odd;
}

// Half duplex: even permutations send through their highest port at time 0; odd ones, each
// receiving one of those, ask to send through their second-highest port at 1/2. That send waits
// for the port, is issued when the receive ends (before the round's first exchange), and goes
// along a high link, so to another worker when there are several.
void relay(Context& ctx) {
  const auto v = ctx.node();
  const auto top = static_cast<Port>(ctx.topology().degree(v) - 1);
  if (ctx.starting()) {
    if (odd_permutation(ctx.topology().node_name(v))) {
      ctx.sleep(Rational(1, 2));
    } else {
      ctx.send(top, "e");
    }
  }
  for (const auto& c : ctx.completed()) {
    if (c.kind == Completion::Kind::TIMER) ctx.send(top - 1, "o");
  }
  for (const auto& m : ctx.received()) ctx.compute(/*work=*/1, m.from);
}

TEST(ZmqEngine, SendsQueuedForAHalfDuplexPortReachOtherWorkers) {
  const StarGraph g(/*n=*/5);
  const TopologyCosts<Rational> costs(g);
  RunConfig config;
  config.trace = true;
  config.checking = Checking::ARBITRATED;
  config.time = TimeMode::TIMED;
  config.ports.half_duplex = true;
  const ProgramFactory factory = [](NodeRange) { return std::make_unique<Lambda>(relay); };
  const auto local = LocalEngine<Rational>().run(g, costs, factory, config);
  EXPECT_EQ(local.counters.messages, 120U);  // one message per node
  // Sends 0–1, the queued ones 1–2 (when the receives end), each followed by a computation of 1.
  EXPECT_EQ(local.makespan, Rational(3));
  const auto queued = std::count_if(local.trace.begin(), local.trace.end(),
                                    [](const auto& e) { return e.kind == EventKind::REQUEST; });
  EXPECT_EQ(queued, 60);
  for (const unsigned k : {2U, 3U, 5U}) {
    const auto zmq = run_zmq_threads<Rational>(g, costs, factory, config, k);
    EXPECT_EQ(lines(zmq, g), lines(local, g)) << " workers=" << k;
    EXPECT_EQ(zmq.counters.messages, local.counters.messages) << " workers=" << k;
  }
}

// Half duplex: every node posts receives from its neighbours, highest port first, and sends to
// each of them at once: the arbiter of every worker must see every request, posted receive and
// end of transfer to decide alike.
void exchange_everything(Context& ctx) {
  if (!ctx.starting()) return;
  const auto v = ctx.node();
  const auto degree = static_cast<Port>(ctx.topology().degree(v));
  for (Port p = degree; p-- > 0;) ctx.accept(ctx.topology().neighbor(v, p));
  for (Port p = 0; p < degree; ++p) {
    ctx.send(p, std::to_string(v), /*size=*/Rational(1 + static_cast<std::int64_t>((v + p) % 3), 2), p);
  }
}

TEST(ZmqEngine, HalfDuplexArbitrationWithPostedReceivesGivesTheLocalTrace) {
  const StarGraph g(/*n=*/4);
  const TopologyCosts<Rational> costs(g);
  RunConfig config;
  config.trace = true;
  config.checking = Checking::ARBITRATED;
  config.time = TimeMode::TIMED;
  config.ports.half_duplex = true;
  const ProgramFactory factory = [](NodeRange) { return std::make_unique<Lambda>(exchange_everything); };
  const auto local = LocalEngine<Rational>().run(g, costs, factory, config);
  EXPECT_EQ(local.counters.messages, 24U * 3U);
  EXPECT_EQ(local.counters.max_concurrent_sends, 1U);
  EXPECT_EQ(local.counters.max_concurrent_receives, 1U);
  for (const unsigned k : {2U, 3U, 5U}) {
    const auto zmq = run_zmq_threads<Rational>(g, costs, factory, config, k);
    EXPECT_EQ(lines(zmq, g), lines(local, g)) << " workers=" << k;
    EXPECT_EQ(zmq.makespan, local.makespan) << " workers=" << k;
    EXPECT_EQ(zmq.counters.max_concurrent_receives, local.counters.max_concurrent_receives) << " workers=" << k;
  }
}

TEST(ZmqEngine, DoubleTimeRunsToo) {
  const StarGraph g(/*n=*/4);
  class Costs final : public CostModel<double> {
   public:
    double transfer(NodeId from, Port, NodeId to, const Rational&) const override {
      return 0.1 + 0.01 * static_cast<double>((from * 31 + to) % 17);
    }
    double compute(NodeId v, const Rational&) const override { return 0.05 * static_cast<double>(v % 5); }
  } costs;
  RunConfig config;
  config.trace = true;
  config.checking = Checking::ARBITRATED;
  const ProgramFactory factory = [](NodeRange) { return std::make_unique<Lambda>(gossip); };
  const auto local = LocalEngine<double>().run(g, costs, factory, config);
  const auto zmq = run_zmq_threads<double>(g, costs, factory, config, 3);
  EXPECT_EQ(lines(zmq, g), lines(local, g));
}

TEST(ZmqEngine, ReportsTheSameViolationAsLocal) {
  const StarGraph g(/*n=*/4);
  const UnitCosts<Rational> costs;
  const ProgramFactory factory = [](NodeRange) {
    return std::make_unique<Lambda>([](Context& ctx) {
      // Nodes 0 and 23 (in different partitions) both break the single-port rule at step 1.
      if (ctx.step() == 1 && (ctx.node() == 0 || ctx.node() == 23)) {
        ctx.send(0, "a");
        ctx.send(1, "b");
      }
      if (ctx.starting()) ctx.sleep(1);
    });
  };
  std::string local_message;
  try {
    (void)LocalEngine<Rational>().run(g, costs, factory, {});
  } catch (const ModelViolation& e) {
    local_message = e.what();
  }
  ASSERT_THAT(local_message, HasSubstr("node 1234"));
  try {
    (void)run_zmq_threads<Rational>(g, costs, factory, {}, 3);
    FAIL() << "violation not reported";
  } catch (const ModelViolation& e) {
    EXPECT_EQ(std::string(e.what()), local_message);
  }
}

TEST(ZmqEngine, AFailingWorkerStopsTheOthers) {
  const StarGraph g(/*n=*/4);
  const UnitCosts<Rational> costs;
  const ProgramFactory factory = [](NodeRange r) {
    return std::make_unique<Lambda>([r](Context& ctx) {
      if (ctx.step() == 2 && r.begin == 0) throw std::runtime_error("program bug in the first partition");
      // The others reach their step-2 exchange only after the first worker has left: sending to
      // a peer that is gone must fail, not wait for ever.
      if (ctx.step() == 2) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      ctx.sleep(1);
    });
  };
  try {
    (void)run_zmq_threads<Rational>(g, costs, factory, {}, 3);
    FAIL() << "failure not reported";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("program bug"));
  }
}

TEST(ZmqEngine, RejectsBadWorkerCounts) {
  const StarGraph g(/*n=*/3);
  const UnitCosts<Rational> costs;
  const ProgramFactory factory = [](NodeRange) { return std::make_unique<Lambda>([](Context&) {}); };
  EXPECT_THROW((void)run_zmq_threads<Rational>(g, costs, factory, {}, 0), UsageError);
  EXPECT_THROW((void)ZmqThreadsEngine<Rational>(0).run(g, costs, factory, {}), UsageError);
  EXPECT_THROW((void)run_zmq_threads<Rational>(g, costs, factory, {}, 7), UsageError);
}

// ---- worker processes ----------------------------------------------------------------------
//
// run_zmq_processes starts workers as `EXE worker --connect … --index … --address … --timeout …
// [--key-fd …]`;
// in these tests EXE is this test executable, which then serves as a worker running gossip on
// StarGraph(job) with TopologyCosts, instead of running the tests.

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> command_line() {
  std::vector<std::string> args;
  std::istringstream in(read_file("/proc/self/cmdline"));
  for (std::string arg; std::getline(in, arg, '\0');) args.push_back(arg);
  return args;
}

WorkerSetup gossip_setup(const std::string& job, unsigned /*index*/) {
  auto g = std::make_shared<StarGraph>(std::stoi(job));
  return {g, std::make_shared<TopologyCosts<Rational>>(*g),
          [](NodeRange) { return std::make_unique<Lambda>(gossip); }};
}

/// Runs after static initialisation, before any test. Exit 99 if the run's secret key is in the
/// worker's command line or environment.
class WorkerProcess final : public ::testing::Environment {
 public:
  explicit WorkerProcess(std::vector<std::string> args) : args_(std::move(args)) {}
  void SetUp() override {
    WorkerOptions o;
    for (std::size_t i = 2; i + 1 < args_.size(); i += 2) {
      const std::string& value = args_[i + 1];
      if (args_[i] == "--connect") o.coordinator = value;
      if (args_[i] == "--index") o.index = static_cast<unsigned>(std::stoul(value));
      if (args_[i] == "--address") o.address = value;
      if (args_[i] == "--key-fd") o.key_fd = std::stoi(value);
      if (args_[i] == "--timeout") o.timeout_seconds = std::stod(value);
    }
    std::optional<KeyPipe> key;
    if (o.key_fd >= 0) {
      const auto keys = CurveKeys::read_from(o.key_fd);
      for (const char* file : {"/proc/self/cmdline", "/proc/self/environ"}) {
        if (read_file(file).find(keys.secret_key) != std::string::npos) {
          std::cerr << "worker " << o.index << ": the run's secret key is readable in " << file << "\n";
          std::exit(99);
        }
      }
      key.emplace(keys);
      o.key_fd = ::dup(key->fd());
    }
    std::exit(run_zmq_worker(o, gossip_setup));
  }

 private:
  std::vector<std::string> args_;
};

[[maybe_unused]] const bool worker_process = [] {
  auto args = command_line();
  if (args.size() < 2 || args[1] != "worker") return false;
  // A worker's output would be GoogleTest's banners.
  if (std::freopen("/dev/null", "w", stdout) == nullptr) std::exit(98);
  ::testing::AddGlobalTestEnvironment(new WorkerProcess(std::move(args)));
  return true;
}();

RunConfig gossip_config() {
  RunConfig config;
  config.trace = true;
  config.checking = Checking::ARBITRATED;
  config.time = TimeMode::TIMED;
  return config;
}

ProcessOptions gossip_processes(const std::string& address, Security security) {
  ProcessOptions options;
  options.workers = 3;
  options.address = address;
  options.security = security;
  options.executable = std::filesystem::read_symlink("/proc/self/exe").string();
  options.timeout_seconds = 60;
  return options;
}

/// Runs gossip on S_5 in worker processes and compares it with the local engine.
void expect_local_trace(const ProcessOptions& options) {
  const StarGraph g(/*n=*/5);
  const auto local = LocalEngine<Rational>().run(g, TopologyCosts<Rational>(g),
                                                 [](NodeRange) { return std::make_unique<Lambda>(gossip); },
                                                 gossip_config());
  const auto zmq = run_zmq_processes(g, gossip_config(), "5", options);
  EXPECT_EQ(lines(zmq, g), lines(local, g)) << " address=" << options.address;
  EXPECT_EQ(zmq.makespan, local.makespan) << " address=" << options.address;
  EXPECT_EQ(zmq.counters.messages, local.counters.messages) << " address=" << options.address;
  EXPECT_EQ(zmq.counters.payload_bytes, local.counters.payload_bytes) << " address=" << options.address;
  EXPECT_EQ(zmq.counters.event_times, local.counters.event_times) << " address=" << options.address;
}

bool has_address(const std::string& address) {
  const auto mine = local_addresses();
  return std::find(mine.begin(), mine.end(), address) != mine.end();
}

TEST(ZmqEngine, ProcessesGiveTheLocalTraceWithAndWithoutCurve) {
  std::vector<std::string> loopback = {"127.0.0.1", "localhost"};
  if (has_address("::1")) {
    loopback.emplace_back("::1");
  } else {
    std::cout << "note: this machine has no ::1; IPv6 loopback not run\n";
  }
  for (const auto& address : loopback) {
    for (const Security security : {Security::AUTO, Security::CURVE}) {
      const auto options = gossip_processes(address, security);
      EXPECT_EQ(uses_curve(options), security == Security::CURVE) << " address=" << address;
      expect_local_trace(options);
    }
  }
}

TEST(ZmqEngine, ProcessesDropStrayPeersAndKeepTheResult) {
  // A free port, then a stray ZeroMQ peer that keeps sending what no worker sends (a truncated
  // hello, a hello from a worker that does not exist, a result out of turn, an empty frame) to the
  // coordinator on that port while the run starts and runs.
  std::string endpoint;
  {
    // Its own context: closing a context waits until the port is released.
    zmq::context_t probe_context;
    zmq::socket_t probe(probe_context, zmq::socket_type::router);
    probe.set(zmq::sockopt::linger, 0);
    probe.bind("tcp://127.0.0.1:*");
    endpoint = probe.get(zmq::sockopt::last_endpoint);
    probe.close();
    probe_context.close();
  }
  zmq::context_t ctx;
  auto options = gossip_processes("127.0.0.1", Security::AUTO);
  options.port = std::stoi(endpoint.substr(endpoint.rfind(':') + 1));
  std::atomic<bool> done = false;
  std::thread stray([&] {
    zmq::socket_t s(ctx, zmq::socket_type::dealer);
    s.set(zmq::sockopt::linger, 0);
    s.set(zmq::sockopt::reconnect_ivl, 1);  // the coordinator binds the port only once the run starts
    s.connect(endpoint);
    const std::vector<std::string> junk = {std::string("H"), std::string("H\x63\0\0\0\0\0\0\0\0\0\0\0", 13),
                                           std::string("R\x01\x02"), std::string()};
    for (std::size_t i = 0; !done; ++i) {
      s.send(zmq::buffer(junk[i % junk.size()]), zmq::send_flags::dontwait);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  try {
    const StarGraph g(/*n=*/5);
    const auto local = LocalEngine<Rational>().run(g, TopologyCosts<Rational>(g),
                                                   [](NodeRange) { return std::make_unique<Lambda>(gossip); },
                                                   gossip_config());
    const auto zmq = run_zmq_processes(g, gossip_config(), "5", options);
    EXPECT_EQ(lines(zmq, g), lines(local, g));
    EXPECT_GT(zmq.stray_messages, 0U) << " the stray peer was not heard: the test proves nothing";
    EXPECT_EQ(zmq.stranger_addresses, std::vector<std::string>{"127.0.0.1"}) << " where the strays came from";
  } catch (...) {
    done = true;
    stray.join();
    throw;
  }
  done = true;
  stray.join();
}

TEST(ZmqEngine, ProcessesOnANonLoopbackAddressUseCurveAndGiveTheLocalTrace) {
  // The first IPv4 and the first IPv6 address of this machine that are not loopback.
  std::vector<std::string> addresses;
  bool v4 = false;
  bool v6 = false;
  for (const auto& a : local_addresses()) {
    const auto parsed = TcpAddress::parse(a);
    bool& seen = parsed.ipv6 ? v6 : v4;
    if (parsed.loopback || seen) continue;
    seen = true;
    addresses.push_back(a);
  }
  if (addresses.empty()) {
    std::cout << "note: this machine has no address but loopback; running CURVE forced on 127.0.0.1 instead\n";
    expect_local_trace(gossip_processes("127.0.0.1", Security::CURVE));
  }
  for (const auto& address : addresses) {
    std::cout << "running on " << address << "\n";
    const auto options = gossip_processes(address, Security::AUTO);
    EXPECT_TRUE(uses_curve(options)) << " address=" << address;
    expect_local_trace(options);
  }
}

TEST(ZmqEngine, ProcessesRejectAnAddressThatIsMalformedOrNotOfThisMachine) {
  const StarGraph g(/*n=*/3);
  ASSERT_FALSE(has_address("203.0.113.7"));
  EXPECT_ERROR(UsageError, run_zmq_processes(g, {}, "3", gossip_processes("203.0.113.7", Security::AUTO)),
               "address 203.0.113.7:", "not an address of this machine");
  EXPECT_ERROR(UsageError, run_zmq_processes(g, {}, "3", gossip_processes("300.1.2.3", Security::AUTO)),
               "address 300.1.2.3:", "not an IP address");
  EXPECT_ERROR(UsageError, uses_curve(gossip_processes("300.1.2.3", Security::CURVE)), "address 300.1.2.3:");
}

}  // namespace
}  // namespace starnet::emulator

// `starnet worker` and `starnet keygen`, run as a user runs them: workers that join a coordinator
// started with --listen, on loopback and on hosts made of network namespaces (one per host, joined
// by a bridge), with the faults of a cluster: a cut link, a stopped host, a worker that never
// comes, a wrong key, foreign clients, a slow step.
#include "starnet_test_paths.hpp"
#include "cli_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zmq.hpp>

#include <arpa/inet.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <set>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

/// A fresh folder of this test's own (tests run in parallel processes).
std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("starnet_worker_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// A loopback port that was free a moment ago.
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ::close(fd);
    return -1;
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

std::string exe() { return STARNET_EXE; }

/// One worker of a scripted run: where it runs (a namespace, or "" for this host), its options,
/// and a shell command run before it starts (a delay).
struct WorkerRun {
  std::string ns;
  std::string options;
  std::string before = "true";
};

/// Runs `starnet allreduce ARGS` in namespace @p coordinator_ns ("" for this host) with
/// @p workers started beside it, each bounded by a 60 s kill (a hang fails the test, never blocks
/// it), and @p meanwhile (a shell command) in the background; @p after runs once the coordinator
/// is done. Worker I leaves its output in DIR/wI.out and its exit status in DIR/wI.rc.
CliResult run_joined(const std::filesystem::path& dir, const std::string& coordinator_ns, const std::string& args,
                     const std::vector<WorkerRun>& workers, const std::string& meanwhile = "",
                     const std::string& after = "") {
  std::string script;
  for (std::size_t i = 0; i < workers.size(); ++i) {
    const std::string prefix = workers[i].ns.empty() ? "" : "ip netns exec " + workers[i].ns + " ";
    const auto out = (dir / ("w" + std::to_string(i))).string();
    script += "( " + workers[i].before + "; " + prefix + "timeout -s KILL 60 " + exe() + " worker " + workers[i].options + " >" + out +
              ".out 2>&1; echo $? >" + out + ".rc ) & ";
  }
  if (!meanwhile.empty()) script += "( " + meanwhile + " ) & ";
  const std::string prefix = coordinator_ns.empty() ? "" : "ip netns exec " + coordinator_ns + " ";
  script += prefix + exe() + " allreduce " + args + "; rc=$?; " + after + (after.empty() ? "" : "; ") + "wait; exit $rc";
  return run_shell("sh -c '" + script + "'", dir / "coordinator.err");
}

std::string worker_output(const std::filesystem::path& dir, unsigned i) {
  return read(dir / ("w" + std::to_string(i) + ".out"));
}

int worker_status(const std::filesystem::path& dir, unsigned i) {
  const auto text = read(dir / ("w" + std::to_string(i) + ".rc"));
  return text.empty() ? -1 : std::stoi(text);
}

/// Writes a key file with `starnet keygen`.
void keygen(const std::filesystem::path& path) {
  const auto r = run_starnet("keygen -o " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

// ---- one host ----------------------------------------------------------------------------------

TEST(KeygenCommand, WritesAKeyFileOnlyItsOwnerReadsAndNeverReplacesOne) {
  const auto dir = scratch("keygen");
  const auto path = dir / "run.key";
  const auto r = run_starnet("keygen -o " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("wrote " + path.string() + " (mode 0600)"));
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600U);
  const auto text = read(path);
  EXPECT_THAT(text, HasSubstr("public-key: "));
  EXPECT_THAT(text, HasSubstr("secret-key: "));
  const auto again = run_starnet("keygen -o " + path.string());
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_THAT(again.err, HasSubstr("already exists"));
  EXPECT_EQ(read(path), text) << "a key file is never replaced";
  // Two runs' keys differ.
  keygen(dir / "other.key");
  EXPECT_NE(read(dir / "other.key"), text);
}

TEST(WorkerCommand, AWorkerWithoutACoordinatorEndsWithExitThreeInsteadOfWaiting) {
  // Port 1 on loopback: nothing listens there, so the hello is never answered.
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_starnet("worker --connect tcp://127.0.0.1:1 --index 0 --timeout 1");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("worker 0: no coordinator answered at tcp://127.0.0.1:1 within 1 s"));
  EXPECT_LT(seconds, 10.0);
}

/// Once something listens on @p port, sends it what is not ZeroMQ (an HTTP request), and a ZeroMQ
/// hello without CURVE.
void knock_as_strangers(int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd);
      fd = -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  const std::string request = "GET / HTTP/1.0\r\n\r\n" + std::string(300, '\xff');
  if (fd >= 0) (void)::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  zmq::context_t ctx;
  zmq::socket_t plain(ctx, zmq::socket_type::dealer);
  plain.set(zmq::sockopt::linger, 0);
  plain.connect("tcp://127.0.0.1:" + std::to_string(port));
  (void)plain.send(zmq::str_buffer("H\xff\xff\xff\xff"), zmq::send_flags::dontwait);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  ::close(fd);
}

TEST(WorkerCommand, WorkersThatJoinGiveTheLocalTraceAndStrangersAreRefused) {
  const auto dir = scratch("join");
  keygen(dir / "run.key");
  const int port = free_port();
  const std::string where = "127.0.0.1:" + std::to_string(port);
  const std::string join = "--join " + where + " --key-file " + (dir / "run.key").string();
  std::thread strangers([port] { knock_as_strangers(port); });
  // The workers come 3 s late, after the strangers: the run waits for them.
  const auto r = run_joined(dir, "",
                            "--topology star:5 --values random --seed 3 --engine zmq --workers 3 --json --listen " +
                                where + " --key-file " + (dir / "run.key").string() + " --trace " +
                                (dir / "joined.jsonl").string(),
                            {{"", join, "sleep 3"}, {"", join, "sleep 3"}, {"", join, "sleep 3"}});
  strangers.join();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("listening on tcp://" + where + " for 3 workers"));
  EXPECT_EQ(r.json()["verified"], true);
  EXPECT_EQ(r.json()["transport"], "tcp");
  EXPECT_EQ(r.json()["curve"], true);
  EXPECT_EQ(r.json()["worker_hosts"].size(), 3U);
  EXPECT_GE(r.json()["refused_connections"].get<int>(), 2) << "the HTTP request and the ZeroMQ client without the key";
  for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(worker_status(dir, i), 0) << worker_output(dir, i);
  const auto local = run_starnet("allreduce --topology star:5 --values random --seed 3 --trace " +
                                 (dir / "local.jsonl").string());
  ASSERT_EQ(local.exit_code, 0) << local.err;
  EXPECT_TRUE(read(dir / "joined.jsonl") == read(dir / "local.jsonl")) << "the trace differs from the local engine's";
}

TEST(WorkerCommand, AWorkerTooManyIsToldToLeave) {
  const auto dir = scratch("toomany");
  keygen(dir / "run.key");
  const std::string where = "127.0.0.1:" + std::to_string(free_port());
  const std::string join = "--join " + where + " --key-file " + (dir / "run.key").string();
  // The second comes once the run has its one worker; the run waits 2 s for it (a long step).
  const auto r = run_joined(dir, "",
                            "--topology star:5 --engine zmq --workers 1 --fault-sleep 0:2 --json --listen " + where +
                                " --key-file " + (dir / "run.key").string(),
                            {{"", join}, {"", join, "sleep 2"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["verified"], true);
  EXPECT_EQ(worker_status(dir, 0), 0) << worker_output(dir, 0);
  EXPECT_EQ(worker_status(dir, 1), 3);
  EXPECT_THAT(worker_output(dir, 1), HasSubstr("ended the run: this run has no free worker index left (it takes 1 workers)"));
}

TEST(WorkerCommand, ASlowStepIsNotTakenForADeadWorker) {
  // Worker 1 takes FAULT_SLEEP_SECONDS over one step, 4 times the peer timeout: its heartbeats,
  // sent by a thread of their own, keep it alive.
  const auto r = run_starnet(
      "allreduce --topology star:5 --engine zmq --workers 2 --processes --peer-timeout 2 --fault-sleep 1:3 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["verified"], true);
  EXPECT_GE(r.json()["wall_seconds"].get<double>(), 8.0);
}

// ---- hosts made of network namespaces -----------------------------------------------------------

/// A coordinator host and K worker hosts, each a network namespace with one address on a bridge
/// in a hub namespace: 10.77.0.1 the coordinator, 10.77.0.2 … the workers. Needs root (ip netns);
/// where that cannot be had, `unavailable` says why and the tests skip, saying so.
class Hosts {
 public:
  explicit Hosts(unsigned workers) : prefix_("sn" + std::to_string(::getpid()) + "x"), count_(workers + 1) {
    const auto dir = scratch("hosts");
    std::string script = "set -e; ip netns add " + hub() + "; ip -n " + hub() + " link add br0 type bridge; ip -n " +
                         hub() + " link set br0 up; ";
    for (unsigned h = 0; h < count_; ++h) {
      const std::string link = "h" + std::to_string(h);
      script += "ip netns add " + ns(h) + "; ip -n " + hub() + " link add " + link + " type veth peer name eth0 netns " +
                ns(h) + "; ip -n " + hub() + " link set " + link + " master br0; ip -n " + hub() + " link set " + link +
                " up; ip -n " + ns(h) + " addr add " + ip(h) + "/24 dev eth0; ip -n " + ns(h) +
                " link set eth0 up; ip -n " + ns(h) + " link set lo up; ";
    }
    if (::geteuid() != 0) {
      unavailable = "network namespaces need root (ip netns add)";
      return;
    }
    const auto r = run_shell("sh -c '" + script + "'", dir / "ip.err");
    if (r.exit_code != 0) unavailable = "ip netns failed: " + r.err;
  }
  ~Hosts() {
    std::string script;
    for (unsigned h = 0; h < count_; ++h) script += "ip netns del " + ns(h) + " 2>/dev/null; ";
    script += "ip netns del " + hub() + " 2>/dev/null; true";
    (void)std::system(script.c_str());
  }
  Hosts(const Hosts&) = delete;
  Hosts& operator=(const Hosts&) = delete;

  /// Host 0 is the coordinator's, hosts 1.. the workers'.
  [[nodiscard]] std::string ns(unsigned host) const { return prefix_ + std::to_string(host); }
  [[nodiscard]] std::string hub() const { return prefix_ + "hub"; }
  static std::string ip(unsigned host) { return "10.77.0." + std::to_string(host + 1); }
  /// Cuts host @p host off the bridge (a shell command).
  [[nodiscard]] std::string cut(unsigned host) const {
    return "ip -n " + hub() + " link set h" + std::to_string(host) + " down";
  }

  std::string unavailable;

 private:
  std::string prefix_;
  unsigned count_;
};

#define SKIP_WITHOUT(hosts)                                                                       \
  if (!(hosts).unavailable.empty()) {                                                             \
    GTEST_SKIP() << "no namespaced hosts on this machine, multi-host test not run: " << (hosts).unavailable; \
  }

constexpr const char* PORT = "5555";

std::string listen_args(const std::filesystem::path& dir) {
  return std::string(" --listen ") + Hosts::ip(0) + ":" + PORT + " --key-file " + (dir / "run.key").string();
}

std::string join_args(const std::filesystem::path& key) {
  return std::string("--join ") + Hosts::ip(0) + ":" + PORT + " --key-file " + key.string();
}

TEST(WorkerHosts, ThreeHostsGiveTheTraceOfOneHost) {
  const Hosts hosts(3);
  SKIP_WITHOUT(hosts);
  const auto dir = scratch("three");
  keygen(dir / "run.key");
  const auto r = run_joined(dir, hosts.ns(0),
                            "--topology star:6 --values random --seed 5 --engine zmq --workers 3 --json --trace " +
                                (dir / "hosts.jsonl").string() + listen_args(dir),
                            {{hosts.ns(1), join_args(dir / "run.key")},
                             {hosts.ns(2), join_args(dir / "run.key")},
                             {hosts.ns(3), join_args(dir / "run.key")}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["verified"], true);
  const auto report = r.json();
  std::set<std::string> addresses;
  for (const auto& host : report["worker_hosts"]) {
    const auto text = host.get<std::string>();
    addresses.insert(text.substr(text.find('(') + 1, text.size() - text.find('(') - 2));
  }
  EXPECT_EQ(addresses, (std::set<std::string>{Hosts::ip(1), Hosts::ip(2), Hosts::ip(3)}));
  for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(worker_status(dir, i), 0) << worker_output(dir, i);
  const auto local = run_starnet("allreduce --topology star:6 --values random --seed 5 --trace " +
                                 (dir / "local.jsonl").string());
  ASSERT_EQ(local.exit_code, 0) << local.err;
  EXPECT_TRUE(read(dir / "hosts.jsonl") == read(dir / "local.jsonl")) << "the trace differs from the local engine's";
}

TEST(WorkerHosts, AHostWhoseLinkGoesDownIsNamedWithinThePeerTimeout) {
  const Hosts hosts(3);
  SKIP_WITHOUT(hosts);
  const auto dir = scratch("cut");
  keygen(dir / "run.key");
  // Worker 0 (host 1) takes 8 s over step 3, so the run is surely under way when host 3 is cut
  // off 3 s in; every worker then ends on its own (none needs the 60 s kill).
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_joined(
      dir, hosts.ns(0),
      "--topology star:6 --engine zmq --workers 3 --peer-timeout 2 --fault-sleep 0:3" + listen_args(dir),
      {{hosts.ns(1), "--index 0 " + join_args(dir / "run.key")},
       {hosts.ns(2), "--index 1 " + join_args(dir / "run.key")},
       {hosts.ns(3), "--index 2 " + join_args(dir / "run.key")}},
      "sleep 3; " + hosts.cut(3) + "; date +%s.%N >" + (dir / "cut").string(),
      "date +%s.%N >" + (dir / "detected").string());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("worker 2 (pid "));
  EXPECT_THAT(r.err, HasSubstr("(" + Hosts::ip(3) + ")"));
  EXPECT_THAT(r.err, HasSubstr("has not been heard from for 2 s while running (stopped, hung, or its network is down)"));
  const double detection = std::stod(read(dir / "detected")) - std::stod(read(dir / "cut"));
  std::cout << "link down → coordinator's report: " << detection << " s\n";
  EXPECT_GE(detection, 1.0);  // the peer timeout, less the time since the last heartbeat
  EXPECT_LT(detection, 6.0);
  for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(worker_status(dir, i), 3) << "worker " << i << worker_output(dir, i);
  EXPECT_THAT(worker_output(dir, 2), HasSubstr("has not been heard from for 2 s")) << "the cut-off worker leaves too";
  EXPECT_LT(seconds, 40.0);
}

TEST(WorkerHosts, AStoppedRemoteWorkerIsNamedWithinThePeerTimeout) {
  const Hosts hosts(2);
  SKIP_WITHOUT(hosts);
  const auto dir = scratch("stopped");
  keygen(dir / "run.key");
  const auto r = run_joined(
      dir, hosts.ns(0), "--topology star:6 --engine zmq --workers 2 --peer-timeout 2 --fault-stop 1:4" + listen_args(dir),
      {{hosts.ns(1), "--index 0 " + join_args(dir / "run.key")}, {hosts.ns(2), "--index 1 " + join_args(dir / "run.key")}},
      "", "pkill -KILL -f \"^" + exe() + " worker --index 1 " + join_args(dir / "run.key") + "\"");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("worker 1 (pid "));
  EXPECT_THAT(r.err, HasSubstr("(" + Hosts::ip(2) + ")"));
  EXPECT_THAT(r.err, HasSubstr("has not been heard from for 2 s"));
  EXPECT_EQ(worker_status(dir, 0), 3) << worker_output(dir, 0);
}

TEST(WorkerHosts, AWorkerThatNeverJoinsIsNamed) {
  const Hosts hosts(2);
  SKIP_WITHOUT(hosts);
  const auto dir = scratch("missing");
  keygen(dir / "run.key");
  const auto r = run_joined(dir, hosts.ns(0), "--topology star:5 --engine zmq --workers 3 --timeout 3" + listen_args(dir),
                            {{hosts.ns(1), join_args(dir / "run.key")}, {hosts.ns(2), join_args(dir / "run.key")}});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.err, HasSubstr("2 of 3 workers joined tcp://" + Hosts::ip(0) + ":" + PORT + " within 3 s; worker 2 never did"));
  EXPECT_THAT(r.err, HasSubstr(Hosts::ip(1)));
  for (unsigned i = 0; i < 2; ++i) {
    EXPECT_EQ(worker_status(dir, i), 3);
    EXPECT_THAT(worker_output(dir, i), HasSubstr("ended the run"));
  }
}

TEST(WorkerHosts, AWorkerWithTheWrongKeyIsRefusedAndTheRunWaitsForARightOne) {
  const Hosts hosts(3);
  SKIP_WITHOUT(hosts);
  const auto dir = scratch("wrongkey");
  keygen(dir / "run.key");
  keygen(dir / "other.key");
  // Host 1 brings another run's key; hosts 2 and 3 this run's, host 3 once host 1 has given up.
  const auto r = run_joined(dir, hosts.ns(0), "--topology star:5 --engine zmq --workers 2 --json" + listen_args(dir),
                            {{hosts.ns(1), join_args(dir / "other.key")},
                             {hosts.ns(2), join_args(dir / "run.key")},
                             {hosts.ns(3), join_args(dir / "run.key"), "sleep 4"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json()["verified"], true);
  EXPECT_GE(r.json()["refused_connections"].get<int>(), 1);
  EXPECT_EQ(worker_status(dir, 0), 2);
  EXPECT_THAT(worker_output(dir, 0), HasSubstr("closed 3 connections during the CURVE handshake: key file "));
  EXPECT_THAT(worker_output(dir, 0), HasSubstr("other.key is not the key of the run there"));
  EXPECT_EQ(worker_status(dir, 1), 0) << worker_output(dir, 1);
  EXPECT_EQ(worker_status(dir, 2), 0) << worker_output(dir, 2);
}

TEST(WorkerHosts, KeyFilesOpenToOtherUsersAreRefused) {
  const auto dir = scratch("mode");
  keygen(dir / "run.key");
  std::filesystem::permissions(dir / "run.key", std::filesystem::perms::group_read, std::filesystem::perm_options::add);
  const auto r = run_starnet("worker " + join_args(dir / "run.key"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("key file " + (dir / "run.key").string() + ": other users may read or change it (mode 0640"));
}

}  // namespace
}  // namespace starnet::tools::testing

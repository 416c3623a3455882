// The typed engine choice (api/engine.hpp): defaults, what is refused because it would be ignored,
// and the memory estimate.
#include "../core/expect_error.hpp"

#include <starnet/api/engine.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

namespace starnet::api {
namespace {

TEST(EngineChoice, WorkersDefaultToOneLocallyAndTwoOnZmq) {
  EngineChoice local;
  EXPECT_EQ(local.worker_count(), 1U);
  EngineChoice zmq;
  zmq.kind = EngineKind::ZMQ;
  EXPECT_EQ(zmq.worker_count(), 2U);
  zmq.workers = 7;
  EXPECT_EQ(zmq.worker_count(), 7U);
}

TEST(EngineChoice, RefusesWorkerCountsOutOfRangeOnEveryEngine) {
  EngineChoice local;
  local.workers = -1;
  EXPECT_ERROR(UsageError, local.worker_count(), "workers -1", "1..256");
  local.workers = 2;
  EXPECT_ERROR(UsageError, local.check(), "workers 2", "local engine has one worker");
  EngineChoice zmq;
  zmq.kind = EngineKind::ZMQ;
  zmq.workers = MAX_WORKERS + 1;
  EXPECT_ERROR(UsageError, zmq.check(), "workers 257");
}

TEST(EngineChoice, ThreadsDefaultToEveryCoreOnTheLocalEngineOnly) {
  EngineChoice local;
  EXPECT_GE(local.thread_count(), 1U);
  local.threads = 0;
  EXPECT_EQ(local.thread_count(), EngineChoice{}.thread_count());
  local.threads = 3;
  EXPECT_EQ(local.thread_count(), 3U);
  local.threads = static_cast<long>(MAX_THREADS) + 1;
  EXPECT_ERROR(UsageError, local.check(), "threads 1025", "0..1024");
  EngineChoice zmq;
  zmq.kind = EngineKind::ZMQ;
  zmq.threads = 2;
  EXPECT_ERROR(UsageError, zmq.check(), "threads 2", "local engine");
}

TEST(EngineChoice, RefusesWhatWorkerThreadsWouldIgnore) {
  EngineChoice e;
  e.timeout = 5;
  EXPECT_ERROR(UsageError, e.check(), "timeout 5", "applies only to the zmq engine");
  e.kind = EngineKind::ZMQ;  // worker threads wait at a step's barrier that long
  EXPECT_NO_THROW(e.check());
  EXPECT_EQ(e.barrier_timeout(), 5);
  EXPECT_EQ(EngineChoice{}.barrier_timeout(), emulator::DEFAULT_RUN_TIMEOUT_SECONDS);
  e = {};
  e.peer_timeout = 9;
  EXPECT_ERROR(UsageError, e.check(), "peer_timeout 9");
  e = {};
  e.kind = EngineKind::ZMQ;
  e.address = "127.0.0.1";
  EXPECT_ERROR(UsageError, e.check(), "address 127.0.0.1");
  e = {};
  e.processes = true;
  EXPECT_ERROR(UsageError, e.check(), "processes", "only the zmq engine");
  e.kind = EngineKind::ZMQ;
  EXPECT_NO_THROW(e.check());
  EXPECT_ERROR(UsageError, e.check(/*processes_allowed=*/false), "processes", "threads");
}

TEST(EngineChoice, ListenNeedsAKeyAndGivesItsOwnAddress) {
  EngineChoice e;
  e.kind = EngineKind::ZMQ;
  e.processes = true;
  e.listen = "127.0.0.1:0";
  EXPECT_ERROR(UsageError, e.check(), "listen 127.0.0.1:0", "needs «key_file»");
  e.key_file = "/tmp/k";
  e.port = 5555;
  EXPECT_ERROR(UsageError, e.check(), "listen", "no «address» or «port»");
  EngineChoice k;
  k.key_file = "/tmp/k";
  EXPECT_ERROR(UsageError, k.check(), "key_file /tmp/k", "applies only with «listen»");
}

TEST(EngineChoice, TransportSaysHowWorkersTalk) {
  EngineChoice e;
  EXPECT_EQ(e.transport(), "none");
  e.kind = EngineKind::ZMQ;
  EXPECT_EQ(e.transport(), "inproc");
  e.processes = true;
  EXPECT_EQ(e.transport(), "ipc");
}

TEST(EngineChoice, MemoryEstimateCountsNodesTraceAndProcesses) {
  EngineChoice local;
  const auto dense = local.memory_estimate(1000, 0, false, 0, {}, LocalPath::DENSE);
  const auto general = local.memory_estimate(1000, 0, false);
  EXPECT_LT(dense.bytes, general.bytes);
  // On the dense path the program's own bytes count: the broadcast's 6 a node, not the all-reduce's 16.
  const auto broadcast = local.memory_estimate(1000, 0, false, 0, {}, LocalPath::DENSE,
                                               algorithms::star::BROADCAST_PROGRAM_BYTES_PER_NODE);
  EXPECT_EQ(dense.bytes - broadcast.bytes, 1000 * (algorithms::star::ALLREDUCE_PROGRAM_BYTES_PER_NODE -
                                                   algorithms::star::BROADCAST_PROGRAM_BYTES_PER_NODE));
  EXPECT_NE(broadcast.breakdown.find("1000 nodes × 30 B"), std::string::npos) << broadcast.breakdown;
  const auto traced = local.memory_estimate(1000, 500, true);
  EXPECT_GT(traced.bytes, general.bytes);
  EXPECT_NE(traced.breakdown.find("500 traced messages"), std::string::npos) << traced.breakdown;
  EngineChoice processes;
  processes.kind = EngineKind::ZMQ;
  processes.processes = true;
  const auto three = processes.memory_estimate(1000, 0, false);
  EXPECT_NE(three.breakdown.find("3 processes"), std::string::npos) << three.breakdown;
  // Saturates instead of wrapping: a hopeless run's estimate only has to be too big.
  EXPECT_EQ(local.memory_estimate(~std::uint64_t{0}, 0, false).bytes, ~std::uint64_t{0});
}

TEST(HostPort, ParsesAddressesAndNamesTheSetting) {
  const auto hp = HostPort::parse("127.0.0.1:5555", "listen", false);
  EXPECT_EQ(hp.endpoint(), "tcp://127.0.0.1:5555");
  EXPECT_ERROR(UsageError, HostPort::parse("127.0.0.1", "join", false), "join 127.0.0.1", "no port");
  EXPECT_ERROR(UsageError, HostPort::parse("127.0.0.1:0", "join", false), "not in 1..65535");
  EXPECT_ERROR(UsageError, HostPort::parse("::1:80", "join", false), "brackets");
}

TEST(ParseEngine, LocalOrZmq) {
  EXPECT_EQ(parse_engine("zmq"), EngineKind::ZMQ);
  EXPECT_ERROR(UsageError, parse_engine("mpi"), "engine mpi", "local", "zmq");
}

}  // namespace
}  // namespace starnet::api

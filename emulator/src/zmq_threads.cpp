// `run_zmq_threads`: K worker threads of one process over inproc:// (zmq_engine.hpp).
#include "zmq_exchange.hpp"

#include <starnet/emulator/zmq_engine.hpp>

#include <atomic>
#include <exception>
#include <optional>
#include <thread>
#include <unistd.h>

namespace starnet::emulator {
namespace {

std::atomic<unsigned> run_counter{0};

template <class Time>
RunResult<Time> run_threads(const topology::Topology& topology, const CostModel<Time>& costs,
                            const ProgramFactory& factory, const RunConfig& config, unsigned workers,
                            double timeout_seconds, RunResult<Time>* stopped) {
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
  std::vector<PartitionRun<Time>> cores(workers);
  std::vector<std::exception_ptr> errors(workers);
  std::atomic<bool> failed{false};
  // Every exchange, and so every worker's bound PULL socket, outlives all the threads: a socket
  // closed early would leave its peers' connects pending, and libzmq aborts the process when it
  // cannot open the socket it binds such a connect to at the context's end (out of open files).
  std::vector<std::optional<ZmqExchange<Time>>> exchanges(workers);
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < workers; ++i) {
    threads.emplace_back([&, i] {
      auto& exchange = exchanges[i];
      try {
        exchange.emplace(ctx, i, std::move(pulls[i]), endpoints, nullptr, nullptr, timeout_seconds, &failed);
        cores[i].run(topology, costs, config, parts, i, *result.programs[i], *exchange);
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
  std::exception_ptr echo;
  for (const auto& e : errors) {
    if (!e) continue;
    try {
      std::rethrow_exception(e);
    } catch (const ModelViolation&) {
      cause = e;
      break;
    } catch (const PeerFailure&) {
      if (!echo) echo = e;
    } catch (...) {
      if (!cause) cause = e;
    }
  }
  if (!cause) cause = echo;
  for (auto& core : cores) merge_into(result, core);
  sort_trace(result.trace);
  if (cause) {
    if (stopped != nullptr) *stopped = std::move(result);
    std::rethrow_exception(cause);
  }
  for (const auto& p : result.programs) result.reports.push_back(p->report());
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace


template <class Time>
RunResult<Time> run_zmq_threads(const topology::Topology& topology, const CostModel<Time>& costs,
                                const ProgramFactory& factory, const RunConfig& config, unsigned workers,
                                double timeout_seconds, RunResult<Time>* stopped) {
  if (stopped != nullptr) *stopped = {};
  try {
    return run_threads(topology, costs, factory, config, workers, timeout_seconds, stopped);
  } catch (const zmq::error_t& e) {
    throw zmq_failure(e);
  }
}

template RunResult<Rational> run_zmq_threads(const topology::Topology&, const CostModel<Rational>&,
                                             const ProgramFactory&, const RunConfig&, unsigned, double,
                                             RunResult<Rational>*);
template RunResult<double> run_zmq_threads(const topology::Topology&, const CostModel<double>&,
                                           const ProgramFactory&, const RunConfig&, unsigned, double,
                                           RunResult<double>*);

}  // namespace starnet::emulator

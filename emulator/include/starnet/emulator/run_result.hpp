#pragma once
/// @file
/// What a run of node programs is given and gives back, apart from the engines that run it
/// (engine.hpp, zmq_engine.hpp): the factory of program objects and the run's result. Callers that
/// only hand programs in and read results out (starnet::api's results) include this alone.

#include <starnet/emulator/program.hpp>
#include <starnet/emulator/trace.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace starnet::emulator {

/// Builds the program object serving one partition.
using ProgramFactory = std::function<std::unique_ptr<NodeProgram>(NodeRange)>;

template <class Time>
struct RunResult {
  Time makespan{};      ///< time of the last event (in unit mode: the number of steps)
  Counters counters;
  std::vector<TraceEvent<Time>> trace;  ///< sorted by TraceEvent::key(); empty unless asked for
  std::vector<std::unique_ptr<NodeProgram>> programs;  ///< one per partition (in-process engines)
  std::vector<std::string> reports;  ///< NodeProgram::report() of each partition
  double wall_seconds = 0;
  /// Worker processes: messages the coordinator dropped because they came from no worker of the
  /// run or were not what the protocol expects at that point (a stray or hostile peer); they
  /// cannot change a result.
  std::uint64_t stray_messages = 0;
  /// Worker processes: the peak resident set of each (VmHWM), so that a user can tell how many
  /// hosts a larger run needs.
  std::vector<std::uint64_t> worker_peak_bytes;
  /// Worker processes: where each ran, "HOST (ADDRESS)" as the coordinator saw it.
  std::vector<std::string> worker_hosts;
  /// Worker processes over CURVE: connections refused for not holding the run's key.
  std::uint64_t refused_connections = 0;
  /// Worker processes: the longest any worker went without being heard from (heartbeats
  /// included), what --peer-timeout must exceed on this machine and network.
  double longest_silence_seconds = 0;
  /// Worker processes: where refused clients and stray messages came from (the first few).
  std::vector<std::string> stranger_addresses;
};

}  // namespace starnet::emulator

#pragma once
/// @file
/// Exact minimum step counts of gossip (= all-gather = all-reduce when a message may carry
/// several values) and of broadcast from a root, in the emulator's port model, by SAT, with both
/// answers checked independently (docs/optimal.md).
///
/// Method: T runs upward from the best named lower bound (step_bounds.hpp) to the best built-in
/// algorithm's step count (an upper bound, itself run on the emulator); once T reaches the upper
/// bound every shorter T is refuted, so the upper bound is the optimum without a solver call
/// (a closed bracket is a proof: the bounds meeting at once need no search at all). Each T is one CNF
/// (step_encoding.hpp) solved by CaDiCaL. The first satisfiable T is the optimum when T − 1 was
/// proved unsatisfiable or T is the lower bound. Every satisfiable answer is decoded into a
/// schedule (each message carries what the receiver lacks) that the emulator runs in strict mode
/// and verifies; every unsatisfiable answer is confirmed by a second solver (CryptoMiniSat, when
/// installed) and, with proof_dir(), by a DRAT proof that drat_check.hpp checks.
/// Each T gets a fresh formula rather than an incremental one, so that every UNSAT has its own
/// refutation (a DRAT proof of the empty clause, a DIMACS file for the second solver).
///
/// Usage:
/// @code
///   OptimalSearch search;
///   search.topology(*t, "star:4").goal(Goal::GOSSIP).time_limit(60).run();
///   if (search.result().status == Status::OPTIMAL) ... search.result().optimum ...
/// @endcode
/// IMPORTANT: exact search is refused beyond MAX_EXACT_NODES nodes; a time limit leaves a bracket.

#include <starnet/algorithms/optimal/optimal_result.hpp>
#include <starnet/algorithms/optimal/step_bounds.hpp>
#include <starnet/algorithms/schedule/chunk_schedule.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace starnet::algorithms::optimal {

/// A built-in algorithm's schedule offered as an upper bound: its name and its schedule (of the
/// goal's collective or one that implies it: a one-word all-reduce, an all-gather for gossip).
struct Candidate {
  std::string name;
  schedule::Schedule schedule;
};
/// The built-in schedules for @p goal on @p t: the catalogue's (collectives/catalogue.hpp, above
/// this part; starnet::api hands it in), each run verified before it counts.
using CandidateSource = std::function<std::vector<Candidate>(const topology::Topology& t, const std::string& spec,
                                                             Goal goal, topology::NodeId root,
                                                             const emulator::PortModel& ports)>;

class OptimalSearch {
 public:
  /// @param spec the topology's spec (names it in messages; decides symmetry breaking).
  OptimalSearch& topology(const topology::Topology& t, std::string spec) {
    topology_ = &t;
    spec_ = std::move(spec);
    return *this;
  }
  /// The topology was built in memory under the name given to topology(): no family knowledge
  /// (vertex-transitivity, symmetry breaking, the Cayley group of the uniform schedule) is taken
  /// from that name, whatever it reads like.
  OptimalSearch& in_memory(bool yes) {
    in_memory_ = yes;
    return *this;
  }
  OptimalSearch& goal(Goal g) {
    goal_ = g;
    return *this;
  }
  OptimalSearch& root(topology::NodeId r) {
    root_ = r;
    return *this;
  }
  OptimalSearch& ports(const emulator::PortModel& p) {
    ports_ = p;
    return *this;
  }
  /// Wall-clock seconds for the whole search (≤ 0: none).
  OptimalSearch& time_limit(double seconds) {
    time_limit_ = seconds;
    return *this;
  }
  /// Writes each UNSAT's CNF and DRAT proof there and checks the proof; other calls leave no file there.
  OptimalSearch& proof_dir(std::string dir) {
    proof_dir_ = std::move(dir);
    return *this;
  }
  /// Where the built-in upper bounds come from (none: only the uniform schedule's).
  OptimalSearch& builtins(CandidateSource source) {
    builtins_ = std::move(source);
    return *this;
  }
  /// Called after each solver call (progress).
  OptimalSearch& on_solve(std::function<void(const SolveRecord&)> f) {
    on_solve_ = std::move(f);
    return *this;
  }

  /// @throws UsageError for K < 1, a root outside the topology, more than MAX_EXACT_NODES nodes
  /// (naming the limit and why), a disconnected topology (no schedule exists);
  /// SolverError when the two solvers disagree, a decoded schedule fails on the emulator or a named
  /// bound exceeds a verified schedule (each message says why).
  OptimalSearch& run();
  /// @pre run() was called.
  [[nodiscard]] const OptimalResult& result() const { return result_; }

 private:
  /// One T: encode, solve, check the answer both ways. False when the time limit stopped it.
  bool solve(std::uint64_t steps, std::optional<std::size_t> first_arc,
             std::optional<std::chrono::steady_clock::time_point> deadline);
  /// The best built-in schedule (builtins()) that runs, verified, in this port model, and on a
  /// Cayley graph (single-port full duplex) the shortest uniform schedule.
  void upper_bound_from_builtins();

  const topology::Topology* topology_ = nullptr;
  std::string spec_;
  bool in_memory_ = false;
  Goal goal_ = Goal::GOSSIP;
  topology::NodeId root_ = 0;
  emulator::PortModel ports_;
  double time_limit_ = 0;
  std::string proof_dir_;
  std::function<void(const SolveRecord&)> on_solve_;
  CandidateSource builtins_;
  OptimalResult result_;
};

/// Why @p r is not a verified run of exactly @p steps unit steps: the check's first problem, or
/// the time the run ended at; none when it is.
[[nodiscard]] std::optional<std::string> steps_problem(const schedule::ScheduleRun& r, std::uint64_t steps);

/// The arc (index in (node, port) order) an automorphism of @p spec's family can map the first
/// transfer onto, or none when the family is not known to be arc-transitive (gossip) or
/// transitive on the root's links (broadcast): star, hypercube, complete, ring, torus:AxA.
[[nodiscard]] std::optional<std::size_t> symmetric_first_arc(const topology::Topology& t, const std::string& spec,
                                                             Goal goal, topology::NodeId root);

}  // namespace starnet::algorithms::optimal

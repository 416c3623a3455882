#pragma once
/// @file
/// What the exact and uniform searches for a shortest schedule answer (optimal_search.hpp,
/// uniform_search.hpp run them): the sizes they take, the named bounds, each solver call, and the
/// optimum or bracket with its schedules.

#include <starnet/algorithms/schedule/chunk_schedule.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starnet::algorithms::optimal {

/// Most nodes of an exact search: the gossip CNF has N² knowledge variables per step.
inline constexpr topology::NodeId MAX_EXACT_NODES = 256;

/// Largest group whose uniform schedules are written as chunk schedules (a gossip moves
/// |G|·(|G| − 1) chunks: S_6 517,680, hypercube:10 1,047,552; S_7 would move 25 million).
inline constexpr std::uint64_t MAX_UNIFORM_SCHEDULE_NODES = 1024;

struct NamedBound {
  std::string name;  ///< "distance", "counting", "degree-limited", "fibonacci"
  std::uint64_t steps = 0;
  std::string reason;  ///< one line: what it counts
};

enum class Status : std::uint8_t { OPTIMAL, TIME_LIMIT };
[[nodiscard]] std::string to_string(Status s);

/// One solver call.
struct SolveRecord {
  std::uint64_t steps = 0;
  std::optional<bool> satisfiable;  ///< none: stopped by the time limit
  int variables = 0;
  std::uint64_t clauses = 0;
  std::uint64_t learned = 0;  ///< clauses learned (one per conflict)
  double seconds = 0;
  /// UNSAT only: "confirmed" (CryptoMiniSat answered UNSAT), "unavailable", "timed out".
  std::string second_solver;
  /// UNSAT with a proof directory: "verified (N lemmas)" or why not.
  std::string proof;
};

struct OptimalResult {
  Status status = Status::TIME_LIMIT;
  std::optional<std::uint64_t> optimum;
  std::uint64_t lower_bound = 0;  ///< proven: no schedule is shorter
  std::optional<std::uint64_t> upper_bound;  ///< a schedule of this length exists
  std::string upper_source;  ///< "bfs-tree", "star-allreduce", "uniform", … or "SAT"
  std::optional<std::uint64_t> builtin_steps;  ///< the best built-in algorithm, run on the emulator
  std::string builtin;                          ///< its name
  std::vector<NamedBound> bounds;
  std::vector<SolveRecord> solves;
  /// The optimum's schedule: decoded from the last satisfiable model, or the upper bound's when
  /// the bounds meet it.
  std::optional<schedule::Schedule> schedule;
  bool schedule_verified = false;
  /// The schedule behind upper_bound (a built-in algorithm's, the uniform one, or SAT's), run
  /// verified on the emulator: the best known when the time limit leaves a bracket.
  std::optional<schedule::Schedule> upper_schedule;
  double seconds = 0;
};

}  // namespace starnet::algorithms::optimal

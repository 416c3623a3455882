#pragma once
/// @file
/// How far from optimal (docs/optimal.md, docs/beyond.md) as library calls: the exact minimum step
/// count by SAT, proved both ways; the shortest schedule within a class (uniform schedules on Cayley
/// graphs, coset schedules on S_3..S_6), verified on the emulator; and the two studies.
///
/// A closed bracket is a proof: when the named lower bound meets a verified schedule's length, no
/// solver is called. When the time limit leaves a bracket, the best schedule known is still given
/// (its source named), marked unproved.
///
/// @code
///   OptimalRequest request;
///   request.topology = "star:4";
///   request.collective = Collective::ALLREDUCE;
///   const OptimalOutcome o = find_optimal(request);
///   o.sat->optimum;  // 6, proved; o.schedule an all-reduce schedule of 6 steps, verified
/// @endcode

#include <starnet/algorithms/optimal/optimal_result.hpp>
#include <starnet/api/schedule.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/topology.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starnet::api {

/// One solver call of a SAT search (T, satisfiable or not or stopped, size, time), as both faces
/// print it, and the largest topology whose uniform schedule is written out as a schedule.
/// The exact (SAT) search takes topologies of at most this many nodes.
using algorithms::optimal::MAX_EXACT_NODES;
using algorithms::optimal::MAX_UNIFORM_SCHEDULE_NODES;
using algorithms::optimal::SolveRecord;


enum class OptimalMethod : std::uint8_t { SAT, UNIFORM, COSET, AUTO };
/// "sat", "uniform", "coset", "auto".
[[nodiscard]] std::string to_string(OptimalMethod m);
/// @throws UsageError about setting "method" naming the choices.
[[nodiscard]] OptimalMethod parse_method(std::string_view text);

/// Seconds an exact search may take when no limit is given: a graph it cannot decide quickly
/// leaves a bracket, never a wait without end. A limit of 0 means none.
inline constexpr double DEFAULT_OPTIMAL_SECONDS = 60;

struct OptimalRequest {
  TopologyRef topology = std::string();
  /// ALLGATHER (gossip), ALLREDUCE (messages of several values: the same search, the schedule
  /// written as an all-reduce) or BROADCAST (from root).
  Collective collective = Collective::ALLGATHER;
  std::string root = std::string(DEFAULT_ROOT);
  emulator::PortModel ports;
  /// Seconds for the whole search; none: DEFAULT_OPTIMAL_SECONDS; 0: no limit.
  std::optional<double> time_limit;
  /// sat: write each UNSAT's CNF and DRAT proof there and check every proof.
  std::string proof_dir;
  OptimalMethod method = OptimalMethod::SAT;
  /// uniform, coset: a beam of this width instead of the exhaustive search.
  std::optional<long> beam_width;
  /// uniform, coset: the longest schedule searched (default n(n−1)/2 on star:N, |G| − 1 elsewhere).
  std::optional<long> max_steps;
  /// uniform: beam searches of width 1, 2, 4, … until the time limit, keeping the shortest.
  bool anytime = false;
};

/// One point of the total exchange's Pareto front (`optimal --collective alltoall --method uniform`,
/// collectives/exchange_search.hpp): a uniform sequence of `steps` generators whose combining
/// exchange sends `volume` packets from every node.
struct ExchangePoint {
  std::vector<int> dimensions;        ///< generator ids
  std::vector<std::string> moves;     ///< their names
  std::uint64_t volume = 0;
  std::vector<std::uint64_t> packets;  ///< packets in every message of each step
  bool exhaustive = false;            ///< the least volume of all uniform sequences of its length
  bool verified = false;              ///< ran verified on the emulator
  /// With every step costing α + m·(its packets)/β, the one-packet exchange (s steps, volume s) is
  /// faster beyond m = αβ·crossover, crossover = (s − T)/(V − s); none when V = s (never).
  [[nodiscard]] std::optional<Rational> crossover(std::uint64_t status) const;
};

/// What a search within a class found (uniform or coset).
struct ClassFound {
  std::string klass;   ///< "uniform" or "coset"
  std::string method;  ///< exhaustive, beam, anytime; coset-exhaustive, coset-beam
  std::vector<std::string> steps;    ///< each step's move: its generator, or the coset map "s→k …" (JSON "moves")
  std::vector<int> dimensions;       ///< uniform: the generator ids
  std::vector<std::uint64_t> sizes;  ///< uniform: |P_t|
  bool proved_minimal = false;
  std::uint64_t explored = 0;
  double seconds = 0;
  bool timed_out = false;
  int paper_steps = 0;  ///< star:N: the paper's n(n−1)/2; 0 elsewhere
  std::vector<std::uint64_t> largest_per_step;  ///< items of the largest message of each step
  std::uint64_t items_received = 0;             ///< per node
  bool meta = false;  ///< verified with meta messages (star graphs beyond the schedule size)
  /// alltoall: the Pareto front (the fields above describe its first point), the status s, and
  /// whether the front reached volume s (nothing beyond it can be better).
  std::vector<ExchangePoint> pareto;
  std::uint64_t status = 0;
  bool pareto_complete = false;
};

struct OptimalOutcome {
  OptimalRequest request;
  topology::NodeId nodes = 0;
  std::optional<algorithms::optimal::OptimalResult> sat;
  std::optional<ClassFound> found;
  /// The optimum's schedule, or the best known (unproved) when a time limit leaves a bracket;
  /// its collective is the request's. Null when there is none to give.
  std::shared_ptr<const LoadedSchedule> schedule;
  /// Why there is no schedule to give, in one sentence both faces print; empty when there is one.
  std::string schedule_note;
  /// The schedule is the optimum (SAT: proved; a class search: minimal in its class).
  bool schedule_proved = false;
  /// What was found ran verified on the emulator (and, for SAT, is proved optimal).
  bool verified = false;
  /// 0 verified, 1 a check failed, 3 the time limit left a bracket or nothing was found.
  [[nodiscard]] int exit_code() const;
  /// The document of `starnet optimal --json`.
  [[nodiscard]] nlohmann::json to_json() const;
};

/// Point @p index of @p outcome's Pareto front as an all-to-all schedule (to write with `-o`).
/// @throws UsageError beyond optimal::MAX_UNIFORM_SCHEDULE_NODES nodes or a point that is not there.
[[nodiscard]] LoadedSchedule exchange_point_schedule(const OptimalOutcome& outcome, std::size_t index);

/// @throws UsageError naming the setting at fault (a collective that is not gossip, all-reduce or
/// broadcast, a root not in the topology, options of another method, too many nodes);
/// SolverError when the two SAT solvers disagree.
[[nodiscard]] OptimalOutcome find_optimal(const OptimalRequest& request);

/// `optimal --study star`: the gossip optimum of S_3..S_5, Q_3, Q_4, K_n, rings and tori, single
/// port, full and half duplex.
struct OptimalStudy {
  struct Row {
    std::string spec;
    std::uint64_t nodes = 0;
    bool half = false;
    algorithms::optimal::OptimalResult result;
  };
  std::vector<Row> rows;
  /// Every row proved and its schedule verified.
  bool verified = false;
  [[nodiscard]] nlohmann::json to_json() const;
  [[nodiscard]] std::string csv() const;
  /// 0 verified; 3 when a row's time limit left a bracket.
  [[nodiscard]] int exit_code() const { return verified ? 0 : 3; }
};
/// @param seconds per instance (none: DEFAULT_OPTIMAL_SECONDS).
[[nodiscard]] OptimalStudy optimal_study_star(std::optional<double> seconds);

/// `optimal --study star-beyond`: uniform gossips on S_3..S_10 beside the paper's all-to-all
/// broadcast, their α–β times, the coset class and SAT where they decide.
struct BeyondStudy {
  struct Row {
    int n = 0;
    std::uint64_t nodes = 0;
    std::uint64_t paper_steps = 0;
    std::vector<int> dimensions;
    std::vector<std::uint64_t> items;  ///< items per message at each step of the uniform gossip
    bool proved = false;
    std::string method;  ///< exhaustive or "beam W"
    std::string coset;   ///< the shortest coset schedule ("5*": proved minimal), "-" or "none"
    std::string sat;     ///< the SAT optimum, a bracket "[l,u]", or "" beyond SAT's reach
    std::uint64_t log2_bound = 0;
    double alpha_beta_small_paper = 0, alpha_beta_small_uniform = 0;
    double alpha_beta_large_paper = 0, alpha_beta_large_uniform = 0;
    double seconds = 0;
    bool verified = false;
  };
  std::vector<Row> rows;
  bool verified = false;
  [[nodiscard]] nlohmann::json to_json() const;
  [[nodiscard]] std::string csv() const;
};
[[nodiscard]] BeyondStudy optimal_study_beyond(std::optional<double> seconds);

}  // namespace starnet::api

#pragma once
/// @file
/// The non-clairvoyant reductions of Benoit, Canon and Marchal (CCPE 2014) under random costs as
/// library calls: one scenario (every run verified, one run re-emulated with its trace), the
/// studies of Figures 4–6 with the paper's statements checked on the data, and the worst-case
/// instances of Section 4 (docs/montecarlo.md).

#include <starnet/algorithms/nonclairvoyant/algorithm_outcome.hpp>
#include <starnet/algorithms/nonclairvoyant/study_results.hpp>
#include <starnet/algorithms/nonclairvoyant/worst_case_instance.hpp>
#include <starnet/emulator/trace.hpp>
#include <starnet/topology/complete_graph.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace starnet::api {

/// Runs of one scenario when none are asked for.
inline constexpr std::uint64_t DEFAULT_MONTECARLO_RUNS = 10'000;

/// The algorithms of a comma-separated list ("binomial-stat,tree-dyn"), each once.
/// @throws UsageError about "algorithms" for an unknown name, a name twice or an empty list.
[[nodiscard]] std::vector<algorithms::nonclairvoyant::Algorithm> parse_montecarlo_algorithms(std::string_view list);
/// The fast path as the command line writes it: "on" (the default) or "off".
/// @throws UsageError about "fast_path" for anything else.
[[nodiscard]] bool parse_fast_path(std::string_view text);
/// A cost law of Table II by name. @throws UsageError about "dist", listing the names.
[[nodiscard]] algorithms::stochastic::DistributionKind parse_cost_law(std::string_view name);

struct MonteCarloRequest {
  std::vector<algorithms::nonclairvoyant::Algorithm> algorithms{algorithms::nonclairvoyant::ALL_ALGORITHMS.begin(),
                                                                algorithms::nonclairvoyant::ALL_ALGORITHMS.end()};
  int n = 64;
  algorithms::stochastic::DistributionKind dist = algorithms::stochastic::DistributionKind::GAMMA;
  double cv = 1;
  double mu_d = 1;
  double mu_c = 0;
  std::optional<std::uint64_t> runs;  ///< none: DEFAULT_MONTECARLO_RUNS
  std::uint64_t seed = 1;
  unsigned threads = 0;  ///< 0: every core
  /// Re-emulate this run of the (single) algorithm with its events kept (a Gantt chart, a trace).
  std::optional<std::uint64_t> run;
  /// Keep every run's makespan in MonteCarloOutcome::makespans (8 bytes per run and algorithm).
  bool keep_makespans = false;
  /// The runs take the fast path (algorithms/nonclairvoyant/fast_path.hpp), the general engine's
  /// makespans bit for bit at a fraction of its cost; false: the general engine. The run shown
  /// again with its events (run) always takes the general engine, and is checked to give the
  /// study's makespan.
  bool fast_path = true;
};

/// One run of a scenario emulated again with its events kept (MonteCarloRequest::run).
struct MonteCarloRun {
  double makespan = 0;
  std::vector<emulator::TraceEvent<double>> trace;
  std::shared_ptr<const topology::CompleteGraph> machines;  ///< complete:n, the trace's nodes
};

struct MonteCarloResult {
  MonteCarloRequest request;
  std::uint64_t runs = 0;
  std::vector<algorithms::nonclairvoyant::AlgorithmOutcome> outcomes;
  /// The re-emulated run: present exactly when request.run is.
  std::optional<MonteCarloRun> run;
  double wall_seconds = 0;
  std::vector<std::string> failures;  ///< what was not verified
  [[nodiscard]] bool verified() const { return failures.empty(); }
  [[nodiscard]] nlohmann::ordered_json to_json() const;
  [[nodiscard]] std::string csv() const;
  /// The title of the re-emulated run (its Gantt chart): the algorithm, the scenario, the run.
  /// @pre run.
  [[nodiscard]] std::string run_title() const;
};

/// @throws UsageError about "algorithms" (none), "n", "cv" (outside the law's range), "mu_d", "mu_c",
/// "runs", "run".
[[nodiscard]] MonteCarloResult run_montecarlo(const MonteCarloRequest& request);

struct MonteCarloStudyRequest {
  std::string study = "figure4";  ///< figure4, figure5 or figure6
  int n = 64;
  std::optional<std::uint64_t> runs;  ///< none: the figure's default
  std::uint64_t seed = 1;
  unsigned threads = 0;
  int points = algorithms::nonclairvoyant::DEFAULT_CV_POINTS;
  int ratio_points = algorithms::nonclairvoyant::DEFAULT_COST_RATIO_POINTS;
  bool fast_path = true;  ///< as MonteCarloRequest::fast_path: the same data either way
};

struct MonteCarloStudyResult {
  MonteCarloStudyRequest request;
  std::variant<algorithms::nonclairvoyant::Figure4Result, algorithms::nonclairvoyant::GridResult> data;
  std::vector<algorithms::nonclairvoyant::StudyNote> notes;
  std::size_t gamma = 0;  ///< index of the gamma law in a grid's laws
  [[nodiscard]] bool verified() const;
  [[nodiscard]] double simulations() const;
  [[nodiscard]] double wall_seconds() const;
  [[nodiscard]] nlohmann::ordered_json to_json() const;
  [[nodiscard]] std::string csv() const;
};

/// @throws UsageError about "study", "points", "ratio_points" and as run_montecarlo.
[[nodiscard]] MonteCarloStudyResult run_montecarlo_study(const MonteCarloStudyRequest& request);

struct WorstCaseRow {
  algorithms::nonclairvoyant::WorstCaseInstance instance;
  algorithms::nonclairvoyant::WorstCaseOutcome outcome;
  bool within = false;  ///< the ratio is within the proven bound
};
struct WorstCaseResult {
  std::vector<WorstCaseRow> rows;
  std::vector<std::string> failures;
  [[nodiscard]] bool verified() const { return failures.empty(); }
  [[nodiscard]] nlohmann::ordered_json to_json() const;
  [[nodiscard]] std::string csv() const;
};
/// The worst-case instances of Section 4 (Table I), emulated with exact costs.
[[nodiscard]] WorstCaseResult montecarlo_worst_cases();

}  // namespace starnet::api

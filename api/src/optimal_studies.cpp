// The two studies of `starnet optimal --study`: exact optima across small networks, and uniform
// gossips on S_3..S_10 beside the paper (docs/optimal.md, docs/beyond.md).
#include "optimal_class.hpp"

#include <starnet/algorithms/collectives/catalogue.hpp>
#include <starnet/algorithms/optimal/optimal_search.hpp>
#include <starnet/api/optimal.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/algorithms/optimal/coset_search.hpp>
#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace starnet::api {
namespace {

namespace opt = algorithms::optimal;

/// The networks of `--study star`.
const char* const STUDY_SPECS[] = {"star:3",     "star:4",     "star:5",     "hypercube:3", "hypercube:4", "complete:4",
                                   "complete:6", "complete:8", "ring:6",     "ring:8",      "torus:3x3",   "torus:4x4"};

std::string bound_of(const opt::OptimalResult& r, const std::string& name) {
  for (const auto& b : r.bounds) {
    if (b.name == name) return std::to_string(b.steps);
  }
  return "";
}

std::string optional_text(const std::optional<std::uint64_t>& x) { return x ? std::to_string(*x) : std::string(); }

/// A row of the star study: its optimum proved and the schedule of the optimum verified.
bool row_verified(const OptimalStudy::Row& row) { return row.result.optimum && row.result.schedule_verified; }
bool row_verified(const BeyondStudy::Row& row) { return row.verified; }

/// What both studies do around their rows: the time limit checked once (none: the default for
/// each instance), a stop request honoured between instances, the progress named by
/// @p detail(instance), and the study verified when every row is. @p row_of(instance, seconds)
/// computes one row.
template <class Study, class Instance, class Detail, class RowOf>
Study run_study(std::optional<double> seconds, const std::vector<Instance>& instances, Detail detail, RowOf row_of) {
  const StopScope scope;
  check_seconds(seconds, "time_limit");
  const double limit = seconds.value_or(DEFAULT_OPTIMAL_SECONDS);
  Study study;
  study.verified = true;
  for (const auto& instance : instances) {
    progress_detail(detail(instance));
    progress_count(study.rows.size(), instances.size());
    study.rows.push_back(row_of(instance, limit));
    study.verified = study.verified && row_verified(study.rows.back());
  }
  return study;
}

}  // namespace

OptimalStudy optimal_study_star(std::optional<double> seconds) {
  struct Instance {
    const char* spec;
    bool half;
  };
  std::vector<Instance> instances;
  for (const char* spec : STUDY_SPECS) {
    for (const bool half : {false, true}) instances.push_back({spec, half});
  }
  return run_study<OptimalStudy>(
      seconds, instances,
      [](const Instance& i) { return fmt::format("{} {} duplex", i.spec, i.half ? "half" : "full"); },
      [](const Instance& i, double limit) {
        const auto t = topology::make_topology(i.spec);
        opt::OptimalSearch s;
        s.topology(*t, i.spec)
            .goal(opt::Goal::GOSSIP)
            .ports({1, i.half})
            .time_limit(limit)
            .builtins(algorithms::collectives::optimal_candidates);
        return OptimalStudy::Row{i.spec, t->num_nodes(), i.half, s.run().result()};
      });
}

nlohmann::json OptimalStudy::to_json() const {
  nlohmann::json rows_json = nlohmann::json::array();
  for (const auto& row : rows) {
    OptimalOutcome o;
    o.request.topology = row.spec;
    o.request.ports = {1, row.half};
    o.nodes = row.nodes;
    o.sat = row.result;
    o.verified = row_verified(row);
    o.schedule_proved = row.result.optimum.has_value();
    rows_json.push_back(o.to_json());
  }
  return {{"study", "star"}, {"rows", rows_json}, {"verified", verified}};
}

std::string OptimalStudy::csv() const {
  std::string csv = "topology,nodes,duplex,builtin,builtin_steps,optimum,lower_bound,upper_bound,distance,counting,"
                    "degree_limited,fibonacci,seconds\n";
  for (const auto& row : rows) {
    const auto& r = row.result;
    csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{:.3f}\n", row.spec, row.nodes, row.half ? "half" : "full",
                       r.builtin, optional_text(r.builtin_steps), optional_text(r.optimum), r.lower_bound,
                       optional_text(r.upper_bound), bound_of(r, "distance"), bound_of(r, "counting"),
                       bound_of(r, "degree-limited"), bound_of(r, "fibonacci"), r.seconds);
  }
  return csv;
}

namespace {

/// The α–β time of a gossip whose step t carries @p items[t] items per message: Σ α + m·items/β.
double alpha_beta_time(const std::vector<std::uint64_t>& items, double alpha, double beta, double m) {
  double time = 0;
  for (const auto x : items) time += alpha + m * static_cast<double>(x) / beta;
  return time;
}

/// Items per message at each step of the paper's broadcast: step offset of level m carries (m−1)!.
std::vector<std::uint64_t> paper_items(int n) {
  std::vector<std::uint64_t> items;
  for (int m = 2; m <= n; ++m) {
    for (int off = 0; off < m - 1; ++off) items.push_back(topology::StarGraph::factorial(m - 1));
  }
  return items;
}

// α = 1 time unit per message, β = 1 item per time unit; small and large items.
constexpr double ALPHA = 1;
constexpr double BETA = 1;
constexpr double SMALL = 1.0 / 1024;
constexpr double LARGE = 1;
constexpr int EXHAUSTIVE_UP_TO = 6;
constexpr int SAT_UP_TO = 4;
// The coset class (coset_search.hpp): exhaustive on S_4, a beam on S_5 (S_6: minutes, docs/beyond.md).
constexpr int COSET_EXHAUSTIVE_UP_TO = 4;
constexpr int COSET_UP_TO = 5;
constexpr std::size_t COSET_BEAM_WIDTH = 1000;
constexpr std::size_t BEAM_WIDTHS[] = {0, 0, 0, 0, 0, 0, 0, 2000, 200, 200, 20};

BeyondStudy::Row beyond_row(int n, double seconds) {
  BeyondStudy::Row row;
  const auto g = opt::CayleyGroup::star(n);
  const bool exhaustive = n <= EXHAUSTIVE_UP_TO;
  const int paper_steps = static_cast<int>(algorithms::star::allreduce_steps(n));
  const auto r = exhaustive ? opt::uniform_exhaustive(g, paper_steps, seconds)
                            : opt::uniform_beam(g, BEAM_WIDTHS[n], paper_steps, seconds);
  row.n = n;
  row.nodes = g.order();
  row.dimensions = r.dimensions;
  row.items = opt::uniform_items(r.sizes);
  const auto paper = paper_items(n);
  row.paper_steps = paper.size();
  if (n <= SAT_UP_TO) {
    const topology::StarGraph t(n);
    opt::OptimalSearch s;
    s.topology(t, fmt::format("star:{}", n)).time_limit(seconds).builtins(algorithms::collectives::optimal_candidates);
    const auto& res = s.run().result();
    row.sat = res.optimum ? std::to_string(*res.optimum) : fmt::format("[{},{}]", res.lower_bound, *res.upper_bound);
  }
  row.coset = "-";
  if (n <= COSET_UP_TO) {
    const auto c = opt::coset_search(n, n <= COSET_EXHAUSTIVE_UP_TO ? 0 : COSET_BEAM_WIDTH, paper_steps, seconds);
    row.coset = c.steps.empty() ? "none" : std::to_string(c.steps.size()) + (c.proved_minimal ? "*" : "");
  }
  while ((std::uint64_t{1} << row.log2_bound) < g.order()) ++row.log2_bound;
  row.proved = exhaustive && r.complete;
  row.method = exhaustive ? "exhaustive" : fmt::format("beam {}", BEAM_WIDTHS[n]);
  row.verified = !r.dimensions.empty() && verify_uniform_gossip(g, r.dimensions);
  row.alpha_beta_small_paper = alpha_beta_time(paper, ALPHA, BETA, SMALL);
  row.alpha_beta_small_uniform = alpha_beta_time(row.items, ALPHA, BETA, SMALL);
  row.alpha_beta_large_paper = alpha_beta_time(paper, ALPHA, BETA, LARGE);
  row.alpha_beta_large_uniform = alpha_beta_time(row.items, ALPHA, BETA, LARGE);
  row.seconds = r.seconds;
  return row;
}

}  // namespace

BeyondStudy optimal_study_beyond(std::optional<double> seconds) {
  std::vector<int> sizes;
  for (int n = 3; n <= opt::MAX_UNIFORM_N; ++n) sizes.push_back(n);
  return run_study<BeyondStudy>(
      seconds, sizes, [](int n) { return fmt::format("S_{} of S_3..S_{}", n, opt::MAX_UNIFORM_N); }, beyond_row);
}

nlohmann::json BeyondStudy::to_json() const {
  nlohmann::json rows_json = nlohmann::json::array();
  for (const auto& r : rows) {
    const auto largest = r.items.empty() ? 0 : *std::max_element(r.items.begin(), r.items.end());
    rows_json.push_back({{"n", r.n},
                         {"nodes", r.nodes},
                         {"paper_steps", r.paper_steps},
                         {"uniform_steps", r.dimensions.size()},
                         {"uniform_proved_minimal", r.proved},
                         {"method", r.method},
                         {"coset_steps", r.coset},
                         {"sat_optimum", r.sat.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.sat)},
                         {"log2_bound", r.log2_bound},
                         {"largest_message", largest},
                         {"alpha_beta_small_paper", r.alpha_beta_small_paper},
                         {"alpha_beta_small_uniform", r.alpha_beta_small_uniform},
                         {"alpha_beta_large_paper", r.alpha_beta_large_paper},
                         {"alpha_beta_large_uniform", r.alpha_beta_large_uniform},
                         {"dimensions", r.dimensions},
                         {"seconds", r.seconds},
                         {"verified", r.verified}});
  }
  return {{"study", "star-beyond"}, {"rows", rows_json}, {"verified", verified}};
}

std::string BeyondStudy::csv() const {
  std::string csv = "n,nodes,paper_steps,uniform_steps,uniform_proved_minimal,method,coset_steps,sat_optimum,log2_bound,"
                    "largest_message,alpha_beta_small_paper,alpha_beta_small_uniform,alpha_beta_large_paper,"
                    "alpha_beta_large_uniform,seconds,dimensions,verified\n";
  for (const auto& r : rows) {
    const auto largest = r.items.empty() ? 0 : *std::max_element(r.items.begin(), r.items.end());
    csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{:.4f},{:.4f},{:.0f},{:.0f},{:.3f},{},{}\n", r.n, r.nodes,
                       r.paper_steps, r.dimensions.size(), r.proved, r.method, r.coset, r.sat, r.log2_bound, largest,
                       r.alpha_beta_small_paper, r.alpha_beta_small_uniform, r.alpha_beta_large_paper,
                       r.alpha_beta_large_uniform, r.seconds, fmt::join(r.dimensions, " "), r.verified);
  }
  return csv;
}

}  // namespace starnet::api

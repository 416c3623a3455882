#include <starnet/api/montecarlo.hpp>
#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>
#include <starnet/algorithms/nonclairvoyant/studies.hpp>
#include <starnet/algorithms/nonclairvoyant/worst_case.hpp>
#include <starnet/api/json.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/algorithms/nonclairvoyant/single_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace starnet::api {
namespace {

namespace nc = algorithms::nonclairvoyant;
namespace st = algorithms::stochastic;
using json = nlohmann::ordered_json;

std::uint64_t runs_or(const std::optional<std::uint64_t>& runs, std::uint64_t fallback) {
  if (!runs) return fallback;
  if (*runs < 1) throw UsageError(Setting{"runs", "0"}, "at least one run is needed");
  return *runs;
}

/// The request's cost law, its CV checked against the law's range and named as its keyword.
st::DistributionKind distribution_of(const MonteCarloRequest& r) {
  try {
    (void)st::CostDistribution(r.dist, 1.0, r.cv);
  } catch (const InputError& e) {
    throw UsageError(Setting{"cv", fmt::format("{}", r.cv)}, e.what());
  }
  return r.dist;
}

/// Reports a Monte-Carlo loop's runs as the progress of the call.
void report_runs(std::uint64_t done, std::uint64_t total) { progress_count(done, total, "runs"); }

json summary_json(const nc::AlgorithmOutcome& o, std::uint64_t runs) {
  const auto& s = o.summary;
  return {{"algorithm", std::string(nc::to_string(o.algorithm))},
          {"mean", s.mean},
          {"stddev", s.stddev},
          {"sem", s.sem},
          {"min", s.min},
          {"q10", s.q10},
          {"q50", s.q50},
          {"q90", s.q90},
          {"max", s.max},
          {"runs", runs},
          {"verified_runs", o.verified},
          {"verified", o.verified == runs}};
}

json notes_json(const std::vector<nc::StudyNote>& notes) {
  json out = json::array();
  for (const auto& n : notes) {
    out.push_back({{"figure", n.figure}, {"claim", n.claim}, {"agrees", n.agrees}, {"finding", n.finding}});
  }
  return out;
}

json nullable(double x) { return std::isnan(x) ? json(nullptr) : json(x); }

}  // namespace

std::vector<nc::Algorithm> parse_montecarlo_algorithms(std::string_view list) {
  std::vector<nc::Algorithm> out;
  const std::string given(list);
  for (const auto& item : split_list(list)) {
    nc::Algorithm a{};
    try {
      a = nc::parse_algorithm(item);
    } catch (const UsageError& e) {
      throw UsageError(Setting{"algorithms", given}, e.what());
    }
    if (std::find(out.begin(), out.end(), a) != out.end()) {
      throw UsageError(Setting{"algorithms", given}, fmt::format("{} is listed twice", item));
    }
    out.push_back(a);
  }
  if (out.empty()) throw UsageError(Setting{"algorithms", given}, "empty (expected a comma-separated list of algorithms)");
  return out;
}

bool parse_fast_path(std::string_view text) {
  if (text == "on") return true;
  if (text == "off") return false;
  throw UsageError(Setting{"fast_path", std::string(text)}, "expected on or off");
}

st::DistributionKind parse_cost_law(std::string_view name) {
  try {
    return st::parse_distribution(name);
  } catch (const InputError& e) {
    throw UsageError(Setting{"dist", std::string(name)}, e.what());
  }
}

MonteCarloResult run_montecarlo(const MonteCarloRequest& request) {
  const StopScope scope;
  const auto& algorithms = request.algorithms;
  if (algorithms.empty()) throw UsageError(Setting{"algorithms", ""}, "empty (expected at least one algorithm)");
  for (auto a = algorithms.begin(); a != algorithms.end(); ++a) {
    if (std::find(algorithms.begin(), a, *a) != a) {
      throw UsageError(Setting{"algorithms", ""}, fmt::format("{} is listed twice", nc::to_string(*a)));
    }
  }
  const nc::Scenario scenario{request.n, distribution_of(request), request.cv, request.mu_d, request.mu_c};
  MonteCarloResult out;
  out.request = request;
  out.runs = runs_or(request.runs, DEFAULT_MONTECARLO_RUNS);
  if (request.run) {
    if (algorithms.size() != 1) {
      throw UsageError(Setting{"run", std::to_string(*request.run)},
                       fmt::format("shows one run of one algorithm: «algorithms» names {}", algorithms.size()));
    }
    if (*request.run >= out.runs) {
      throw UsageError(Setting{"run", std::to_string(*request.run)},
                       fmt::format("expected a run of this study, 0..{}", out.runs - 1));
    }
  }
  nc::MonteCarlo mc;
  mc.algorithms(algorithms).scenario(scenario).runs(out.runs).seed(request.seed).threads(request.threads);
  mc.keep_samples(request.keep_makespans || request.run.has_value()).progress(report_runs);
  mc.fast_path(request.fast_path);
  mc.run();
  out.outcomes = mc.outcomes();
  out.wall_seconds = mc.wall_seconds();
  for (const auto& outcome : out.outcomes) {
    if (outcome.verified != out.runs) {
      out.failures.push_back(
          fmt::format("{}: {} of {} runs verified", nc::to_string(outcome.algorithm), outcome.verified, out.runs));
    }
  }
  if (request.run) {
    const auto one = nc::emulate_study_run(algorithms.front(), scenario, request.seed, *request.run);
    if (one.makespan != out.outcomes.front().makespans[*request.run] || !one.verified) {
      out.failures.push_back(fmt::format("run {} re-emulated to {} (the study has {})", *request.run, one.makespan,
                                         out.outcomes.front().makespans[*request.run]));
    }
    out.run = MonteCarloRun{one.makespan, one.trace,
                            std::make_shared<const topology::CompleteGraph>(static_cast<emulator::NodeId>(request.n))};
  }
  return out;
}

json MonteCarloResult::to_json() const {
  json algos = json::array();
  for (const auto& outcome : outcomes) algos.push_back(summary_json(outcome, runs));
  json out = {{"n", request.n},       {"distribution", std::string(st::to_string(request.dist))}, {"cv", request.cv}, {"mu_d", request.mu_d},
              {"mu_c", request.mu_c}, {"runs", runs},                 {"seed", request.seed}, {"algorithms", algos}};
  if (run) out["run"] = {{"run", *request.run}, {"makespan", run->makespan}};
  out["wall_seconds"] = wall_seconds;
  out["simulations_per_second"] = static_cast<double>(runs * outcomes.size()) / wall_seconds;
  out["verified"] = verified();
  return out;
}

std::string MonteCarloResult::run_title() const {
  const auto& q = request;
  return fmt::format("{}, n = {}, {} CV {}, mu_d = {}, mu_c = {}, seed {}, run {}: makespan {:.6g}",
                     nc::to_string(outcomes.front().algorithm), q.n, st::to_string(q.dist), q.cv, q.mu_d, q.mu_c, q.seed,
                     q.run.value_or(0), run ? run->makespan : 0);
}

std::string MonteCarloResult::csv() const {
  std::string csv = "algorithm,n,distribution,cv,mu_d,mu_c,runs,verified_runs,mean,stddev,sem,min,q10,q50,q90,max\n";
  for (const auto& outcome : outcomes) {
    const auto& s = outcome.summary;
    csv += fmt::format("{},{},{},{},{},{},{},{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n",
                       nc::to_string(outcome.algorithm), request.n, st::to_string(request.dist), request.cv, request.mu_d, request.mu_c,
                       runs, outcome.verified, s.mean, s.stddev, s.sem, s.min, s.q10, s.q50, s.q90, s.max);
  }
  return csv;
}

MonteCarloStudyResult run_montecarlo_study(const MonteCarloStudyRequest& request) {
  const StopScope scope;
  if (request.study != "figure4" && request.study != "figure5" && request.study != "figure6") {
    throw UsageError(Setting{"study", request.study}, "unknown (expected figure4, figure5 or figure6)");
  }
  if (request.points < 2) {
    throw UsageError(Setting{"points", std::to_string(request.points)}, "at least 2 CVs (0.01 and 10)");
  }
  if (request.ratio_points < 2) {
    throw UsageError(Setting{"ratio_points", std::to_string(request.ratio_points)},
                     "at least 2 values of mu_c/mu_d (0.1 and 10)");
  }
  nc::StudyOptions options;
  options.n = request.n;
  options.seed = request.seed;
  options.threads = request.threads;
  options.fast_path = request.fast_path;
  options.progress = report_runs;
  const auto cvs = nc::log_spaced(nc::CV_MIN, nc::CV_MAX, request.points);
  MonteCarloStudyResult out;
  out.request = request;
  if (request.study == "figure4") {
    options.runs = runs_or(request.runs, nc::FIGURE4_RUNS);
    auto r = nc::figure4_study(cvs, options);
    out.notes = nc::figure4_notes(r);
    out.data = std::move(r);
    return out;
  }
  options.runs = runs_or(request.runs, nc::GRID_RUNS);
  const auto ratios = nc::log_spaced(nc::COST_RATIO_MIN, nc::COST_RATIO_MAX, request.ratio_points);
  std::vector<st::DistributionKind> laws{st::DistributionKind::GAMMA};
  if (request.study == "figure6") laws.assign(st::ALL_DISTRIBUTIONS.begin(), st::ALL_DISTRIBUTIONS.end());
  auto r = nc::grid_study(cvs, ratios, laws, options);
  out.gamma = static_cast<std::size_t>(std::find(laws.begin(), laws.end(), st::DistributionKind::GAMMA) - laws.begin());
  out.notes = request.study == "figure5" ? nc::figure5_notes(r, out.gamma) : nc::figure6_notes(r);
  out.data = std::move(r);
  return out;
}

bool MonteCarloStudyResult::verified() const {
  return std::visit([](const auto& r) { return r.all_verified(); }, data);
}

double MonteCarloStudyResult::wall_seconds() const {
  return std::visit([](const auto& r) { return r.wall_seconds; }, data);
}

double MonteCarloStudyResult::simulations() const {
  constexpr double ALGORITHMS = 4;
  if (const auto* f4 = std::get_if<nc::Figure4Result>(&data)) {
    return static_cast<double>(f4->runs * f4->points.size()) * ALGORITHMS;
  }
  const auto& g = std::get<nc::GridResult>(data);
  return static_cast<double>((g.cells.size() - g.skipped()) * g.runs) * ALGORITHMS;
}

namespace {

json grid_cells_json(const nc::GridResult& r, std::size_t law) {
  json cells = json::array();
  for (std::size_t i = 0; i < r.cvs.size(); ++i) {
    for (std::size_t j = 0; j < r.cost_ratios.size(); ++j) {
      const auto& c = r.at(law, i, j);
      json cell = {{"cv", r.cvs[i]}, {"mu_c_over_mu_d", r.cost_ratios[j]}, {"skipped", c.skipped}};
      if (!c.skipped) {
        json means = json::object();
        for (std::size_t a = 0; a < std::size(nc::ALL_ALGORITHMS); ++a) {
          means[std::string(nc::to_string(nc::ALL_ALGORITHMS[a]))] = c.summary[a].mean;
        }
        cell["means"] = means;
        cell["fibonacci_over_tree_dyn"] = c.fibonacci_over_tree_dyn();
        cell["best_noncommutative"] = std::string(nc::to_string(c.best_noncommutative()));
      }
      cells.push_back(cell);
    }
  }
  return cells;
}

json spread_cells_json(const nc::GridResult& r) {
  json cells = json::array();
  for (std::size_t i = 0; i < r.cvs.size(); ++i) {
    for (std::size_t j = 0; j < r.cost_ratios.size(); ++j) {
      const auto s = nc::spread(r, i, j);
      json ratios_by_law = json::object();
      json best_by_law = json::object();
      for (std::size_t law = 0; law < r.distributions.size(); ++law) {
        const auto& c = r.at(law, i, j);
        if (c.skipped) continue;
        const std::string name(st::to_string(r.distributions[law]));
        ratios_by_law[name] = c.fibonacci_over_tree_dyn();
        best_by_law[name] = std::string(nc::to_string(c.best_noncommutative()));
      }
      cells.push_back({{"cv", r.cvs[i]},
                       {"mu_c_over_mu_d", r.cost_ratios[j]},
                       {"laws", s.laws},
                       {"skipped", s.skipped},
                       {"dispersion", nullable(s.dispersion)},
                       {"modal_best", std::string(nc::to_string(s.modal_best))},
                       {"inconsistency", nullable(s.inconsistency)},
                       {"fibonacci_over_tree_dyn", ratios_by_law},
                       {"best_noncommutative", best_by_law}});
    }
  }
  return cells;
}

std::string figure4_csv(const nc::Figure4Result& r) {
  std::string csv = "cv,algorithm,runs,verified_runs,mean,stddev,sem,min,q10,q50,q90,max\n";
  for (const auto& p : r.points) {
    for (const auto& outcome : p.outcomes) {
      const auto& s = outcome.summary;
      csv += fmt::format("{:.9g},{},{},{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", p.cv,
                         nc::to_string(outcome.algorithm), r.runs, outcome.verified, s.mean, s.stddev, s.sem, s.min,
                         s.q10, s.q50, s.q90, s.max);
    }
  }
  return csv;
}

std::string figure5_csv(const nc::GridResult& r, std::size_t law) {
  std::string csv = "cv,mu_c_over_mu_d";
  for (const auto a : nc::ALL_ALGORITHMS) csv += fmt::format(",mean_{}", nc::to_string(a));
  for (const auto a : nc::ALL_ALGORITHMS) csv += fmt::format(",sem_{}", nc::to_string(a));
  csv += ",fibonacci_over_tree_dyn,best_noncommutative\n";
  for (std::size_t i = 0; i < r.cvs.size(); ++i) {
    for (std::size_t j = 0; j < r.cost_ratios.size(); ++j) {
      const auto& c = r.at(law, i, j);
      csv += fmt::format("{:.9g},{:.9g}", r.cvs[i], r.cost_ratios[j]);
      if (c.skipped) {
        csv += std::string(10, ',') + "\n";
        continue;
      }
      for (const auto& s : c.summary) csv += fmt::format(",{:.17g}", s.mean);
      for (const auto& s : c.summary) csv += fmt::format(",{:.17g}", s.sem);
      csv += fmt::format(",{:.17g},{}\n", c.fibonacci_over_tree_dyn(), nc::to_string(c.best_noncommutative()));
    }
  }
  return csv;
}

std::string figure6_csv(const nc::GridResult& r) {
  std::string csv = "cv,mu_c_over_mu_d,laws,skipped,ratio_min,ratio_max,argmin,argmax,dispersion,modal_best,modal_count,"
                    "inconsistency";
  for (const auto law : r.distributions) csv += fmt::format(",ratio_{}", st::to_string(law));
  for (const auto law : r.distributions) csv += fmt::format(",best_{}", st::to_string(law));
  csv += "\n";
  for (std::size_t i = 0; i < r.cvs.size(); ++i) {
    for (std::size_t j = 0; j < r.cost_ratios.size(); ++j) {
      const auto s = nc::spread(r, i, j);
      csv += fmt::format("{:.9g},{:.9g},{},{},{:.17g},{:.17g},{},{},{},{},{},{}", r.cvs[i], r.cost_ratios[j], s.laws,
                         s.skipped, s.ratio_min, s.ratio_max, st::to_string(s.argmin), st::to_string(s.argmax),
                         std::isnan(s.dispersion) ? "" : fmt::format("{:.17g}", s.dispersion), nc::to_string(s.modal_best),
                         s.modal_count, std::isnan(s.inconsistency) ? "" : fmt::format("{:.17g}", s.inconsistency));
      for (std::size_t law = 0; law < r.distributions.size(); ++law) {
        const auto& c = r.at(law, i, j);
        csv += c.skipped ? "," : fmt::format(",{:.17g}", c.fibonacci_over_tree_dyn());
      }
      for (std::size_t law = 0; law < r.distributions.size(); ++law) {
        const auto& c = r.at(law, i, j);
        csv += c.skipped ? "," : fmt::format(",{}", nc::to_string(c.best_noncommutative()));
      }
      csv += "\n";
    }
  }
  return csv;
}

}  // namespace

std::string MonteCarloStudyResult::csv() const {
  if (const auto* f4 = std::get_if<nc::Figure4Result>(&data)) return figure4_csv(*f4);
  const auto& r = std::get<nc::GridResult>(data);
  return request.study == "figure5" ? figure5_csv(r, gamma) : figure6_csv(r);
}

json MonteCarloStudyResult::to_json() const {
  json out;
  if (const auto* f4 = std::get_if<nc::Figure4Result>(&data)) {
    json points = json::array();
    for (const auto& p : f4->points) {
      json algos = json::array();
      for (const auto& outcome : p.outcomes) algos.push_back(summary_json(outcome, f4->runs));
      points.push_back({{"cv", p.cv}, {"algorithms", algos}});
    }
    out = {{"study", "figure4"}, {"n", f4->n}, {"distribution", "gamma"}, {"mu_d", 1}, {"mu_c", 0},
           {"runs", f4->runs},   {"seed", f4->seed}, {"points", points}};
  } else {
    const auto& r = std::get<nc::GridResult>(data);
    out = {{"study", request.study}, {"n", r.n},     {"mu_d", 1},
           {"runs", r.runs},         {"seed", r.seed}, {"cvs", r.cvs}, {"cost_ratios", r.cost_ratios}};
    json law_names = json::array();
    for (const auto law : r.distributions) law_names.push_back(std::string(st::to_string(law)));
    out["distributions"] = law_names;
    out["skipped_cells"] = r.skipped();
    out["cells"] = request.study == "figure5" ? grid_cells_json(r, gamma) : spread_cells_json(r);
  }
  out["notes"] = notes_json(notes);
  out["wall_seconds"] = wall_seconds();
  out["simulations_per_second"] = simulations() / wall_seconds();
  out["verified"] = verified();
  return out;
}

WorstCaseResult montecarlo_worst_cases() {
  const StopScope scope;
  WorstCaseResult result;
  for (const auto& w : nc::table1_instances()) {
    for (const auto& out : nc::run_worst_case(w)) {
      // A ratio counts as within its bound up to the rounding of the bound's double.
      constexpr double BOUND_TOLERANCE = 1e-12;
      const double ratio = out.ratio.to_double();
      const bool within = ratio <= out.bound * (1 + BOUND_TOLERANCE);
      if (!out.verified) {
        result.failures.push_back(
            fmt::format("{} n = {}: {} gave a wrong result", w.name, out.n, nc::to_string(out.algorithm)));
      }
      if (!out.optimum_certified) {
        result.failures.push_back(fmt::format("{} n = {}: the optimum is not certified", w.name, out.n));
      }
      if (!within) {
        result.failures.push_back(fmt::format("{} n = {}: {} reaches ratio {:.4f}, above {} = {:.4f} (docs/montecarlo.md)",
                                              w.name, out.n, nc::to_string(out.algorithm), ratio, out.bound_formula,
                                              out.bound));
      }
      result.rows.push_back({w, out, within});
    }
  }
  return result;
}

json WorstCaseResult::to_json() const {
  json rows_json = json::array();
  for (const auto& r : rows) {
    const auto& w = r.instance;
    const auto& out = r.outcome;
    json row = {{"instance", w.name},
                {"source", w.source},
                {"algorithm", std::string(nc::to_string(out.algorithm))},
                {"n", out.n},
                {"verified", out.verified},
                {"optimum_certified", out.optimum_certified},
                {"bound_formula", out.bound_formula},
                {"bound", out.bound},
                {"bound_reached", out.bound_exact},
                {"within_bound", r.within}};
    for (const auto& [key, value] : {std::pair{"d", &w.d}, std::pair{"D", &w.D}, std::pair{"c", &w.c},
                                     std::pair{"C", &w.C}, std::pair{"makespan", &out.makespan},
                                     std::pair{"optimum", &out.optimum}, std::pair{"ratio", &out.ratio}}) {
      put_exact(row, key, *value);
    }
    rows_json.push_back(std::move(row));
  }
  return {{"worst_case", rows_json}, {"verified", verified()}};
}

std::string WorstCaseResult::csv() const {
  std::string csv = "instance,algorithm,n,d,D,c,C,makespan,optimum,optimum_certified,ratio,bound,bound_reached,within_bound\n";
  for (const auto& r : rows) {
    const auto& w = r.instance;
    const auto& out = r.outcome;
    csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{:.17g},{},{}\n", w.name, nc::to_string(out.algorithm), out.n,
                       w.d.to_string(), w.D.to_string(), w.c.to_string(), w.C.to_string(), out.makespan.to_string(),
                       out.optimum.to_string(), out.optimum_certified, out.ratio.to_string(), out.bound, out.bound_exact,
                       r.within);
  }
  return csv;
}

}  // namespace starnet::api

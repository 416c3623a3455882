// `starnet montecarlo`: the non-clairvoyant reductions of Benoit, Canon and Marchal (CCPE 2014) under
// random costs — one scenario, the studies of Figures 4–6 with the paper's statements checked on
// the data, and the worst-case instances of Section 4 (docs/montecarlo.md).
#include "command.hpp"
#include "gantt.hpp"
#include "plot.hpp"

#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>
#include <starnet/algorithms/nonclairvoyant/single_run.hpp>
#include <starnet/algorithms/nonclairvoyant/studies.hpp>
#include <starnet/algorithms/nonclairvoyant/worst_case.hpp>
#include <starnet/topology/complete_graph.hpp>
#include <starnet/topology/error.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>


namespace starnet::tools {
namespace {

namespace nc = algorithms::nonclairvoyant;
namespace st = algorithms::stochastic;
using json = nlohmann::ordered_json;

constexpr std::uint64_t DEFAULT_RUNS = 10'000;

struct Options {
  std::string algos = "binomial-stat,fibonacci-stat,tree-dyn,noncommut-tree-dyn";
  int n = 64;
  std::string dist = "gamma";
  double cv = 1;
  double mu_d = 1;
  double mu_c = 0;
  std::int64_t runs = 0;  // 0: the default of the mode
  std::uint64_t seed = 1;
  unsigned threads = 0;
  bool json = false;
  std::string csv;
  std::string gantt;
  std::int64_t run = 0;
  std::string study;
  std::string plot;
  int points = nc::DEFAULT_CV_POINTS;
  int ratio_points = nc::DEFAULT_COST_RATIO_POINTS;
  bool worst_case = false;
  std::string progress = "auto";
  // Which options were given (CLI11 counts), to refuse combinations that make no sense.
  std::vector<std::string> given;
  [[nodiscard]] bool has(const std::string& flag) const {
    return std::find(given.begin(), given.end(), flag) != given.end();
  }
};

std::vector<nc::Algorithm> parse_algorithms(const std::string& list) {
  std::vector<nc::Algorithm> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto a = nc::parse_algorithm(item);
    if (std::find(out.begin(), out.end(), a) != out.end()) {
      throw UsageError(fmt::format("--algos \"{}\": {} is listed twice", list, item));
    }
    out.push_back(a);
  }
  if (out.empty()) throw UsageError("--algos is empty (expected a comma-separated list of algorithms)");
  return out;
}

std::uint64_t runs_or(const Options& o, std::uint64_t fallback) {
  if (o.runs == 0 && !o.has("--runs")) return fallback;
  if (o.runs < 1) throw UsageError(fmt::format("--runs {}: at least one run is needed", o.runs));
  return static_cast<std::uint64_t>(o.runs);
}

/// A progress bar on stderr, shown once a run has lasted a second: [####    ] 42 % 1.2M/2.9M runs, ETA 3 s.
class ProgressBar {
 public:
  explicit ProgressBar(const std::string& mode) {
    if (mode != "auto" && mode != "always" && mode != "never") {
      throw UsageError(fmt::format("--progress \"{}\" is unknown (expected auto, always or never)", mode));
    }
    enabled_ = mode == "always" || (mode == "auto" && ::isatty(STDERR_FILENO) == 1);
  }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar() { finish(); }

  /// Ends the bar's line (before the results are printed).
  void finish() {
    const std::lock_guard lock(mutex_);
    if (shown_) std::fputc('\n', stderr);
    shown_ = false;
    enabled_ = false;
  }

  void update(std::uint64_t done, std::uint64_t total) {
    if (!enabled_ || total == 0) return;
    const std::lock_guard lock(mutex_);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (elapsed < 1) return;
    shown_ = true;
    const double fraction = static_cast<double>(done) / static_cast<double>(total);
    constexpr int WIDTH = 30;
    const int filled = static_cast<int>(fraction * WIDTH);
    const double eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0;
    std::fprintf(stderr, "\r[%s%s] %3.0f %% %llu/%llu runs, %.0f s, ETA %.0f s ", std::string(filled, '#').c_str(),
                 std::string(WIDTH - filled, ' ').c_str(), 100 * fraction, static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total), elapsed, eta);
    std::fflush(stderr);
  }

 private:
  bool enabled_ = false;
  bool shown_ = false;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

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

void print_notes(const std::vector<nc::StudyNote>& notes) {
  fmt::print("The paper's statements, checked on these data:\n");
  for (const auto& n : notes) {
    fmt::print("  [{}] Figure {}: \"{}\"\n      {}\n", n.agrees ? "agrees " : "DIFFERS", n.figure, n.claim, n.finding);
  }
}

/// Fails with exit 1 (a verification failed) after the output, naming what failed.
int report_unverified(const std::vector<std::string>& failures) {
  for (const auto& f : failures) fmt::print(stderr, "starnet montecarlo: verification failed: {}\n", f);
  return failures.empty() ? 0 : 1;
}

// ---------------------------------------------------------------------------------------------
// Plots (tools/plot.hpp runs gnuplot).

const char* const ALGORITHM_TITLES = "binomial-stat fibonacci-stat tree-dyn noncommut-tree-dyn";
const char* const LOG_CV_TICS = "set xtics (\"0.01\" -2, \"0.1\" -1, \"1\" 0, \"10\" 1)\n";
const char* const LOG_RATIO_TICS = "set ytics (\"0.1\" -1, \"0.2\" log10(0.2), \"0.5\" log10(0.5), \"1\" 0, "
                                   "\"2\" log10(2), \"5\" log10(5), \"10\" 1)\n";

void plot_figure4(const nc::Figure4Result& r, const std::string& plot) {
  std::string data;
  for (std::size_t a = 0; a < nc::ALL_ALGORITHMS.size(); ++a) {
    for (const auto& p : r.points) {
      const auto& s = p.outcomes[a].summary;
      data += fmt::format("{:.9g} {:.9g} {:.9g} {:.9g} {:.9g}\n", p.cv, s.mean, s.q10, s.q50, s.q90);
    }
    data += "\n\n";
  }
  const std::string script =
      gnuplot_terminal(plot, 960, 620) +
      fmt::format("set title \"Figure 4: average schedule length, n = {}, gamma costs, mu_d = 1, mu_c = 0\\n"
                  "{} runs per CV; ribbons from the 10 % to the 90 % quantile\"\n",
                  r.n, r.runs) +
      "set logscale xy\nset xlabel 'coefficient of variation of the communication costs'\n"
      "set ylabel 'schedule length'\nset key top left\nset grid\n"
      "set style fill transparent solid 0.18 noborder\n" +
      fmt::format("names = \"{}\"\n", ALGORITHM_TITLES) +
      "plot for [a=0:3] 'figure4.dat' index a using 1:3:5 with filledcurves lc a+1 notitle, \\\n"
      "     for [a=0:3] 'figure4.dat' index a using 1:2 with linespoints lc a+1 lw 2 pt 7 ps 0.5 title word(names, a+1)\n";
  draw_gnuplot(plot, script, {{"figure4.dat", data}});
}

/// One row per (CV, μ_c/μ_d), a blank line after each CV (gnuplot's grid layout).
template <class Row>
std::string grid_data(const nc::GridResult& r, Row row) {
  std::string data;
  for (std::size_t i = 0; i < r.cvs.size(); ++i) {
    for (std::size_t j = 0; j < r.cost_ratios.size(); ++j) {
      data += fmt::format("{:.9g} {:.9g} {}\n", r.cvs[i], r.cost_ratios[j], row(i, j));
    }
    data += "\n";
  }
  return data;
}

std::string value_or_missing(double x) { return std::isnan(x) ? std::string("?") : fmt::format("{:.9g}", x); }

const std::string HEATMAP_SETUP = std::string("set datafile missing '?'\nset xlabel 'CV (communication and computation)'\n"
                                              "set ylabel 'mu_c / mu_d'\nset rmargin 12\n") +
                                  LOG_CV_TICS + LOG_RATIO_TICS + "set xrange [*:*] noextend\nset yrange [*:*] noextend\n";

/// Data column 3 = ratio, column 4 = best method index (0 binomial, 1 fibonacci, 2 noncommut).
void plot_figure5(const nc::GridResult& r, std::size_t law, const std::string& plot) {
  const auto data = grid_data(r, [&](std::size_t i, std::size_t j) {
    const auto& c = r.at(law, i, j);
    if (c.skipped) return std::string("? ?");
    const auto best = c.best_noncommutative();
    const int code = best == nc::Algorithm::BINOMIAL_STAT ? 0 : best == nc::Algorithm::FIBONACCI_STAT ? 1 : 2;
    return fmt::format("{:.9g} {}", c.fibonacci_over_tree_dyn(), code);
  });
  const std::string script =
      gnuplot_terminal(plot, 1400, 620) +
      "set view map\nset contour base\nset cntrparam levels discrete 1\nunset surface\n"
      "set table 'contour.dat'\nsplot 'figure5.dat' using (log10($1)):(log10($2)):3 with lines notitle\nunset table\n"
      "unset contour\nset surface\n" +
      HEATMAP_SETUP +
      fmt::format("set multiplot layout 1,2 title \"Figure 5 ({} costs, n = {}, {} runs per cell)\"\n",
                  st::to_string(r.distributions[law]), r.n, r.runs) +
      "set title '(a) mean(Fibonacci-stat)/mean(Tree-dyn), red line at 1'\n"
      "set palette defined (0 '#000000', 0.5 '#808080', 1 '#ffffff')\n"
      "plot 'figure5.dat' using (log10($1)):(log10($2)):3 with image notitle, "
      "'contour.dat' using 1:2 with lines lw 2 lc rgb '#d62728' notitle\n"
      "set title '(b) best method with a non-commutative operator'\n"
      "set cbrange [-0.5:2.5]\nset palette maxcolors 3\nset palette defined (0 '#1b9e77', 1 '#d95f02', 2 '#7570b3')\n"
      "set cbtics ('Binomial' 0, 'Fibonacci' 1, 'NC-Tree-dyn' 2)\n"
      "plot 'figure5.dat' using (log10($1)):(log10($2)):4 with image notitle\n"
      "unset multiplot\n";
  draw_gnuplot(plot, script, {{"figure5.dat", data}});
}

void plot_figure6(const nc::GridResult& r, const std::string& plot) {
  const auto data = grid_data(r, [&](std::size_t i, std::size_t j) {
    const auto s = nc::spread(r, i, j);
    return value_or_missing(s.dispersion) + " " + value_or_missing(s.inconsistency);
  });
  const std::string script =
      gnuplot_terminal(plot, 1400, 620) + HEATMAP_SETUP +
      fmt::format("set multiplot layout 1,2 title \"Figure 6 ({} laws of Table II, n = {}, {} runs per cell)\"\n",
                  r.distributions.size(), r.n, r.runs) +
      "set title '(a) dispersion of mean(Fibonacci-stat)/mean(Tree-dyn) across the laws'\n"
      "set cbrange [0:2]\nset palette defined (0 '#ffffff', 1 '#000000')\n"
      "plot 'figure6.dat' using (log10($1)):(log10($2)):3 with image notitle\n"
      "set title '(b) inconsistency ratio of the best method'\n"
      "set cbrange [0:0.6]\n"
      "plot 'figure6.dat' using (log10($1)):(log10($2)):4 with image notitle\n"
      "unset multiplot\n";
  draw_gnuplot(plot, script, {{"figure6.dat", data}});
}

// ---------------------------------------------------------------------------------------------
// One scenario.

int run_scenario(const Options& o) {
  for (const auto* flag : {"--plot", "--points", "--ratio-points"}) {
    if (o.has(flag)) throw UsageError(fmt::format("{} belongs to --study", flag));
  }
  const auto algorithms = parse_algorithms(o.algos);
  const nc::Scenario scenario{o.n, st::parse_distribution(o.dist), o.cv, o.mu_d, o.mu_c};
  const std::uint64_t runs = runs_or(o, DEFAULT_RUNS);
  if (!o.gantt.empty()) {
    if (algorithms.size() != 1) {
      throw UsageError(fmt::format("--gantt draws one run of one algorithm: --algos \"{}\" names {}", o.algos,
                                   algorithms.size()));
    }
    if (o.run < 0 || static_cast<std::uint64_t>(o.run) >= runs) {
      throw UsageError(fmt::format("--run {}: expected a run of this study, 0..{}", o.run, runs - 1));
    }
    if (o.n >= 1) require_gantt_rows(topology::CompleteGraph(static_cast<emulator::NodeId>(o.n)));
  } else if (o.has("--run")) {
    throw UsageError("--run chooses the run --gantt draws: give --gantt FILE.svg too");
  }

  ProgressBar bar(o.progress);
  nc::MonteCarlo mc;
  mc.algorithms(algorithms).scenario(scenario).runs(runs).seed(o.seed).threads(o.threads).keep_samples(!o.gantt.empty());
  mc.progress([&](std::uint64_t done, std::uint64_t total) { bar.update(done, total); });
  mc.run();
  bar.finish();

  std::vector<std::string> failures;
  for (const auto& outcome : mc.outcomes()) {
    if (outcome.verified != runs) {
      failures.push_back(fmt::format("{}: {} of {} runs verified", nc::to_string(outcome.algorithm), outcome.verified, runs));
    }
  }
  std::optional<double> gantt_makespan;
  if (!o.gantt.empty()) {
    const auto run_index = static_cast<std::uint64_t>(o.run);
    const auto one = nc::emulate_study_run(algorithms.front(), scenario, o.seed, run_index);
    if (one.makespan != mc.outcomes().front().makespans[run_index] || !one.verified) {
      failures.push_back(fmt::format("--gantt: run {} re-emulated to {} (the study has {})", o.run, one.makespan,
                                     mc.outcomes().front().makespans[run_index]));
    }
    GanttOptions g;
    g.title = fmt::format("{}, n = {}, {} CV {}, mu_d = {}, mu_c = {}, seed {}, run {}: makespan {:.6g}",
                          nc::to_string(algorithms.front()), o.n, o.dist, o.cv, o.mu_d, o.mu_c, o.seed, o.run, one.makespan);
    write_file_atomically(o.gantt, gantt_svg(one.trace, topology::CompleteGraph(static_cast<emulator::NodeId>(o.n)), g));
    gantt_makespan = one.makespan;
  }
  const double simulations = static_cast<double>(runs * algorithms.size());
  if (!o.csv.empty()) {
    std::string csv = "algorithm,n,distribution,cv,mu_d,mu_c,runs,verified_runs,mean,stddev,sem,min,q10,q50,q90,max\n";
    for (const auto& outcome : mc.outcomes()) {
      const auto& s = outcome.summary;
      csv += fmt::format("{},{},{},{},{},{},{},{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n",
                         nc::to_string(outcome.algorithm), o.n, o.dist, o.cv, o.mu_d, o.mu_c, runs, outcome.verified,
                         s.mean, s.stddev, s.sem, s.min, s.q10, s.q50, s.q90, s.max);
    }
    write_file_atomically(o.csv, csv);
  }
  if (o.json) {
    json algos = json::array();
    for (const auto& outcome : mc.outcomes()) algos.push_back(summary_json(outcome, runs));
    json out = {{"n", o.n},       {"distribution", o.dist}, {"cv", o.cv},     {"mu_d", o.mu_d},
                {"mu_c", o.mu_c}, {"runs", runs},           {"seed", o.seed}, {"algorithms", algos}};
    if (gantt_makespan) out["gantt"] = {{"file", o.gantt}, {"run", o.run}, {"makespan", *gantt_makespan}};
    out["wall_seconds"] = mc.wall_seconds();
    out["simulations_per_second"] = simulations / mc.wall_seconds();
    std::cout << out.dump(2) << "\n";
  } else {
    fmt::print("Monte-Carlo: n = {}, {} costs with CV {}, mu_d = {}, mu_c = {}, {} runs, seed {}\n", o.n, o.dist, o.cv,
               o.mu_d, o.mu_c, runs, o.seed);
    fmt::print("{:<20} {:>11} {:>11} {:>10} {:>11} {:>11} {:>11}  {}\n", "algorithm", "mean", "stddev", "sem", "q10",
               "q50", "q90", "verified");
    for (const auto& outcome : mc.outcomes()) {
      const auto& s = outcome.summary;
      fmt::print("{:<20} {:>11.6g} {:>11.6g} {:>10.3g} {:>11.6g} {:>11.6g} {:>11.6g}  {}/{}\n",
                 nc::to_string(outcome.algorithm), s.mean, s.stddev, s.sem, s.q10, s.q50, s.q90, outcome.verified, runs);
    }
    if (gantt_makespan) fmt::print("Gantt chart of run {} written to {} (makespan {:.6g})\n", o.run, o.gantt, *gantt_makespan);
    fmt::print("{:.0f} simulations in {:.2f} s: {:.0f} simulations/s\n", simulations, mc.wall_seconds(),
               simulations / mc.wall_seconds());
  }
  return report_unverified(failures);
}

// ---------------------------------------------------------------------------------------------
// Studies.

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

json nullable(double x) { return std::isnan(x) ? json(nullptr) : json(x); }

json grid_cells_json(const nc::GridResult& r, std::size_t law) {
  json cells = json::array();
  for (std::size_t i = 0; i < r.cvs.size(); ++i) {
    for (std::size_t j = 0; j < r.cost_ratios.size(); ++j) {
      const auto& c = r.at(law, i, j);
      json cell = {{"cv", r.cvs[i]}, {"mu_c_over_mu_d", r.cost_ratios[j]}, {"skipped", c.skipped}};
      if (!c.skipped) {
        json means = json::object();
        for (std::size_t a = 0; a < 4; ++a) means[std::string(nc::to_string(nc::ALL_ALGORITHMS[a]))] = c.summary[a].mean;
        cell["means"] = means;
        cell["fibonacci_over_tree_dyn"] = c.fibonacci_over_tree_dyn();
        cell["best_noncommutative"] = std::string(nc::to_string(c.best_noncommutative()));
      }
      cells.push_back(cell);
    }
  }
  return cells;
}

int run_study(const Options& o) {
  for (const auto* flag : {"--algos", "--dist", "--cv", "--mu-d", "--mu-c", "--gantt", "--run"}) {
    if (o.has(flag)) {
      throw UsageError(fmt::format("{} is fixed by --study {} (it takes --runs, --seed, --threads, --n, --points, "
                                   "--ratio-points, --csv, --plot, --json)",
                                   flag, o.study));
    }
  }
  if (o.study != "figure4" && o.study != "figure5" && o.study != "figure6") {
    throw UsageError(fmt::format("--study \"{}\" is unknown (expected figure4, figure5 or figure6)", o.study));
  }
  if (!o.plot.empty()) check_plot_name(o.plot);
  if (o.study == "figure4" && o.has("--ratio-points")) throw UsageError("--ratio-points belongs to figure5 and figure6");
  if (o.points < 2) throw UsageError(fmt::format("--points {}: at least 2 CVs (0.01 and 10)", o.points));
  if (o.ratio_points < 2) {
    throw UsageError(fmt::format("--ratio-points {}: at least 2 values of mu_c/mu_d (0.1 and 10)", o.ratio_points));
  }
  ProgressBar bar(o.progress);
  nc::StudyOptions options;
  options.n = o.n;
  options.seed = o.seed;
  options.threads = o.threads;
  options.progress = [&](std::uint64_t done, std::uint64_t total) { bar.update(done, total); };
  const auto cvs = nc::log_spaced(nc::CV_MIN, nc::CV_MAX, o.points);

  if (o.study == "figure4") {
    options.runs = runs_or(o, nc::FIGURE4_RUNS);
    const auto r = nc::figure4_study(cvs, options);
    bar.finish();
    const auto notes = nc::figure4_notes(r);
    if (!o.csv.empty()) write_file_atomically(o.csv, figure4_csv(r));
    if (!o.plot.empty()) plot_figure4(r, o.plot);
    const double simulations = static_cast<double>(r.runs * r.points.size() * 4);
    if (o.json) {
      json points = json::array();
      for (const auto& p : r.points) {
        json algos = json::array();
        for (const auto& outcome : p.outcomes) algos.push_back(summary_json(outcome, r.runs));
        points.push_back({{"cv", p.cv}, {"algorithms", algos}});
      }
      const json out = {{"study", "figure4"}, {"n", r.n},          {"distribution", "gamma"},
                        {"mu_d", 1},          {"mu_c", 0},         {"runs", r.runs},
                        {"seed", r.seed},     {"points", points},  {"notes", notes_json(notes)},
                        {"wall_seconds", r.wall_seconds}, {"simulations_per_second", simulations / r.wall_seconds}};
      std::cout << out.dump(2) << "\n";
    } else {
      fmt::print("Figure 4: n = {}, gamma costs, mu_d = 1, mu_c = 0, {} runs per CV, seed {}\n", r.n, r.runs, r.seed);
      fmt::print("{:>9}", "CV");
      for (const auto a : nc::ALL_ALGORITHMS) fmt::print(" {:>19}", nc::to_string(a));
      fmt::print("\n");
      for (const auto& p : r.points) {
        fmt::print("{:>9.4g}", p.cv);
        for (const auto& outcome : p.outcomes) fmt::print(" {:>19.6g}", outcome.summary.mean);
        fmt::print("\n");
      }
      print_notes(notes);
      fmt::print("{:.0f} simulations in {:.1f} s: {:.0f} simulations/s\n", simulations, r.wall_seconds,
                 simulations / r.wall_seconds);
    }
    return report_unverified(r.all_verified() ? std::vector<std::string>{}
                                              : std::vector<std::string>{"a run of the study gave a wrong result"});
  }

  options.runs = runs_or(o, nc::GRID_RUNS);
  const auto ratios = nc::log_spaced(nc::COST_RATIO_MIN, nc::COST_RATIO_MAX, o.ratio_points);
  std::vector<st::DistributionKind> laws{st::DistributionKind::GAMMA};
  if (o.study == "figure6") laws.assign(st::ALL_DISTRIBUTIONS.begin(), st::ALL_DISTRIBUTIONS.end());
  const auto r = nc::grid_study(cvs, ratios, laws, options);
  bar.finish();
  const std::size_t gamma = o.study == "figure6" ? 6 : 0;  // index of gamma in the law list
  const auto notes = o.study == "figure5" ? nc::figure5_notes(r, gamma) : nc::figure6_notes(r);
  if (!o.csv.empty()) write_file_atomically(o.csv, o.study == "figure5" ? figure5_csv(r, gamma) : figure6_csv(r));
  if (!o.plot.empty()) {
    if (o.study == "figure5") {
      plot_figure5(r, gamma, o.plot);
    } else {
      plot_figure6(r, o.plot);
    }
  }
  const std::uint64_t run_cells = r.cells.size() - r.skipped();
  const double simulations = static_cast<double>(run_cells * r.runs * 4);
  if (o.json) {
    json out = {{"study", o.study}, {"n", r.n},         {"mu_d", 1},          {"runs", r.runs},
                {"seed", r.seed},   {"cvs", r.cvs},     {"cost_ratios", r.cost_ratios}};
    json law_names = json::array();
    for (const auto law : r.distributions) law_names.push_back(std::string(st::to_string(law)));
    out["distributions"] = law_names;
    out["skipped_cells"] = r.skipped();
    if (o.study == "figure5") {
      out["cells"] = grid_cells_json(r, gamma);
    } else {
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
      out["cells"] = cells;
    }
    out["notes"] = notes_json(notes);
    out["wall_seconds"] = r.wall_seconds;
    out["simulations_per_second"] = simulations / r.wall_seconds;
    std::cout << out.dump(2) << "\n";
  } else {
    fmt::print("{}: n = {}, {} law{}, {} CVs x {} values of mu_c/mu_d, {} runs per cell, seed {}; {} cells skipped "
               "(CV outside the law's range)\n",
               o.study == "figure5" ? "Figure 5" : "Figure 6", r.n, r.distributions.size(),
               r.distributions.size() == 1 ? "" : "s", r.cvs.size(), r.cost_ratios.size(), r.runs, r.seed, r.skipped());
    print_notes(notes);
    fmt::print("{:.0f} simulations in {:.1f} s: {:.0f} simulations/s\n", simulations, r.wall_seconds,
               simulations / r.wall_seconds);
  }
  return report_unverified(r.all_verified() ? std::vector<std::string>{}
                                            : std::vector<std::string>{"a run of the study gave a wrong result"});
}

// ---------------------------------------------------------------------------------------------
// Worst cases.

json exact(const Rational& r) { return r.is_integer() ? json(r.num()) : json(r.to_string()); }

int run_worst_cases(const Options& o) {
  for (const auto& flag : o.given) {
    if (flag != "--worst-case" && flag != "--json" && flag != "--csv") {
      throw UsageError(fmt::format("{} does not apply to --worst-case (it takes --json and --csv)", flag));
    }
  }
  std::vector<std::string> failures;
  json rows = json::array();
  std::string csv = "instance,algorithm,n,d,D,c,C,makespan,optimum,optimum_certified,ratio,bound,bound_exact,within_bound\n";
  if (!o.json) {
    fmt::print("Worst-case instances of Section 4 (Table I), emulated with exact costs\n");
    fmt::print("{:<22} {:<19} {:>5} {:>9} {:>7} {:>12} {:>9}  {}\n", "instance", "algorithm", "n", "makespan", "optimum",
               "ratio", "bound", "");
  }
  for (const auto& w : nc::table1_instances()) {
    for (const auto& out : nc::run_worst_case(w)) {
      const double ratio = out.ratio.to_double();
      const bool within = ratio <= out.bound * (1 + 1e-12);
      const std::string where =
          !within ? "ABOVE the proven bound" : (out.bound_exact && std::abs(ratio - out.bound) <= 1e-12 * out.bound ? "= bound" : "< bound");
      if (!out.verified) failures.push_back(fmt::format("{} n = {}: {} gave a wrong result", w.name, out.n, nc::to_string(out.algorithm)));
      if (!out.optimum_certified) failures.push_back(fmt::format("{} n = {}: the optimum is not certified", w.name, out.n));
      if (!within) {
        failures.push_back(fmt::format("{} n = {}: {} reaches ratio {:.4f}, above {} = {:.4f} (docs/montecarlo.md)", w.name,
                                       out.n, nc::to_string(out.algorithm), ratio, out.bound_formula, out.bound));
      }
      rows.push_back({{"instance", w.name},
                      {"source", w.source},
                      {"algorithm", std::string(nc::to_string(out.algorithm))},
                      {"n", out.n},
                      {"d", exact(w.d)},
                      {"D", exact(w.D)},
                      {"c", exact(w.c)},
                      {"C", exact(w.C)},
                      {"makespan", exact(out.makespan)},
                      {"verified", out.verified},
                      {"optimum", exact(out.optimum)},
                      {"optimum_certified", out.optimum_certified},
                      {"ratio", exact(out.ratio)},
                      {"ratio_decimal", ratio},
                      {"bound_formula", out.bound_formula},
                      {"bound", out.bound},
                      {"bound_exact", out.bound_exact},
                      {"within_bound", within}});
      csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{:.17g},{},{}\n", w.name, nc::to_string(out.algorithm), out.n,
                         w.d.to_string(), w.D.to_string(), w.c.to_string(), w.C.to_string(), out.makespan.to_string(),
                         out.optimum.to_string(), out.optimum_certified, out.ratio.to_string(), out.bound,
                         out.bound_exact, within);
      if (!o.json) {
        fmt::print("{:<22} {:<19} {:>5} {:>9} {:>7} {:>12} {:>9.4f}  {}\n", w.name, nc::to_string(out.algorithm), out.n,
                   out.makespan.to_string(), out.optimum.to_string(), fmt::format("{:.4f}", ratio), out.bound, where);
      }
    }
  }
  if (!o.csv.empty()) write_file_atomically(o.csv, csv);
  if (o.json) std::cout << json{{"worst_case", rows}}.dump(2) << "\n";
  return report_unverified(failures);
}

}  // namespace

void add_montecarlo_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "montecarlo",
      "Non-clairvoyant reductions (Benoit, Canon, Marchal, CCPE 2014) on the emulator with random\n"
      "heterogeneous costs: Binomial-stat, Fibonacci-stat, Tree-dyn, Non-Commut-Tree-dyn, every run\n"
      "verified. Three modes:\n"
      "  one scenario:  --algos LIST --n N --dist NAME --cv X --mu-d M --mu-c M --runs R --seed S\n"
      "                 (summary per algorithm; --gantt FILE.svg --run I draws one run)\n"
      "  a study:       --study figure4|figure5|figure6 [--runs R] [--csv FILE] [--plot FILE]\n"
      "                 (the paper's figures, with its statements checked on the data)\n"
      "  worst cases:   --worst-case (the instances of Section 4 reaching Table I's ratios)\n"
      "Same --seed, same numbers whatever --threads. Exit codes: 0 success, 1 a run was not\n"
      "verified (or a worst case broke its proven bound), 2 bad input. See docs/montecarlo.md.");
  static Options o;
  cmd->add_option("--algos", o.algos,
                  "Comma-separated algorithms: binomial-stat, fibonacci-stat, tree-dyn, noncommut-tree-dyn (default: all)");
  cmd->add_option("--n", o.n, "Number of processors (default 64)");
  cmd->add_option("--dist", o.dist,
                  "Cost law of Table II: bernoulli, beta0.01, beta1, beta100, binomial, exponential, gamma,\n"
                  "poisson, triangle, uniform (default gamma)");
  cmd->add_option("--cv", o.cv, "Coefficient of variation of both costs, within the law's range (default 1)");
  cmd->add_option("--mu-d", o.mu_d, "Mean transfer time mu_d >= 0 (default 1)");
  cmd->add_option("--mu-c", o.mu_c, "Mean reduction time mu_c >= 0; 0: free computation (default 0)");
  cmd->add_option("--runs", o.runs,
                  fmt::format("Monte-Carlo runs (default {}; figure4: {}; figure5/6: {} per cell)", DEFAULT_RUNS,
                              nc::FIGURE4_RUNS, nc::GRID_RUNS));
  cmd->add_option("--seed", o.seed, "Seed: run r of algorithm a draws from Philox(seed, r, a) (default 1)");
  cmd->add_option("--threads", o.threads, "Worker threads (default 0: all cores)");
  cmd->add_flag("--json", o.json,
                "Print one JSON document: per algorithm mean, stddev, sem, min, q10, q50, q90, max, runs, verified\n"
                "(studies: points or cells, and notes; --worst-case: one row per instance and algorithm)");
  cmd->add_option("--csv", o.csv, "Write the summary (study: the figure's data) as CSV to FILE");
  cmd->add_option("--gantt", o.gantt, "Draw run --run of the (single) algorithm as a Gantt chart, SVG (n <= 1000)");
  cmd->add_option("--run", o.run, "The run --gantt draws, 0..runs-1 (default 0)");
  cmd->add_option("--study", o.study, "figure4 | figure5 | figure6: reproduce a figure of Section 5");
  cmd->add_option("--plot", o.plot, "With --study: draw the figure with gnuplot into FILE.svg or FILE.png");
  cmd->add_option("--points", o.points, fmt::format("With --study: CVs log-spaced over [0.01, 10] (default {})",
                                                    nc::DEFAULT_CV_POINTS));
  cmd->add_option("--ratio-points", o.ratio_points,
                  fmt::format("With --study figure5|figure6: values of mu_c/mu_d log-spaced over [0.1, 10] (default {})",
                              nc::DEFAULT_COST_RATIO_POINTS));
  cmd->add_flag("--worst-case", o.worst_case, "Run the worst-case instances of Section 4 and compare with Table I");
  cmd->add_option("--progress", o.progress,
                  "Progress bar on stderr for runs longer than a second: auto (if stderr is a terminal), always, never");
  cmd->callback([cmd, &action] {
    for (const auto* opt : cmd->get_options()) {
      if (opt->count() > 0) o.given.push_back(opt->get_name());
    }
    action = [] {
      if (o.worst_case) {
        if (!o.study.empty()) throw UsageError("--worst-case and --study are two different modes: give one");
        return run_worst_cases(o);
      }
      if (!o.study.empty()) return run_study(o);
      return run_scenario(o);
    };
  });
}

}  // namespace starnet::tools

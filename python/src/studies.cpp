// starnet._core's searches and studies: optimal, what-if, Monte-Carlo, steady state, reduction
// trees, the Markov chain (python/src/calls.hpp says how they are wrapped).
#include "calls.hpp"
#include "convert.hpp"

#include <starnet/api/figures.hpp>
#include <starnet/api/markov.hpp>
#include <starnet/api/montecarlo.hpp>
#include <starnet/api/optimal.hpp>
#include <starnet/api/reduce.hpp>
#include <starnet/api/steady.hpp>
#include <starnet/api/whatif.hpp>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace starnet::python {
namespace {

using py::arg;
using namespace pybind11::literals;

/// A figure's table (api/figures.hpp) as {name, title, grid, categories, columns}: columns as
/// lists, "block" (each row's block label) first, so that Python makes it a DataFrame as it is.
py::dict figure_table(const api::FigureTable& table) {
  std::vector<std::string> blocks;
  std::vector<std::vector<double>> columns(table.columns.size());
  for (const auto& block : table.blocks) {
    for (const auto& row : block.rows) {
      blocks.push_back(block.label);
      for (std::size_t k = 0; k < row.size(); ++k) columns[k].push_back(row[k]);
    }
  }
  py::dict by_name("block"_a = blocks);
  for (std::size_t k = 0; k < columns.size(); ++k) by_name[py::str(table.columns[k])] = columns[k];
  return py::dict("name"_a = table.name, "title"_a = table.title, "grid"_a = table.grid,
                  "categories"_a = table.categories, "columns"_a = by_name);
}

/// As maybe_whole(), as the signed count the api's request holds.
std::optional<long> maybe_long(const py::handle& value, const char* keyword) {
  const auto v = maybe_whole(value, keyword);
  return v ? std::optional<long>(static_cast<long>(std::min<std::uint64_t>(*v, std::numeric_limits<long>::max())))
           : std::nullopt;
}

py::tuple optimal(const api::TopologyRef& topology, const std::string& collective, const std::string& root,
                  const py::object& ports, const std::string& duplex, const py::object& time_limit,
                  const std::string& method, const py::object& beam_width, const py::object& max_steps,
                  const py::object& anytime, const std::string& proof, const py::object& progress) {
  api::OptimalRequest r;
  r.topology = topology;
  r.collective = api::parse_collective(collective);
  r.root = root;
  r.ports = api::port_model(port_count(ports), duplex);
  r.time_limit = maybe_real(time_limit, "time_limit");
  r.method = api::parse_method(method);
  r.beam_width = maybe_long(beam_width, "beam_width");
  r.max_steps = maybe_long(max_steps, "max_steps");
  r.anytime = flag(anytime, "anytime");
  r.proof_dir = proof;
  const auto o = run_interruptibly<api::OptimalOutcome>([r] { return api::find_optimal(r); }, progress);
  py::object schedule = py::none();
  if (o.schedule) schedule = py::cast(*o.schedule);
  return py::make_tuple(document([&] { return o.to_json(); }), schedule, o.exit_code());
}

py::object optimal_study(const std::string& study, const py::object& time_limit, const py::object& progress) {
  const auto seconds = maybe_real(time_limit, "time_limit");
  if (study == "star") {
    const auto s = run_interruptibly<api::OptimalStudy>([seconds] { return api::optimal_study_star(seconds); }, progress);
    return document([&] { return s.to_json(); });
  }
  if (study != "star-beyond") throw UsageError(Setting{"study", study}, "expected star or star-beyond");
  const auto s = run_interruptibly<api::BeyondStudy>([seconds] { return api::optimal_study_beyond(seconds); }, progress);
  return document([&] { return s.to_json(); });
}

/// whatif's figure (api::whatif_figure) as {quantity, axis, log_scale, columns}: a bar a row,
/// columns group, algorithm, value (NaN: the row did not run), mark and the group's bound.
py::dict whatif_figure(const api::WhatIfFigure& figure) {
  constexpr double NONE = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::string> groups;
  std::vector<std::string> algorithms;
  std::vector<double> values;
  std::vector<std::string> marks;
  std::vector<double> bounds;
  for (const auto& g : figure.groups) {
    for (const auto& b : g.bars) {
      groups.push_back(g.label);
      algorithms.push_back(b.algorithm);
      values.push_back(b.value.value_or(NONE));
      marks.push_back(b.mark);
      bounds.push_back(g.bound.value_or(NONE));
    }
  }
  return py::dict("quantity"_a = figure.quantity, "axis"_a = figure.axis, "log_scale"_a = figure.log_scale,
                  "columns"_a = py::dict("group"_a = groups, "algorithm"_a = algorithms, "value"_a = values,
                                         "mark"_a = marks, "bound"_a = bounds));
}

/// starnet.whatif: @p given, the keywords of api::whatif_settings() the caller gave.
py::tuple whatif(const py::dict& given, const py::object& link_report, const py::object& progress) {
  const auto& table = api::whatif_settings();
  auto r = table.parse(setting_values(table.rows(), given));
  r.link_report = flag(link_report, "link_report");
  const auto result = run_interruptibly<api::WhatIfResult>([r] { return api::run_whatif(r); }, progress);
  return py::make_tuple(document([&] { return result.to_json(); }), whatif_figure(api::whatif_figure(result)));
}

/// A processor count or the like as the api's int settings hold it (the api checks the range).
int small_count(const py::handle& value, const char* keyword) {
  return static_cast<int>(std::min<std::uint64_t>(whole(value, keyword), std::numeric_limits<int>::max()));
}

py::tuple montecarlo(const py::object& algorithms, const py::object& n, const py::object& dist, const py::object& cv,
                     const py::object& mu_d, const py::object& mu_c, const py::object& runs, const py::object& seed,
                     const py::object& threads, const py::object& run_value, const py::object& fast_path,
                     const py::object& progress) {
  const auto run = maybe_whole(run_value, "run");
  // None: the api's default.
  api::MonteCarloRequest r;
  if (!algorithms.is_none()) r.algorithms = api::parse_montecarlo_algorithms(text(algorithms, "algorithms"));
  if (!n.is_none()) r.n = small_count(n, "n");
  if (!dist.is_none()) r.dist = api::parse_cost_law(text(dist, "dist"));
  if (!cv.is_none()) r.cv = real(cv, "cv");
  if (!mu_d.is_none()) r.mu_d = real(mu_d, "mu_d");
  if (!mu_c.is_none()) r.mu_c = real(mu_c, "mu_c");
  r.runs = maybe_whole(runs, "runs");
  if (!seed.is_none()) r.seed = whole(seed, "seed");
  if (!threads.is_none()) r.threads = static_cast<unsigned>(small_count(threads, "threads"));
  r.run = run;
  if (!fast_path.is_none()) r.fast_path = flag(fast_path, "fast_path");
  r.keep_makespans = true;
  const auto result = run_interruptibly<api::MonteCarloResult>([r] { return api::run_montecarlo(r); }, progress);
  py::object samples = py::dict();
  for (const auto& outcome : result.outcomes) {
    if (!outcome.makespans.empty()) {
      samples[py::str(std::string(algorithms::nonclairvoyant::to_string(outcome.algorithm)))] =
          py::array_t<double>(static_cast<py::ssize_t>(outcome.makespans.size()), outcome.makespans.data());
    }
  }
  py::object columns = py::none();
  py::object intervals = py::none();
  if (result.run) {
    columns = trace_columns(result.run->trace);
    intervals = interval_columns(result.run->trace, result.run->machines, result.run_title());
  }
  return py::make_tuple(document([&] { return result.to_json(); }), samples, columns, intervals);
}

py::tuple montecarlo_study(const std::string& study, const py::object& n, const py::object& runs,
                            const py::object& seed, const py::object& threads, const py::object& points,
                            const py::object& ratio_points, const py::object& fast_path, const py::object& progress) {
  api::MonteCarloStudyRequest r;
  r.study = study;
  if (!n.is_none()) r.n = small_count(n, "n");
  r.runs = maybe_whole(runs, "runs");
  if (!seed.is_none()) r.seed = whole(seed, "seed");
  if (!threads.is_none()) r.threads = static_cast<unsigned>(small_count(threads, "threads"));
  if (!points.is_none()) r.points = small_count(points, "points");
  if (!ratio_points.is_none()) r.ratio_points = small_count(ratio_points, "ratio_points");
  if (!fast_path.is_none()) r.fast_path = flag(fast_path, "fast_path");
  const auto result = run_interruptibly<api::MonteCarloStudyResult>([r] { return api::run_montecarlo_study(r); }, progress);
  return py::make_tuple(document([&] { return result.to_json(); }), figure_table(api::montecarlo_figure(result)));
}

py::object worst_cases(const py::object& progress) {
  const auto result = run_interruptibly<api::WorstCaseResult>([] { return api::montecarlo_worst_cases(); }, progress);
  return document([&] { return result.to_json(); });
}

py::tuple steady(const std::string& collective, const api::TopologyRef& topology, const std::string& source,
                 const std::vector<std::string>& sources, const std::vector<std::string>& targets,
                 const std::vector<std::string>& participants, const std::string& target,
                 const py::object& message_size, const py::object& task_work, const py::object& period,
                 const py::object& emulate, const py::object& iteration_limit, const py::object& whole_messages,
                 const py::object& trace_value, const py::object& progress) {
  const bool trace = flag(trace_value, "trace");
  api::SteadyRequest r;
  r.collective = api::parse_collective(collective);
  r.topology = topology;
  r.source = source;
  r.sources = sources;
  r.targets = targets;
  r.participants = participants;
  r.target = target;
  // None: the api's default.
  if (!message_size.is_none()) r.message_size = exact(message_size, "message_size", true);
  if (!task_work.is_none()) r.task_work = exact(task_work, "task_work", true);
  if (!period.is_none()) r.period = exact(period, "period", true);
  if (!emulate.is_none()) r.emulate = exact(emulate, "emulate", true);
  r.iteration_limit = small_count(iteration_limit, "iteration_limit");
  r.whole_messages = flag(whole_messages, "whole_messages");
  r.trace = trace;
  const auto result = run_interruptibly<api::SteadyResult>([r] { return api::run_steady(r); }, progress);
  py::object columns = py::none();
  py::object intervals = py::none();
  if (trace && result.optimal) {
    columns = trace_columns(result.optimal->run.trace);
    intervals = interval_columns(result.optimal->run.trace, result.emulated_on, result.run_title());
  }
  return py::make_tuple(document([&] { return result.to_json(); }), columns, intervals);
}

py::tuple reduce(const py::object& algorithm, const py::object& n, const py::object& d, const py::object& c,
                 const py::object& k, const py::object& op, const py::object& trace_value, const py::object& progress) {
  // None: the api's default.
  api::ReduceRequest r;
  if (!algorithm.is_none()) r.algorithm = api::parse_algorithm(text(algorithm, "algorithm"));
  if (!n.is_none()) r.n = small_count(n, "n");
  if (!d.is_none()) r.d = exact(d, "d", false);
  if (!c.is_none()) r.c = exact(c, "c", false);
  if (!k.is_none()) r.k = small_count(k, "k");
  if (!op.is_none()) r.op = api::parse_reduce_op(text(op, "op"));
  r.trace = flag(trace_value, "trace");
  const auto result = run_interruptibly<api::ReduceResult>([r] { return api::plan_reduction(r); }, progress);
  py::object columns = py::none();
  py::object intervals = py::none();
  if (r.trace) {
    columns = trace_columns(result.run.trace);
    intervals = interval_columns(result.run.trace, result.machines, result.run_title());
  }
  return py::make_tuple(document([&] { return result.to_json(); }), columns, intervals);
}

py::tuple figure2(const py::object& max_n_value, const py::object& progress) {
  const int max_n = max_n_value.is_none() ? api::DEFAULT_FIGURE2_MAX_N : small_count(max_n_value, "max_n");
  const auto result = run_interruptibly<api::Figure2Result>([max_n] { return api::reduce_figure2(max_n); }, progress);
  py::list rows;
  for (const auto& row : result.rows) {
    py::dict d;
    d["n"] = row.n;
    d["binomial_length"] = row.binomial_length.to_string();
    d["equal_cost_optimum"] = row.equal_cost_optimum.to_string();
    d["fibonacci_length"] = row.fibonacci_length.to_string();
    d["zero_cost_optimum"] = row.zero_cost_optimum.to_string();
    rows.append(d);
  }
  return py::make_tuple(document([&] { return result.to_json(); }), rows, figure_table(api::reduce_figure(result)));
}

py::object markov(const py::object& n_value, const py::object& rate_value, const py::object& progress) {
  const auto n = static_cast<std::int64_t>(small_count(n_value, "n"));
  const auto rate = text(rate_value, "rate");
  const auto result = run_interruptibly<api::MarkovResult>([n, rate] { return api::tree_dyn_markov(n, rate); }, progress);
  return document([&] { return result.to_json(); });
}

}  // namespace

void bind_studies(py::module_& m) {
  m.def("optimal", &optimal, arg("topology"), arg("collective"), arg("root"), arg("ports"), arg("duplex"),
        arg("time_limit"), arg("method"), arg("beam_width"), arg("max_steps"), arg("anytime"), arg("proof"),
        arg("progress"));
  m.def("optimal_study", &optimal_study, arg("study"), arg("time_limit"), arg("progress"));
  m.def("whatif", &whatif, arg("given"), arg("link_report"), arg("progress"));
  m.def("whatif_settings", [] { return setting_rows(api::whatif_settings().rows()); });
  // A call's keywords it does not take, refused by the api naming the nearest of @p names.
  m.def("check_setting_names", [](const std::string& call, const std::vector<std::string>& names, const py::dict& given) {
    api::check_setting_names(call, names, setting_values({}, given));
  }, arg("call"), arg("names"), arg("given"));
  m.def("montecarlo", &montecarlo, arg("algorithms"), arg("n"), arg("dist"), arg("cv"), arg("mu_d"), arg("mu_c"),
        arg("runs"), arg("seed"), arg("threads"), arg("run"), arg("fast_path"), arg("progress"));
  m.def("montecarlo_study", &montecarlo_study, arg("study"), arg("n"), arg("runs"), arg("seed"), arg("threads"),
        arg("points"), arg("ratio_points"), arg("fast_path"), arg("progress"));
  m.def("worst_cases", &worst_cases, arg("progress"));
  m.def("steady", &steady, arg("collective"), arg("topology"), arg("source"), arg("sources"), arg("targets"),
        arg("participants"), arg("target"), arg("message_size"), arg("task_work"), arg("period"), arg("emulate"),
        arg("iteration_limit"), arg("whole_messages"), arg("trace"), arg("progress"));
  m.def("reduce", &reduce, arg("algorithm"), arg("n"), arg("d"), arg("c"), arg("k"), arg("op"), arg("trace"),
        arg("progress"));
  m.def("figure2", &figure2, arg("max_n"), arg("progress"));
  m.def("markov", &markov, arg("n"), arg("rate"), arg("progress"));
}

}  // namespace starnet::python

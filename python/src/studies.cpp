// starnet._core's searches and studies: optimal, what-if, Monte-Carlo, steady state, reduction
// trees, the Markov chain (python/src/calls.hpp says how they are wrapped).
#include "calls.hpp"
#include "convert.hpp"

#include <starnet/api/markov.hpp>
#include <starnet/api/montecarlo.hpp>
#include <starnet/api/optimal.hpp>
#include <starnet/api/reduce.hpp>
#include <starnet/api/steady.hpp>
#include <starnet/api/whatif.hpp>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

namespace starnet::python {
namespace {

using py::arg;

py::tuple optimal(const api::TopologyRef& topology, const std::string& collective, const std::string& root, long ports,
                  const std::string& duplex, std::optional<double> time_limit, const std::string& method,
                  std::optional<long> beam_width, std::optional<long> max_steps, bool anytime, const std::string& proof,
                  const py::object& progress) {
  api::OptimalRequest r;
  r.topology = topology;
  r.collective = api::parse_collective(collective);
  r.root = root;
  r.ports = api::port_model(ports, duplex);
  r.time_limit = time_limit;
  r.method = api::parse_method(method);
  r.beam_width = beam_width;
  r.max_steps = max_steps;
  r.anytime = anytime;
  r.proof_dir = proof;
  const auto o = run_interruptibly<api::OptimalOutcome>([r] { return api::find_optimal(r); }, progress);
  py::object schedule = py::none();
  if (o.schedule) schedule = py::cast(*o.schedule);
  return py::make_tuple(document([&] { return o.to_json(); }), schedule, o.exit_code());
}

py::object optimal_study(const std::string& study, std::optional<double> seconds, const py::object& progress) {
  if (study == "star") {
    const auto s = run_interruptibly<api::OptimalStudy>([seconds] { return api::optimal_study_star(seconds); }, progress);
    return document([&] { return s.to_json(); });
  }
  if (study != "star-beyond") throw UsageError(Setting{"study", study}, "expected star or star-beyond");
  const auto s = run_interruptibly<api::BeyondStudy>([seconds] { return api::optimal_study_beyond(seconds); }, progress);
  return document([&] { return s.to_json(); });
}

py::object whatif(const std::string& collective, const std::vector<std::string>& topologies, const std::string& ports,
                  const std::string& duplex, const std::string& costs, const std::string& message_size,
                  const std::optional<std::string>& latency, const std::optional<std::string>& bandwidth,
                  std::uint64_t seed, const std::string& fail_links, const std::string& fail_nodes,
                  const std::string& fail_random, const std::string& root, const std::string& op,
                  const std::string& values, const std::string& schedule, bool optimal,
                  std::optional<double> optimal_time_limit, const py::object& progress) {
  api::WhatIfRequest r;
  r.collective = api::parse_collective(collective);
  r.topologies = topologies;
  r.port_models = api::port_models(ports, duplex);
  r.costs = algorithms::generic::parse_cost_kind(costs, "costs");
  r.message_size = api::parse_number(message_size, "message_size", 0, /*strictly=*/true);
  if (latency) r.latency = api::parse_number(*latency, "latency", 0);
  if (bandwidth) r.bandwidth = api::parse_number(*bandwidth, "bandwidth", 0, /*strictly=*/true);
  r.seed = seed;
  r.fail_links = fail_links;
  r.fail_nodes = fail_nodes;
  r.fail_rates = api::fault_rates(fail_random);
  r.root = root;
  r.op = api::parse_op(op);
  r.values = api::parse_values(values);
  r.schedule = schedule;
  r.optimal = optimal;
  r.optimal_seconds = optimal_time_limit;
  const auto result = run_interruptibly<api::WhatIfResult>([r] { return api::run_whatif(r); }, progress);
  return document([&] { return result.to_json(); });
}

py::tuple montecarlo(const std::string& algorithms, int n, const std::string& dist, double cv, double mu_d, double mu_c,
                     std::optional<std::uint64_t> runs, std::uint64_t seed, unsigned threads,
                     std::optional<std::uint64_t> run, const py::object& progress) {
  api::MonteCarloRequest r{algorithms, n, dist, cv, mu_d, mu_c, runs, seed, threads, run, /*keep_makespans=*/true};
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
  if (run) {
    columns = trace_columns(result.run_trace);
    intervals = interval_columns(result.run_trace);
  }
  return py::make_tuple(document([&] { return result.to_json(); }), samples, columns, intervals);
}

py::object montecarlo_study(const std::string& study, int n, std::optional<std::uint64_t> runs, std::uint64_t seed,
                            unsigned threads, std::optional<int> points, std::optional<int> ratio_points,
                            const py::object& progress) {
  api::MonteCarloStudyRequest r;
  r.study = study;
  r.n = n;
  r.runs = runs;
  r.seed = seed;
  r.threads = threads;
  if (points) r.points = *points;
  if (ratio_points) r.ratio_points = *ratio_points;
  const auto result = run_interruptibly<api::MonteCarloStudyResult>([r] { return api::run_montecarlo_study(r); }, progress);
  return document([&] { return result.to_json(); });
}

py::object worst_cases(const py::object& progress) {
  const auto result = run_interruptibly<api::WorstCaseResult>([] { return api::montecarlo_worst_cases(); }, progress);
  return document([&] { return result.to_json(); });
}

py::tuple steady(const std::string& collective, const api::TopologyRef& topology, const std::string& source,
                 const std::vector<std::string>& sources, const std::vector<std::string>& targets,
                 const std::vector<std::string>& participants, const std::string& target,
                 const std::string& message_size, const std::string& task_work, const std::string& period,
                 const std::string& emulate, int iteration_limit, bool whole_messages, bool trace,
                 const py::object& progress) {
  api::SteadyRequest r;
  r.collective = api::parse_collective(collective);
  r.topology = topology;
  r.source = source;
  r.sources = sources;
  r.targets = targets;
  r.participants = participants;
  r.target = target;
  r.message_size = message_size;
  r.task_work = task_work;
  r.period = period;
  r.emulate = emulate;
  r.iteration_limit = iteration_limit;
  r.whole_messages = whole_messages;
  r.trace = trace;
  auto result = run_interruptibly<std::shared_ptr<api::SteadyResult>>(
      [r] { return std::make_shared<api::SteadyResult>(api::run_steady(r)); }, progress);
  py::object columns = py::none();
  py::object intervals = py::none();
  if (trace && result->optimal) {
    columns = trace_columns(result->optimal->result().run.trace);
    intervals = interval_columns(result->optimal->result().run.trace);
  }
  return py::make_tuple(document([&] { return result->to_json(); }), columns, intervals);
}

py::tuple reduce(const std::string& algorithm, int n, const std::string& d, const std::string& c, std::optional<int> k,
                 const std::string& op, bool trace, const py::object& progress) {
  api::ReduceRequest r{algorithm, n, d, c, k, op, trace};
  const auto result = run_interruptibly<api::ReduceResult>([r] { return api::plan_reduction(r); }, progress);
  py::object columns = py::none();
  py::object intervals = py::none();
  if (trace) {
    columns = trace_columns(result.run.trace);
    intervals = interval_columns(result.run.trace);
  }
  return py::make_tuple(document([&] { return result.to_json(); }), columns, intervals);
}

py::object figure2(int max_n, const py::object& progress) {
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
  return py::make_tuple(document([&] { return result.to_json(); }), rows);
}

py::object markov(std::int64_t n, const std::string& rate, const py::object& progress) {
  const auto result = run_interruptibly<api::MarkovResult>([n, rate] { return api::tree_dyn_markov(n, rate); }, progress);
  return document([&] { return result.to_json(); });
}

}  // namespace

void bind_studies(py::module_& m) {
  m.def("optimal", &optimal, arg("topology"), arg("collective"), arg("root"), arg("ports"), arg("duplex"),
        arg("time_limit"), arg("method"), arg("beam_width"), arg("max_steps"), arg("anytime"), arg("proof"),
        arg("progress"));
  m.def("optimal_study", &optimal_study, arg("study"), arg("time_limit"), arg("progress"));
  m.def("whatif", &whatif, arg("collective"), arg("topologies"), arg("ports"), arg("duplex"), arg("costs"),
        arg("message_size"), arg("latency"), arg("bandwidth"), arg("seed"), arg("fail_links"), arg("fail_nodes"), arg("fail_random"), arg("root"),
        arg("op"), arg("values"), arg("schedule"), arg("optimal"), arg("optimal_time_limit"), arg("progress"));
  m.def("montecarlo", &montecarlo, arg("algorithms"), arg("n"), arg("dist"), arg("cv"), arg("mu_d"), arg("mu_c"),
        arg("runs"), arg("seed"), arg("threads"), arg("run"), arg("progress"));
  m.def("montecarlo_study", &montecarlo_study, arg("study"), arg("n"), arg("runs"), arg("seed"), arg("threads"),
        arg("points"), arg("ratio_points"), arg("progress"));
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

#include <starnet/algorithms/collectives/catalogue.hpp>
#include <starnet/algorithms/optimal/optimal_search.hpp>
#include <starnet/api/optimal.hpp>
#include <starnet/api/json.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/algorithms/schedule/gossip_allreduce.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>

#include "optimal_class.hpp"

#include <fmt/format.h>

#include <filesystem>

namespace starnet::api {
namespace {

namespace opt = algorithms::optimal;
namespace sch = algorithms::schedule;

void check_collective(const OptimalRequest& r) {
  if (r.collective == Collective::ALLTOALL) {
    if (r.method == OptimalMethod::UNIFORM || r.method == OptimalMethod::AUTO) return;
    throw UsageError(Setting{"collective", "alltoall"},
                     fmt::format("with «method» {}: the total exchange is searched with «method» uniform (its Pareto "
                                 "front of steps and volume on Cayley graphs)",
                                 to_string(r.method)));
  }
  if (r.collective == Collective::REDUCE) {
    throw UsageError(Setting{"collective", "reduce"}, "search broadcast (a reduce is a broadcast reversed)");
  }
  (void)opt::goal_of(r.collective);  // names the collectives a search takes
}

void progress_of(const opt::SolveRecord& r) {
  progress_detail(fmt::format("T = {}: {} ({} variables, {} clauses, {:.2f} s)", r.steps,
                              !r.satisfiable ? "stopped" : *r.satisfiable ? "SAT" : "UNSAT", r.variables, r.clauses,
                              r.seconds));
}

}  // namespace

std::string to_string(OptimalMethod m) {
  switch (m) {
    case OptimalMethod::SAT: return "sat";
    case OptimalMethod::UNIFORM: return "uniform";
    case OptimalMethod::COSET: return "coset";
    case OptimalMethod::AUTO: return "auto";
  }
  return "?";
}

OptimalMethod parse_method(std::string_view text) {
  for (const auto m : {OptimalMethod::SAT, OptimalMethod::UNIFORM, OptimalMethod::COSET, OptimalMethod::AUTO}) {
    if (text == to_string(m)) return m;
  }
  throw UsageError(Setting{"method", std::string(text)}, "expected sat, uniform, coset or auto");
}

namespace {

/// Refuses the settings of the class searches (uniform, coset), which SAT does not take; @p why_sat
/// says why SAT runs when it was not asked for by name.
void refuse_class_settings(const OptimalRequest& request, std::string_view why_sat) {
  if (!request.anytime && !request.beam_width && !request.max_steps) return;
  const Setting setting = request.anytime      ? Setting{"anytime", ""}  // a flag: no value
                          : request.beam_width ? Setting{"beam_width", std::to_string(*request.beam_width)}
                                               : Setting{"max_steps", std::to_string(*request.max_steps)};
  throw UsageError(setting, fmt::format("applies only with «method» uniform or coset{}", why_sat));
}

OptimalOutcome find_by_sat(const OptimalRequest& request, OptimalOutcome out) {
  const auto t = request.topology.topology();
  topology::NodeId root = 0;
  if (request.collective == Collective::BROADCAST) {
    const auto r = algorithms::generic::find_node(*t, request.root);
    if (!r) throw UsageError(Setting{"root", request.root}, fmt::format("not a node of {}", request.topology.spec()));
    root = *r;
  }
  if (!request.proof_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(request.proof_dir, ec);
    if (!std::filesystem::is_directory(request.proof_dir)) {
      throw UsageError(Setting{"proof", request.proof_dir}, "cannot be created as a directory");
    }
  }
  opt::OptimalSearch search;
  search.topology(*t, request.topology.spec())
      .in_memory(!request.topology.from_spec())
      .goal(opt::goal_of(request.collective))
      .root(root)
      .ports(request.ports)
      .time_limit(request.time_limit.value_or(DEFAULT_OPTIMAL_SECONDS))
      .builtins(algorithms::collectives::optimal_candidates)
      .on_solve(progress_of);
  if (!request.proof_dir.empty()) search.proof_dir(request.proof_dir);
  out.sat = search.run().result();
  const auto& r = *out.sat;
  const auto& given = r.optimum ? r.schedule : r.upper_schedule;
  if (given) {
    out.schedule = as_requested(*given, request, t, r.optimum ? "SAT" : r.upper_source);
    const auto steps = r.optimum ? *r.optimum : r.upper_bound.value_or(0);
    if (const auto problem = out.schedule ? run_problem(*out.schedule, steps, request.ports) : std::nullopt) {
      throw SolverError(fmt::format("the {} schedule of {} steps, written as {}, fails on the emulator: {}",
                                    r.optimum ? "optimal" : "best known", steps, to_string(request.collective),
                                    *problem));
    }
  }
  if (!given) {
    out.schedule_note = "the time limit came before any schedule was found";
  } else if (!out.schedule) {
    out.schedule_note = fmt::format("the {} schedule is an all-reduce word plan, not a gossip (all-gather): the "
                                    "collective allreduce gives it",
                                    r.upper_source);
  }
  out.schedule_proved = r.optimum.has_value();
  out.verified = r.optimum && r.schedule_verified;
  return out;
}

}  // namespace

OptimalOutcome find_optimal(const OptimalRequest& request) {
  const StopScope scope;
  check_seconds(request.time_limit, "time_limit");
  check_collective(request);
  refuse_routers(request.topology, "the exact search");
  OptimalOutcome out;
  out.request = request;
  out.nodes = request.topology.topology()->num_nodes();
  OptimalMethod method = request.method;
  if (method == OptimalMethod::AUTO) {
    // SAT (its upper bound from the uniform search) where it can prove; the uniform search beyond.
    method = out.nodes > opt::MAX_EXACT_NODES || request.collective == Collective::ALLTOALL ? OptimalMethod::UNIFORM
                                                                                             : OptimalMethod::SAT;
  }
  if (method != OptimalMethod::SAT) return find_in_class(request, method == OptimalMethod::COSET, std::move(out));
  refuse_class_settings(request, request.method == OptimalMethod::AUTO
                                     ? fmt::format(" (auto runs SAT on {}, {} nodes)", request.topology.spec(), out.nodes)
                                     : std::string());
  return find_by_sat(request, std::move(out));
}

int OptimalOutcome::exit_code() const {
  const bool found_something = sat ? sat->optimum.has_value() : found && !found->steps.empty();
  if (!found_something) return 3;
  return verified ? 0 : 1;
}

namespace {

nlohmann::json sat_json(const opt::OptimalResult& r) {
  nlohmann::json bounds = nlohmann::json::object();
  for (const auto& b : r.bounds) bounds[b.name] = b.steps;
  nlohmann::json calls = nlohmann::json::array();
  std::uint64_t learned = 0;
  for (const auto& s : r.solves) {
    learned += s.learned;
    nlohmann::json c = {{"steps", s.steps},
                        {"answer", !s.satisfiable ? "stopped" : *s.satisfiable ? "SAT" : "UNSAT"},
                        {"variables", s.variables},
                        {"clauses", s.clauses},
                        {"learned_clauses", s.learned},
                        {"seconds", s.seconds}};
    if (!s.second_solver.empty()) c["second_solver"] = s.second_solver;
    if (!s.proof.empty()) c["proof"] = s.proof;
    calls.push_back(c);
  }
  return {{"optimum", r.optimum ? nlohmann::json(*r.optimum) : nlohmann::json(nullptr)},
          {"proved", r.status == opt::Status::OPTIMAL},
          {"lower_bound", r.lower_bound},
          {"upper_bound", r.upper_bound ? nlohmann::json(*r.upper_bound) : nlohmann::json(nullptr)},
          {"upper_source", r.upper_source},
          {"builtin", r.builtin},
          {"builtin_steps", r.builtin_steps ? nlohmann::json(*r.builtin_steps) : nlohmann::json(nullptr)},
          {"bounds", bounds},
          {"schedule_verified", r.schedule_verified},
          {"solver", {{"name", "CaDiCaL"}, {"calls", calls}, {"learned_clauses", learned}}},
          {"seconds", r.seconds}};
}

}  // namespace

nlohmann::json OptimalOutcome::to_json() const {
  nlohmann::json j = {{"collective", to_string(request.collective)},
                      {"topology", request.topology.spec()},
                      {"nodes", nodes},
                      {"ports", request.ports.ports},
                      {"duplex", duplex_name(request.ports)}};
  j.update(sat ? sat_json(*sat) : class_json(*found));
  if (!sat) {
    j["beam_width"] = request.beam_width ? nlohmann::json(*request.beam_width) : nlohmann::json(nullptr);
    j["schedule_verified"] = verified;
  }
  j["schedule_given"] = schedule != nullptr;
  j["schedule_source"] = schedule ? nlohmann::json(schedule->source) : nlohmann::json(nullptr);
  j["schedule_note"] = schedule_note.empty() ? nlohmann::json(nullptr) : nlohmann::json(schedule_note);
  j["schedule_proved"] = schedule_proved;
  j["verified"] = verified;
  return j;
}

}  // namespace starnet::api

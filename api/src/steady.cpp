#include <starnet/api/steady.hpp>
#include <starnet/api/json.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>

#include <fmt/format.h>

namespace starnet::api {
namespace {

namespace ss = algorithms::steady_state;

/// @p value (> 0) as GMP's rational, or none. @throws UsageError about @p setting when ≤ 0.
std::optional<mpq_class> positive_or_none(const std::optional<Rational>& value, const char* setting) {
  if (!value) return std::nullopt;
  if (!(*value > 0)) throw UsageError(Setting{setting, value->to_string()}, "expected a number > 0");
  return ss::to_mpq(*value);
}

ss::ReduceCosts reduce_costs(const SteadyRequest& r) {
  const Rational size = r.message_size;
  const Rational work = r.task_work;
  for (const auto& [name, value] : {std::pair{"message_size", &size}, std::pair{"task_work", &work}}) {
    if (!(*value > 0)) throw UsageError(Setting{name, value->to_string()}, "expected a number > 0");
  }
  return {[size](int, int) { return size; }, [work](int, int, int) { return work; }};
}

/// An exact GMP rational in a JSON object (api/json.hpp).
void put_q(nlohmann::json& j, const std::string& key, const mpq_class& q) { put_exact(j, key, q.get_str(), q.get_d()); }
/// A GMP count: a JSON integer, or a double beside its exact digits past 64 bits.
void put_z(nlohmann::json& j, const std::string& key, const mpz_class& z) { put_exact(j, key, z.get_str(), z.get_d()); }

nlohmann::json tree_json(const ss::SteadyStateProblem& problem, const ss::WeightedTree& tree) {
  nlohmann::json tasks = nlohmann::json::array();
  for (const int t : tree.tasks) tasks.push_back(problem.task_label(t));
  nlohmann::json j = {{"tasks", tasks}};
  put_q(j, "weight", tree.weight);
  return j;
}

nlohmann::json schedule_json(const ss::SteadyStateProblem& problem, const ss::PeriodicSchedule& s) {
  nlohmann::json matchings = nlohmann::json::array();
  for (const auto& m : s.matchings) {
    nlohmann::json transfers = nlohmann::json::array();
    for (const auto& tr : m.transfers) {
      nlohmann::json t = {{"from", problem.node_name(tr.from)},
                          {"to", problem.node_name(tr.to)},
                          {"type", problem.types()[static_cast<std::size_t>(tr.type)].label},
                          {"tree", tr.tree},
                          {"start_period", tr.start_period}};
      put_q(t, "amount", tr.amount);
      transfers.push_back(std::move(t));
    }
    nlohmann::json matching = {{"transfers", transfers}};
    put_q(matching, "weight", m.duration);
    matchings.push_back(std::move(matching));
  }
  nlohmann::json computations = nlohmann::json::array();
  for (const auto& c : s.computations) {
    nlohmann::json computation = {{"node", problem.node_name(c.node)},
                                  {"task", problem.task_label(c.task)},
                                  {"tree", c.tree},
                                  {"start_period", c.start_period}};
    put_q(computation, "amount", c.amount);
    computations.push_back(std::move(computation));
  }
  nlohmann::json trees = nlohmann::json::array();
  for (const auto& tree : s.trees) trees.push_back(tree_json(problem, tree));
  nlohmann::json j = {{"startup_periods", s.startup_periods},
                      {"matchings", matchings},
                      {"computations", computations},
                      {problem.collective() == Collective::REDUCE ? "trees" : "routes", trees}};
  put_q(j, "period", s.period);
  put_q(j, "throughput", s.throughput());
  put_q(j, "operations_per_period", s.operations_per_period);
  return j;
}

nlohmann::json emulation_json(const ss::ScheduleEmulation& e) {
  nlohmann::json j = {{"startup_periods", e.plan.startup_periods},
                      {"messages", e.run.counters.messages},
                      {"values_verified", e.report.verified},
                      {"verified", e.verified()},
                      {"failure", e.failure()}};
  put_q(j, "horizon", e.plan.horizon);
  put_q(j, "bound", e.plan.bound);
  put_q(j, "ratio", e.ratio);
  put_z(j, "completed", e.report.completed);
  put_z(j, "proposition1", e.guaranteed);
  put_z(j, "predicted", e.plan.completed);
  put_z(j, "repetitions", e.plan.repetitions);
  return j;
}

std::unique_ptr<ss::SteadyStateProblem> make_problem(const SteadyRequest& r, const topology::Platform& platform) {
  using P = ss::SteadyStateProblem;
  switch (r.collective) {
    case Collective::SCATTER: return std::make_unique<P>(P::scatter(platform, r.source, r.targets));
    case Collective::ALLTOALL: return std::make_unique<P>(P::gossip(platform, r.sources, r.targets));
    case Collective::REDUCE: return std::make_unique<P>(P::reduce(platform, r.participants, r.target, reduce_costs(r)));
    default:
      throw UsageError(Setting{"collective", to_string(r.collective)},
                       "steady-state series are of scatter, alltoall (the paper's gossip) or reduce");
  }
}

}  // namespace

SteadyResult run_steady(const SteadyRequest& request) {
  const StopScope scope;
  const auto period = positive_or_none(request.period, "period");
  const auto horizon = positive_or_none(request.emulate, "emulate");
  if (!horizon && request.trace) throw UsageError(Setting{"trace", ""}, "records the emulated run: give «emulate» K too");
  SteadyResult out;
  out.request = request;
  out.platform = request.topology.platform();
  out.problem = make_problem(request, *out.platform);
  out.planner = std::make_unique<ss::SteadyStatePlanner>(*out.problem);
  out.planner->whole_messages(request.whole_messages).fixed_period(period).iteration_limit(request.iteration_limit);
  if (const auto status = out.planner->run(); status != ss::Status::OPTIMAL) {
    throw SolverError(fmt::format("{}: the linear program is {} (expected OPTIMAL; the problem always has the "
                                  "feasible solution 0 and a bounded throughput)",
                                  out.problem->describe(), ss::to_string(status)));
  }
  out.check = out.planner->verify();
  if (horizon) {
    out.optimal = std::make_unique<ss::ScheduleEmulator>(*out.problem, out.planner->schedule());
    out.optimal->optimal_throughput(out.planner->throughput()).trace(request.trace);
    (void)out.optimal->run(*horizon);
    if (const auto& fixed = out.planner->fixed_schedule()) {
      out.fixed = std::make_unique<ss::ScheduleEmulator>(*out.problem, *fixed);
      (void)out.fixed->optimal_throughput(out.planner->throughput()).run(*horizon);
    }
  }
  return out;
}

std::string SteadyResult::run_title() const {
  const auto& e = optimal->result();
  return fmt::format("{}: {} periods of {}, K = {}", problem->describe(), e.plan.whole_periods.get_str(),
                     planner->schedule().period.get_str(), e.plan.horizon.get_str());
}

bool SteadyResult::verified() const {
  return static_cast<bool>(check) && (!optimal || optimal->result().verified()) &&
         (!fixed || fixed->result().verified());
}

nlohmann::json SteadyResult::to_json() const {
  const auto& lp = planner->solver().linear_program();
  nlohmann::json j = schedule_json(*problem, planner->schedule());
  j["collective"] = to_string(problem->collective());
  j["topology"] = request.topology.spec();
  j["problem"] = problem->describe();
  j["status"] = ss::to_string(planner->status());
  put_q(j, "throughput", planner->throughput());
  put_q(j, "lp_period", planner->solver().period());
  j["certified"] = static_cast<bool>(check);
  j["lp"] = {{"rows", lp.num_constraints()},
             {"columns", lp.num_variables()},
             {"exact_simplex", planner->solver().lp_solver().used_exact_simplex()}};
  if (const auto& f = planner->fixed_schedule()) {
    nlohmann::json fj = schedule_json(*problem, *f);
    put_q(fj, "loss_bound", mpq_class(mpq_class(static_cast<long>(planner->trees().size())) / f->period));
    if (fixed) fj["emulated"] = emulation_json(fixed->result());
    j["fixed_period"] = fj;
  }
  if (optimal) j["emulated"] = emulation_json(optimal->result());
  j["verified"] = verified();
  return j;
}

}  // namespace starnet::api

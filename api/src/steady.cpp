#include <starnet/api/steady.hpp>
#include <starnet/algorithms/steady_state/planner.hpp>
#include <starnet/algorithms/steady_state/schedule_program.hpp>
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


/// What a result keeps alive behind its data: the platform, the problem, its planner and the
/// emulators, whose runs and platform view the result hands out (aliasing pointers into this,
/// which may outlive the result).
struct SteadyMachinery {
  std::shared_ptr<const topology::Platform> platform;  // first: what the others refer to
  std::unique_ptr<ss::SteadyStateProblem> problem;
  std::unique_ptr<ss::SteadyStatePlanner> planner;
  std::unique_ptr<ss::ScheduleEmulator> optimal;
  std::unique_ptr<ss::ScheduleEmulator> fixed;
};

SteadyPeriod period_of(const ss::PeriodicSchedule& s) {
  return {.period = s.period,
          .operations_per_period = s.operations_per_period,
          .throughput = s.throughput(),
          .matchings = s.matchings.size(),
          .trees = s.trees.size(),
          .startup_periods = s.startup_periods};
}

nlohmann::json document(const SteadyResult& r, const SteadyMachinery& m) {
  const auto& planner = *m.planner;
  const auto& lp = planner.solver().linear_program();
  nlohmann::json j = schedule_json(*m.problem, planner.schedule());
  j["collective"] = to_string(m.problem->collective());
  j["topology"] = r.request.topology.spec();
  j["problem"] = r.problem;
  j["status"] = ss::to_string(planner.status());
  put_q(j, "throughput", r.throughput);
  put_q(j, "lp_period", planner.solver().period());
  j["certified"] = r.certified();
  j["lp"] = {{"rows", lp.num_constraints()},
             {"columns", lp.num_variables()},
             {"exact_simplex", planner.solver().lp_solver().used_exact_simplex()}};
  if (const auto& f = planner.fixed_schedule()) {
    nlohmann::json fj = schedule_json(*m.problem, *f);
    put_q(fj, "loss_bound", mpq_class(mpq_class(static_cast<long>(r.lp_trees)) / f->period));
    if (r.fixed) fj["emulated"] = emulation_json(*r.fixed);
    j["fixed_period"] = fj;
  }
  if (r.optimal) j["emulated"] = emulation_json(*r.optimal);
  j["verified"] = r.verified();
  return j;
}

/// Runs the problem's planner, and emulates its schedules for @p horizon when there is one.
/// @throws SolverError when the LP is not solved to optimality.
void plan_and_emulate(const SteadyRequest& request, const std::optional<mpq_class>& period,
                      const std::optional<mpq_class>& horizon, SteadyMachinery& m) {
  m.planner = std::make_unique<ss::SteadyStatePlanner>(*m.problem);
  m.planner->whole_messages(request.whole_messages).fixed_period(period).iteration_limit(request.iteration_limit);
  if (const auto status = m.planner->run(); status != ss::Status::OPTIMAL) {
    throw SolverError(fmt::format("{}: the linear program is {} (expected OPTIMAL; the problem always has the "
                                  "feasible solution 0 and a bounded throughput)",
                                  m.problem->describe(), ss::to_string(status)));
  }
  if (!horizon) return;
  m.optimal = std::make_unique<ss::ScheduleEmulator>(*m.problem, m.planner->schedule());
  m.optimal->optimal_throughput(m.planner->throughput()).trace(request.trace);
  (void)m.optimal->run(*horizon);
  if (const auto& fixed = m.planner->fixed_schedule()) {
    m.fixed = std::make_unique<ss::ScheduleEmulator>(*m.problem, *fixed);
    (void)m.fixed->optimal_throughput(m.planner->throughput()).run(*horizon);
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
  const auto m = std::make_shared<SteadyMachinery>();
  m->platform = out.platform;
  m->problem = make_problem(request, *m->platform);
  plan_and_emulate(request, period, horizon, *m);
  out.problem = m->problem->describe();
  out.throughput = m->planner->throughput();
  out.schedule = period_of(m->planner->schedule());
  if (const auto& fixed = m->planner->fixed_schedule()) out.fixed_schedule = period_of(*fixed);
  out.lp_trees = m->planner->trees().size();
  if (const auto check = m->planner->verify(); !check) {
    out.certificate_failure = check.failure.empty() ? "the certificate does not hold" : check.failure;
  }
  if (m->optimal) {
    out.optimal = std::shared_ptr<const ScheduleEmulation>(m, &m->optimal->result());
    out.emulated_on = std::shared_ptr<const Topology>(m, &m->optimal->topology());
  }
  if (m->fixed) out.fixed = std::shared_ptr<const ScheduleEmulation>(m, &m->fixed->result());
  out.document = document(out, *m);
  return out;
}

std::string SteadyResult::run_title() const {
  return fmt::format("{}: {} periods of {}, K = {}", problem, optimal->plan.whole_periods.get_str(),
                     schedule.period.get_str(), optimal->plan.horizon.get_str());
}

bool SteadyResult::verified() const {
  return certified() && (!optimal || optimal->verified()) && (!fixed || fixed->verified());
}

}  // namespace starnet::api

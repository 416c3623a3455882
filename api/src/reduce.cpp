#include <starnet/api/reduce.hpp>
#include <starnet/algorithms/trees/figure2_study.hpp>
#include <starnet/algorithms/trees/plan_program.hpp>
#include <starnet/algorithms/trees/plan_validator.hpp>
#include <starnet/algorithms/trees/tree_planner.hpp>
#include <starnet/api/json.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/tree_bounds.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/emulator/engine.hpp>

#include <fmt/format.h>

namespace starnet::api {
namespace {

namespace trees = algorithms::trees;

/// Whether folding the plan with @p op gives v_0 ⊕ … ⊕ v_(n−1) computed sequentially.
bool combines_in_order(const trees::ReductionPlan& plan, const trees::Operator& op) {
  std::vector<std::string> values(static_cast<std::size_t>(plan.n()));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = op.initial(i);
  const auto folded = trees::combine(plan, std::move(values),
                                     [&](const std::string& a, const std::string& b) { return op.combine(a, b); });
  return folded == op.sequential(static_cast<std::uint64_t>(plan.n()));
}

/// The plan run on the emulator at its planned times: strict single-port half-duplex checking
/// (one transfer at a time, sending or receiving), exact time, transfers d, reductions c.
void emulate(ReduceResult& r, const trees::Operator& op) {
  const emulator::UniformCosts<Rational> costs(r.plan.model.d(), r.plan.model.c());
  emulator::RunConfig config;
  config.ports.half_duplex = true;
  config.checking = emulator::Checking::STRICT;
  config.time = emulator::TimeMode::TIMED;
  config.trace = r.request.trace;
  r.run = emulator::LocalEngine<Rational>().run(
      *r.machines, costs,
      [&](emulator::NodeRange range) {
        return trees::make_plan_program(r.plan, op, trees::Timing::AT_PLANNED_TIMES, range);
      },
      config);
  r.report = trees::PlanRunReport::merge(r.run.reports);
  r.root_right = r.report.root_done && r.report.root_value == op.sequential(static_cast<std::uint64_t>(r.plan.n()));
  r.root_shown = r.report.root_done ? op.show(r.report.root_value) : "";
}

}  // namespace

ReduceOp parse_reduce_op(std::string_view text, std::string_view setting) {
  if (text == "sum") return ReduceOp::SUM;
  if (text == "concat") return ReduceOp::CONCAT;
  throw UsageError(Setting{std::string(setting), std::string(text)}, "expected sum or concat (not commutative)");
}

std::string_view to_string(ReduceOp op) { return op == ReduceOp::SUM ? "sum" : "concat"; }

ReduceResult plan_reduction(const ReduceRequest& request) {
  const StopScope scope;
  if (request.n < 1 || request.n > MAX_REDUCE_ELEMENTS) {
    throw UsageError(Setting{"n", std::to_string(request.n)},
                     fmt::format("expected n ≥ 1 and at most {} elements (the plan is kept in memory)",
                                 MAX_REDUCE_ELEMENTS));
  }
  if (request.k && *request.k < 1) throw UsageError(Setting{"k", std::to_string(*request.k)}, "expected K ≥ 1");
  for (const auto& [name, cost] : {std::pair{"d", &request.d}, std::pair{"c", &request.c}}) {
    if (*cost < 0) throw UsageError(Setting{name, cost->to_string()}, "expected a cost ≥ 0");
  }
  const auto op = trees::make_operator(to_string(request.op), "op");
  if (!op->commutative() && request.n > MAX_CONCAT_ELEMENTS) {
    throw UsageError(Setting{"op", std::string(to_string(request.op))},
                     fmt::format("with n = {}: at most {} elements (values grow with n; use sum)", request.n,
                                 MAX_CONCAT_ELEMENTS));
  }
  trees::PlanRequest plan;
  plan.algorithm = request.algorithm;
  plan.n = request.n;
  plan.model = trees::CostModel(request.d, request.c);
  plan.k = request.k;
  ReduceResult r;
  r.request = request;
  r.machines = std::make_shared<const topology::CompleteGraph>(static_cast<emulator::NodeId>(request.n));
  try {
    r.plan = trees::make_plan(plan);
    // Self-check: the plan against the model, and the order in which it combines the elements.
    r.check = trees::check_plan(r.plan);
    r.in_order = r.check.valid && combines_in_order(r.plan, *op);
    emulate(r, *op);
  } catch (const OverflowError& e) {
    throw OverflowError(fmt::format("n = {}, d = {}, c = {}: {} (exact times are kept or refused, never rounded)",
                                    request.n, request.d.to_string(), request.c.to_string(), e.what()));
  }
  r.lower_bound = trees::optimal_length_lower_bound(request.n, plan.model);
  r.upper_bound = trees::optimal_length_upper_bound(request.n, plan.model);
  if (request.k && *request.k <= trees::max_concurrent_transfers_limit(request.n)) {
    r.limited_upper_bound = trees::limited_length_upper_bound(request.n, *request.k, plan.model);
  }
  return r;
}

std::string ReduceResult::problem() const {
  if (!check.valid) return check.problem;
  if (!in_order) return fmt::format("the plan does not combine v0..v{} in order", plan.n() - 1);
  if (!emulated_as_planned()) {
    return fmt::format("the emulated run took {} (predicted {}), {} machine(s) late, root value {}",
                       run.makespan.to_string(), plan.length.to_string(), report.late, root_right ? "right" : "wrong");
  }
  return {};
}

std::string ReduceResult::run_title() const {
  return fmt::format("{} reduction on {}: makespan {}", trees::to_string(request.algorithm), machines->name(),
                     run.makespan.to_string());
}

nlohmann::ordered_json ReduceResult::to_json() const {
  nlohmann::ordered_json transfers = nlohmann::ordered_json::array();
  for (const trees::Transfer& t : plan.transfers) {
    nlohmann::ordered_json transfer = {{"from", t.from}, {"to", t.to}};
    put_exact(transfer, "start", t.start);
    transfers.push_back(std::move(transfer));
  }
  nlohmann::ordered_json out = {{"algo", plan.algorithm}, {"n", plan.n()}};
  put_exact(out, "d", plan.model.d());
  put_exact(out, "c", plan.model.c());
  if (request.k) out["k"] = *request.k;
  out["op"] = std::string(to_string(request.op));
  put_exact(out, "length", plan.length);
  put_exact(out, "lower_bound", lower_bound);
  put_exact(out, "upper_bound", upper_bound);
  if (limited_upper_bound) put_exact(out, "limited_upper_bound", *limited_upper_bound);
  out["root"] = plan.root;
  out["parents"] = plan.parent;
  out["children"] = plan.children;
  out["transfers"] = std::move(transfers);
  out["reducers"] = check.reducers;
  out["max_concurrent_transfers"] = check.max_concurrent_transfers;
  out["plan_valid"] = check.valid;
  out["combined_in_order"] = in_order;
  put_exact(out, "emulated_length", run.makespan);
  out["emulated_messages"] = run.counters.messages;
  out["emulated_root_value"] = root_shown;
  out["verified"] = verified();
  if (!verified()) out["problem"] = problem();
  return out;
}

Figure2Result reduce_figure2(int max_n) {
  const StopScope scope;
  if (max_n < 2 || max_n > MAX_REDUCE_ELEMENTS) {
    throw UsageError(Setting{"max_n", std::to_string(max_n)}, fmt::format("expected 2..{}", MAX_REDUCE_ELEMENTS));
  }
  Figure2Result r;
  r.max_n = max_n;
  r.rows = trees::figure2_study(max_n);
  r.verified = true;
  for (const auto& row : r.rows) {
    const Rational b = row.binomial_ratio();
    const Rational f = row.fibonacci_ratio();
    r.verified = r.verified && b >= 1 && b <= 2 && f >= 1 && f <= 2;
    if (b > r.binomial_max) r.binomial_max = b, r.binomial_at = row.n;
    if (f > r.fibonacci_max) r.fibonacci_max = f, r.fibonacci_at = row.n;
  }
  return r;
}

nlohmann::ordered_json Figure2Result::to_json() const {
  const auto worst = [](const Rational& ratio, int n) {
    nlohmann::ordered_json j;
    put_exact(j, "max_ratio", ratio);
    j["at_n"] = n;
    return j;
  };
  return {{"study", "figure2"},
          {"max_n", max_n},
          {"binomial_strategy_d_eq_c", worst(binomial_max, binomial_at)},
          {"fibonacci_strategy_min_zero", worst(fibonacci_max, fibonacci_at)},
          {"within_theorems_18_19", verified},
          {"verified", verified}};
}

std::string Figure2Result::csv() const { return trees::figure2_csv(rows); }

}  // namespace starnet::api

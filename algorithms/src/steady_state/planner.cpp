#include <starnet/algorithms/steady_state/planner.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

namespace starnet::algorithms::steady_state {

SteadyStatePlanner::SteadyStatePlanner(const SteadyStateProblem& problem) : problem_(problem), solver_(problem) {}

SteadyStatePlanner& SteadyStatePlanner::whole_messages(bool on) {
  whole_messages_ = on;
  return *this;
}

SteadyStatePlanner& SteadyStatePlanner::fixed_period(std::optional<mpq_class> period) {
  fixed_period_ = std::move(period);
  return *this;
}

SteadyStatePlanner& SteadyStatePlanner::iteration_limit(int limit) {
  solver_.iteration_limit(limit);
  return *this;
}

Status SteadyStatePlanner::run() {
  if (fixed_period_ && *fixed_period_ <= 0) {
    throw InputError(fmt::format("fixed period {} is not valid (must be > 0)", fixed_period_->get_str()));
  }
  fixed_.reset();
  if (solver_.run() != Status::OPTIMAL) return solver_.status();
  amounts_ = solver_.integer_solution();
  cancel_circulations(problem_, amounts_);
  const mpq_class per_sink = solver_.throughput() * solver_.period();
  trees_ = extract_trees(problem_, amounts_, per_sink.get_num());
  const mpq_class period(solver_.period());
  schedule_ = build_periodic_schedule(problem_, trees_, period);
  if (whole_messages_) schedule_ = with_whole_messages(std::move(schedule_));
  if (fixed_period_) fixed_ = fixed_period_schedule(problem_, trees_, period, *fixed_period_);
  return Status::OPTIMAL;
}

CertificateCheck SteadyStatePlanner::verify() const {
  const auto& lp = solver_.linear_program();
  const auto& dual = solver_.lp_solver().dual();
  if (auto check = check_optimality(lp, solver_.lp_solver().primal(), dual); !check) return check;
  // A/T (circulations removed) with TP is optimal too: the same dual certifies it.
  std::vector<mpq_class> x;
  for (const auto& a : amounts_) x.emplace_back(mpq_class(a) / solver_.period());
  x.push_back(solver_.throughput());
  if (auto check = check_optimality(lp, x, dual); !check) {
    return {false, "integer solution after removing circulations: " + check.failure};
  }
  if (auto check = check_trees(problem_, trees_, amounts_); !check) return check;
  if (auto check = check_schedule(problem_, schedule_); !check) return check;
  if (schedule_.throughput() != solver_.throughput()) {
    return {false, fmt::format("the schedule's throughput {} differs from TP = {}", schedule_.throughput().get_str(),
                               solver_.throughput().get_str())};
  }
  if (fixed_) {
    if (auto check = check_schedule(problem_, *fixed_); !check) return {false, "fixed-period schedule: " + check.failure};
  }
  return {};
}

}  // namespace starnet::algorithms::steady_state

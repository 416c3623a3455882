#include <starnet/algorithms/steady_state/solver.hpp>
#include <starnet/core/error.hpp>

#include <map>
#include <utility>

namespace starnet::algorithms::steady_state {

SteadyStateSolver::SteadyStateSolver(const SteadyStateProblem& problem)
    : problem_(problem), lp_(problem.linear_program()), lp_solver_(lp_) {}

SteadyStateSolver& SteadyStateSolver::iteration_limit(int limit) {
  lp_solver_.iteration_limit(limit);
  return *this;
}

SteadyStateSolver& SteadyStateSolver::time_limit_ms(int milliseconds) {
  lp_solver_.time_limit_ms(milliseconds);
  return *this;
}

Status SteadyStateSolver::run() {
  status_ = lp_solver_.run();
  if (status_ != Status::OPTIMAL) return status_;
  const auto& x = lp_solver_.primal();
  const auto& tasks = problem_.tasks();
  throughput_ = x[static_cast<std::size_t>(problem_.throughput_column())];
  rates_.assign(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(tasks.size()));

  // The paper's variables: x_t, TP, s(P_i -> P_j) and α(P_i).
  std::map<std::pair<Vertex, Vertex>, mpq_class> busy;
  std::vector<mpq_class> alpha(problem_.platform().num_nodes());
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const Task& task = tasks[t];
    const mpq_class time = task.time * rates_[t];
    if (task.kind == TaskKind::SEND) {
      busy[{task.from, task.to}] += time;
    } else {
      alpha[task.from] += time;
    }
  }
  period_ = 1;
  const auto include = [&](const mpq_class& q) {
    mpz_lcm(period_.get_mpz_t(), period_.get_mpz_t(), q.get_den_mpz_t());
  };
  include(throughput_);
  for (const auto& r : rates_) include(r);
  for (const auto& [arc, s] : busy) include(s);
  for (const auto& a : alpha) include(a);

  integer_.resize(tasks.size());
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const mpq_class a = rates_[t] * period_;
    STARNET_ASSERT(a.get_den() == 1);
    integer_[t] = a.get_num();
  }
  return status_;
}

}  // namespace starnet::algorithms::steady_state

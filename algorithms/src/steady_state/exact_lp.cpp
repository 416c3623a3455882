#include "sparse_lu.hpp"

#include <starnet/algorithms/steady_state/exact_lp.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>
#include <glpk.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <optional>

namespace starnet::algorithms::steady_state {

std::string to_string(Status status) {
  switch (status) {
    case Status::OPTIMAL: return "OPTIMAL";
    case Status::INFEASIBLE: return "INFEASIBLE";
    case Status::UNBOUNDED: return "UNBOUNDED";
  }
  return "UNKNOWN";
}

int LinearProgram::add_variable(std::string name, mpq_class objective) {
  variable_names_.push_back(std::move(name));
  objective_.push_back(std::move(objective));
  return num_variables() - 1;
}

int LinearProgram::add_constraint(std::string name, Sense sense, mpq_class rhs) {
  constraint_names_.push_back(std::move(name));
  senses_.push_back(sense);
  rhs_.push_back(std::move(rhs));
  rows_.emplace_back();
  return num_constraints() - 1;
}

void LinearProgram::set_coefficient(int row, int col, mpq_class value) {
  if (row < 0 || row >= num_constraints()) {
    throw InputError(fmt::format("LP coefficient: row {} does not exist (expected 0..{})", row, num_constraints() - 1));
  }
  if (col < 0 || col >= num_variables()) {
    throw InputError(
        fmt::format("LP coefficient: column {} does not exist (expected 0..{})", col, num_variables() - 1));
  }
  if (value != 0) rows_[static_cast<std::size_t>(row)].emplace_back(col, std::move(value));
}

CertificateCheck check_optimality(const LinearProgram& lp, const std::vector<mpq_class>& x,
                                  const std::vector<mpq_class>& y) {
  const auto fail = [](std::string why) { return CertificateCheck{false, std::move(why)}; };
  const int n = lp.num_variables();
  const int m = lp.num_constraints();
  if (std::ssize(x) != n || std::ssize(y) != m) {
    return fail(fmt::format("certificate has {} primal and {} dual values (expected {} and {})", x.size(), y.size(),
                            n, m));
  }
  for (int j = 0; j < n; ++j) {
    if (x[static_cast<std::size_t>(j)] < 0) {
      return fail(fmt::format("variable \"{}\" = {} (must be >= 0)", lp.variable_name(j),
                              x[static_cast<std::size_t>(j)].get_str()));
    }
  }
  std::vector<mpq_class> reduced(static_cast<std::size_t>(n));  // Σ_i a_ij·y_i
  mpq_class dual_objective = 0;
  for (int i = 0; i < m; ++i) {
    mpq_class activity = 0;
    const mpq_class& yi = y[static_cast<std::size_t>(i)];
    for (const auto& [j, a] : lp.row(i)) {
      activity += a * x[static_cast<std::size_t>(j)];
      reduced[static_cast<std::size_t>(j)] += a * yi;
    }
    const auto& b = lp.rhs(i);
    const Sense sense = lp.sense(i);
    const bool feasible = sense == Sense::LESS_EQUAL ? activity <= b
                          : sense == Sense::EQUAL    ? activity == b
                                                     : activity >= b;
    if (!feasible) {
      const char* rel = sense == Sense::LESS_EQUAL ? "<=" : sense == Sense::EQUAL ? "==" : ">=";
      return fail(fmt::format("row \"{}\": activity {} violates {} {}", lp.constraint_name(i), activity.get_str(), rel,
                              b.get_str()));
    }
    if ((sense == Sense::LESS_EQUAL && yi < 0) || (sense == Sense::GREATER_EQUAL && yi > 0)) {
      return fail(fmt::format("dual of row \"{}\" is {} (wrong sign for a {} row)", lp.constraint_name(i), yi.get_str(),
                              sense == Sense::LESS_EQUAL ? "<=" : ">="));
    }
    dual_objective += b * yi;
  }
  mpq_class primal_objective = 0;
  for (int j = 0; j < n; ++j) {
    const auto& c = lp.objective(j);
    primal_objective += c * x[static_cast<std::size_t>(j)];
    if (reduced[static_cast<std::size_t>(j)] < c) {
      return fail(fmt::format("dual constraint of variable \"{}\": {} < objective coefficient {}", lp.variable_name(j),
                              reduced[static_cast<std::size_t>(j)].get_str(), c.get_str()));
    }
  }
  if (primal_objective != dual_objective) {
    return fail(fmt::format("primal objective {} differs from dual objective {}", primal_objective.get_str(),
                            dual_objective.get_str()));
  }
  return {};
}

namespace {

struct GlpDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};
using GlpProb = std::unique_ptr<glp_prob, GlpDeleter>;

std::string glpk_reason(int code) {
  switch (code) {
    case GLP_EBADB: return "GLP_EBADB: the initial basis is invalid";
    case GLP_ESING: return "GLP_ESING: the basis matrix is singular";
    case GLP_ECOND: return "GLP_ECOND: the basis matrix is ill-conditioned";
    case GLP_EBOUND: return "GLP_EBOUND: some variable has incorrect bounds";
    case GLP_EFAIL: return "GLP_EFAIL: the solver failed (the LP may have no rows or no columns)";
    case GLP_EITLIM: return "GLP_EITLIM: the iteration limit was reached";
    case GLP_ETMLIM: return "GLP_ETMLIM: the time limit was reached";
    default: return fmt::format("GLPK error code {}", code);
  }
}

mpz_class denominator_lcm(const mpz_class& start, const mpq_class& q) {
  mpz_class out;
  mpz_lcm(out.get_mpz_t(), start.get_mpz_t(), q.get_den_mpz_t());
  return out;
}

/// to_double of an integer, and whether the double is exact.
double exact_double(const mpz_class& z, bool& exact) {
  if (mpz_sizeinbase(z.get_mpz_t(), 2) > 53) exact = false;
  return z.get_d();
}

/// The GLPK copy of @p lp, every row scaled to integers (file comment of exact_lp.hpp).
GlpProb load_glpk(const LinearProgram& lp, bool& exact) {
  GlpProb prob(glp_create_prob());
  glp_prob* p = prob.get();
  glp_set_obj_dir(p, GLP_MAX);
  const int m = lp.num_constraints();
  const int n = lp.num_variables();
  if (m > 0) glp_add_rows(p, m);
  if (n > 0) glp_add_cols(p, n);
  mpz_class objective_scale = 1;
  for (int j = 0; j < n; ++j) objective_scale = denominator_lcm(objective_scale, lp.objective(j));
  for (int j = 0; j < n; ++j) {
    glp_set_col_bnds(p, j + 1, GLP_LO, 0.0, 0.0);
    const mpq_class c = lp.objective(j) * objective_scale;
    glp_set_obj_coef(p, j + 1, exact_double(c.get_num(), exact));
  }
  std::vector<int> ia{0};
  std::vector<int> ja{0};
  std::vector<double> ar{0.0};
  for (int i = 0; i < m; ++i) {
    auto row = lp.row(i);
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    mpz_class scale = denominator_lcm(1, lp.rhs(i));
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (k > 0 && row[k].first == row[k - 1].first) {
        throw InputError(fmt::format("LP row \"{}\": variable \"{}\" is given twice (expected once)",
                                     lp.constraint_name(i), lp.variable_name(row[k].first)));
      }
      scale = denominator_lcm(scale, row[k].second);
    }
    for (const auto& [j, a] : row) {
      const mpq_class scaled = a * scale;
      ia.push_back(i + 1);
      ja.push_back(j + 1);
      ar.push_back(exact_double(scaled.get_num(), exact));
    }
    const mpq_class b = lp.rhs(i) * scale;
    const double bd = exact_double(b.get_num(), exact);
    switch (lp.sense(i)) {
      case Sense::LESS_EQUAL: glp_set_row_bnds(p, i + 1, GLP_UP, 0.0, bd); break;
      case Sense::EQUAL: glp_set_row_bnds(p, i + 1, GLP_FX, bd, bd); break;
      case Sense::GREATER_EQUAL: glp_set_row_bnds(p, i + 1, GLP_LO, bd, 0.0); break;
    }
  }
  glp_load_matrix(p, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  return prob;
}

struct BasicSolution {
  std::vector<mpq_class> x;
  std::vector<mpq_class> y;
};

/// The basic solution of GLPK's current basis, rebuilt in rationals from @p lp's exact data.
/// Nonbasic structural columns sit at 0 and nonbasic rows at b_i (every row has one bound).
std::optional<BasicSolution> rebuild_basis(const LinearProgram& lp, glp_prob* p) {
  const int m = lp.num_constraints();
  const int n = lp.num_variables();
  std::vector<int> row_pos(static_cast<std::size_t>(m), -1);
  std::vector<int> col_pos(static_cast<std::size_t>(n), -1);
  std::vector<int> rows;
  std::vector<int> cols;
  for (int i = 0; i < m; ++i) {
    if (glp_get_row_stat(p, i + 1) != GLP_BS) {
      row_pos[static_cast<std::size_t>(i)] = static_cast<int>(rows.size());
      rows.push_back(i);
    }
  }
  for (int j = 0; j < n; ++j) {
    const int stat = glp_get_col_stat(p, j + 1);
    if (stat == GLP_BS) {
      col_pos[static_cast<std::size_t>(j)] = static_cast<int>(cols.size());
      cols.push_back(j);
    } else if (stat != GLP_NL) {
      return std::nullopt;
    }
  }
  if (rows.size() != cols.size()) return std::nullopt;
  const int k = static_cast<int>(rows.size());
  std::vector<detail::SparseLu::Column> columns(static_cast<std::size_t>(k));
  std::vector<mpq_class> b(static_cast<std::size_t>(k));
  for (int r = 0; r < k; ++r) {
    const int i = rows[static_cast<std::size_t>(r)];
    b[static_cast<std::size_t>(r)] = lp.rhs(i);
    for (const auto& [j, a] : lp.row(i)) {
      const int c = col_pos[static_cast<std::size_t>(j)];
      if (c >= 0) columns[static_cast<std::size_t>(c)].emplace_back(r, a);
    }
  }
  detail::SparseLu lu;
  if (!lu.factorize(k, columns)) return std::nullopt;
  BasicSolution out{std::vector<mpq_class>(static_cast<std::size_t>(n)), std::vector<mpq_class>(static_cast<std::size_t>(m))};
  const auto xb = lu.solve(std::move(b));
  for (int c = 0; c < k; ++c) out.x[static_cast<std::size_t>(cols[static_cast<std::size_t>(c)])] = xb[static_cast<std::size_t>(c)];
  std::vector<mpq_class> cb(static_cast<std::size_t>(k));
  for (int c = 0; c < k; ++c) cb[static_cast<std::size_t>(c)] = lp.objective(cols[static_cast<std::size_t>(c)]);
  const auto yn = lu.solve_transposed(cb);
  for (int r = 0; r < k; ++r) out.y[static_cast<std::size_t>(rows[static_cast<std::size_t>(r)])] = yn[static_cast<std::size_t>(r)];
  return out;
}

}  // namespace

ExactLpSolver::ExactLpSolver(const LinearProgram& lp) : lp_(lp) {}

ExactLpSolver& ExactLpSolver::iteration_limit(int limit) {
  iteration_limit_ = limit;
  return *this;
}

ExactLpSolver& ExactLpSolver::time_limit_ms(int milliseconds) {
  time_limit_ms_ = milliseconds;
  return *this;
}

Status ExactLpSolver::run() {
  certified_ = false;
  used_exact_simplex_ = false;
  data_exact_ = true;
  primal_.clear();
  dual_.clear();
  glp_term_out(GLP_OFF);
  GlpProb prob = load_glpk(lp_, data_exact_);
  glp_prob* p = prob.get();
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_OFF;  // the basis of the original LP is what gets rebuilt
  parm.it_lim = iteration_limit_ > 0 ? iteration_limit_ : INT_MAX;
  parm.tm_lim = time_limit_ms_ > 0 ? time_limit_ms_ : INT_MAX;
  const auto limit_error = [&](const char* solver, int code) {
    return SolverError(fmt::format("LP with {} rows and {} columns: GLPK's {} stopped ({}; iteration limit {}, time "
                                   "limit {} ms)",
                                   lp_.num_constraints(), lp_.num_variables(), solver, glpk_reason(code),
                                   iteration_limit_, time_limit_ms_));
  };
  const auto certify = [&]() -> std::optional<std::string> {
    const auto basic = rebuild_basis(lp_, p);
    if (!basic) return "the basis is not a square nonsingular basis in exact arithmetic";
    const auto check = check_optimality(lp_, basic->x, basic->y);
    if (!check) return check.failure;
    primal_ = basic->x;
    dual_ = basic->y;
    objective_ = 0;
    for (int j = 0; j < lp_.num_variables(); ++j) objective_ += lp_.objective(j) * primal_[static_cast<std::size_t>(j)];
    certified_ = true;
    return std::nullopt;
  };

  glp_scale_prob(p, GLP_SF_AUTO);
  glp_adv_basis(p, 0);
  const int rc = glp_simplex(p, &parm);
  if (rc == GLP_EITLIM || rc == GLP_ETMLIM) throw limit_error("simplex", rc);
  if (rc == 0 && glp_get_status(p) == GLP_OPT && !certify()) return status_ = Status::OPTIMAL;

  // Continue exactly: from the floating-point basis when there is one, else from scratch.
  used_exact_simplex_ = true;
  if (rc != 0) glp_std_basis(p);
  int exact_rc = glp_exact(p, &parm);
  if (exact_rc == GLP_EBADB || exact_rc == GLP_ESING) {
    glp_std_basis(p);
    exact_rc = glp_exact(p, &parm);
  }
  if (exact_rc == GLP_EITLIM || exact_rc == GLP_ETMLIM) throw limit_error("exact simplex", exact_rc);
  if (exact_rc != 0) {
    throw SolverError(fmt::format("LP with {} rows and {} columns: GLPK cannot solve it (simplex: {}; exact simplex: {})",
                                  lp_.num_constraints(), lp_.num_variables(), rc == 0 ? "ok" : glpk_reason(rc),
                                  glpk_reason(exact_rc)));
  }
  switch (glp_get_status(p)) {
    case GLP_OPT:
      if (const auto why = certify()) {
        throw SolverError(fmt::format("LP with {} rows and {} columns: GLPK's optimal basis fails the exact optimality "
                                      "check ({})",
                                      lp_.num_constraints(), lp_.num_variables(), *why));
      }
      return status_ = Status::OPTIMAL;
    case GLP_NOFEAS: return status_ = Status::INFEASIBLE;
    case GLP_UNBND: return status_ = Status::UNBOUNDED;
    default:
      throw SolverError(fmt::format("LP with {} rows and {} columns: GLPK's exact simplex ended with status {} (expected "
                                    "optimal, infeasible or unbounded)",
                                    lp_.num_constraints(), lp_.num_variables(), glp_get_status(p)));
  }
}

}  // namespace starnet::algorithms::steady_state

#pragma once
/// @file
/// Linear programs with exact rational data, solved with GLPK and certified in exact arithmetic.
///
/// Problem (P):  maximise c·x  subject to  a_i·x (≤ | = | ≥) b_i for every row i,  x ≥ 0.
/// Dual (D):     minimise b·y  subject to  Σ_i a_ij·y_i ≥ c_j for every column j, with
///               y_i ≥ 0 on ≤ rows, y_i free on = rows, y_i ≤ 0 on ≥ rows.
/// By weak duality a pair (x, y) with x feasible for P, y feasible for D and c·x = b·y proves x
/// optimal: check_optimality() checks exactly that, in GMP rationals.
///
/// Method (ExactLpSolver): GLPK's floating-point simplex (glp_simplex) finds a basis; the basic
/// solution of that basis is rebuilt in rationals by a sparse LU of the basis matrix B
/// (x_B = B⁻¹b, y = c_B·B⁻¹) and certified. When the floating-point basis is not exactly
/// optimal, GLPK's exact simplex (glp_exact) continues from it and the rebuild is repeated.
/// GLPK receives every row multiplied by the lcm of its denominators (and c by the lcm of its
/// own), so its data is the exact LP whenever those integers have at most 53 bits; then the
/// INFEASIBLE / UNBOUNDED verdicts of glp_exact are exact too (data_exact_in_glpk()).
///
/// Complexity: the simplex is exponential in the worst case and fast in practice; the rebuild is
/// one sparse LU (Markowitz pivoting) of the m×m basis, m = number of rows, in GMP rationals.
///
/// IMPORTANT: only OPTIMAL carries a certificate. INFEASIBLE and UNBOUNDED are glp_exact's
/// verdicts and are not re-checked (no Farkas ray or unbounded ray is produced).

#include <gmpxx.h>

#include <string>
#include <utility>
#include <vector>

namespace starnet::algorithms::steady_state {

/// Outcome of a linear program.
enum class Status { OPTIMAL, INFEASIBLE, UNBOUNDED };
/// "OPTIMAL", "INFEASIBLE" or "UNBOUNDED".
[[nodiscard]] std::string to_string(Status status);

/// The relation of a row: a_i·x ≤ b_i, = b_i or ≥ b_i.
enum class Sense { LESS_EQUAL, EQUAL, GREATER_EQUAL };

/// A maximisation LP over x ≥ 0 with exact rational data, stored row-wise and sparse.
class LinearProgram {
 public:
  using Row = std::vector<std::pair<int, mpq_class>>;

  /// Adds a column x_j ≥ 0 with objective coefficient @p objective. @return j.
  int add_variable(std::string name, mpq_class objective = 0);
  /// Adds a row a_i·x (sense) @p rhs with no coefficients yet. @return i.
  int add_constraint(std::string name, Sense sense, mpq_class rhs);
  /// Sets a_{row,col} = @p value (zero values are dropped).
  /// @pre each (row, col) is set at most once (ExactLpSolver::run throws InputError otherwise).
  /// @throws InputError naming the index when @p row or @p col does not exist.
  void set_coefficient(int row, int col, mpq_class value);

  [[nodiscard]] int num_variables() const { return static_cast<int>(objective_.size()); }
  [[nodiscard]] int num_constraints() const { return static_cast<int>(rows_.size()); }
  [[nodiscard]] const std::string& variable_name(int col) const { return variable_names_[col]; }
  [[nodiscard]] const std::string& constraint_name(int row) const { return constraint_names_[row]; }
  [[nodiscard]] const mpq_class& objective(int col) const { return objective_[col]; }
  [[nodiscard]] Sense sense(int row) const { return senses_[row]; }
  [[nodiscard]] const mpq_class& rhs(int row) const { return rhs_[row]; }
  /// The nonzero coefficients (column, value) of row @p row, in insertion order.
  [[nodiscard]] const Row& row(int row) const { return rows_[row]; }

 private:
  std::vector<std::string> variable_names_;
  std::vector<mpq_class> objective_;
  std::vector<std::string> constraint_names_;
  std::vector<Sense> senses_;
  std::vector<mpq_class> rhs_;
  std::vector<Row> rows_;
};

/// Result of an exact check: ok, or the first violation found, named.
struct CertificateCheck {
  bool ok = true;
  std::string failure;
  explicit operator bool() const { return ok; }
};

/// Checks, in exact rational arithmetic, that @p x is feasible for the LP, that @p y is feasible
/// for its dual (see the file comment for the sign conventions) and that c·x = b·y.
/// @param x one value per column; @param y one value per row.
/// @return ok, or the first violated bound, row, dual row or the two objective values.
/// Complexity: O(nonzeros) rational operations.
[[nodiscard]] CertificateCheck check_optimality(const LinearProgram& lp, const std::vector<mpq_class>& x,
                                                const std::vector<mpq_class>& y);

/// Solves a LinearProgram exactly (method in the file comment).
///
/// Usage:
/// @code
///   ExactLpSolver solver(lp);
///   if (solver.run() == Status::OPTIMAL) use(solver.objective(), solver.primal());
/// @endcode
class ExactLpSolver {
 public:
  /// Holds a reference: @p lp must outlive the solver.
  explicit ExactLpSolver(const LinearProgram& lp);

  /// Simplex iteration limit given to GLPK (0: none). Reaching it throws SolverError.
  ExactLpSolver& iteration_limit(int limit);
  /// Time limit in milliseconds given to GLPK (0: none). Reaching it throws SolverError.
  ExactLpSolver& time_limit_ms(int milliseconds);

  /// Solves the LP. GLPK's terminal output is switched off.
  /// @return the status (also available from status()).
  /// @throws InputError when a coefficient is set twice in one row.
  /// @throws SolverError saying why when GLPK fails (limit reached, singular basis, …) or when
  ///   not even glp_exact's basis passes the exact optimality check.
  Status run();

  /// @pre run() returned.
  [[nodiscard]] Status status() const { return status_; }
  /// The optimal objective c·x. @pre status() == OPTIMAL.
  [[nodiscard]] const mpq_class& objective() const { return objective_; }
  /// An optimal x, one value per column. @pre status() == OPTIMAL.
  [[nodiscard]] const std::vector<mpq_class>& primal() const { return primal_; }
  /// An optimal dual y, one value per row, certifying primal(). @pre status() == OPTIMAL.
  [[nodiscard]] const std::vector<mpq_class>& dual() const { return dual_; }
  /// True when check_optimality(lp, primal(), dual()) passed. @pre run() returned.
  [[nodiscard]] bool certified() const { return certified_; }
  /// True when GLPK's exact simplex had to be run after the floating-point one.
  [[nodiscard]] bool used_exact_simplex() const { return used_exact_simplex_; }
  /// True when GLPK's double-precision copy of the scaled LP is exact (see the file comment).
  [[nodiscard]] bool data_exact_in_glpk() const { return data_exact_; }

 private:
  const LinearProgram& lp_;
  int iteration_limit_ = 0;
  int time_limit_ms_ = 0;
  Status status_ = Status::INFEASIBLE;
  mpq_class objective_;
  std::vector<mpq_class> primal_;
  std::vector<mpq_class> dual_;
  bool certified_ = false;
  bool used_exact_simplex_ = false;
  bool data_exact_ = true;
};

}  // namespace starnet::algorithms::steady_state

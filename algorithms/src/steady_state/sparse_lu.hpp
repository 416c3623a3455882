#pragma once
// Sparse LU factorisation of a square matrix over the rationals (internal to steady_state).
//
// Gaussian elimination with Markowitz pivoting (a column of fewest active nonzeros, then in it
// the shortest row), exact in GMP rationals, so "singular" is a fact, not a tolerance. One
// factorisation answers both B·x = b (primal basic solution) and Bᵀ·y = c (dual prices).
//
// Complexity: O(Σ_steps |pivot column| · |pivot row|) rational operations plus fill-in; the
// basis matrices of the steady-state LPs (network rows, one-port rows) stay close to their
// original sparsity.
//
// IMPORTANT: the matrix is given column-wise and must be square; entries with value 0 must not
// be given.

#include <gmpxx.h>

#include <optional>
#include <utility>
#include <vector>

namespace starnet::algorithms::steady_state::detail {

class SparseLu {
 public:
  using Column = std::vector<std::pair<int, mpq_class>>;  // (row, value), nonzero values

  /// Factorises the n×n matrix whose column j is columns[j].
  /// @return false when the matrix is singular.
  bool factorize(int n, const std::vector<Column>& columns);

  /// x with B·x = rhs. @pre factorize() returned true.
  [[nodiscard]] std::vector<mpq_class> solve(std::vector<mpq_class> rhs) const;
  /// y with Bᵀ·y = rhs. @pre factorize() returned true.
  [[nodiscard]] std::vector<mpq_class> solve_transposed(const std::vector<mpq_class>& rhs) const;

 private:
  struct Step {
    int row = 0;                                   // pivot row r_p
    int col = 0;                                   // pivot column c_p
    std::vector<std::pair<int, mpq_class>> upper;  // row r_p when pivoted: (column, value)
    std::vector<std::pair<int, mpq_class>> lower;  // (row i, f): row_i -= f·row_{r_p}
  };
  int n_ = 0;
  std::vector<Step> steps_;
};

}  // namespace starnet::algorithms::steady_state::detail

#include "sparse_lu.hpp"

#include <algorithm>
#include <set>

namespace starnet::algorithms::steady_state::detail {
namespace {

using Entries = std::vector<std::pair<int, mpq_class>>;

const mpq_class* find_entry(const Entries& row, int col) {
  const auto it = std::lower_bound(row.begin(), row.end(), col, [](const auto& e, int c) { return e.first < c; });
  return it != row.end() && it->first == col ? &it->second : nullptr;
}

}  // namespace

bool SparseLu::factorize(int n, const std::vector<Column>& columns) {
  n_ = n;
  steps_.clear();
  std::vector<Entries> rows(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    for (const auto& [i, v] : columns[static_cast<std::size_t>(j)]) rows[static_cast<std::size_t>(i)].emplace_back(j, v);
  }
  // col_rows may hold stale rows (eliminated, or whose entry cancelled); col_count is exact.
  std::vector<std::vector<int>> col_rows(static_cast<std::size_t>(n));
  std::vector<int> col_count(static_cast<std::size_t>(n), 0);
  for (int i = 0; i < n; ++i) {
    auto& row = rows[static_cast<std::size_t>(i)];
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [j, v] : row) {
      col_rows[static_cast<std::size_t>(j)].push_back(i);
      ++col_count[static_cast<std::size_t>(j)];
    }
  }
  std::set<std::pair<int, int>> by_count;  // (active nonzeros, column) over active columns
  for (int j = 0; j < n; ++j) by_count.emplace(col_count[static_cast<std::size_t>(j)], j);
  const auto recount = [&](int j, int delta) {
    auto& count = col_count[static_cast<std::size_t>(j)];
    by_count.erase({count, j});
    count += delta;
    by_count.emplace(count, j);
  };
  std::vector<char> row_active(static_cast<std::size_t>(n), 1);
  std::vector<int> seen(static_cast<std::size_t>(n), -1);

  for (int p = 0; p < n; ++p) {
    const auto [count, c] = *by_count.begin();
    by_count.erase(by_count.begin());
    if (count == 0) return false;
    std::vector<int> candidates;
    int pivot_row = -1;
    for (const int i : col_rows[static_cast<std::size_t>(c)]) {
      if (!row_active[static_cast<std::size_t>(i)] || seen[static_cast<std::size_t>(i)] == p) continue;
      if (find_entry(rows[static_cast<std::size_t>(i)], c) == nullptr) continue;
      seen[static_cast<std::size_t>(i)] = p;
      candidates.push_back(i);
      if (pivot_row < 0 || rows[static_cast<std::size_t>(i)].size() < rows[static_cast<std::size_t>(pivot_row)].size()) {
        pivot_row = i;
      }
    }
    Step step;
    step.row = pivot_row;
    step.col = c;
    row_active[static_cast<std::size_t>(pivot_row)] = 0;
    const Entries& prow = rows[static_cast<std::size_t>(pivot_row)];
    for (const auto& [j, v] : prow) {
      if (j != c) recount(j, -1);
    }
    const mpq_class pivot = *find_entry(prow, c);
    for (const int i : candidates) {
      if (i == pivot_row) continue;
      Entries& row = rows[static_cast<std::size_t>(i)];
      const mpq_class f = *find_entry(row, c) / pivot;
      Entries merged;
      merged.reserve(row.size() + prow.size());
      std::size_t a = 0;
      std::size_t b = 0;
      while (a < row.size() || b < prow.size()) {
        if (b == prow.size() || (a < row.size() && row[a].first < prow[b].first)) {
          merged.push_back(std::move(row[a++]));
        } else if (a == row.size() || prow[b].first < row[a].first) {
          const int j = prow[b].first;
          merged.emplace_back(j, -f * prow[b].second);
          recount(j, +1);
          col_rows[static_cast<std::size_t>(j)].push_back(i);
          ++b;
        } else {
          const int j = row[a].first;
          mpq_class value = row[a].second - f * prow[b].second;
          ++a;
          ++b;
          if (j == c) continue;  // eliminated
          if (value == 0) {
            recount(j, -1);
          } else {
            merged.emplace_back(j, std::move(value));
          }
        }
      }
      row = std::move(merged);
      step.lower.emplace_back(i, f);
    }
    step.upper = prow;
    steps_.push_back(std::move(step));
  }
  return true;
}

std::vector<mpq_class> SparseLu::solve(std::vector<mpq_class> rhs) const {
  for (const auto& step : steps_) {
    const mpq_class& pivot_value = rhs[static_cast<std::size_t>(step.row)];
    if (pivot_value == 0) continue;
    for (const auto& [i, f] : step.lower) rhs[static_cast<std::size_t>(i)] -= f * pivot_value;
  }
  std::vector<mpq_class> x(static_cast<std::size_t>(n_));
  for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) {
    mpq_class sum = rhs[static_cast<std::size_t>(it->row)];
    const mpq_class* pivot = nullptr;
    for (const auto& [j, v] : it->upper) {
      if (j == it->col) {
        pivot = &v;
      } else {
        sum -= v * x[static_cast<std::size_t>(j)];
      }
    }
    x[static_cast<std::size_t>(it->col)] = sum / *pivot;
  }
  return x;
}

std::vector<mpq_class> SparseLu::solve_transposed(const std::vector<mpq_class>& rhs) const {
  std::vector<mpq_class> acc = rhs;  // indexed by column
  std::vector<mpq_class> y(static_cast<std::size_t>(n_));
  for (const auto& step : steps_) {
    const mpq_class* pivot = find_entry(step.upper, step.col);
    mpq_class z = acc[static_cast<std::size_t>(step.col)] / *pivot;
    if (z != 0) {
      for (const auto& [j, v] : step.upper) {
        if (j != step.col) acc[static_cast<std::size_t>(j)] -= v * z;
      }
    }
    y[static_cast<std::size_t>(step.row)] = std::move(z);
  }
  for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) {
    mpq_class sum = 0;
    for (const auto& [i, f] : it->lower) sum += f * y[static_cast<std::size_t>(i)];
    y[static_cast<std::size_t>(it->row)] -= sum;
  }
  return y;
}

}  // namespace starnet::algorithms::steady_state::detail

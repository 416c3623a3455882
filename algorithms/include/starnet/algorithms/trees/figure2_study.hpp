#pragma once
/// @file
/// The study of Figure 2 of Canon and Antoniu (RR-7898, 2012, Section 7.3): for 2 ≤ n ≤ N, the
/// ratio of the binomial strategy's length to the optimum when d = c, and of the Fibonacci
/// strategy's length to the optimum when min(d, c) = 0, exactly.
///
/// Ratios do not depend on the scale of the costs, so d = c = 1 and (d, c) = (1, 0) are used;
/// by the symmetry of Proposition 3 in d and c, (0, 1) gives the same lengths as (1, 0).
/// Every tree involved is built by Algorithm 1, whose tree for n is the first n machines of its
/// tree for N, so each length is the Proposition 3 length of a prefix, updated incrementally
/// (prefix_lengths()). Complexity: O(N log² N) for trees of logarithmic depth and degree, as
/// Algorithm 1's are; O(N²) in the worst case.
///
/// IMPORTANT: the figure itself is lost in the text copy of the paper; the study reproduces the
/// computation it describes, not its pixels. Ties in Algorithm 1 go to the smaller machine index.

#include <starnet/algorithms/trees/plan.hpp>
#include <starnet/algorithms/trees/reduction_plan.hpp>

#include <span>
#include <string>
#include <vector>

namespace starnet::algorithms::trees {

/// The Proposition 3 length of every prefix of a tree: element m − 1 is the length of the
/// reduction on machines 0..m−1 alone.
/// @param parent parent[0] = −1 and 0 ≤ parent[i] < i (insertion order, as GreedyTree has it).
/// @throws ScheduleError naming the machine when @p parent is not in insertion order.
[[nodiscard]] std::vector<Rational> prefix_lengths(std::span<const int> parent, const CostModel& model);

/// The rows n = 2..max_n. Usage: `for (const auto& row : figure2_study(10000)) …`
/// @throws ScheduleError naming max_n when it is below 2.
[[nodiscard]] std::vector<Figure2Row> figure2_study(int max_n);

/// The rows as CSV with a header line: exact lengths and ratios ("7/5"), and the ratios as
/// decimals for plotting.
[[nodiscard]] std::string figure2_csv(std::span<const Figure2Row> rows);

}  // namespace starnet::algorithms::trees

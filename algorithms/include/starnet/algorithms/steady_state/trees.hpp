#pragma once
/// @file
/// Reduction trees and their extraction from an integer solution A.
///
/// Paper: Legrand, Marchal, Robert 2004, Section 4.3 (Definition 1: a reduction tree is a list
/// of tasks such that every input of a task is the result of another task of the list or a
/// leaf) and Section 4.4 (Figure 8, FIND_TREE / EXTRACT_TREES; Theorem 1: Σ w(T)·χ_T = A with
/// polynomially many trees). The same code serves the three problems of problem.hpp: a tree
/// ends in one sink, so for a scatter or gossip it is the route (a path) of one message type.
///
/// Gap in the paper, closed here: FIND_TREE follows any task with A > 0 backwards, so a
/// circulation in A (e.g. send(P1 → P2, v) and send(P2 → P1, v), which an optimal LP vertex may
/// contain when the ports have spare capacity) makes it loop forever, and EXTRACT_TREES stops at
/// Σ w = TP·T with the circulation left over, so Σ w(T)·χ_T ≠ A. cancel_circulations() removes
/// them first (it only lowers link usage); afterwards every task is used by some tree, and
/// since a computation's result is a strictly longer interval than its inputs, FIND_TREE always
/// ends at leaves. A tree then uses each task at most once, so χ_T is 0/1.
///
/// Complexity: cancel_circulations O(types·|E|·(V + E)); extract_trees O(#trees·|tree|), with
/// #trees ≤ number of tasks with A > 0 (each tree zeroes at least one).
///
/// IMPORTANT: extract_trees() requires an A that satisfies the conservation law and has no
/// circulation; it throws ScheduleError naming the location where that fails.

#include <starnet/algorithms/steady_state/exact_lp.hpp>
#include <starnet/algorithms/steady_state/problem.hpp>

#include <gmpxx.h>

#include <array>
#include <vector>

namespace starnet::algorithms::steady_state {

/// A reduction tree (or route) T with its weight w(T): T is used w(T) times per period.
struct WeightedTree {
  mpz_class weight;
  int sink = 0;            ///< index into problem.sinks() of the location T delivers
  std::vector<int> tasks;  ///< task indices, the task producing the sink first
  /// producers[p][k]: position in `tasks` of the task producing input k of tasks[p], -1 for a leaf
  /// (k = 0 only for a send; 0 = left and 1 = right input of a computation).
  std::vector<std::array<int, 2>> producers;
};

/// Subtracts every circulation of sends of one message type from @p amounts (one value per
/// task of @p problem). Conservation and sink inflows are unchanged; no amount increases.
void cancel_circulations(const SteadyStateProblem& problem, std::vector<mpz_class>& amounts);

/// EXTRACT_TREES (Figure 8): for every sink, repeatedly FIND_TREE from it through tasks with a
/// positive remaining amount (a computation before a transfer, as in the paper), weigh it by the
/// smallest remaining amount of its tasks and subtract, until @p per_sink operations are
/// covered.
/// @param amounts tasks per period, conserved and without circulation (see the file comment).
/// @param per_sink TP·T, the operations per period every sink receives.
/// @throws ScheduleError naming the location when a FIND_TREE step finds no producer or meets a
///   circulation.
[[nodiscard]] std::vector<WeightedTree> extract_trees(const SteadyStateProblem& problem, std::vector<mpz_class> amounts,
                                                      const mpz_class& per_sink);

/// Checks that every tree is a valid tree of @p problem (Definition 1: each input produced by
/// the recorded task of the tree or a leaf; the first task produces the tree's sink; each task
/// once), that weights are positive and that Σ_T w(T)·χ_T = @p amounts exactly.
[[nodiscard]] CertificateCheck check_trees(const SteadyStateProblem& problem, const std::vector<WeightedTree>& trees,
                                           const std::vector<mpz_class>& amounts);

/// Start period of every task of @p tree (same positions as tree.tasks): 0 when all its inputs
/// are leaves, else one more than the latest producer of an input — a message received or
/// computed in period p is used from period p + 1 on (Section 3.4's buffers).
[[nodiscard]] std::vector<int> start_periods(const WeightedTree& tree);

}  // namespace starnet::algorithms::steady_state

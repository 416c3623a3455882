#pragma once
/// @file
/// Reduction plans: the static schedule of an associative reduction on n machines.
///
/// Problem: n machines each hold one element v_i; combine them into v_0 ⊕ v_1 ⊕ … ⊕ v_(n−1)
/// on one machine (the root) with an associative, not necessarily commutative, operator ⊕.
/// Paper: L.-C. Canon, G. Antoniu, "Scheduling Associative Reductions with Homogeneous Costs
/// when Overlapping Communications and Computations", INRIA RR-7898, 2012. Section 3 (model),
/// Section 4.1 (placement for non-commutative operators), Propositions 2–3 (transfer times).
///
/// The model (Section 3.1): a transfer of one element between any two machines takes d, one
/// reduction of two elements takes c (both exact rationals ≥ 0). A machine takes part in at most
/// one transfer at a time (one-port, sending or receiving), and a reduction overlaps the next
/// transfer. A machine reduces what it receives into its own partial result, one element after
/// the other; once its partial result is complete it sends it to its parent.
///
/// Notation departing from the paper: the paper grows its tree from the sink in reversed time and
/// calls the machine that *receives* i's data "the child c_i" of i. Here, as in MPI, the receiver
/// is the *parent* and the senders are its *children*. Machines are numbered from 0; the root is 0.
///
/// IMPORTANT: a plan states when each transfer starts; plan_at() and the validator check that
/// those times are feasible, but nothing here runs a plan on the emulator.

#include <starnet/core/error.hpp>
#include <starnet/core/rational.hpp>

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace starnet::algorithms::trees {

/// The homogeneous costs of Section 3.1.
class CostModel {
 public:
  /// @param d time to transfer one element between any two machines (≥ 0).
  /// @param c time to reduce two elements into one (≥ 0).
  /// @throws ScheduleError naming d or c and its value when it is negative.
  CostModel(Rational d, Rational c);

  [[nodiscard]] const Rational& d() const { return d_; }
  [[nodiscard]] const Rational& c() const { return c_; }
  /// max(d, c): the period of a machine that keeps receiving and reducing (Section 3.1).
  [[nodiscard]] const Rational& max_cost() const { return d_ < c_ ? c_ : d_; }
  [[nodiscard]] const Rational& min_cost() const { return d_ < c_ ? d_ : c_; }

 private:
  Rational d_;
  Rational c_;
};

/// One transfer of a partial result from a child to its parent.
struct Transfer {
  int from = 0;    ///< the sender (a child)
  int to = 0;      ///< the receiver, parent[from]
  Rational start;  ///< the transfer occupies [start, start + d)
  friend bool operator==(const Transfer&, const Transfer&) = default;
};

/// The limits of Section 6 a plan was built to respect (the validator checks them).
struct PlanLimits {
  std::optional<int> max_concurrent_transfers;  ///< Section 6.1's K
  std::optional<int> max_reducers;              ///< Section 6.2's K: machines that receive
};

/// A static reduction schedule; what the emulator's generic node program executes.
///
/// Execution semantics (the contract a run on the emulator must reproduce exactly):
/// - machine i holds v_i at time 0;
/// - the transfer of machine i ≠ root to parent[i] starts exactly at its `start` (the sender
///   waits until then) and lasts d; during it both machines take part in no other transfer;
/// - machine i reduces the partial results of children[i] in that order, acc ← acc ⊕ received
///   (the received value on the right), each reduction starting as soon as that element has
///   arrived and the previous reduction has ended, and lasting c; reductions overlap transfers;
/// - a machine's partial result is complete when its last reduction ends (at time 0 for a leaf),
///   and its transfer never starts before that;
/// - `length` is the time the root's last reduction ends (0 when n = 1).
///
/// Placement (Section 4.1): machine ids are a pre-order of the tree in which children are
/// visited in reception order, so the subtree of i is the id range [i, i + size(i)) and the
/// subtree of children[i][j] follows that of children[i][j−1]. Every reduction therefore
/// combines neighbouring ranges, and the root ends with v_0 ⊕ … ⊕ v_(n−1) for any associative ⊕
/// (see combine()). The root is machine 0.
struct ReductionPlan {
  std::string algorithm;                   ///< what built the plan, e.g. "greedy"
  CostModel model{0, 0};                   ///< d and c
  int root = 0;                            ///< the sink: machine 0
  std::vector<int> parent;                 ///< parent[i], and parent[root] = −1
  std::vector<std::vector<int>> children;  ///< children[i] in the order i receives from them
  std::vector<Transfer> transfers;         ///< n − 1 transfers, sorted by (start, from)
  Rational length;                         ///< predicted time at which the reduction ends
  PlanLimits limits;                       ///< limits the plan was built to respect

  /// @return the number of machines n.
  [[nodiscard]] int n() const { return static_cast<int>(parent.size()); }
};

/// Transfer start times of Proposition 3 at one receiver: the senders, ready at @p ready_sorted
/// (ascending), are received in that order, each as soon as it is ready and the previous
/// reception has ended: s_1 = r_1, s_j = max(r_j, s_(j−1) + d).
/// @param starts receives s_j; @pre starts.size() == ready_sorted.size(). O(m).
void asap_starts(std::span<const Rational> ready_sorted, const CostModel& model, std::span<Rational> starts);

/// When a machine's partial result is complete if it receives transfers starting at
/// @p starts_in_order (its reception order) and reduces each element on arrival:
/// f_0 = 0, f_j = max(f_(j−1), s_j + d) + c. With asap_starts() this is Proposition 3's
/// t_i = max_j (t^j + d + (m − j)·max(d, c) + c), t^j the j-th *smallest* ready time. O(m).
[[nodiscard]] Rational completion_time(std::span<const Rational> starts_in_order, const CostModel& model);

/// Builds the plan of a tree whose transfers start as Proposition 3 sets them: every machine
/// receives its children in the order they become ready (ties by smaller label in @p parent)
/// and each transfer starts as soon as the sender is ready and the receiver free.
/// Machines are then renumbered into the placement documented on ReductionPlan.
///
/// Usage: `auto plan = plan_asap("mine", CostModel(3, 2), std::vector<int>{-1, 0, 0});`
///
/// @param algorithm recorded in the plan.
/// @param parent any labelling 0..n−1 of a rooted tree; the root's entry is −1.
/// @param limits recorded in the plan (not enforced here; check_plan() checks them).
/// @return the plan. O(n log n) time, O(n) memory.
/// @throws ScheduleError naming the machine when @p parent is not one rooted tree on 0..n−1
///   (n ≥ 1).
[[nodiscard]] ReductionPlan plan_asap(std::string algorithm, const CostModel& model, std::span<const int> parent,
                                      PlanLimits limits = {});

/// Builds the plan of a tree with explicit transfer start times (Algorithm 2 sets its own).
/// Each machine receives in the order of the start times (ties by smaller label).
/// @param start start[i] of the transfer from i to parent[i]; the root's entry is ignored.
/// @return the plan, renumbered into the placement, its length recomputed from the times.
///   O(n log n).
/// @throws ScheduleError naming the machine when @p parent is not a rooted tree, when the
///   sizes differ, or when the times are not feasible in the model (check_plan()'s message).
[[nodiscard]] ReductionPlan plan_at(std::string algorithm, const CostModel& model, std::span<const int> parent,
                                    std::span<const Rational> start, PlanLimits limits = {});

/// Evaluates a plan sequentially with an associative operator: every machine folds, in its
/// reception order, acc ← op(acc, result of child). This is the value a run of the plan
/// produces; with the placement it equals v_0 ⊕ … ⊕ v_(n−1) (tests check it with string
/// concatenation). Independent of the times; the order comes from `children` alone.
/// @param values v_0 … v_(n−1); moved from.
/// @param op any associative binary operator T(T, T).
/// @throws ScheduleError when values.size() ≠ n or `children` is not a tree from the root.
/// O(n) applications of @p op.
template <class T, class Op>
[[nodiscard]] T combine(const ReductionPlan& plan, std::vector<T> values, Op op) {
  const auto n = plan.parent.size();
  if (values.size() != n || plan.children.size() != n || plan.root < 0 || static_cast<std::size_t>(plan.root) >= n) {
    throw ScheduleError("combine: " + std::to_string(values.size()) + " values for a plan on " + std::to_string(n) +
                        " machines (expected one value per machine)");
  }
  std::vector<int> order{plan.root};  // breadth-first: every parent before its children
  order.reserve(n);
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (const int child : plan.children[order[i]]) {
      if (child < 0 || static_cast<std::size_t>(child) >= n || order.size() == n) {
        throw ScheduleError("combine: the children lists are not a tree from root " + std::to_string(plan.root));
      }
      order.push_back(child);
    }
  }
  if (order.size() != n) {
    throw ScheduleError("combine: only " + std::to_string(order.size()) + " of " + std::to_string(n) +
                        " machines are reachable from root " + std::to_string(plan.root));
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    for (const int child : plan.children[*it]) values[*it] = op(std::move(values[*it]), std::move(values[child]));
  }
  return std::move(values[plan.root]);
}

}  // namespace starnet::algorithms::trees

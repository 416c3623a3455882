#pragma once
/// @file
/// Checks a reduction plan against the model, whatever built it.
///
/// Problem: given a ReductionPlan (tree, reception orders, transfer start times, predicted
/// length), decide whether it can run as stated in the model of Canon and Antoniu (RR-7898,
/// 2012, Section 3): one transfer at a time per machine, a transfer only once the sender's own
/// partial result is complete (Proposition 2), the placement of Section 4.1, the limits of
/// Section 6; and recompute its length from the transfer times alone.
/// Complexity: O(n log n) time, O(n) memory.
///
/// IMPORTANT: the validator trusts no field derived by the planner (reception orders are checked
/// against the times, the length is recomputed); it does not decide whether a plan is optimal.

#include <starnet/algorithms/trees/plan.hpp>
#include <starnet/algorithms/trees/reduction_plan.hpp>

#include <string>

namespace starnet::algorithms::trees {

/// Checks, in this order: that parent/children/transfers describe one tree rooted at `root`
/// with one transfer per non-root machine, listed by (start, from); the placement (pre-order ids, children in reception
/// order, root 0); that each machine's children are listed in the order of their start times;
/// that no machine takes part in two overlapping transfers; that every transfer starts once its
/// sender's partial result is complete; that `length` equals the recomputed length; and the
/// plan's limits on concurrent transfers and reducers.
/// @return the verdict; never throws on a malformed plan.
[[nodiscard]] PlanCheck check_plan(const ReductionPlan& plan);

}  // namespace starnet::algorithms::trees

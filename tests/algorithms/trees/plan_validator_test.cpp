#include "tree_test_support.hpp"

#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/plan_validator.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace starnet::algorithms::trees {
namespace {

/// Restores the listing order of transfers, (start, from), after an edit of times or ids.
void resort(ReductionPlan& plan) {
  std::sort(plan.transfers.begin(), plan.transfers.end(), [](const Transfer& a, const Transfer& b) {
    return a.start != b.start ? a.start < b.start : a.from < b.from;
  });
}

/// The plan of Algorithm 1 for n = 5, d = 2, c = 1, broken by @p edit (transfers re-sorted
/// unless @p keep_order); the verdict must be invalid with a problem mentioning @p word.
void expect_rejected(const std::function<void(ReductionPlan&)>& edit, const std::string& word, bool keep_order = false) {
  ReductionPlan plan = greedy_plan(5, CostModel(2, 1));
  ASSERT_TRUE(check_plan(plan).valid) << check_plan(plan).problem;
  edit(plan);
  if (!keep_order) resort(plan);
  const PlanCheck check = check_plan(plan);
  EXPECT_FALSE(check.valid) << "accepted a plan that should mention \"" << word << "\"";
  EXPECT_NE(check.problem.find(word), std::string::npos) << check.problem;
}

Transfer& transfer_from(ReductionPlan& plan, int machine) {
  for (Transfer& t : plan.transfers) {
    if (t.from == machine) return t;
  }
  throw std::logic_error("no transfer");
}

TEST(PlanValidator, AcceptsAndMeasuresAGreedyPlan) {
  const ReductionPlan plan = greedy_plan(5, CostModel(2, 1));
  const PlanCheck check = check_plan(plan);
  EXPECT_TRUE(check.valid) << check.problem;
  EXPECT_EQ(check.length, plan.length);
  EXPECT_GE(check.reducers, 1);
  EXPECT_GE(check.max_concurrent_transfers, 1);
}

TEST(PlanValidator, SingleMachine) {
  const ReductionPlan plan = greedy_plan(1, CostModel(2, 1));
  const PlanCheck check = check_plan(plan);
  EXPECT_TRUE(check.valid) << check.problem;
  EXPECT_EQ(check.length, 0);
  EXPECT_EQ(check.reducers, 0);
}

TEST(PlanValidator, RejectsOverlappingTransfers) {
  // Machine 0 receives from its first two children; start the second with the first.
  expect_rejected(
      [](ReductionPlan& p) {
        transfer_from(p, p.children[0][1]).start = transfer_from(p, p.children[0][0]).start;
      },
      "overlap");
}

TEST(PlanValidator, RejectsSendingBeforeTheResultIsComplete) {
  expect_rejected(
      [](ReductionPlan& p) {  // the root's last sender has a child: delay that child's transfer by d
        const auto busy = static_cast<std::size_t>(p.children[0].back());
        ASSERT_FALSE(p.children[busy].empty());
        transfer_from(p, p.children[busy][0]).start += 2;
      },
      "complete only at");
}

TEST(PlanValidator, RejectsAWrongLength) {
  expect_rejected([](ReductionPlan& p) { p.length = p.length + 1; }, "states length");
}

TEST(PlanValidator, RejectsChildrenOutOfReceptionOrder) {
  expect_rejected(  // the root's first two senders are leaves: swap their start times
      [](ReductionPlan& p) {
        std::swap(transfer_from(p, p.children[0][0]).start, transfer_from(p, p.children[0][1]).start);
      },
      "order of their transfers");
}

TEST(PlanValidator, RejectsIdsThatBreakThePlacement) {
  // Swap the ids of two leaves under different parents: the schedule stays feasible, but the
  // root would no longer combine v_0 ⊕ … ⊕ v_3 in order.
  ReductionPlan plan = plan_asap("x", CostModel(1, 1), std::vector<int>{-1, 0, 1, 0});
  ASSERT_EQ(plan.parent, (std::vector<int>{-1, 0, 0, 2}));
  const std::vector<int> swap13{0, 3, 2, 1};
  const auto to = [&](int v) { return v < 0 ? v : swap13[static_cast<std::size_t>(v)]; };
  ReductionPlan swapped = plan;
  for (int v = 0; v < 4; ++v) {
    swapped.parent[static_cast<std::size_t>(to(v))] = to(plan.parent[static_cast<std::size_t>(v)]);
    auto& kids = swapped.children[static_cast<std::size_t>(to(v))];
    kids.clear();
    for (const int c : plan.children[static_cast<std::size_t>(v)]) kids.push_back(to(c));
  }
  for (Transfer& t : swapped.transfers) t = {to(t.from), to(t.to), t.start};
  resort(swapped);
  const PlanCheck check = check_plan(swapped);
  EXPECT_FALSE(check.valid);
  EXPECT_NE(check.problem.find("placement"), std::string::npos) << check.problem;
  EXPECT_FALSE(testing::combines_in_order(swapped));
}

TEST(PlanValidator, RejectsUnsortedTransfers) {
  expect_rejected([](ReductionPlan& p) { std::swap(p.transfers.front(), p.transfers.back()); }, "sorted by start",
                  /*keep_order=*/true);
}

TEST(PlanValidator, RejectsBrokenTrees) {
  expect_rejected([](ReductionPlan& p) { p.transfers.pop_back(); }, "transfers for 5 machines");
  expect_rejected([](ReductionPlan& p) { p.transfers[0].to = p.transfers[0].from; }, "to its parent");
  expect_rejected([](ReductionPlan& p) { p.children[0].pop_back(); }, "missing from the children");
  expect_rejected([](ReductionPlan& p) { p.root = 1; }, "root 1");
  expect_rejected([](ReductionPlan& p) { p.children.pop_back(); }, "children lists");
  expect_rejected(
      [](ReductionPlan& p) {  // a two-machine cycle beside the root
        p.parent = {-1, 2, 1, 0, 0};
        p.children = {{3, 4}, {2}, {1}, {}, {}};
        for (Transfer& t : p.transfers) t.to = p.parent[static_cast<std::size_t>(t.from)];
      },
      "cycle");
}

TEST(PlanValidator, RejectsAParentThatIsNoOtherMachine) {
  expect_rejected(
      [](ReductionPlan& p) {  // the root's last child, unlisted and made its own parent
        const int v = p.children[0].back();
        p.children[0].pop_back();
        p.parent[static_cast<std::size_t>(v)] = v;
      },
      "has parent");
  EXPECT_EQ(check_plan(ReductionPlan{}).problem, "the plan has no machine (expected n >= 1)");
}

TEST(PlanValidator, RejectsASoundTreeWhoseRootIsNot0) {
  // Machine 0 sends to root 1: one tree, one transfer, but not the placement.
  ReductionPlan plan = plan_asap("x", CostModel(1, 1), std::vector<int>{-1, 0});
  plan.root = 1;
  plan.parent = {1, -1};
  plan.children = {{}, {0}};
  plan.transfers = {{/*from=*/0, /*to=*/1, /*start=*/0}};
  const PlanCheck check = check_plan(plan);
  EXPECT_FALSE(check.valid);
  EXPECT_EQ(check.problem, "root is machine 1 (the placement puts the root at 0)");
}

TEST(PlanValidator, MeasuresConcurrencyAndReducersBeforeCheckingTheLimits) {
  ReductionPlan plan = greedy_plan(5, CostModel(2, 1));
  const PlanCheck measured = check_plan(plan);
  plan.limits.max_concurrent_transfers = measured.max_concurrent_transfers - 1;
  const PlanCheck check = check_plan(plan);
  EXPECT_FALSE(check.valid);
  EXPECT_EQ(check.max_concurrent_transfers, measured.max_concurrent_transfers);
  EXPECT_EQ(check.reducers, measured.reducers);
  EXPECT_EQ(check.length, plan.length);
}

TEST(PlanValidator, EnforcesTheLimitsOfSection6) {
  expect_rejected([](ReductionPlan& p) { p.limits.max_reducers = 1; }, "limit K = 1 reducers");
  expect_rejected([](ReductionPlan& p) { p.limits.max_concurrent_transfers = 1; }, "limit K = 1)");
}

}  // namespace
}  // namespace starnet::algorithms::trees

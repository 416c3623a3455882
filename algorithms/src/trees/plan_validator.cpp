#include <starnet/algorithms/trees/plan_validator.hpp>

#include <algorithm>
#include <optional>
#include <utility>

namespace starnet::algorithms::trees {
namespace {

/// The first violation a phase of check_plan() finds, if any.
using Violation = std::optional<std::string>;

std::string m(int v) { return "machine " + std::to_string(v); }

template <class Vector>
decltype(auto) at(Vector& v, int i) {
  return v[static_cast<std::size_t>(i)];
}

PlanCheck fail(PlanCheck check, std::string problem) {
  check.valid = false;
  check.problem = std::move(problem);
  return check;
}

/// The parent and children lists describe one tree rooted at `root`: every machine but the root
/// has a parent and is listed once, under it.
Violation check_links(const ReductionPlan& plan) {
  const int n = plan.n();
  if (n < 1) return "the plan has no machine (expected n >= 1)";
  if (plan.children.size() != plan.parent.size()) {
    return std::to_string(plan.children.size()) + " children lists for " + std::to_string(n) +
           " machines (expected one per machine)";
  }
  if (plan.root < 0 || plan.root >= n || at(plan.parent, plan.root) != -1) {
    return "root " + std::to_string(plan.root) + " is not a machine whose parent is -1";
  }
  std::vector<int> listed_under(static_cast<std::size_t>(n), -1);
  for (int v = 0; v < n; ++v) {
    const int p = at(plan.parent, v);
    if (v != plan.root && (p < 0 || p >= n || p == v)) {
      return m(v) + " has parent " + std::to_string(p) + " (expected a machine in 0.." + std::to_string(n - 1) +
             " other than itself)";
    }
    for (const int child : at(plan.children, v)) {
      if (child < 0 || child >= n || at(plan.parent, child) != v || at(listed_under, child) != -1) {
        return m(v) + " lists child " + std::to_string(child) +
               " (expected each machine listed once, under its parent)";
      }
      at(listed_under, child) = v;
    }
  }
  for (int v = 0; v < n; ++v) {
    if (v != plan.root && at(listed_under, v) == -1) {
      return m(v) + " is missing from the children of its parent " + std::to_string(at(plan.parent, v));
    }
  }
  return std::nullopt;
}

/// n − 1 transfers listed by (start, from), exactly one from each non-root machine to its parent;
/// @p sent[v] receives v's transfer. @pre check_links() found nothing.
Violation check_transfers(const ReductionPlan& plan, std::vector<const Transfer*>& sent) {
  const int n = plan.n();
  if (plan.transfers.size() != static_cast<std::size_t>(n - 1)) {
    return std::to_string(plan.transfers.size()) + " transfers for " + std::to_string(n) +
           " machines (expected n - 1, one per non-root machine)";
  }
  for (std::size_t i = 1; i < plan.transfers.size(); ++i) {
    const Transfer& a = plan.transfers[i - 1];
    const Transfer& b = plan.transfers[i];
    if (b.start < a.start || (b.start == a.start && b.from <= a.from)) {
      return "transfer " + std::to_string(b.from) + " -> " + std::to_string(b.to) + " at " + b.start.to_string() +
             " is listed after " + std::to_string(a.from) + " -> " + std::to_string(a.to) + " at " +
             a.start.to_string() + " (expected transfers sorted by start time, then sender)";
    }
  }
  sent.assign(static_cast<std::size_t>(n), nullptr);
  for (const Transfer& t : plan.transfers) {
    if (t.from < 0 || t.from >= n || t.from == plan.root || at(sent, t.from) != nullptr || t.to != at(plan.parent, t.from)) {
      return "transfer " + std::to_string(t.from) + " -> " + std::to_string(t.to) +
             " (expected exactly one transfer from each non-root machine, to its parent)";
    }
    at(sent, t.from) = &t;
  }
  return std::nullopt;
}

/// Every machine leads to the root (the parent links have no cycle); @p bfs receives the machines
/// breadth-first from the root, parents before children. @pre check_links() found nothing.
Violation check_reaches_root(const ReductionPlan& plan, std::vector<int>& bfs) {
  const auto n = static_cast<std::size_t>(plan.n());
  bfs.assign(1, plan.root);
  bfs.reserve(n);
  for (std::size_t i = 0; i < bfs.size() && bfs.size() <= n; ++i) {
    for (const int child : at(plan.children, bfs[i])) bfs.push_back(child);
  }
  if (bfs.size() == n) return std::nullopt;
  return "the parent links form a cycle: only " + std::to_string(bfs.size()) + " of " + std::to_string(n) +
         " machines lead to root " + std::to_string(plan.root);
}

/// The placement of Section 4.1: root 0, ids a pre-order with children in reception order.
/// @pre @p bfs from check_reaches_root().
Violation check_placement(const ReductionPlan& plan, const std::vector<int>& bfs) {
  if (plan.root != 0) return "root is " + m(plan.root) + " (the placement puts the root at 0)";
  const int n = plan.n();
  std::vector<int> size(static_cast<std::size_t>(n), 1);  // of each subtree
  for (auto it = bfs.rbegin(); it != bfs.rend(); ++it) {
    if (*it != plan.root) at(size, at(plan.parent, *it)) += at(size, *it);
  }
  for (int v = 0; v < n; ++v) {
    int expected = v + 1;
    for (const int child : at(plan.children, v)) {
      if (child != expected) {
        return m(v) + " receives from " + std::to_string(child) + " where the placement expects " +
               std::to_string(expected) +
               " (ids must be a pre-order with children in reception order, so that only "
               "neighbouring partial results are combined)";
      }
      expected += at(size, child);
    }
  }
  return std::nullopt;
}

/// Children listed in the order of their start times; one transfer at a time per machine.
/// @pre @p sent from check_transfers().
Violation check_one_port(const ReductionPlan& plan, const std::vector<const Transfer*>& sent) {
  const int n = plan.n();
  const Rational& d = plan.model.d();
  std::vector<std::vector<Rational>> busy(static_cast<std::size_t>(n));
  for (const Transfer& t : plan.transfers) {
    at(busy, t.from).push_back(t.start);
    at(busy, t.to).push_back(t.start);
  }
  for (int v = 0; v < n; ++v) {
    const auto& kids = at(plan.children, v);
    for (std::size_t j = 1; j < kids.size(); ++j) {
      if (at(sent, kids[j])->start < at(sent, kids[j - 1])->start) {
        return m(v) + " lists child " + std::to_string(kids[j]) + " (transfer at " +
               at(sent, kids[j])->start.to_string() + ") after child " + std::to_string(kids[j - 1]) +
               " (transfer at " + at(sent, kids[j - 1])->start.to_string() +
               "; expected children in the order of their transfers)";
      }
    }
    auto& times = at(busy, v);
    std::sort(times.begin(), times.end());
    for (std::size_t j = 1; j < times.size(); ++j) {
      if (times[j] < times[j - 1] + d) {
        return m(v) + " takes part in transfers starting at " + times[j - 1].to_string() + " and " +
               times[j].to_string() + ", which overlap (each lasts d = " + d.to_string() +
               "; a machine takes part in one transfer at a time)";
      }
    }
  }
  return std::nullopt;
}

/// Each transfer starts once its sender's partial result is complete (Proposition 2); @p length
/// receives the time the root's result is complete, unless a violation is found.
/// @pre @p sent and @p bfs from check_transfers() and check_reaches_root().
Violation check_senders_ready(const ReductionPlan& plan, const std::vector<const Transfer*>& sent,
                              const std::vector<int>& bfs, Rational& length) {
  std::vector<Rational> complete(static_cast<std::size_t>(plan.n()));
  std::vector<Rational> starts;
  for (auto it = bfs.rbegin(); it != bfs.rend(); ++it) {  // children before parents
    starts.clear();
    for (const int child : at(plan.children, *it)) starts.push_back(at(sent, child)->start);
    at(complete, *it) = completion_time(starts, plan.model);
    if (*it != plan.root && at(sent, *it)->start < at(complete, *it)) {
      return m(*it) + " sends at " + at(sent, *it)->start.to_string() + " but its partial result is complete only at " +
             at(complete, *it).to_string();
    }
  }
  length = at(complete, plan.root);
  return std::nullopt;
}

/// Measures what Section 6 limits: the most transfers in progress at once (intervals
/// [start, start + d)) and the machines that reduce.
void measure_section6(const ReductionPlan& plan, PlanCheck& check) {
  const Rational& d = plan.model.d();
  if (d > 0) {
    std::vector<std::pair<Rational, int>> events;  // (time, +1 start / -1 end); ends sort first
    events.reserve(2 * plan.transfers.size());
    for (const Transfer& t : plan.transfers) {
      events.emplace_back(t.start, +1);
      events.emplace_back(t.start + d, -1);
    }
    std::sort(events.begin(), events.end());
    int now = 0;
    for (const auto& e : events) check.max_concurrent_transfers = std::max(check.max_concurrent_transfers, now += e.second);
  }
  check.reducers = static_cast<int>(
      std::count_if(plan.children.begin(), plan.children.end(), [](const auto& kids) { return !kids.empty(); }));
}

/// The plan's limits of Section 6 against what measure_section6() found.
Violation check_section6_limits(const ReductionPlan& plan, const PlanCheck& check) {
  if (plan.limits.max_concurrent_transfers && check.max_concurrent_transfers > *plan.limits.max_concurrent_transfers) {
    return std::to_string(check.max_concurrent_transfers) + " transfers run at once (limit K = " +
           std::to_string(*plan.limits.max_concurrent_transfers) + ")";
  }
  if (plan.limits.max_reducers && check.reducers > *plan.limits.max_reducers) {
    return std::to_string(check.reducers) + " machines reduce (limit K = " + std::to_string(*plan.limits.max_reducers) +
           " reducers)";
  }
  return std::nullopt;
}

}  // namespace

PlanCheck check_plan(const ReductionPlan& plan) {
  PlanCheck check;
  std::vector<const Transfer*> sent;  // sent[v]: v's transfer to its parent
  std::vector<int> bfs;               // breadth-first from the root
  if (auto problem = check_links(plan)) return fail(check, std::move(*problem));
  if (auto problem = check_transfers(plan, sent)) return fail(check, std::move(*problem));
  if (auto problem = check_reaches_root(plan, bfs)) return fail(check, std::move(*problem));
  if (auto problem = check_placement(plan, bfs)) return fail(check, std::move(*problem));
  if (auto problem = check_one_port(plan, sent)) return fail(check, std::move(*problem));
  if (auto problem = check_senders_ready(plan, sent, bfs, check.length)) return fail(check, std::move(*problem));
  if (check.length != plan.length) {
    return fail(check, "the plan states length " + plan.length.to_string() +
                           " but its transfers end the reduction at " + check.length.to_string());
  }
  measure_section6(plan, check);
  if (auto problem = check_section6_limits(plan, check)) return fail(check, std::move(*problem));
  check.valid = true;
  return check;
}

}  // namespace starnet::algorithms::trees

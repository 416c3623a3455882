#include <starnet/algorithms/trees/tree_brute_force.hpp>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace starnet::algorithms::trees {
namespace {

void check_size(int n, int max_n) {
  if (n < 1 || n > max_n) {
    throw ScheduleError("brute force: n = " + std::to_string(n) + " (expected 1 <= n <= " + std::to_string(max_n) + ")");
  }
}

/// A receiver after some of its receptions: its port is free from `free`, its partial result
/// is complete at `done`.
using Receiver = std::pair<Rational, Rational>;

/// Exhaustive search for the transfer-limited problem on one tree.
class TransferLimitedSearch {
 public:
  TransferLimitedSearch(std::vector<int> parent, int k, const CostModel& model)
      : parent_(std::move(parent)), k_(k), model_(model), n_(static_cast<int>(parent_.size())),
        scheduled_(parent_.size(), false), waiting_(parent_.size(), 0),
        received_(parent_.size()) {
    for (int v = 1; v < n_; ++v) ++waiting_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(v)])];
  }

  /// Lowers @p best to the minimum length over every precedence-feasible transfer order.
  void run(std::optional<Rational>& best) { search(0, best); }

 private:
  [[nodiscard]] Rational ready(int v) const {
    std::vector<Rational> starts = received_[static_cast<std::size_t>(v)];
    std::sort(starts.begin(), starts.end());
    return completion_time(starts, model_);
  }

  /// Earliest t ≥ r at which a transfer into @p to fits: the receiver is free during [t, t + d)
  /// and fewer than K placed transfers overlap any instant of it.
  [[nodiscard]] Rational earliest(const Rational& r, int to) const {
    const Rational& d = model_.d();
    if (d == 0) return r;
    std::vector<Rational> candidates{r};
    for (const Rational& s : placed_) {
      if (s + d > r) candidates.push_back(s + d);
    }
    std::sort(candidates.begin(), candidates.end());
    for (const Rational& t : candidates) {
      bool fits = true;
      for (const Rational& s : received_[static_cast<std::size_t>(to)]) fits = fits && (s + d <= t || t + d <= s);
      std::vector<Rational> instants{t};
      for (const Rational& s : placed_) {
        if (t < s && s < t + d) instants.push_back(s);
      }
      for (const Rational& q : instants) {
        const auto active = std::count_if(placed_.begin(), placed_.end(), [&](const Rational& s) { return s <= q && q < s + d; });
        fits = fits && active < k_;
      }
      if (fits) return t;
    }
    STARNET_ASSERT(false);  // the largest end time always fits
    return r;
  }

  void search(int placed, std::optional<Rational>& best) {
    if (placed == n_ - 1) {
      const Rational length = ready(0);
      if (!best || length < *best) best = length;
      return;
    }
    for (int v = 1; v < n_; ++v) {
      const auto vi = static_cast<std::size_t>(v);
      if (scheduled_[vi] || waiting_[vi] != 0) continue;
      const int to = parent_[vi];
      const auto ti = static_cast<std::size_t>(to);
      const Rational t = earliest(ready(v), to);
      scheduled_[vi] = true;
      placed_.push_back(t);
      received_[ti].push_back(t);
      --waiting_[ti];
      search(placed + 1, best);
      ++waiting_[ti];
      received_[ti].pop_back();
      placed_.pop_back();
      scheduled_[vi] = false;
    }
  }

  std::vector<int> parent_;
  int k_;
  const CostModel& model_;
  int n_;
  std::vector<bool> scheduled_;
  std::vector<int> waiting_;                   // incoming transfers not placed yet
  std::vector<std::vector<Rational>> received_;  // start times of placed incoming transfers
  std::vector<Rational> placed_;               // start times of all placed transfers
};

}  // namespace

Rational brute_force_optimal_length(int n, const CostModel& model, std::optional<int> max_reducers) {
  check_size(n, BRUTE_FORCE_MAX_N);
  if (max_reducers && *max_reducers < 1) {
    throw ScheduleError("brute force: K = " + std::to_string(*max_reducers) + " reducers (expected K >= 1)");
  }
  // Reducer counts are tracked only under a limit; counts above it are never completed.
  const int limit = max_reducers ? std::min(*max_reducers, n) : 0;
  const auto slots = static_cast<std::size_t>(limit + 1);
  const auto track = [&](int r) { return max_reducers ? r : 0; };

  // ready[s][r]: ready times of the plane trees on s machines with r reducers.
  // state[m][r]: receivers after children of m machines in all, r reducers among them.
  std::vector<std::vector<std::set<Rational>>> ready(static_cast<std::size_t>(n + 1), std::vector<std::set<Rational>>(slots));
  std::vector<std::vector<std::set<Receiver>>> state(static_cast<std::size_t>(n), std::vector<std::set<Receiver>>(slots));
  ready[1][0].insert(Rational(0));
  state[0][0].insert({Rational(0), Rational(0)});
  for (int m = 1; m < n; ++m) {
    for (int s = 1; s <= m; ++s) {  // the last child's subtree has s machines
      for (std::size_t r1 = 0; r1 < slots; ++r1) {
        for (std::size_t r2 = 0; r2 < slots; ++r2) {
          const auto r = static_cast<std::size_t>(track(static_cast<int>(r1 + r2)));
          if (r >= slots) continue;
          for (const auto& [free, done] : state[static_cast<std::size_t>(m - s)][r1]) {
            for (const Rational& x : ready[static_cast<std::size_t>(s)][r2]) {
              const Rational end = std::max(x, free) + model.d();
              state[static_cast<std::size_t>(m)][r].insert({end, std::max(done, end) + model.c()});
            }
          }
        }
      }
    }
    for (std::size_t r = 0; r < slots; ++r) {
      const auto with_root = static_cast<std::size_t>(track(static_cast<int>(r) + 1));
      if (with_root >= slots) continue;
      for (const auto& receiver : state[static_cast<std::size_t>(m)][r]) {
        ready[static_cast<std::size_t>(m + 1)][with_root].insert(receiver.second);
      }
    }
  }
  std::optional<Rational> best;
  for (const auto& times : ready[static_cast<std::size_t>(n)]) {
    if (!times.empty() && (!best || *times.begin() < *best)) best = *times.begin();
  }
  STARNET_ASSERT(best.has_value());  // a star uses one reducer
  return *best;
}

Rational brute_force_transfer_limited_length(int n, int k, const CostModel& model) {
  check_size(n, BRUTE_FORCE_TRANSFER_LIMITED_MAX_N);
  if (k < 1) throw ScheduleError("brute force: K = " + std::to_string(k) + " concurrent transfers (expected K >= 1)");
  std::optional<Rational> best;
  std::vector<int> parent(static_cast<std::size_t>(n), 0);
  parent[0] = -1;
  while (true) {
    TransferLimitedSearch(parent, k, model).run(best);
    int i = n - 1;  // next parent array with parent[i] < i, as a mixed-radix counter
    while (i >= 1 && parent[static_cast<std::size_t>(i)] == i - 1) parent[static_cast<std::size_t>(i--)] = 0;
    if (i < 1) break;
    ++parent[static_cast<std::size_t>(i)];
  }
  return best.value_or(Rational(0));
}

}  // namespace starnet::algorithms::trees

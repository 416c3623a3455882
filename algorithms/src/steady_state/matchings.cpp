#include <starnet/algorithms/steady_state/matchings.hpp>
#include <starnet/core/error.hpp>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/max_cardinality_matching.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <utility>

namespace starnet::algorithms::steady_state {
namespace {

/// One send of one tree, with the link time it still needs in this period.
struct Item {
  int tree;
  int task;
  int start_period;
  mpq_class time_left;
};

/// Weight left on a pair (sender i, receiver j) of G_B: real time of link i->j, and dummy time.
struct PairWeight {
  mpq_class real;
  mpq_class dummy;
  std::deque<Item> items;  // the link's sends, consumed front first
};

using MatchingGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

}  // namespace

std::vector<Matching> decompose_into_matchings(const SteadyStateProblem& problem, const std::vector<WeightedTree>& trees) {
  // Nodes of G_B: every platform node that sends or receives; index k is P^send_k and n+k P^recv_k.
  std::map<Vertex, int> index;
  std::vector<Vertex> nodes;
  const auto node_index = [&](Vertex v) {
    const auto [it, added] = index.emplace(v, static_cast<int>(nodes.size()));
    if (added) nodes.push_back(v);
    return it->second;
  };
  std::map<std::pair<int, int>, PairWeight> pairs;
  for (int tree = 0; tree < static_cast<int>(trees.size()); ++tree) {
    const auto& t = trees[static_cast<std::size_t>(tree)];
    const auto starts = start_periods(t);
    for (std::size_t p = 0; p < t.tasks.size(); ++p) {
      const Task& task = problem.tasks()[static_cast<std::size_t>(t.tasks[p])];
      if (task.kind != TaskKind::SEND) continue;
      const mpq_class time = task.time * t.weight;
      auto& pair = pairs[{node_index(task.from), node_index(task.to)}];
      pair.real += time;
      pair.items.push_back(Item{tree, t.tasks[p], starts[p], time});
    }
  }
  const int n = static_cast<int>(nodes.size());
  std::vector<mpq_class> out_degree(static_cast<std::size_t>(n));
  std::vector<mpq_class> in_degree(static_cast<std::size_t>(n));
  for (const auto& [ij, w] : pairs) {
    out_degree[static_cast<std::size_t>(ij.first)] += w.real;
    in_degree[static_cast<std::size_t>(ij.second)] += w.real;
  }
  mpq_class delta = 0;
  for (int k = 0; k < n; ++k) {
    delta = std::max({delta, out_degree[static_cast<std::size_t>(k)], in_degree[static_cast<std::size_t>(k)]});
  }
  // Dummy weight: north-west-corner pairing of the deficits Δ − degree (both sides sum to n·Δ − W).
  for (int i = 0, j = 0; i < n && j < n;) {
    mpq_class& di = out_degree[static_cast<std::size_t>(i)];
    mpq_class& dj = in_degree[static_cast<std::size_t>(j)];
    if (di == delta) {
      ++i;
    } else if (dj == delta) {
      ++j;
    } else {
      const mpq_class x = std::min(mpq_class(delta - di), mpq_class(delta - dj));
      pairs[{i, j}].dummy += x;
      di += x;
      dj += x;
    }
  }

  std::vector<Matching> matchings;
  while (!pairs.empty()) {
    MatchingGraph g(static_cast<std::size_t>(2 * n));
    for (const auto& [ij, w] : pairs) boost::add_edge(ij.first, n + ij.second, g);
    std::vector<boost::graph_traits<MatchingGraph>::vertex_descriptor> mate(static_cast<std::size_t>(2 * n));
    boost::edmonds_maximum_cardinality_matching(g, &mate[0]);
    STARNET_ASSERT(boost::matching_size(g, &mate[0]) == static_cast<std::size_t>(n));  // Hall: Δ-regular
    std::vector<std::map<std::pair<int, int>, PairWeight>::iterator> chosen;
    mpq_class lambda = -1;
    for (int i = 0; i < n; ++i) {
      const auto it = pairs.find({i, static_cast<int>(mate[static_cast<std::size_t>(i)]) - n});
      STARNET_ASSERT(it != pairs.end());
      const mpq_class total = it->second.real + it->second.dummy;
      if (lambda < 0 || total < lambda) lambda = total;
      chosen.push_back(it);
    }
    Matching matching{lambda, {}};
    for (const auto it : chosen) {
      PairWeight& w = it->second;
      mpq_class real = std::min(lambda, w.real);
      w.real -= real;
      w.dummy -= lambda - real;
      while (real > 0) {
        Item& item = w.items.front();
        const mpq_class take = std::min(real, item.time_left);
        const Task& task = problem.tasks()[static_cast<std::size_t>(item.task)];
        matching.transfers.push_back(
            Transfer{task.from, task.to, task.type, item.tree, item.task, take / task.time, item.start_period});
        item.time_left -= take;
        real -= take;
        if (item.time_left == 0) w.items.pop_front();
      }
      if (w.real == 0 && w.dummy == 0) pairs.erase(it);
    }
    if (!matching.transfers.empty()) matchings.push_back(std::move(matching));
  }
  return matchings;
}

CertificateCheck check_matchings(const SteadyStateProblem& problem, const std::vector<WeightedTree>& trees,
                                 const std::vector<Matching>& matchings, const mpq_class& period) {
  const auto fail = [](std::string why) { return CertificateCheck{false, std::move(why)}; };
  std::map<std::pair<int, int>, mpq_class> covered;  // (tree, task) -> messages
  mpq_class total = 0;
  for (std::size_t k = 0; k < matchings.size(); ++k) {
    const Matching& m = matchings[k];
    if (m.duration <= 0) return fail(fmt::format("matching {} lasts {} (must be > 0)", k, m.duration.get_str()));
    total += m.duration;
    std::map<Vertex, Vertex> sends_to;
    std::map<Vertex, Vertex> receives_from;
    std::map<std::pair<Vertex, Vertex>, mpq_class> busy;
    for (const Transfer& tr : m.transfers) {
      if (tr.tree < 0 || tr.tree >= static_cast<int>(trees.size()) || tr.task < 0 ||
          tr.task >= static_cast<int>(problem.tasks().size())) {
        return fail(fmt::format("matching {}: a transfer names tree {} task {} (out of range)", k, tr.tree, tr.task));
      }
      const Task& task = problem.tasks()[static_cast<std::size_t>(tr.task)];
      if (task.kind != TaskKind::SEND || task.from != tr.from || task.to != tr.to || task.type != tr.type) {
        return fail(fmt::format("matching {}: a transfer does not match its task {}", k, problem.task_label(tr.task)));
      }
      if (tr.amount <= 0) return fail(fmt::format("matching {}: {} has amount {}", k, problem.task_label(tr.task), tr.amount.get_str()));
      const auto [s, s_new] = sends_to.emplace(tr.from, tr.to);
      if (s->second != tr.to) {
        return fail(fmt::format("matching {}: {} sends to both {} and {}", k, problem.node_name(tr.from),
                                problem.node_name(s->second), problem.node_name(tr.to)));
      }
      const auto [r, r_new] = receives_from.emplace(tr.to, tr.from);
      if (r->second != tr.from) {
        return fail(fmt::format("matching {}: {} receives from both {} and {}", k, problem.node_name(tr.to),
                                problem.node_name(r->second), problem.node_name(tr.from)));
      }
      busy[{tr.from, tr.to}] += tr.amount * task.time;
      covered[{tr.tree, tr.task}] += tr.amount;
    }
    for (const auto& [arc, time] : busy) {
      if (time > m.duration) {
        return fail(fmt::format("matching {}: link {}->{} is busy {} in a matching of {}", k, problem.node_name(arc.first),
                                problem.node_name(arc.second), time.get_str(), m.duration.get_str()));
      }
    }
  }
  if (total > period) {
    return fail(fmt::format("matchings last {} in total, more than the period {}", total.get_str(), period.get_str()));
  }
  std::size_t expected = 0;
  for (int tree = 0; tree < static_cast<int>(trees.size()); ++tree) {
    const auto& t = trees[static_cast<std::size_t>(tree)];
    for (const int task : t.tasks) {
      if (problem.tasks()[static_cast<std::size_t>(task)].kind != TaskKind::SEND) continue;
      ++expected;
      const auto it = covered.find({tree, task});
      const mpq_class got = it == covered.end() ? mpq_class(0) : it->second;
      if (got != t.weight) {
        return fail(fmt::format("{} of tree {}: matchings carry {} messages, the tree needs {}",
                                problem.task_label(task), tree, got.get_str(), t.weight.get_str()));
      }
    }
  }
  if (covered.size() != expected) return fail("matchings carry transfers that no tree asks for");
  return {};
}

}  // namespace starnet::algorithms::steady_state

#include <starnet/algorithms/optimal/step_encoding.hpp>
#include <starnet/core/error.hpp>

#include <algorithm>

namespace starnet::algorithms::optimal {

using topology::NodeId;

std::vector<std::vector<int>> Cnf::clause_list() const {
  std::vector<std::vector<int>> out(1);
  for (const int lit : literals_) {
    if (lit == 0) {
      out.emplace_back();
    } else {
      out.back().push_back(lit);
    }
  }
  out.pop_back();
  return out;
}

void Cnf::write_dimacs(std::ostream& out) const {
  out << "p cnf " << variables_ << ' ' << clauses_ << '\n';
  bool first = true;
  for (const int lit : literals_) {
    if (!first) out << ' ';
    out << lit;
    first = lit == 0;
    if (first) out << '\n';
  }
}

void Cnf::at_most(std::span<const int> x, unsigned k) {
  if (x.size() <= k) return;
  if (k == 0) {
    for (const int v : x) add({-v});
    return;
  }
  if (k == 1) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      for (std::size_t j = i + 1; j < x.size(); ++j) add({-x[i], -x[j]});
    }
    return;
  }
  // Sequential counter: r[i][j] ⇔ at least j + 1 of x[0..i] are true (only the → half is needed).
  const std::size_t n = x.size();
  std::vector<std::vector<int>> r(n, std::vector<int>(k));
  for (auto& row : r) {
    for (auto& v : row) v = new_variable();
  }
  for (std::size_t i = 0; i < n; ++i) {
    add({-x[i], r[i][0]});
    if (i == 0) {
      for (unsigned j = 1; j < k; ++j) add({-r[0][j]});
      continue;
    }
    for (unsigned j = 0; j < k; ++j) add({-r[i - 1][j], r[i][j]});
    for (unsigned j = 1; j < k; ++j) add({-x[i], -r[i - 1][j - 1], r[i][j]});
    add({-x[i], -r[i - 1][k - 1]});
  }
}

namespace {

/// Adds the port model's constraints of one step.
void ports_of_step(Cnf& cnf, const StepEncoding& e, const std::vector<std::vector<std::size_t>>& out_arcs,
                   const std::vector<std::vector<std::size_t>>& in_arcs, std::uint64_t t,
                   const emulator::PortModel& ports) {
  std::vector<int> x;
  for (std::size_t v = 0; v < out_arcs.size(); ++v) {
    x.clear();
    for (const auto a : out_arcs[v]) x.push_back(e.send_variable(t, a));
    if (ports.half_duplex) {
      for (const auto a : in_arcs[v]) x.push_back(e.send_variable(t, a));
      cnf.at_most(x, ports.ports);
      continue;
    }
    cnf.at_most(x, ports.ports);
    x.clear();
    for (const auto a : in_arcs[v]) x.push_back(e.send_variable(t, a));
    cnf.at_most(x, ports.ports);
  }
}

}  // namespace

StepEncoding encode_steps(const topology::Topology& topology, Goal goal, NodeId root, const emulator::PortModel& ports,
                          std::uint64_t steps, std::optional<std::size_t> first_arc) {
  const NodeId n = topology.num_nodes();
  StepEncoding e;
  e.steps = steps;
  std::vector<std::vector<std::size_t>> out_arcs(n), in_arcs(n);
  for (NodeId v = 0; v < n; ++v) {
    for (topology::Port p = 0; p < topology.degree(v); ++p) {
      const NodeId u = topology.neighbor(v, p);
      if (u == v) continue;
      out_arcs[v].push_back(e.arcs.size());
      in_arcs[u].push_back(e.arcs.size());
      e.arcs.emplace_back(v, u);
    }
  }
  Cnf& cnf = e.cnf;
  e.send.resize(steps * e.arcs.size());
  for (auto& s : e.send) s = cnf.new_variable();
  for (std::uint64_t t = 1; t <= steps; ++t) ports_of_step(cnf, e, out_arcs, in_arcs, t, ports);
  if (first_arc && steps >= 1) cnf.add({e.send_variable(1, *first_arc)});

  // Knowledge: item u at node v after step t. After step 0 it is a constant (v == u).
  const NodeId items = goal == Goal::GOSSIP ? n : 1;
  const auto owner = [&](NodeId u) { return goal == Goal::GOSSIP ? u : root; };
  constexpr int TRUE_LIT = 0;  // a known constant, not a variable
  constexpr int FALSE_LIT = -0x7fffffff;
  std::vector<int> before(n * items);  // literal for (v, u) after step t − 1
  for (NodeId v = 0; v < n; ++v) {
    for (NodeId u = 0; u < items; ++u) before[v * items + u] = v == owner(u) ? TRUE_LIT : FALSE_LIT;
  }
  std::vector<int> now(n * items);
  std::vector<int> clause;
  for (std::uint64_t t = 1; t <= steps; ++t) {
    for (NodeId v = 0; v < n; ++v) {
      for (NodeId u = 0; u < items; ++u) {
        const int prev = before[v * items + u];
        if (prev == TRUE_LIT) {
          now[v * items + u] = TRUE_LIT;
          continue;
        }
        const int k = cnf.new_variable();
        now[v * items + u] = k;
        clause.assign({-k});
        if (prev != FALSE_LIT) {
          clause.push_back(prev);
          cnf.add({-prev, k});
        }
        for (const auto a : in_arcs[v]) {
          const int had = before[e.arcs[a].first * items + u];
          if (had == FALSE_LIT) continue;
          const int s = e.send_variable(t, a);
          if (had == TRUE_LIT) {
            clause.push_back(s);
            continue;
          }
          const int y = cnf.new_variable();
          cnf.add({-y, s});
          cnf.add({-y, had});
          clause.push_back(y);
        }
        cnf.add(clause);
      }
    }
    std::swap(before, now);
  }
  for (NodeId v = 0; v < n; ++v) {
    for (NodeId u = 0; u < items; ++u) {
      const int last = before[v * items + u];
      if (last == TRUE_LIT) continue;
      if (last == FALSE_LIT) {
        cnf.add(std::span<const int>{});  // unreachable within 0 steps: the empty clause
        continue;
      }
      cnf.add({last});
    }
  }
  return e;
}

}  // namespace starnet::algorithms::optimal

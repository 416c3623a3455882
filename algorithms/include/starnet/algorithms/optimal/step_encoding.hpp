#pragma once
/// @file
/// "Can gossip (or a broadcast from a root) finish within T steps in the port model?" as CNF
/// (docs/optimal.md, "The encoding").
///
/// Variables: s(a, t) — arc a = (x → y) carries a message at step t (1 ≤ t ≤ T); gossip:
/// k(v, u, t) — node v knows u's item after step t (after step 0: only its own); broadcast:
/// i(v, t) — v is informed after step t; y(a, u, t) — the message on a at step t brings u's item.
/// Clauses:
///   - knowledge is justified: k(v, u, t) → k(v, u, t−1) ∨ ⋁_{a = x→v} y(a, u, t), with
///     y(a, u, t) → s(a, t) and y(a, u, t) → k(x, u, t−1) (a message carries all the sender held);
///     it is kept: k(v, u, t−1) → k(v, u, t);
///   - the port model: per node and step at most K sends and at most K receives (full duplex),
///     or at most K transfers in all (half duplex) — pairwise for K = 1, a sequential counter
///     (Sinz 2005) otherwise;
///   - the goal: k(v, u, T) for all v, u (gossip); i(v, T) for all v (broadcast);
///   - symmetry (optional): the given arc carries a message at step 1. Sound when an
///     automorphism maps any arc (gossip) or any arc out of the root (broadcast) onto it: an
///     optimal schedule uses step 1, and can be mapped so that it uses that arc.
/// The encoding is exact: models and schedules in at most T steps correspond (a model's sends are
/// a schedule; a schedule's sends with the knowledge it creates are a model).
///
/// Size: O(T·(A·N + N²)) variables and clauses for gossip on N nodes and A arcs, O(T·A) for
/// broadcast. IMPORTANT: nodes are all processors here (every node holds an item and takes part).

#include <starnet/algorithms/optimal/step_bounds.hpp>

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <utility>
#include <vector>

namespace starnet::algorithms::optimal {

/// A CNF in DIMACS numbering: clauses stored flat, each ended by 0.
class Cnf {
 public:
  int new_variable() { return ++variables_; }
  [[nodiscard]] int variables() const { return variables_; }
  [[nodiscard]] std::uint64_t clauses() const { return clauses_; }
  void add(std::initializer_list<int> clause) { add(std::span<const int>(clause.begin(), clause.size())); }
  void add(std::span<const int> clause) {
    literals_.insert(literals_.end(), clause.begin(), clause.end());
    literals_.push_back(0);
    ++clauses_;
  }
  /// Every literal, each clause followed by 0.
  [[nodiscard]] const std::vector<int>& literals() const { return literals_; }
  [[nodiscard]] std::vector<std::vector<int>> clause_list() const;
  void write_dimacs(std::ostream& out) const;
  /// At most @p k of @p x are true.
  void at_most(std::span<const int> x, unsigned k);

 private:
  int variables_ = 0;
  std::uint64_t clauses_ = 0;
  std::vector<int> literals_;
};

struct StepEncoding {
  Cnf cnf;
  std::uint64_t steps = 0;
  std::vector<std::pair<topology::NodeId, topology::NodeId>> arcs;  ///< every directed link
  /// send[(t − 1)·arcs + a]: the variable s(a, t).
  std::vector<int> send;
  [[nodiscard]] int send_variable(std::uint64_t t, std::size_t arc) const { return send[(t - 1) * arcs.size() + arc]; }
};

/// The CNF of the file comment for @p steps steps. @param first_arc the arc fixed at step 1 (an
/// index into the topology's arcs in (node, port) order), or none.
/// @pre the topology has at least one node.
[[nodiscard]] StepEncoding encode_steps(const topology::Topology& topology, Goal goal, topology::NodeId root,
                                        const emulator::PortModel& ports, std::uint64_t steps,
                                        std::optional<std::size_t> first_arc);

}  // namespace starnet::algorithms::optimal

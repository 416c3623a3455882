#pragma once
/// @file
/// One period's transfers decomposed into weighted matchings of the bipartite send/receive graph.
///
/// Paper: Legrand, Marchal, Robert 2004, Section 3.3 (bipartite graph G_B with nodes P_i^send and
/// P_j^recv, an edge per transfer weighted by its time; the weighted edge colouring of
/// Schrijver, Combinatorial Optimization, vol. A, chapter 20) and Section 4.3 (for a reduce, an
/// edge per send of each tree T, weighted w(T)·size(v[k,m])·c(i,j)).
///
/// Method (König's edge-colouring theorem, constructively): let Δ be the largest weighted degree
/// of G_B (Δ ≤ T by the one-port rows of the LP). Dummy weight between deficient senders and
/// receivers (north-west-corner pairing) raises every degree to exactly Δ. A bipartite graph all
/// of whose nodes have weighted degree Δ > 0 has a perfect matching on its support (Hall's
/// condition); Boost's Edmonds maximum-cardinality matching finds one, its smallest edge weight λ
/// is subtracted from its edges (all degrees stay equal) and at least one edge disappears.
/// The matchings that carry real transfers, weighted λ, then cover every edge's time exactly and
/// their weights sum to at most Δ ≤ T. Within a matching a link may carry several transfers
/// (message types or trees), one after the other.
///
/// Complexity: at most |E_B| + 2|V| rounds, each an O(V·E·α(E, V)) Edmonds matching.
///
/// IMPORTANT: a transfer's amount may be fractional (a message split across matchings); see
/// with_whole_messages() in schedule.hpp for the paper's second lcm.

#include <starnet/algorithms/steady_state/exact_lp.hpp>
#include <starnet/algorithms/steady_state/problem.hpp>
#include <starnet/algorithms/steady_state/trees.hpp>

#include <gmpxx.h>

#include <vector>

namespace starnet::algorithms::steady_state {

/// `amount` messages of `type` sent from `from` to `to` for tree `tree`, task `task`; it keeps
/// the link busy amount·problem.tasks()[task].time. It runs in every period from
/// `start_period` on (trees.hpp: start_periods()).
struct Transfer {
  Vertex from = 0;
  Vertex to = 0;
  int type = 0;
  int tree = 0;
  int task = 0;
  mpq_class amount;
  int start_period = 0;
};

/// A set of transfers in which every node sends on at most one link and receives on at most
/// one link, lasting `duration` time units.
struct Matching {
  mpq_class duration;
  std::vector<Transfer> transfers;
};

/// Decomposes the sends of @p trees (w(T) messages per period for each send of T) into weighted
/// matchings (method in the file comment). The trees' weights are per period.
[[nodiscard]] std::vector<Matching> decompose_into_matchings(const SteadyStateProblem& problem,
                                                             const std::vector<WeightedTree>& trees);

/// Checks that every matching is one: positive duration, each node on at most one sending and
/// one receiving link, each link busy at most `duration`; that transfers match their tasks; that
/// for every send of every tree the amounts sum to w(T) exactly; and that the durations sum to at
/// most @p period.
[[nodiscard]] CertificateCheck check_matchings(const SteadyStateProblem& problem, const std::vector<WeightedTree>& trees,
                                               const std::vector<Matching>& matchings, const mpq_class& period);

}  // namespace starnet::algorithms::steady_state

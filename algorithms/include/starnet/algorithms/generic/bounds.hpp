#pragma once
/// @file
/// Lower bounds on the steps (or time) of reduce, broadcast and all-reduce under a port model,
/// printed beside every measured step count of the what-if study (docs/whatif.md).
///
/// Model: one word per node, messages of one word, a transfer takes one step (or, timed, at least
/// c_min, the smallest link cost); a node takes part in at most k receives (and k sends) at once,
/// or k transfers in all in half duplex.
///
/// Counting bound, ⌈log_{k+1} N⌉. Let m_t be the most words (original values) any single piece of
/// data at time t depends on. A node receives at most k messages per step, each depending on at
/// most m_t words, so m_{t+1} ≤ (k + 1)·m_t, m_0 = 1. Reduce and all-reduce need m_T ≥ N;
/// broadcast is the same argument forwards (the informed nodes grow at most (k+1)-fold per step).
/// Half duplex only tightens the per-step capacity, so the bound stands.
/// Timed: a port finishes at most one transfer in any half-open window of length c_min (each
/// lasts ≥ c_min), so m_t ≤ (k + 1)·m_{t−c_min} and m_t = 1 for t < c_min: T ≥ c_min·⌈log_{k+1} N⌉.
///
/// Half-duplex single-port all-reduce and all-gather (every node must end full), N ≥ 2:
/// ⌈log₂ N⌉ + 1. Let t* be the first step after which some node holds all N words; t* ≥ ⌈log₂ N⌉
/// by the counting bound. A node full after step t* − 1 received in that step (it was not full
/// before). If every node were full after step t* − 1, every
/// node would have received in that step; in half duplex a receiver does not send, so no message
/// would have been sent: a contradiction. Hence T ≥ t* + 1. (Nothing of the kind holds for k ≥ 2,
/// where a node may send and receive in one step, nor for full duplex: recursive doubling meets
/// ⌈log₂ N⌉ there. The often quoted 2⌈log₂ N⌉ − 1 is an upper bound of reduce + broadcast, not a
/// lower bound. In timed mode the "+1" is not a whole c_min, so the timed bound omits it.)
///
/// Distance bound: a word moves one link per transfer, so all-reduce needs the diameter (hops, or
/// the weighted diameter Σ cost along a shortest path when timed), reduce and broadcast the
/// eccentricity of the root.
///
/// With relays (routers that forward each message once, unchanged: schedule.hpp), N counts the
/// processors only, and distances are between processors: a router neither combines (m_t as
/// above) nor copies (the informed processors still grow at most (k+1)-fold a step), and a word
/// still crosses every link of its route. The half-duplex "+1" does not follow — in the step that
/// fills the last processors a router, which need not end full, may be the one sending — so it is
/// dropped.
///
/// Cut bound (networks of switches, topology/network.hpp): a directed link carries one message at
/// a time, each holding it for at least its packets' transfer time. A link whose loss splits the
/// processors into sides A and B (a bridge) carries every packet that must go from A to B: all-to-all
/// |A|·|B| (one packet per pair, none combines with another), all-gather |A| (A's blocks, each needed
/// in B, a copy carrying one block), reduce-scatter |B| (B's blocks each need A's contributions,
/// which combine into one packet a block), all-reduce 1 (the whole vector, combined, in pieces
/// that add up to one packet), broadcast and scatter from a root in A: 1 and |B|, reduce and gather
/// to a root in B: 1 and |A|. So T ≥ α + u·(the most of those over both directions and every
/// bridge), and a step-synchronous run's Σ of largest messages is at least that many packets.
///
/// Complexity: eccentricity O(V + E) (hops) or O(E log V) rational operations (weighted);
/// diameter: one eccentricity for a vertex-transitive topology, all pairs when the work fits
/// MAX_DIAMETER_WORK, else a lower estimate from a few sweeps (reported as inexact).
/// IMPORTANT: the caller vouches for vertex-transitivity (an intact star, hypercube, ring, torus,
/// complete graph with unit costs); nothing checks it.

#include <starnet/algorithms/generic/schedule.hpp>
#include <starnet/algorithms/generic/step_bound.hpp>
#include <starnet/emulator/config.hpp>
#include <starnet/core/rational.hpp>
#include <starnet/topology/topology.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace starnet::algorithms::generic {

/// Most arc visits, V·(V + E), of an all-pairs diameter (hops; weighted: an eighth of it).
inline constexpr std::uint64_t MAX_DIAMETER_WORK = std::uint64_t{1} << 28;

/// ⌈log_b n⌉ in exact integer arithmetic. @pre b ≥ 2, n ≥ 1.
[[nodiscard]] std::uint64_t ceil_log(std::uint64_t b, std::uint64_t n);

/// The step bound of the file comment. @param nodes the participants (processors, with relays);
/// @param distance the diameter for all-reduce, the root's eccentricity otherwise (between
/// participants); @param relays whether routers relay (no half-duplex "+1").
/// @pre nodes ≥ 1, ports.ports ≥ 1.
[[nodiscard]] StepBound step_lower_bound(Collective collective, const emulator::PortModel& ports, NodeId nodes,
                                         std::uint64_t distance, bool relays = false);

/// The timed bound of the file comment. @pre nodes ≥ 1, ports.ports ≥ 1, min_cost > 0.
[[nodiscard]] TimeBound time_lower_bound(const emulator::PortModel& ports, NodeId nodes, const Rational& min_cost,
                                         const Rational& distance);

/// Largest distance from @p v to a node it reaches that is not a relay (@p relays: one flag per
/// node, or empty for none): hops, or Σ link_cost when @p weighted.
[[nodiscard]] Rational eccentricity(const topology::Topology& topology, NodeId v, bool weighted,
                                    const std::vector<bool>& relays = {});

/// A link whose loss splits the processors of a platform: the processors on each side, and whether
/// the root is on side A.
struct BridgeCut {
  std::uint64_t side_a = 0;
  std::uint64_t side_b = 0;
  bool root_in_a = true;
};
/// The links of @p topology (undirected: every arc paired with its reverse) whose loss leaves
/// processors (nodes not flagged in @p routers) on both sides; @p root a processor. O(V + E).
[[nodiscard]] std::vector<BridgeCut> bridge_cuts(const topology::Topology& topology, const std::vector<bool>& routers,
                                                 NodeId root);
/// The packets collective @p c must move across @p cut in its busier direction (file comment).
[[nodiscard]] Rational cut_packets(Collective c, const BridgeCut& cut);

struct Diameter {
  Rational value;
  bool exact = true;  ///< false: a lower estimate (the largest eccentricity of a few sweeps)
};

/// The packets the busiest node must send in a total exchange (all-to-all personalized) of one
/// packet per pair: the mean status Σ_u Σ_v d(u, v) / N, exact (the status s of a vertex-transitive
/// topology, Σ_v d(0, v)). The N·s packet-hops must all be sent, so the busiest node sends at least
/// the mean. O(V + E) for a vertex-transitive topology (the caller vouches, as for diameter()), all
/// pairs when the work fits MAX_DIAMETER_WORK, else none. @pre every node reaches every other.
[[nodiscard]] std::optional<Rational> mean_status(const topology::Topology& topology, bool vertex_transitive);

/// The diameter of a connected topology (file comment): the largest distance between two nodes
/// that are not relays (@p relays as for eccentricity(); with relays the sweeps start from the
/// first processor and go from processor to processor).
[[nodiscard]] Diameter diameter(const topology::Topology& topology, bool weighted, bool vertex_transitive,
                                const std::vector<bool>& relays = {});

}  // namespace starnet::algorithms::generic

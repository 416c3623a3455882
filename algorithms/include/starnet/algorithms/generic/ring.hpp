#pragma once
/// @file
/// Ring all-reduce of one word per node on a ring C_N or a torus of any dimension, one ring phase
/// per dimension.
///
/// Problem: all-reduce of one word per node on the rings of a ring or torus, under a port model.
///
/// Variant: with one word per node there is nothing to scatter, so this is the pass-along ring,
/// not the reduce-scatter + all-gather of long vectors: in round r every node passes on the word
/// it received in round r − 1 (its own in round 0) and combines what it receives; after L − 1
/// rounds each node of a ring of L nodes has combined all L words exactly once. The port model
/// picks the variant:
///   - unidirectional (full duplex, or half duplex with k ≥ 2: one send and one receive at once):
///     round r is step r, L − 1 steps;
///   - bidirectional (full duplex with k ≥ 2, or half duplex with k ≥ 4): words travel both ways,
///     ⌈(L−1)/2⌉ rounds to the right and ⌊(L−1)/2⌋ to the left, ⌈(L−1)/2⌉ steps — the ring's
///     diameter ⌊L/2⌋, the bound;
///   - coloured (single-port half duplex, where a node cannot send and receive at once): round r
///     takes χ steps, in which the nodes of colour c = 0..χ−1 send to their successor; colours
///     alternate along the ring (χ = 2 for even L; odd L needs χ = 3: the last node gets colour
///     2), χ(L − 1) steps.
/// A torus C_A × C_B (node (i, j) = i·B + j, as families.hpp numbers it) runs the rings of its
/// rows (C_B) and then those of its columns (C_A), each node starting the second phase from its
/// row's total: (B − 1) + (A − 1) steps unidirectional; a torus of more sides (a k-ary n-cube)
/// runs one phase per dimension alike, Σ (side − 1) steps (torus:4x4x4: 9; bidirectional 6).
///
/// The word passed on lives in a slot (schedule.hpp): a node saves acc into slot 0 when a phase
/// starts; unidirectional and coloured rounds send slot r mod 2 and keep the received word in
/// slot (r + 1) mod 2, so that in the coloured variant, where a node may receive its round-r word
/// before sending its own, it still sends the round r − 1 word. Bidirectional rounds keep the
/// right-going word in slot 0 and the left-going one in slot 1.
///
/// Paper: the ring/torus baselines of collective communication (e.g. Thakur, Rabenseifner, Gropp
/// 2005, Section 4); the single-port model of Oh, Choi, Primeaux 2005.
///
/// Complexity: N·(steps) transfers at most, O(N·steps) to plan.
/// IMPORTANT: uses every link of every ring; it does not apply to a damaged ring or torus (the
/// what-if study reports which link is used at which step instead).

#include <starnet/algorithms/generic/schedule.hpp>
#include <starnet/emulator/config.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::algorithms::generic {

enum class RingVariant : std::uint8_t { UNIDIRECTIONAL, BIDIRECTIONAL, COLOURED };
/// "unidirectional", "bidirectional", "coloured".
[[nodiscard]] std::string to_string(RingVariant v);
/// The variant the port model allows (file comment).
[[nodiscard]] RingVariant ring_variant(const emulator::PortModel& ports);
/// Steps of one ring of @p length nodes in @p variant.
[[nodiscard]] std::uint32_t ring_steps(std::uint64_t length, RingVariant variant);

/// The phases of a torus C_a × C_b (ring:N is the torus 1 × N): phase 0 holds the a rows, phase 1
/// the b columns, each ring as node ids in ring order. @pre a, b ≥ 1.
[[nodiscard]] std::vector<std::vector<std::vector<NodeId>>> torus_rings(std::uint64_t a, std::uint64_t b);

/// The phases of a torus of any number of sides (families.hpp's mixed radix, the first side most
/// significant): one phase per coordinate, the last first, each ring the nodes that differ in that
/// coordinate only, in its order (torus_rings(a, b) is grid_rings({a, b})). @pre every side ≥ 1.
[[nodiscard]] std::vector<std::vector<std::vector<NodeId>>> grid_rings(std::span<const std::uint64_t> sides);

/// The rings of the topology a `ring:N` or `torus:AxBx…` spec names (torus_rings(1, N) or
/// grid_rings of the sides). @throws ScheduleError naming @p spec for any other family.
[[nodiscard]] std::vector<std::vector<std::vector<NodeId>>> spec_rings(std::string_view spec);

/// The ring all-reduce over @p phases on @p topology.
/// @throws ScheduleError naming the topology when two consecutive nodes of a ring (of length
/// ≥ 2) are not linked, or when a phase does not cover every node exactly once.
[[nodiscard]] Schedule ring_schedule(const topology::Topology& topology,
                                     const std::vector<std::vector<std::vector<NodeId>>>& phases,
                                     const emulator::PortModel& ports);

}  // namespace starnet::algorithms::generic

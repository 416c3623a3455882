#pragma once
/// @file
/// All-reduce by recursive doubling on the hypercube Q_d.
///
/// Problem: all-reduce of one word per node on Q_d (node x linked to x ⊕ 2^i, i < d) under a
/// port model.
///
/// Method: in round i = 0..d−1 every node x exchanges its partial result with x ⊕ 2^i and both
/// combine; after round i, x holds the reduction of the 2^{i+1} nodes that agree with it on bits
/// > i. One round is one step when a node may send and receive at once (full duplex, or half
/// duplex with k ≥ 2): d steps, which meets the ⌈log₂ 2^d⌉ = d lower bound of the single-port
/// model. Single-port half duplex: round i takes two steps — the node with bit i clear sends, its
/// partner combines and sends the result back (REPLACE) — 2d steps.
///
/// Paper: the butterfly/recursive-doubling all-reduce (R. Thakur, R. Rabenseifner, W. Gropp,
/// "Optimization of collective communication operations in MPICH", IJHPCA 19(1), 2005, Section
/// 4.4); the n-cube of Table 1 of Oh, Choi, Primeaux 2005, the comparison this tool makes.
///
/// Complexity: d·2^d transfers (2^d·d when split in half duplex), O(d·2^d) to plan.
/// IMPORTANT: uses every link of Q_d; it does not apply to a damaged cube (the what-if study
/// reports which link is used at which step instead), and k > 1 ports do not shorten it.

#include <starnet/algorithms/generic/schedule.hpp>
#include <starnet/emulator/config.hpp>
#include <starnet/topology/topology.hpp>

namespace starnet::algorithms::generic {

/// The recursive-doubling schedule on @p cube, whose node x must be linked to x ⊕ 2^i.
/// @throws ScheduleError naming the topology when its size is not a power of two or a needed
/// link x — x ⊕ 2^i is missing.
[[nodiscard]] Schedule recursive_doubling_schedule(const topology::Topology& cube, const emulator::PortModel& ports);

/// Recursive doubling on any N (Thakur, Rabenseifner, Gropp 2005, Section 4.4, for N not a power
/// of two): with N' = 2^⌊log₂ N⌋, nodes N'..N−1 first send their word to node v − N', which
/// combines it; nodes 0..N'−1 run recursive doubling; then node v − N' sends the result back
/// (REPLACE): log₂ N' + 2 steps (2·log₂ N' + 2 split in single-port half duplex). The plain schedule
/// when N is a power of two. Links v — v − N' and x — x ⊕ 2^i must exist: a complete graph has them.
/// @throws ScheduleError naming the topology and the missing link.
[[nodiscard]] Schedule recursive_doubling_folded_schedule(const topology::Topology& topology,
                                                          const emulator::PortModel& ports);

}  // namespace starnet::algorithms::generic

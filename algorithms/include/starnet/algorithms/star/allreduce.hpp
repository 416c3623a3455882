#pragma once
/// @file
/// All-reduce and all-to-all broadcast on the star graph S_n as node programs.
///
/// Paper: E. Oh, H. Choi, D. Primeaux, "An All-Reduce Operation in Star Networks Using All-to-All
/// Broadcast Communication Pattern", ICCS 2005, LNCS 3514: Section 3 (all-to-all broadcast,
/// NODUP, meta messages), Section 4 and Figure 2 (All-Reduce), Theorem 3 (n(n−1)/2 steps).
///
/// The recursion, unrolled: level m = 2..n runs after levels 2..m−1 and takes m−1 steps, so
/// level m occupies steps [T(m−1), T(m)) with T(m) = m(m−1)/2. In the first step of level m
/// every node sends its local result (the reduction of its sub-star S_{m−1}) along link m; in the
/// following steps it forwards what it received along link m to links m−1, m−2, …, 2, and
/// reduces everything it receives into its result. A node decides what to do from the step
/// number alone: nothing of size n!·steps exists anywhere. Every step, every node sends one
/// message and receives one (links are involutions), which is exactly the single-port
/// full-duplex model.
///
/// Notation: the paper's "result buffer + outgoing buffer" is our `result` (their sum); the
/// outgoing buffer is `forward`. Sub-star S_{n−1}^i of the paper (last symbol i) is a contiguous
/// rank range (topology/star_graph.hpp).
///
/// Complexity: n(n−1)/2 steps, n!·n(n−1)/2 messages of one word; O(1) state per node.
/// IMPORTANT: the operators are commutative (sum, min, max, xor): the paper's scheme combines
/// partial results in an order that depends on the node.

#include <starnet/algorithms/star/star_report.hpp>
#include <starnet/emulator/program.hpp>
#include <starnet/topology/star_graph.hpp>

#include <cstdint>
#include <memory>

namespace starnet::algorithms::star {

/// The sequential reduction of every node's value: what every node must end with.
[[nodiscard]] std::uint64_t reduce_sequentially(const topology::StarGraph& g, Op op, const Values& values);

/// The all-reduce node program for the nodes of @p range. Its report() checks every node's
/// final value against @p expected.
[[nodiscard]] std::unique_ptr<emulator::NodeProgram> make_allreduce_program(const topology::StarGraph& g, Op op,
                                                                            Values values, std::uint64_t expected,
                                                                            emulator::NodeRange range);

/// The all-to-all broadcast node program (NODUP). Node v's item is v itself; a meta message
/// carries the items of one sub-star, which are a contiguous rank range, as that range (begin,
/// end), and counts end − begin items. On receipt a node checks that the range is a whole
/// sub-star S_{m−1} of its own S_m that it does not hold yet (no item arrives twice); its
/// report() checks that every node ends holding all n! items.
[[nodiscard]] std::unique_ptr<emulator::NodeProgram> make_broadcast_program(const topology::StarGraph& g,
                                                                            emulator::NodeRange range);

}  // namespace starnet::algorithms::star

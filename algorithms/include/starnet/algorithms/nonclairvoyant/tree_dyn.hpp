#pragma once
/// @file
/// Tree-dyn and Non-Commut-Tree-dyn: the dynamic non-clairvoyant reductions of
/// A. Benoit, L.-C. Canon, L. Marchal, "Non-clairvoyant reduction algorithms for heterogeneous
/// platforms", Concurrency Computat.: Pract. Exper. 2014, Section 3 (and HeteroPar 2013).
///
/// n processors P_0..P_{n−1} on a fully connected platform; d_ij is the time to send a value from
/// P_i to P_j, c_i the time of one reduction on P_i; the costs are unknown to the algorithms and
/// only revealed by the emulator as operations finish. A processor receives at most one value at
/// a time, sends its value at most once, and reduces each value it receives immediately.
///
/// Tree-dyn keeps one shared slot. An idle processor looks into it: if it is empty it puts
/// itself there; otherwise it empties it and sends its value to the processor it found, which
/// reduces it (the receiver becomes idle again after its computation). Commutative ⊕ only.
/// Non-Commut-Tree-dyn keeps the array of idle processors instead: an idle processor holding
/// [v_i, v_j] looks for an idle processor holding a neighbour value [v_k, v_{i−1}] or
/// [v_{j+1}, v_k]; if there is one, the one holding the right-hand value sends it to the one
/// holding the left-hand value (ties: the left neighbour first), else it waits. Only
/// neighbouring partial results are ever combined.
///
/// The slot and the array are shared by all processors (the paper's abstraction of a
/// negligible-cost coordination): both programs run on the local engine only.
///
/// Complexity: O(n) messages and computations; the idle array costs O(log n) per look-up.
/// IMPORTANT: the result is checked at the end (report()); values are 64-bit words, ⊕ is + (mod
/// 2^64) for Tree-dyn and interval concatenation for Non-Commut-Tree-dyn (see reduce_value.hpp).

#include <starnet/emulator/program.hpp>

#include <memory>

namespace starnet::algorithms::nonclairvoyant {

/// @pre the program serves all n nodes of a complete graph (local engine).
/// @throws ScheduleError when @p range is not every node (a zmq partition).
[[nodiscard]] std::unique_ptr<emulator::NodeProgram> make_tree_dyn(emulator::NodeRange range);
[[nodiscard]] std::unique_ptr<emulator::NodeProgram> make_noncommut_tree_dyn(emulator::NodeRange range);

}  // namespace starnet::algorithms::nonclairvoyant

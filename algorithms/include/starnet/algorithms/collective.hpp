#pragma once
/// @file
/// The collectives, one vocabulary for every part of starnet (schedules, what-if studies, optimal
/// searches, steady-state series) and both front ends. MPI's names: every node v holds x_v (or a
/// buffer of chunks, schedule/collective.hpp), and at the end
///
/// | collective    | who ends with what                                                     |
/// |---------------|------------------------------------------------------------------------|
/// | allreduce     | every node: x_0 ⊕ … ⊕ x_{N−1}                                          |
/// | reduce        | the root: x_0 ⊕ … ⊕ x_{N−1}                                            |
/// | broadcast     | every node: x_root                                                     |
/// | allgather     | every node: every x_u ("gossip" in the star-graph literature)          |
/// | gather        | the root: every x_u                                                    |
/// | scatter       | node v: the root's block for v                                         |
/// | reducescatter | node v: block v of x_0 ⊕ … ⊕ x_{N−1}                                   |
/// | alltoall      | node v: block v of every x_u (the total exchange; a series of them is  |
/// |               | the steady-state paper's "gossip")                                     |

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace starnet::algorithms {

enum class Collective : std::uint8_t { ALLREDUCE, REDUCE, BROADCAST, ALLGATHER, GATHER, SCATTER, REDUCESCATTER, ALLTOALL };

/// Every collective, in the order of the table above.
inline constexpr Collective ALL_COLLECTIVES[] = {Collective::ALLREDUCE, Collective::REDUCE,    Collective::BROADCAST,
                                                 Collective::ALLGATHER, Collective::GATHER,    Collective::SCATTER,
                                                 Collective::REDUCESCATTER, Collective::ALLTOALL};

/// "allreduce", "reduce", …
[[nodiscard]] std::string to_string(Collective c);
/// Also accepts "gossip" for allgather. @return nothing for an unknown name.
[[nodiscard]] std::optional<Collective> find_collective(std::string_view text);
/// "allreduce, reduce, broadcast, allgather, gather, scatter, reducescatter or alltoall".
[[nodiscard]] std::string collective_choices();
/// Has a root: reduce, broadcast, gather, scatter.
[[nodiscard]] bool is_rooted(Collective c);
/// Splits the data into one block per node: allgather, gather, scatter, reducescatter, alltoall.
[[nodiscard]] bool is_blocked(Collective c);
/// Combines values with an operator: allreduce, reduce, reducescatter.
[[nodiscard]] bool reduces(Collective c);

}  // namespace starnet::algorithms

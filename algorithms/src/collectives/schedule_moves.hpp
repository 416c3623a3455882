#pragma once
/// @file
/// A stepped schedule read back as its transfers (each receive paired with its send), for the
/// builders that compose schedules: dimension_ordered.cpp, split_allreduce.cpp.

#include <starnet/algorithms/schedule/chunk_schedule.hpp>

#include <cstdint>
#include <vector>

namespace starnet::algorithms::collectives {

/// One transfer: chunk src of @p from → chunk dst of @p to at @p step (a local operation: from == to).
struct Move {
  std::uint32_t step = 0;
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  std::vector<schedule::TransferItem> items;
};

/// The transfers of stepped schedule @p s, node by node. O(actions).
/// @pre s.form() == Form::STEPPED (every built-in schedule is).
[[nodiscard]] std::vector<Move> moves_of(const schedule::Schedule& s);

}  // namespace starnet::algorithms::collectives

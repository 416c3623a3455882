#pragma once
/// @file
/// What a run will need in memory, as an estimate states it (memory.hpp makes and checks it), and
/// byte counts for people: the data that results carry and faces print.
#include <cstdint>
#include <string>

namespace starnet::emulator {

/// What a run will need, in bytes, and of what it is made (for the message).
struct MemoryEstimate {
  std::uint64_t bytes = 0;
  /// e.g. "479,001,600 nodes × 104 B (engine, per node) + 2 workers × 40 MiB".
  std::string breakdown;
};

/// @p bytes for people: "1.5 GiB", "320 MiB", "12 KiB", "80 B".
[[nodiscard]] std::string human_bytes(std::uint64_t bytes);

}  // namespace starnet::emulator

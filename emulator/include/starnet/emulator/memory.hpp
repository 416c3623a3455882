#pragma once
/// @file
/// Memory before work: what a run may use, and a refusal up front when its estimate does not fit
/// (docs/limits.md). A run that would end in the kernel's out-of-memory killer after minutes of
/// work is refused in a millisecond instead, with the estimate, what is available, and what to do.
#include <starnet/emulator/memory_estimate.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace starnet::emulator {

/// Bytes per node that the local engine's dense step path keeps for the star collectives (the
/// sender and 8-byte payload of this step's and the next step's arrival), besides the node
/// program's own state (emulator/src/dense_step.hpp).
inline constexpr std::uint64_t DENSE_STEP_BYTES_PER_NODE = 2 * (4 + 8);

/// The memory a process may use, and which bound gives it.
struct MemoryBound {
  std::uint64_t bytes = 0;
  /// e.g. "available memory (MemAvailable of /proc/meminfo)", "ulimit -v", "cgroup memory.max".
  std::string source;
};

/// @brief The smallest of: the memory the machine has available (MemAvailable), the address-space
/// and data-segment limits of the process (`ulimit -v`, `ulimit -d`) less what it already maps,
/// and the cgroup's limit (v2 memory.max, v1 memory.limit_in_bytes) less what the cgroup uses.
/// Bounds that cannot be read are left out; with none, bytes is UINT64_MAX.
/// Complexity: reads a few files of /proc and /sys.
[[nodiscard]] MemoryBound usable_memory();

/// @brief Refuses a run whose estimate exceeds what it may use, unless forced.
/// @param what names the run, e.g. "allreduce on star:12".
/// @param hint what the user can do, in the front end's words (the command line names its flags).
/// @throws InputError (exit 2) naming @p what, the estimate, the bound and its source and @p hint
/// when @p need.bytes > @p bound.bytes and @p force is false.
void check_memory(const MemoryEstimate& need, const MemoryBound& bound, bool force, std::string_view what,
                  std::string_view hint);

/// The peak resident set of this process so far (VmHWM of /proc/self/status), 0 where unknown.
[[nodiscard]] std::uint64_t peak_resident_bytes();

}  // namespace starnet::emulator

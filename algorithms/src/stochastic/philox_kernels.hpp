#pragma once
// The Philox4x32-10 kernels behind RandomStream::refill, private to the stochastic part. Each
// computes the eight blocks of one refill on the vector unit it is written for; refill() takes
// the first kernel this CPU runs, and the tests compare every one of them with the reference
// philox4x32_10, so that each machine checks all the kernels it can run.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace starnet::algorithms::stochastic::detail {

inline constexpr std::size_t PHILOX_BLOCKS = 8;  // blocks per refill
using PhiloxNumbers = std::array<std::uint64_t, 2 * PHILOX_BLOCKS>;

/// Blocks counter + 0 … counter + 7 (word 0 advanced; refills start at multiples of 8, so it
/// does not wrap) under @p key, as numbers: block l gives out[2l] = (w1 << 32) | w0 and
/// out[2l + 1] = (w3 << 32) | w2.
using PhiloxKernel = void (*)(const std::array<std::uint32_t, 4>& counter, std::array<std::uint32_t, 2> key,
                              PhiloxNumbers& out);

struct NamedPhiloxKernel {
  std::string_view name;
  PhiloxKernel run;
};

/// The kernels this CPU runs, fastest first (x86-64: "avx2" where the CPU has it, then "sse2";
/// elsewhere "portable").
[[nodiscard]] std::span<const NamedPhiloxKernel> philox_kernels();

}  // namespace starnet::algorithms::stochastic::detail

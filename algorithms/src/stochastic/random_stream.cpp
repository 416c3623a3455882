#include "philox_kernels.hpp"

#include <starnet/algorithms/stochastic/random_stream.hpp>
#include <starnet/core/error.hpp>

#include <string>

namespace starnet::algorithms::stochastic {
namespace detail {
namespace {

#if defined(__x86_64__)
// Philox4x32-10 on x86-64's vector units, SLOTS lanes to a register: 2 with SSE2 (every x86-64
// has it), 4 with AVX2. Each 32-bit word sits in the low half of a 64-bit slot: pmuludq
// multiplies exactly those low halves into the whole 64-bit product, whose low half is the new
// word as it stands and whose high half is one shift away. The high halves the slots then carry
// are never read (pmuludq takes low halves only, xor keeps halves apart, the output masks them),
// so a round costs two multiplications, two shifts and four xors a register. The generic
// philox4x32_10_lanes is not vectorised well by GCC 12 (it builds each product from three
// multiplications); the known-answer, stream-layout and kernel tests check that all give the
// same bits. One template serves both widths: plain vector operations, and pmuludq written in
// assembly because its intrinsics are tied to one instruction set.
template <std::size_t SLOTS>
using Slots [[gnu::vector_size(8 * SLOTS)]] = std::uint64_t;

/// @p a = the 64-bit products of the low halves of @p a's and @p b's slots (by reference: a
/// 256-bit vector passed by value outside the AVX2 kernel would draw GCC's ABI note).
/// Clang checks an asm operand's size against the instruction set of the function the asm is
/// written in (this helper's, not its AVX2 caller's) and refuses the 256-bit one; it lowers the
/// product of the masked slots to (v)pmuludq by itself.
template <class V>
[[gnu::always_inline]] inline void multiply_low_halves(V& a, const V& b) {
#if defined(__clang__)
  constexpr V LOW = V{} + 0xFFFFFFFFU;
  a = (a & LOW) * (b & LOW);
#else
  if constexpr (sizeof(V) == 32) {
    asm("vpmuludq %1, %0, %0" : "+x"(a) : "x"(b));
  } else {
    asm("pmuludq %1, %0" : "+x"(a) : "x"(b));
  }
#endif
}

// Always inlined, so that the AVX2 caller's instruction set applies to the 256-bit operations.
template <std::size_t SLOTS>
[[gnu::always_inline]] inline void philox_slots(const std::array<std::uint32_t, 4>& counter,
                                                std::array<std::uint32_t, 2> key, PhiloxNumbers& out) {
  using V = Slots<SLOTS>;
  constexpr std::size_t REGISTERS = PHILOX_BLOCKS / SLOTS;
  V x[4][REGISTERS];  // NOLINT: a std::array of vectors drops their alignment attribute
  for (std::size_t r = 0; r < REGISTERS; ++r) {
    for (std::size_t s = 0; s < SLOTS; ++s) x[0][r][s] = counter[0] + static_cast<std::uint32_t>(r * SLOTS + s);
    for (std::size_t w = 1; w < 4; ++w) x[w][r] = V{} + counter[w];
  }
  const V multiplier_0 = V{} + PHILOX_MULTIPLIER_0;
  const V multiplier_1 = V{} + PHILOX_MULTIPLIER_1;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += PHILOX_WEYL_0;
      key[1] += PHILOX_WEYL_1;
    }
    for (std::size_t r = 0; r < REGISTERS; ++r) {
      V product_0 = x[0][r];
      V product_1 = x[2][r];
      multiply_low_halves(product_0, multiplier_0);
      multiply_low_halves(product_1, multiplier_1);
      x[0][r] = (product_1 >> 32) ^ x[1][r] ^ key[0];
      x[1][r] = product_1;
      x[2][r] = (product_0 >> 32) ^ x[3][r] ^ key[1];
      x[3][r] = product_0;
    }
  }
  for (std::size_t r = 0; r < REGISTERS; ++r) {
    const V first = (x[1][r] << 32) | (x[0][r] & 0xFFFFFFFFU);
    const V second = (x[3][r] << 32) | (x[2][r] & 0xFFFFFFFFU);
    for (std::size_t s = 0; s < SLOTS; ++s) {
      out[2 * (r * SLOTS + s)] = first[s];
      out[2 * (r * SLOTS + s) + 1] = second[s];
    }
  }
}

void philox_blocks_sse2(const std::array<std::uint32_t, 4>& counter, std::array<std::uint32_t, 2> key,
                        PhiloxNumbers& out) {
  philox_slots<2>(counter, key, out);
}

[[gnu::target("avx2")]] void philox_blocks_avx2(const std::array<std::uint32_t, 4>& counter,
                                               std::array<std::uint32_t, 2> key, PhiloxNumbers& out) {
  philox_slots<4>(counter, key, out);
}

}  // namespace

std::span<const NamedPhiloxKernel> philox_kernels() {
  static constexpr std::array<NamedPhiloxKernel, 2> ALL = {
      {{"avx2", philox_blocks_avx2}, {"sse2", philox_blocks_sse2}}};
  static const std::span<const NamedPhiloxKernel> usable =
      __builtin_cpu_supports("avx2") ? std::span(ALL) : std::span(ALL).subspan(1);
  return usable;
}
#else
void philox_blocks_portable(const std::array<std::uint32_t, 4>& counter, std::array<std::uint32_t, 2> key,
                            PhiloxNumbers& out) {
  std::array<std::array<std::uint32_t, PHILOX_BLOCKS>, 4> lanes{};
  for (std::size_t l = 0; l < PHILOX_BLOCKS; ++l) {
    lanes[0][l] = counter[0] + static_cast<std::uint32_t>(l);
    for (std::size_t w = 1; w < 4; ++w) lanes[w][l] = counter[w];
  }
  philox4x32_10_lanes(lanes, key);
  for (std::size_t l = 0; l < PHILOX_BLOCKS; ++l) {
    out[2 * l] = (static_cast<std::uint64_t>(lanes[1][l]) << 32) | lanes[0][l];
    out[2 * l + 1] = (static_cast<std::uint64_t>(lanes[3][l]) << 32) | lanes[2][l];
  }
}

}  // namespace

std::span<const NamedPhiloxKernel> philox_kernels() {
  static constexpr std::array<NamedPhiloxKernel, 1> ALL = {{{"portable", philox_blocks_portable}}};
  return ALL;
}
#endif

}  // namespace detail

void RandomStream::refill() {
  if (exhausted_) {
    throw Error("random stream of run " + std::to_string(run_index()) + ", substream " + std::to_string(substream()) +
                ": all 2^33 numbers used (a run needs far fewer; use another substream)");
  }
  static_assert(BLOCKS == detail::PHILOX_BLOCKS);
  static const detail::PhiloxKernel kernel = detail::philox_kernels().front().run;
  kernel(counter_, key_, buffer_);
  counter_[0] += static_cast<std::uint32_t>(BLOCKS);
  exhausted_ = counter_[0] == 0;  // 2^32 is a multiple of BLOCKS: the wrap lands here exactly
  next_ = 0;
}

void RandomStream::seek(std::uint64_t index) {
  constexpr std::uint64_t LENGTH = std::uint64_t{1} << 33;
  if (index >= LENGTH) {
    throw InputError("random stream position " + std::to_string(index) + " is past its end (must be < 2^33)");
  }
  counter_[0] = static_cast<std::uint32_t>(index / BUFFERED * BLOCKS);
  exhausted_ = false;
  refill();
  next_ = static_cast<std::size_t>(index % BUFFERED);
}

}  // namespace starnet::algorithms::stochastic

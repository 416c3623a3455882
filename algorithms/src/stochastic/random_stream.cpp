#include <starnet/algorithms/stochastic/random_stream.hpp>
#include <starnet/topology/error.hpp>

#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace starnet::algorithms::stochastic {
namespace {

constexpr std::size_t LANES = 8;  // blocks per refill (RandomStream::BLOCKS)
using Lanes = std::array<std::array<std::uint32_t, LANES>, 4>;

#if defined(__SSE2__)
// Philox4x32-10 on 8 lanes with SSE2 (every x86-64 has it), as two independent groups of four
// so that one group's multiplications overlap the other's latency. The generic
// philox4x32_10_lanes is not vectorised by GCC 12 here and spills: ~8 ns per number instead of
// ~2.5 ns. The known-answer and stream-layout tests check that both give the same bits.
void philox_lanes(Lanes& counters, std::array<std::uint32_t, 2> key) {
  constexpr std::size_t GROUPS = LANES / 4;
  __m128i x[4][GROUPS];  // NOLINT: a std::array of __m128i drops its alignment attribute
  for (std::size_t w = 0; w < 4; ++w) {
    for (std::size_t g = 0; g < GROUPS; ++g) {
      x[w][g] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(counters[w].data() + 4 * g));
    }
  }
  const __m128i multiplier_0 = _mm_set1_epi32(static_cast<int>(0xD2511F53U));
  const __m128i multiplier_1 = _mm_set1_epi32(static_cast<int>(0xCD9E8D57U));
  const __m128i low_halves = _mm_set1_epi64x(0x00000000FFFFFFFFLL);
  // (high 32 bits, low 32 bits) of the four 32×32→64-bit products v·m, lane by lane.
  const auto mulhilo = [&](__m128i v, __m128i m, __m128i& hi, __m128i& lo) {
    const __m128i even = _mm_mul_epu32(v, m);                     // lanes 0 and 2
    const __m128i odd = _mm_mul_epu32(_mm_srli_epi64(v, 32), m);  // lanes 1 and 3
    lo = _mm_or_si128(_mm_and_si128(even, low_halves), _mm_slli_epi64(odd, 32));
    hi = _mm_or_si128(_mm_srli_epi64(even, 32), _mm_andnot_si128(low_halves, odd));
  };
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += 0x9E3779B9U;
      key[1] += 0xBB67AE85U;
    }
    const __m128i k0 = _mm_set1_epi32(static_cast<int>(key[0]));
    const __m128i k1 = _mm_set1_epi32(static_cast<int>(key[1]));
    for (std::size_t g = 0; g < GROUPS; ++g) {
      __m128i hi0;
      __m128i lo0;
      __m128i hi1;
      __m128i lo1;
      mulhilo(x[0][g], multiplier_0, hi0, lo0);
      mulhilo(x[2][g], multiplier_1, hi1, lo1);
      x[0][g] = _mm_xor_si128(_mm_xor_si128(hi1, x[1][g]), k0);
      x[1][g] = lo1;
      x[2][g] = _mm_xor_si128(_mm_xor_si128(hi0, x[3][g]), k1);
      x[3][g] = lo0;
    }
  }
  for (std::size_t w = 0; w < 4; ++w) {
    for (std::size_t g = 0; g < GROUPS; ++g) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(counters[w].data() + 4 * g), x[w][g]);
    }
  }
}
#else
void philox_lanes(Lanes& counters, std::array<std::uint32_t, 2> key) { philox4x32_10_lanes(counters, key); }
#endif

}  // namespace

void RandomStream::refill() {
  if (exhausted_) {
    throw Error("random stream of run " + std::to_string(run_index()) + ", substream " + std::to_string(substream()) +
                ": all 2^33 numbers used (a run needs far fewer; use another substream)");
  }
  static_assert(BLOCKS == LANES);
  Lanes lanes{};
  for (std::size_t l = 0; l < BLOCKS; ++l) {
    lanes[0][l] = counter_[0] + static_cast<std::uint32_t>(l);
    for (std::size_t w = 1; w < 4; ++w) lanes[w][l] = counter_[w];
  }
  philox_lanes(lanes, key_);
  for (std::size_t l = 0; l < BLOCKS; ++l) {
    buffer_[2 * l] = (static_cast<std::uint64_t>(lanes[1][l]) << 32) | lanes[0][l];
    buffer_[2 * l + 1] = (static_cast<std::uint64_t>(lanes[3][l]) << 32) | lanes[2][l];
  }
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

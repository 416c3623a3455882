#include <starnet/algorithms/stochastic/random_stream.hpp>
#include <starnet/topology/error.hpp>

#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace starnet::algorithms::stochastic {
namespace {

constexpr std::size_t LANES = 8;  // blocks per refill (RandomStream::BLOCKS)
using Numbers = std::array<std::uint64_t, 2 * LANES>;

/// The blocks counter + 0 … counter + 7 (word 0 advanced; refills start at multiples of 8, so
/// it does not wrap) as numbers: block l gives (w1 << 32) | w0, then (w3 << 32) | w2.
void philox_blocks(const std::array<std::uint32_t, 4>& counter, std::array<std::uint32_t, 2> key, Numbers& out);

#if defined(__SSE2__)
// Philox4x32-10 with SSE2 (every x86-64 has it), two lanes to a register. Each 32-bit word sits
// in the low half of a 64-bit slot: _mm_mul_epu32 multiplies exactly those low halves into the
// whole 64-bit product, whose low half is the new word as it stands and whose high half is one
// shift away. The high halves the slots then carry are never read (multiplications take low
// halves only, xor keeps halves apart, the output masks them), so a round costs two
// multiplications, two shifts and four xors per two lanes. Four lanes at a time keep the state
// in registers. The generic philox4x32_10_lanes is not vectorised well by GCC 12 (it builds
// each product from three multiplications); the known-answer and stream-layout tests check
// that both give the same bits.
void philox_blocks(const std::array<std::uint32_t, 4>& counter, std::array<std::uint32_t, 2> key, Numbers& out) {
  constexpr std::size_t PAIRS = 2;  // pairs of lanes computed together
  const __m128i multiplier_0 = _mm_set1_epi64x(0xD2511F53U);
  const __m128i multiplier_1 = _mm_set1_epi64x(0xCD9E8D57U);
  const __m128i low_halves = _mm_set1_epi64x(0xFFFFFFFFU);
  for (std::size_t first = 0; first < LANES; first += 2 * PAIRS) {
    __m128i x[4][PAIRS];  // NOLINT: a std::array of __m128i drops its alignment attribute
    for (std::size_t p = 0; p < PAIRS; ++p) {
      const std::uint32_t lane = counter[0] + static_cast<std::uint32_t>(first + 2 * p);
      x[0][p] = _mm_set_epi64x(lane + 1, lane);
      for (std::size_t w = 1; w < 4; ++w) x[w][p] = _mm_set1_epi64x(counter[w]);
    }
    std::array<std::uint32_t, 2> k = key;
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        k[0] += 0x9E3779B9U;
        k[1] += 0xBB67AE85U;
      }
      const __m128i k0 = _mm_set1_epi64x(k[0]);
      const __m128i k1 = _mm_set1_epi64x(k[1]);
      for (std::size_t p = 0; p < PAIRS; ++p) {
        const __m128i product_0 = _mm_mul_epu32(x[0][p], multiplier_0);
        const __m128i product_1 = _mm_mul_epu32(x[2][p], multiplier_1);
        x[0][p] = _mm_xor_si128(_mm_xor_si128(_mm_srli_epi64(product_1, 32), x[1][p]), k0);
        x[1][p] = product_1;
        x[2][p] = _mm_xor_si128(_mm_xor_si128(_mm_srli_epi64(product_0, 32), x[3][p]), k1);
        x[3][p] = product_0;
      }
    }
    for (std::size_t p = 0; p < PAIRS; ++p) {
      const __m128i a = _mm_or_si128(_mm_slli_epi64(x[1][p], 32), _mm_and_si128(x[0][p], low_halves));
      const __m128i b = _mm_or_si128(_mm_slli_epi64(x[3][p], 32), _mm_and_si128(x[2][p], low_halves));
      auto* at = reinterpret_cast<__m128i*>(out.data() + 2 * (first + 2 * p));
      _mm_storeu_si128(at, _mm_unpacklo_epi64(a, b));
      _mm_storeu_si128(at + 1, _mm_unpackhi_epi64(a, b));
    }
  }
}
#else
void philox_blocks(const std::array<std::uint32_t, 4>& counter, std::array<std::uint32_t, 2> key, Numbers& out) {
  std::array<std::array<std::uint32_t, LANES>, 4> lanes{};
  for (std::size_t l = 0; l < LANES; ++l) {
    lanes[0][l] = counter[0] + static_cast<std::uint32_t>(l);
    for (std::size_t w = 1; w < 4; ++w) lanes[w][l] = counter[w];
  }
  philox4x32_10_lanes(lanes, key);
  for (std::size_t l = 0; l < LANES; ++l) {
    out[2 * l] = (static_cast<std::uint64_t>(lanes[1][l]) << 32) | lanes[0][l];
    out[2 * l + 1] = (static_cast<std::uint64_t>(lanes[3][l]) << 32) | lanes[2][l];
  }
}
#endif

}  // namespace

void RandomStream::refill() {
  if (exhausted_) {
    throw Error("random stream of run " + std::to_string(run_index()) + ", substream " + std::to_string(substream()) +
                ": all 2^33 numbers used (a run needs far fewer; use another substream)");
  }
  static_assert(BLOCKS == LANES);
  philox_blocks(counter_, key_, buffer_);
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

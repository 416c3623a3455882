#include "../../../algorithms/src/stochastic/philox_kernels.hpp"

#include <starnet/algorithms/stochastic/cost_distribution.hpp>
#include <starnet/algorithms/stochastic/random_stream.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace starnet::algorithms::stochastic {
namespace {

struct PhiloxVector {
  std::array<std::uint32_t, 4> counter;
  std::array<std::uint32_t, 2> key;
  std::array<std::uint32_t, 4> expected;
};

// The philox4x32 10 lines of Random123's kat_vectors (Salmon et al., SC'11 reference code).
constexpr std::array<PhiloxVector, 3> KNOWN_ANSWERS = {{
    {{0x00000000, 0x00000000, 0x00000000, 0x00000000}, {0x00000000, 0x00000000},
     {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
}};

TEST(Philox4x32, MatchesRandom123KnownAnswers) {
  for (const auto& v : KNOWN_ANSWERS) {
    EXPECT_EQ(philox4x32_10(v.counter, v.key), v.expected) << " counter[0]=" << std::hex << v.counter[0];
  }
}

TEST(Philox4x32, IsConstexpr) {
  static_assert(philox4x32_10({0, 0, 0, 0}, {0, 0})[0] == 0x6627e8d5U);
  SUCCEED();
}

TEST(RandomStream, FirstNumbersAreTheZeroKnownAnswer) {
  RandomStream s(/*seed=*/0, /*run_index=*/0);
  EXPECT_EQ(s.next_u64(), 0xe169c58d6627e8d5ULL);
  EXPECT_EQ(s.next_u64(), 0x9b00dbd8bc57ac4cULL);
}

TEST(RandomStream, LaysSeedRunAndSubstreamOutAsDocumented) {
  const std::uint64_t seed = 0x299f31d0a4093822ULL;
  const std::uint64_t run = 0x0370734413198a2eULL;
  RandomStream s(seed, run, /*substream=*/0x85a308d3U);
  EXPECT_EQ(s.run_index(), run);
  EXPECT_EQ(s.substream(), 0x85a308d3U);
  for (std::uint32_t block = 0; block < 20; ++block) {  // across several refills of 8 blocks
    const auto words = philox4x32_10({block, 0x85a308d3U, 0x13198a2eU, 0x03707344U}, {0xa4093822U, 0x299f31d0U});
    EXPECT_EQ(s.next_u64(), (std::uint64_t{words[1]} << 32) | words[0]) << " block=" << block;
    EXPECT_EQ(s.next_u64(), (std::uint64_t{words[3]} << 32) | words[2]) << " block=" << block;
  }
}

TEST(PhiloxKernels, EveryKernelThisCpuRunsGivesTheReferenceBlocks) {
  const auto kernels = detail::philox_kernels();
  ASSERT_FALSE(kernels.empty());
#if defined(__x86_64__)
  EXPECT_EQ(kernels.back().name, "sse2");  // every x86-64 has it; AVX2 comes first where present
#endif
  const std::array<std::array<std::uint32_t, 2>, 3> keys = {{{0, 0}, {0xa4093822U, 0x299f31d0U}, {~0U, ~0U}}};
  // Refills start at multiples of 8; the last one of a stream ends at 2^32 - 1 in word 0.
  const std::array<std::uint32_t, 3> starts = {0, 0x243f6a88U & ~7U, ~7U};
  for (const auto& kernel : kernels) {
    for (const auto& key : keys) {
      for (const std::uint32_t start : starts) {
        const std::array<std::uint32_t, 4> counter = {start, 0x85a308d3U, 0xffffffffU, 0x03707344U};
        detail::PhiloxNumbers out{};
        kernel.run(counter, key, out);
        for (std::uint32_t l = 0; l < detail::PHILOX_BLOCKS; ++l) {
          const auto words = philox4x32_10({start + l, counter[1], counter[2], counter[3]}, key);
          EXPECT_EQ(out[2 * l], (std::uint64_t{words[1]} << 32) | words[0]) << kernel.name << " block " << l;
          EXPECT_EQ(out[2 * l + 1], (std::uint64_t{words[3]} << 32) | words[2]) << kernel.name << " block " << l;
        }
      }
    }
  }
}

TEST(RandomStream, SeekGivesRandomAccessToTheSequence) {
  RandomStream sequential(/*seed=*/9, /*run_index=*/4, /*substream=*/2);
  std::vector<std::uint64_t> first(40);
  for (auto& x : first) x = sequential.next_u64();
  RandomStream jumping(/*seed=*/9, /*run_index=*/4, /*substream=*/2);
  for (const std::uint64_t index : {17U, 3U, 0U, 39U, 8U, 7U}) {
    jumping.seek(index);
    EXPECT_EQ(jumping.next_u64(), first[index]) << " index=" << index;
    if (index + 1 < first.size()) {
      EXPECT_EQ(jumping.next_u64(), first[index + 1]) << " index=" << index;
    }
  }
}

TEST(RandomStream, EndsAfterTwoToThe33Numbers) {
  const std::uint64_t length = std::uint64_t{1} << 33;
  RandomStream s(/*seed=*/1, /*run_index=*/2);
  s.seek(length - 2);
  const auto words = philox4x32_10({0xFFFFFFFFU, 0, 2, 0}, {1, 0});  // the last block
  EXPECT_EQ(s.next_u64(), (std::uint64_t{words[1]} << 32) | words[0]);
  EXPECT_EQ(s.next_u64(), (std::uint64_t{words[3]} << 32) | words[2]);
  try {
    (void)s.next_u64();
    FAIL() << "drew past the end";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("run 2"), std::string::npos) << e.what();
  }
  try {
    s.seek(length);
    FAIL() << "seeked past the end";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("position 8589934592"), std::string::npos) << e.what();
  }
}

TEST(RandomStream, DistinctSeedsRunsAndSubstreamsGiveDistinctNumbers) {
  std::set<std::uint64_t> seen;
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    for (std::uint64_t run = 0; run < 4; ++run) {
      for (std::uint32_t sub = 0; sub < 4; ++sub) {
        RandomStream s(seed, run, sub);
        for (int k = 0; k < 16; ++k) seen.insert(s.next_u64());
      }
    }
  }
  EXPECT_EQ(seen.size(), 4U * 4U * 4U * 16U);
}

TEST(RandomStream, UniformsAreInsideTheOpenUnitIntervalWithMeanOneHalf) {
  RandomStream s(/*seed=*/7, /*run_index=*/1);
  constexpr int N = 400000;
  double sum = 0;
  double below_tenth = 0;
  for (int k = 0; k < N; ++k) {
    const double u = s.next_uniform();
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    below_tenth += u < 0.1 ? 1 : 0;
  }
  // Standard errors: √(1/12/N) for the mean, √(0.09/N) for the proportion.
  EXPECT_NEAR(sum / N, 0.5, 5 * std::sqrt(1.0 / 12 / N));
  EXPECT_NEAR(below_tenth / N, 0.1, 5 * std::sqrt(0.09 / N));
}

// The property the Monte-Carlo studies rely on: run i draws the same costs whatever the number
// of threads and whichever thread runs it.
std::vector<double> costs_of_runs(int threads) {
  constexpr std::size_t RUNS = 2000;
  const CostDistribution gamma(DistributionKind::GAMMA, /*mean=*/1.0, /*cv=*/2.0);
  std::vector<double> sums(RUNS);
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, RUNS, [&](std::size_t run) {
      RandomStream stream(/*seed=*/2014, run);
      double total = 0;
      for (int k = 0; k < 63; ++k) total += gamma(stream);
      sums[run] = total;
    });
  });
  return sums;
}

TEST(RandomStream, RunsDrawTheSameNumbersWhateverTheThreadCount) {
  const auto one = costs_of_runs(1);
  EXPECT_EQ(costs_of_runs(2), one);
  EXPECT_EQ(costs_of_runs(4), one);
  EXPECT_EQ(costs_of_runs(7), one);
}

}  // namespace
}  // namespace starnet::algorithms::stochastic

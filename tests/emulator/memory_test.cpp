#include <starnet/emulator/memory.hpp>
#include <starnet/core/error.hpp>

#include "../core/sanitizers.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <sys/resource.h>

namespace starnet::emulator {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(Memory, UsableMemoryIsAtMostWhatTheMachineHasAvailable) {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  std::uint64_t available = 0;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") available = kib * 1024;
  }
  ASSERT_GT(available, 0U) << "/proc/meminfo has no MemAvailable";
  const MemoryBound bound = usable_memory();
  // MemAvailable moves between the two reads; 1 GiB of slack is far more than it moves here.
  EXPECT_LE(bound.bytes, available + (std::uint64_t{1} << 30));
  EXPECT_GT(bound.bytes, 0U);
  EXPECT_FALSE(bound.source.empty());
}

TEST(Memory, CheckRefusesAnEstimateAboveTheBoundNamingBothAndTheHint) {
  const MemoryBound bound{std::uint64_t{2} << 30, "ulimit -v"};
  const MemoryEstimate need{std::uint64_t{3} << 30, "1000 nodes × 3 B"};
  try {
    check_memory(need, bound, /*force=*/false, "the all-reduce on star:12", "a smaller topology");
    FAIL() << "a 3 GiB run fitted in 2 GiB";
  } catch (const InputError& e) {
    EXPECT_EQ(e.exit_code(), 2);
    EXPECT_THAT(e.what(), AllOf(HasSubstr("the all-reduce on star:12 needs about 3.0 GiB (1000 nodes × 3 B)"),
                                HasSubstr("the 2.0 GiB it may use (ulimit -v)"), HasSubstr("try a smaller topology"),
                                Not(HasSubstr("--"))))
        << " the library names no command-line flag (the hint is the front end's)";
  }
  EXPECT_NO_THROW(check_memory(need, bound, /*force=*/true, "run", "hint"));
  EXPECT_NO_THROW(check_memory({bound.bytes, ""}, bound, /*force=*/false, "run", "hint"));
}

/// VmSize of this process, in bytes.
std::uint64_t mapped_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmSize:") {
      std::uint64_t kib = 0;
      status >> kib;
      return kib * 1024;
    }
  }
  return 0;
}

TEST(Memory, AnAddressSpaceLimitBoundsWhatTheProcessMayUse) {
#ifdef STARNET_UNDER_SANITIZER
  GTEST_SKIP() << "sanitizers map terabytes of shadow memory: an address-space limit cannot be set under them";
#else
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_AS, &old), 0);
  constexpr std::uint64_t HEADROOM = std::uint64_t{256} << 20;
  const std::uint64_t mapped = mapped_bytes();
  ASSERT_GT(mapped, 0U);
  rlimit limited = old;
  limited.rlim_cur = static_cast<rlim_t>(mapped + HEADROOM);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < limited.rlim_cur) GTEST_SKIP() << "already under a tighter ulimit -v";
  ASSERT_EQ(::setrlimit(RLIMIT_AS, &limited), 0);
  const MemoryBound bound = usable_memory();
  ASSERT_EQ(::setrlimit(RLIMIT_AS, &old), 0);
  // The process may unmap a little between the two reads of its mappings (seen: 8 KiB).
  constexpr std::uint64_t UNMAPPED_BETWEEN_READS = std::uint64_t{1} << 20;
  EXPECT_LE(bound.bytes, HEADROOM + UNMAPPED_BETWEEN_READS);
  EXPECT_GT(bound.bytes, HEADROOM / 2);  // only what the reads themselves mapped is gone
  EXPECT_THAT(bound.source, HasSubstr("ulimit -v"));
#endif
}

TEST(Memory, HumanBytesUsesBinaryUnits) {
  EXPECT_EQ(human_bytes(80), "80 B");
  EXPECT_EQ(human_bytes(12 * 1024), "12.0 KiB");
  EXPECT_EQ(human_bytes(std::uint64_t{3} << 29), "1.5 GiB");
  EXPECT_EQ(human_bytes(std::uint64_t{1} << 41), "2.0 TiB");
}

}  // namespace
}  // namespace starnet::emulator

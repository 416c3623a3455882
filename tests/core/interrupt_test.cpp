// Stop requests (core/interrupt.hpp): a fill of a large array looks at one between stretches.
#include "expect_error.hpp"

#include <starnet/core/interrupt.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace starnet {
namespace {

TEST(AssignInterruptibly, FillsEveryElementWithoutAStopRequest) {
  std::vector<std::uint32_t> v{1, 2, 3};
  const std::size_t n = 3 * STOP_CHECK_FILL + 5;
  assign_interruptibly(v, n, 7U);
  ASSERT_EQ(v.size(), n);
  EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](std::uint32_t x) { return x == 7; }));
  assign_interruptibly(v, 2, 9U);  // a smaller fill reuses the array
  EXPECT_EQ(v, (std::vector<std::uint32_t>{9, 9}));
}

TEST(AssignInterruptibly, StopsAtTheNextStretchOnRequest) {
  const StopScope scope;
  request_stop();
  std::vector<std::uint64_t> v;
  EXPECT_ERROR(Interrupted, assign_interruptibly(v, 4 * STOP_CHECK_FILL, std::uint64_t{0}), "stopped on request");
  EXPECT_LT(v.size(), 4 * STOP_CHECK_FILL);
}

}  // namespace
}  // namespace starnet

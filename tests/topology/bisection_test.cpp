// Bisection widths (topology/bisection.hpp) against the brute-force oracle of bisection_oracle.hpp
// on small members of each family.
#include "bisection_oracle.hpp"

#include <starnet/topology/bisection.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/platform.hpp>

#include <gtest/gtest.h>

namespace starnet::topology {
namespace {

TEST(Bisection, FormulasEqualTheBruteForceWidth) {
  for (const char* spec : {"hypercube:3", "hypercube:4", "ring:8", "ring:7", "ring:2", "complete:6", "complete:7",
                           "torus:4x4", "mesh:4x4", "torus:2x2x2", "fattree:4"}) {
    const auto b = bisection_width(spec);
    ASSERT_TRUE(b.has_value()) << spec;
    EXPECT_TRUE(b->exact) << spec;
    EXPECT_EQ(b->links, testing::oracle::brute_force_bisection(make_platform(spec))) << spec << ": " << b->argument;
  }
}

TEST(Bisection, UpperBoundsAreAtLeastTheWidthAndSaySo) {
  for (const char* spec : {"torus:3x4", "mesh:3x4", "star:4", "dragonfly:2:2:1", "dragonfly:2:2:1:relative"}) {
    const auto b = bisection_width(spec);
    ASSERT_TRUE(b.has_value()) << spec;
    EXPECT_FALSE(b->exact) << spec;
    EXPECT_EQ(b->argument.rfind("upper bound", 0), 0U) << spec;
    EXPECT_GE(b->links, testing::oracle::brute_force_bisection(make_platform(spec))) << spec;
  }
  // The formulas at a size no oracle reaches, as their papers state them.
  EXPECT_EQ(bisection_width("fattree:8")->links, 64U);
  EXPECT_EQ(bisection_width("hypercube:10")->links, 512U);
  EXPECT_EQ(bisection_width("torus:8x8x8")->links, 128U);
  // Nine groups: the middle one split, its global links on its routers' side (absolute, relative).
  EXPECT_EQ(bisection_width("dragonfly:4:1:2")->links, 16U + 4U);
  EXPECT_EQ(bisection_width("dragonfly:4:1:2:relative")->links, 16U + 4U);
  EXPECT_FALSE(bisection_width("dragonfly:4:1:2:circulant").has_value()) << "its routers hold links to both halves";
  EXPECT_FALSE(bisection_width("debruijn:5").has_value());
  EXPECT_FALSE(bisection_width("mesh:3x5").has_value()) << "no cut across an odd side halves the nodes";
}

}  // namespace
}  // namespace starnet::topology

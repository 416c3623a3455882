#include "../core/expect_error.hpp"

#include <starnet/core/error.hpp>
#include <starnet/topology/spec.hpp>

#include <gtest/gtest.h>

namespace starnet::topology {
namespace {

TEST(Spec, SplitsFamilyAndArgument) {
  const Spec s = parse_spec("torus:4x4");
  EXPECT_EQ(s.family, "torus");
  EXPECT_EQ(s.argument, "4x4");
  EXPECT_EQ(s.text, "torus:4x4");
}

TEST(Spec, AKnownFamilyWinsOverAFileExtension) {
  EXPECT_EQ(parse_spec("product:a.dot*b.graphml").family, "product");
  EXPECT_EQ(parse_spec("product:a.dot*b.graphml").argument, "a.dot*b.graphml");
  EXPECT_EQ(parse_spec("ring:8.dot").family, "ring");
  EXPECT_EQ(parse_spec("./ring:8.dot").family, "file");
  EXPECT_EQ(parse_spec("dir/net.gv").argument, "dir/net.gv");
}

TEST(Spec, RejectsUnknownFamiliesNamingTheSpec) {
  EXPECT_ERROR(TopologyError, parse_spec("torrus:4x4"), "\"torrus:4x4\"", "FAMILY:ARG", "torus");
  EXPECT_ERROR(TopologyError, parse_spec("net.txt"), "\"net.txt\"", ".dot/.graphml");
  EXPECT_ERROR(TopologyError, parse_spec("pancakes:4"), "\"pancakes:4\"", "pancake, bubblesort, transposition, nkstar",
               "fattree, dragonfly");
}

TEST(Spec, SplitsTheNewFamilies) {
  for (const char* family : {"pancake", "bubblesort", "transposition", "nkstar", "arrangement", "fattree", "dragonfly"}) {
    EXPECT_EQ(parse_spec(std::string(family) + ":4").family, family);
  }
}

TEST(Spec, IntegersNameTheSpecTheMeaningAndTheHint) {
  const Spec s = parse_spec("ring:9x");
  EXPECT_EQ(parse_spec_integer("12", 1, 20, s, "size"), 12);
  EXPECT_ERROR(TopologyError, parse_spec_integer("9x", 1, 20, s, "size N of ring:N", "because"), "\"ring:9x\"",
               "size N of ring:N \"9x\"", "1..20; because");
  EXPECT_ERROR(TopologyError, star_dimension(parse_spec("ring:4")), "\"ring:4\"", "star:N");
}

}  // namespace
}  // namespace starnet::topology

// The one vocabulary of collectives (algorithms/collective.hpp).
#include <starnet/algorithms/collective.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms {
namespace {

TEST(Collective, EveryNameReadsBackAsItsCollective) {
  for (const Collective c : ALL_COLLECTIVES) {
    const auto back = find_collective(to_string(c));
    ASSERT_TRUE(back.has_value()) << to_string(c);
    EXPECT_EQ(*back, c) << to_string(c);
  }
}

TEST(Collective, GossipIsTheStarLiteraturesAllgather) {
  EXPECT_EQ(find_collective("gossip"), Collective::ALLGATHER);
}

TEST(Collective, UnknownNamesAreNotCollectives) {
  EXPECT_FALSE(find_collective("all-reduce").has_value());
  EXPECT_FALSE(find_collective("").has_value());
  EXPECT_FALSE(find_collective("ALLREDUCE").has_value());
}

TEST(Collective, ChoicesNameEveryCollectiveOnce) {
  const std::string choices = collective_choices();
  for (const Collective c : ALL_COLLECTIVES) EXPECT_NE(choices.find(to_string(c)), std::string::npos) << choices;
  EXPECT_EQ(choices, "allreduce, reduce, broadcast, allgather, gather, scatter, reducescatter or alltoall");
}

TEST(Collective, RootedBlockedAndReducingAreTheTablesColumns) {
  EXPECT_TRUE(is_rooted(Collective::REDUCE));
  EXPECT_TRUE(is_rooted(Collective::SCATTER));
  EXPECT_FALSE(is_rooted(Collective::ALLTOALL));
  EXPECT_TRUE(is_blocked(Collective::ALLTOALL));
  EXPECT_FALSE(is_blocked(Collective::BROADCAST));
  EXPECT_TRUE(reduces(Collective::REDUCESCATTER));
  EXPECT_FALSE(reduces(Collective::ALLGATHER));
}

}  // namespace
}  // namespace starnet::algorithms

// The vocabulary, limits and defaults every call shares (api/settings.hpp).
#include "../core/expect_error.hpp"

#include <starnet/api/settings.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace starnet::api {
namespace {

using starnet::testing::setting_of;

TEST(PortModel, OneLimitForEveryCall) {
  EXPECT_EQ(port_model(1, "full").ports, 1U);
  EXPECT_TRUE(port_model(2, "half").half_duplex);
  EXPECT_EQ(port_model(MAX_PORTS, "full").ports, MAX_PORTS);
  EXPECT_EQ(setting_of([] { (void)port_model(0, "full"); }), "ports=0");
  EXPECT_EQ(setting_of([] { (void)port_model(MAX_PORTS + 1, "full"); }), "ports=1025");
  EXPECT_EQ(setting_of([] { (void)port_model(1, "simplex"); }), "duplex=simplex");
  EXPECT_ERROR(UsageError, port_model(0, "full"), "ports 0", "1..1024");
}

TEST(NameSettings, WritesEachNamedSettingInTheFacesWords) {
  const auto flag = [](std::string_view s) { return "--" + std::string(s); };
  EXPECT_EQ(name_settings("raise «max_n» or «ports».", flag), "raise --max_n or --ports.");
  EXPECT_EQ(name_settings("«n»", flag), "--n");
  EXPECT_EQ(name_settings("no setting", flag), "no setting");
  EXPECT_EQ(name_settings("unclosed «n", flag), "unclosed «n");
}

TEST(SplitList, TrimsSpacesAndKeepsParenthesisedCommas) {
  EXPECT_EQ(split_list("star:5, hypercube:7 ,ring:8"), (std::vector<std::string>{"star:5", "hypercube:7", "ring:8"}));
  EXPECT_EQ(split_list("(0,1)-(0,2), 3-4"), (std::vector<std::string>{"(0,1)-(0,2)", "3-4"}));
  EXPECT_TRUE(split_list(" , ,").empty());
}

TEST(ParseCollective, ReadsEveryNameAndNamesTheChoicesOtherwise) {
  EXPECT_EQ(parse_collective("alltoall"), Collective::ALLTOALL);
  EXPECT_EQ(parse_collective(" gossip "), Collective::ALLGATHER);
  EXPECT_ERROR(UsageError, parse_collective("allreduse"), "collective allreduse", "allreduce, reduce", "alltoall");
  EXPECT_EQ(setting_of([] { (void)parse_collective("x", "study_collective"); }), "study_collective=x");
}

TEST(ParseValues, IndexAndRankAreOneWord) {
  EXPECT_EQ(parse_values("index"), ValuesKind::INDEX);
  EXPECT_EQ(parse_values("rank"), ValuesKind::INDEX);
  EXPECT_EQ(parse_values("random"), ValuesKind::RANDOM);
  EXPECT_ERROR(UsageError, parse_values("ranks"), "values ranks", "index", "random");
  EXPECT_FALSE(make_values(ValuesKind::INDEX, 3).random);
  EXPECT_TRUE(make_values(ValuesKind::RANDOM, 3).random);
  const auto random = make_values(NodeValues{.kind = ValuesKind::RANDOM, .seed = 7});
  EXPECT_TRUE(random.random);
  EXPECT_EQ(random.seed, 7U);
  EXPECT_FALSE(make_values(NodeValues{}).random);
}

TEST(ParseOp, NamesTheOperators) {
  EXPECT_EQ(parse_op("xor"), Op::XOR);
  EXPECT_ERROR(UsageError, parse_op("prod"), "op prod", "sum, min, max or xor");
}

TEST(ParseNumber, ExactOrRefusedNamingTheSetting) {
  EXPECT_EQ(parse_number("7/2", "latency"), Rational(7, 2));
  EXPECT_EQ(parse_number(" 0.25 ", "latency"), Rational(1, 4));
  EXPECT_ERROR(UsageError, parse_number("fast", "bandwidth"), "bandwidth fast", "not a number");
  EXPECT_ERROR(UsageError, parse_number("-1", "latency"), "latency -1", "≥ 0");
  EXPECT_ERROR(UsageError, parse_number("0", "bandwidth", 0, true), "bandwidth 0", "> 0");
}

TEST(ParseNumber, ReadsDecimalExponentsExactlyAndNamesOneOutOfRange) {
  EXPECT_EQ(parse_number("1e-6", "latency"), Rational(1, 1000000));
  EXPECT_EQ(parse_number("2.5E+9", "bandwidth"), Rational(2500000000));
  EXPECT_EQ(parse_number("1e18", "bandwidth"), Rational(1000000000000000000));
  EXPECT_ERROR(UsageError, parse_number("1e-99", "latency"), "latency 1e-99: exponent -99 outside -18..18",
               "1/1000000");
  EXPECT_ERROR(UsageError, parse_number("1e19", "bandwidth"), "bandwidth 1e19: exponent 19 outside -18..18");
  EXPECT_ERROR(UsageError, parse_number("1e99999999999999999999", "bandwidth"), "exponent 99999999999999999999 outside");
  EXPECT_ERROR(UsageError, parse_number("1e", "latency"), "latency 1e", "not a number");
  EXPECT_ERROR(UsageError, parse_number("1e2.5", "latency"), "latency 1e2.5", "not a number");
}

}  // namespace
}  // namespace starnet::api

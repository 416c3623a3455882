// A request declared once as a table of settings (api/setting_table.hpp): every value read and
// checked by its row, defaults, rules across settings, misspelt names; and the tables of whatif
// and emulate.
#include "../core/expect_error.hpp"

#include <starnet/api/emulate.hpp>
#include <starnet/api/setting_table.hpp>
#include <starnet/api/whatif.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starnet::api {
namespace {

using starnet::testing::setting_of;

/// A request of the tests' own: one member of each kind a row reads.
struct Widgets {
  std::uint64_t max_widgets = 3;
  std::optional<double> time_limit;
  std::vector<long> sizes{1};
  std::string mode = "fast";
  bool deep = false;
  Rational ratio = 1;
  std::vector<TopologyRef> topologies;
  int doubled = 0;
};

const SettingTable<Widgets>& widget_settings() {
  using R = Widgets;
  using T = SettingType;
  // clang-format off
  static const SettingTable<R> table("widgets", {
      {{"max_widgets", T::WHOLE, "3", "Most widgets", {.max = 9}}, into(&R::max_widgets)},
      {{"time_limit", T::REAL, std::nullopt, "Seconds, with «deep»", {.min = 0, .unit = "seconds", .needs = "deep"}},
       into(&R::time_limit)},
      {{"sizes", T::WHOLE, "1", "Sizes", {.list = true, .min = 1, .max = 8}}, into(&R::sizes)},
      {{"mode", T::CHOICE, "fast", "How", {.choices = {"fast", "slow"}}}, into(&R::mode)},
      {{"deep", T::FLAG, "false", "Deeply"}, into(&R::deep)},
      {{"ratio", T::EXACT, "1", "A ratio > 0", {.min = 0, .strictly = true}}, into(&R::ratio)},
      {{"topologies", T::TOPOLOGY, std::nullopt, "Where", {.list = true}}, into(&R::topologies)},
      {{"doubled", T::WHOLE, "0", "Twice this", {.max = 100}},
       by<R, std::uint64_t>([](R& r, std::uint64_t x) { r.doubled = static_cast<int>(2 * x); })},
  }, [](const R& r, const GivenSettings& given) {
    given.applies_only("ratio", r.mode == "slow", "«mode» slow");
  });
  // clang-format on
  return table;
}

SettingValues given(std::initializer_list<std::pair<std::string, std::string>> texts) {
  SettingValues out;
  for (const auto& [name, text] : texts) out.emplace_back(name, SettingValue{text, {}});
  return out;
}

TEST(SettingTable, ReadsEveryRowFromItsTextOrItsDefault) {
  const auto& t = widget_settings();
  const Widgets d = t.parse({});
  EXPECT_EQ(d.max_widgets, 3U);
  EXPECT_FALSE(d.time_limit);
  EXPECT_EQ(d.sizes, std::vector<long>{1});
  EXPECT_EQ(d.ratio, Rational(1));
  const Widgets w = t.parse(given({{"max_widgets", "9"}, {"sizes", "2, 8,2"}, {"mode", "slow"}, {"deep", "true"},
                                   {"time_limit", "1.5"}, {"ratio", "7/2"}, {"topologies", "ring:4,star:3"},
                                   {"doubled", "21"}}));
  EXPECT_EQ(w.max_widgets, 9U);
  EXPECT_EQ(w.time_limit, 1.5);
  EXPECT_EQ(w.sizes, (std::vector<long>{2, 8, 2}));
  EXPECT_EQ(w.mode, "slow");
  EXPECT_TRUE(w.deep);
  EXPECT_EQ(w.ratio, Rational(7, 2));
  ASSERT_EQ(w.topologies.size(), 2U);
  EXPECT_EQ(w.topologies[1].spec(), "star:3");
  EXPECT_EQ(w.doubled, 42);
}

TEST(SettingTable, TopologiesGivenAsThemselvesStandForTheText) {
  SettingValues values{{"topologies", SettingValue{"mine", {TopologyRef("hypercube:3")}}}};
  const auto w = widget_settings().parse(values);
  ASSERT_EQ(w.topologies.size(), 1U);
  EXPECT_EQ(w.topologies[0].spec(), "hypercube:3");
}

TEST(SettingTable, RefusesEachBadValueNamingTheSettingAndWhatItExpects) {
  const auto& t = widget_settings();
  const auto parse = [&t](std::string name, std::string text) { (void)t.parse(given({{name, text}})); };
  EXPECT_ERROR(UsageError, parse("max_widgets", "10"), "max_widgets 10: expected an integer in 0..9");
  EXPECT_ERROR(UsageError, parse("max_widgets", "-1"), "max_widgets -1: expected an integer in 0..9");
  EXPECT_ERROR(UsageError, parse("max_widgets", "3x"), "max_widgets 3x: expected an integer in 0..9");
  EXPECT_ERROR(UsageError, parse("sizes", "1,0"), "sizes 0: expected an integer in 1..8");
  EXPECT_ERROR(UsageError, parse("mode", "medium"), "mode medium: expected fast or slow");
  EXPECT_ERROR(UsageError, parse("deep", "yes"), "deep yes: expected true or false");
  EXPECT_ERROR(UsageError, parse("ratio", "0"), "ratio 0: expected a number > 0");
  EXPECT_ERROR(UsageError, parse("ratio", "x"), "ratio x: not a number");
  EXPECT_EQ(setting_of([&] { parse("max_widgets", "10"); }), "max_widgets=10");
}

TEST(SettingTable, RefusesAReadValueOfAnotherRange) {
  EXPECT_ERROR(UsageError, (void)widget_settings().parse(given({{"deep", "true"}, {"time_limit", "-1"}})),
               "time_limit -1: expected a finite number ≥ 0");
  EXPECT_ERROR(UsageError, (void)widget_settings().parse(given({{"deep", "true"}, {"time_limit", "inf"}})),
               "expected a finite number");
}

TEST(SettingTable, ASettingThatDoesNotApplyIsRefusedNotIgnored) {
  const auto& t = widget_settings();
  EXPECT_ERROR(UsageError, (void)t.parse(given({{"time_limit", "5"}})), "time_limit 5: applies only with «deep»");
  EXPECT_ERROR(UsageError, (void)t.parse(given({{"deep", "false"}, {"time_limit", "5"}})), "«deep»");
  EXPECT_ERROR(UsageError, (void)t.parse(given({{"ratio", "2"}})), "ratio 2: applies only with «mode» slow");
  EXPECT_EQ(t.parse(given({{"mode", "slow"}, {"ratio", "2"}})).ratio, Rational(2));
}

TEST(SettingTable, AMisspeltNameIsRefusedNamingTheNearest) {
  const auto& t = widget_settings();
  EXPECT_ERROR(UsageError, (void)t.parse(given({{"max_widget", "3"}})),
               "max_widget 3: widgets takes no such setting (did you mean «max_widgets»?)");
  EXPECT_ERROR(UsageError, (void)t.parse(given({{"colour", "red"}})), "colour red: widgets takes no such setting");
  EXPECT_ERROR(UsageError, (void)t.parse(given({{"deep", "true"}, {"deep", "false"}})), "deep false: given twice");
}

TEST(SettingTable, TheHelpColumnShowsTheRange) {
  const auto& rows = widget_settings().rows();
  EXPECT_EQ(rows[0].range_text(), "INT in 0..9");
  EXPECT_EQ(rows[1].range_text(), "NUMBER>=0");
  EXPECT_EQ(rows[2].range_text(), "");  // a list
  EXPECT_EQ(rows[3].range_text(), "{fast,slow}");
}

TEST(Nearest, SuggestsOnlyNamesFewEditsAway) {
  EXPECT_EQ(edit_distance("fail_randon", "fail_random"), 1U);
  EXPECT_EQ(edit_distance("ab", "ba"), 1U);
  EXPECT_EQ(nearest("--fial-random", {"--fail-random", "--fail-links"}), "--fail-random");
  EXPECT_EQ(nearest("x", {"y", "z"}), std::nullopt);
}

TEST(WhatIfSettings, TheDefaultsAreTheRequestsOwn) {
  const WhatIfRequest d;
  const WhatIfRequest t = whatif_settings().parse({});
  EXPECT_EQ(t.collective, d.collective);
  EXPECT_EQ(t.port_models.size(), 1U);
  EXPECT_EQ(t.port_models[0].ports, d.port_models[0].ports);
  EXPECT_EQ(t.port_models[0].half_duplex, d.port_models[0].half_duplex);
  EXPECT_EQ(t.costs, d.costs);
  EXPECT_EQ(t.message_size, d.message_size);
  EXPECT_EQ(t.seed, d.seed);
  EXPECT_EQ(t.root, d.root);
  EXPECT_EQ(t.op, d.op);
  EXPECT_EQ(t.values, d.values);
  EXPECT_EQ(t.optimal, d.optimal);
  EXPECT_FALSE(t.latency || t.bandwidth);
  EXPECT_TRUE(t.fail_rates.empty() && t.topologies.empty() && t.schedule.empty());
}

TEST(WhatIfSettings, PortsAndDuplexGiveEveryKWithEveryMode) {
  const auto r = whatif_settings().parse(given({{"duplex", "full,half"}, {"ports", "1,2"}}));
  ASSERT_EQ(r.port_models.size(), 4U);
  EXPECT_EQ(r.port_models[1].ports, 1U);
  EXPECT_TRUE(r.port_models[1].half_duplex);
  EXPECT_EQ(r.port_models[2].ports, 2U);
  EXPECT_FALSE(r.port_models[2].half_duplex);
}

TEST(WhatIfSettings, ChecksEachSettingAndTheRulesAcrossThem) {
  const auto& t = whatif_settings();
  const auto parse = [&t](std::initializer_list<std::pair<std::string, std::string>> texts) {
    (void)t.parse(given(texts));
  };
  EXPECT_ERROR(UsageError, parse({{"ports", "0"}}), "ports 0: expected an integer in 1..1024");
  EXPECT_ERROR(UsageError, parse({{"ports", ""}}), "no port count given");
  EXPECT_ERROR(UsageError, parse({{"duplex", "simplex"}}), "duplex simplex: expected full or half");
  EXPECT_ERROR(UsageError, parse({{"costs", "free"}}), "costs free: expected unit, topology or random");
  EXPECT_ERROR(UsageError, parse({{"collective", "scan"}}), "collective scan: not a collective");
  EXPECT_ERROR(UsageError, parse({{"fail_random", "0,x"}}), "fail_random x: expected a finite number");
  EXPECT_ERROR(UsageError, parse({{"message_size", "0"}}), "message_size 0: expected a number > 0");
  EXPECT_ERROR(UsageError, parse({{"seed", "7"}}),
               "seed 7: applies only with «fail_random», «costs» random, «values» random or «routing» ecmp or valiant");
  EXPECT_ERROR(UsageError, parse({{"optimal_time_limit", "5"}}), "optimal_time_limit 5: applies only with «optimal»");
  EXPECT_ERROR(UsageError, parse({{"fail_randon", "0.1"}}), "did you mean «fail_random»?");
  EXPECT_EQ(t.parse(given({{"values", "random"}, {"seed", "7"}})).seed, 7U);
  EXPECT_EQ(t.parse(given({{"optimal", "true"}, {"optimal_time_limit", "5"}})).optimal_seconds, 5.0);
}

TEST(EmulateSettings, ReadTheRequestAndItsEngine) {
  const auto& t = emulate_settings();
  const auto r = t.parse(given({{"topology", "ring:4"}, {"ports", "2"}, {"engine", "zmq"}, {"workers", "3"},
                                {"max_steps", "10"}, {"latency", "1/2"}}),
                         EmulateRequest("", nullptr));
  EXPECT_EQ(r.topology.spec(), "ring:4");
  EXPECT_EQ(r.ports, 2);
  EXPECT_EQ(r.engine.kind, EngineKind::ZMQ);
  EXPECT_EQ(r.engine.workers, 3);
  EXPECT_EQ(r.max_steps, 10U);
  EXPECT_EQ(r.latency, Rational(1, 2));
  EXPECT_TRUE(r.timed());
  const auto parse = [&t](std::initializer_list<std::pair<std::string, std::string>> texts) {
    (void)t.parse(given(texts), EmulateRequest("", nullptr));
  };
  EXPECT_ERROR(UsageError, parse({{"ports", "1"}}), "topology: required");
  EXPECT_ERROR(UsageError, parse({{"topology", "ring:4"}, {"checking", "lenient"}}),
               "checking lenient: expected strict or arbitrated");
  EXPECT_ERROR(UsageError, parse({{"topology", "ring:4"}, {"workers", "0"}}), "workers 0: expected an integer in 1..256");
  EXPECT_ERROR(UsageError, parse({{"topology", "ring:4"}, {"max_step", "3"}}), "did you mean «max_steps»?");
}

}  // namespace
}  // namespace starnet::api

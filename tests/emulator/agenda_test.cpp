#include "../../emulator/src/agenda.hpp"

#include <starnet/core/rational.hpp>

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

namespace starnet::emulator {
namespace {

std::vector<std::uint32_t> refs(const std::vector<Event>& events) {
  std::vector<std::uint32_t> out;
  for (const auto& e : events) out.push_back(e.ref());
  return out;
}

TEST(Agenda, EventKeepsItsKindAndARefOf32Bits) {
  const Event e(Due::TIMER, 0xFFFFFFFEU);
  EXPECT_EQ(e.kind(), Due::TIMER);
  EXPECT_EQ(e.ref(), 0xFFFFFFFEU);
}

TEST(Agenda, TimesComeSoonestFirstAndEachTimesEventsInTheOrderScheduled) {
  Agenda<Rational> a;
  const Rational now(0);
  a.schedule(now, Rational(3), Due::TRANSFER_END, 1);
  a.schedule(now, Rational(1, 2), Due::COMPUTE_END, 2);
  a.schedule(now, Rational(3), Due::TIMER, 3);
  a.schedule(now, Rational(2), Due::TRANSFER_END, 4);
  a.schedule(now, Rational(1, 2), Due::TRANSFER_END, 5);
  std::vector<std::pair<Rational, std::vector<std::uint32_t>>> seen;
  while (!a.empty()) {
    const Rational t = a.next();
    seen.emplace_back(t, refs(a.take_due(t)));
  }
  const std::vector<std::pair<Rational, std::vector<std::uint32_t>>> expected{
      {Rational(1, 2), {2, 5}}, {Rational(2), {4}}, {Rational(3), {1, 3}}};
  EXPECT_EQ(seen, expected);
}

TEST(Agenda, ZeroDurationEndsComeInTheNextRoundBeforeTheTimeAhead) {
  Agenda<double> a;
  a.schedule(1.0, 2.0, Due::TRANSFER_END, 7);
  a.schedule(1.0, 1.0, Due::COMPUTE_END, 8);
  a.schedule(1.0, 1.0, Due::TIMER, 9);
  EXPECT_TRUE(a.has_soon());
  EXPECT_EQ(refs(a.take_due(1.0)), (std::vector<std::uint32_t>{8, 9}));
  EXPECT_FALSE(a.has_soon());
  EXPECT_TRUE(a.take_due(1.0).empty());  // nothing else at 1: the time ahead waits
  EXPECT_EQ(a.next(), 2.0);
  EXPECT_EQ(refs(a.take_due(2.0)), (std::vector<std::uint32_t>{7}));
  EXPECT_TRUE(a.empty());
}

TEST(Agenda, ManyRandomTimesLeaveInOrderThroughTheScanAndTheBinarySearch) {
  // More distinct times than the scan handles: both ways of finding a place are used.
  std::mt19937_64 random(5);
  std::uniform_int_distribution<int> time(1, 1000);
  Agenda<double> a;
  std::vector<std::pair<double, std::uint32_t>> expected;
  for (std::uint32_t k = 0; k < 4 * Agenda<double>::SCAN_LIMIT; ++k) {
    const double t = time(random);
    a.schedule(0.0, t, Due::TRANSFER_END, k);
    expected.emplace_back(t, k);
  }
  std::stable_sort(expected.begin(), expected.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::pair<double, std::uint32_t>> seen;
  while (!a.empty()) {
    const double t = a.next();
    for (const auto r : refs(a.take_due(t))) seen.emplace_back(t, r);
  }
  EXPECT_EQ(seen, expected);
}

TEST(Agenda, ClearForgetsEverythingAndTheAgendaServesAgain) {
  Agenda<double> a;
  a.schedule(0.0, 5.0, Due::TRANSFER_END, 1);
  a.schedule(0.0, 0.0, Due::TIMER, 2);
  a.clear();
  EXPECT_TRUE(a.empty());
  EXPECT_FALSE(a.has_soon());
  a.schedule(0.0, 4.0, Due::TIMER, 3);
  EXPECT_EQ(a.next(), 4.0);
  EXPECT_EQ(refs(a.take_due(4.0)), (std::vector<std::uint32_t>{3}));
}

}  // namespace
}  // namespace starnet::emulator

// The link report written and read back (api/link_report.hpp): the same columns for every run that
// writes one, exact values kept, a file that is not a report refused naming the setting.
#include "../core/expect_error.hpp"

#include <starnet/api/link_report.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

namespace starnet::api {
namespace {

TEST(LinkReport, ReadsBackWhatItWrote) {
  nlohmann::json report = nlohmann::json::array();
  const std::vector<LinkLoad> loads = {{"a->b", 3, Rational(3, 2), Rational(5, 2)}, {"b->a", 1, Rational(1), Rational(1)}};
  add_link_report(report, {7, "t.dot", "schedule", emulator::PortModel{}, /*packet_units=*/Rational(2)}, loads);
  ASSERT_EQ(report.size(), 2U);
  EXPECT_EQ(report[0].at("units"), 3);
  EXPECT_EQ(report[0].at("busy_exact"), "5/2");
  const std::string csv = link_report_csv(report);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "row,topology,algorithm,ports,duplex,link,messages,packets,packets_exact,units,units_exact,busy,busy_exact");
  const auto lines = parse_link_report(csv, "link_loads", "r.csv");
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0].row, 7U);
  EXPECT_EQ(lines[0].topology, "t.dot");
  EXPECT_EQ(lines[0].link, "a->b");
  EXPECT_EQ(lines[0].messages, 3U);
  EXPECT_EQ(lines[0].units, Rational(3));
  EXPECT_EQ(lines[0].busy, Rational(5, 2));
  EXPECT_EQ(lines[1].link, "b->a");
}

TEST(LinkReport, AQuotedCellReadsWhole) {
  const auto lines = parse_link_report(
      "row,topology,link,messages,units_exact,busy_exact\n0,\"a,b.dot\",\"x->\"\"y\"\"\",2,1/3,4\n", "link_loads", "q.csv");
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_EQ(lines[0].topology, "a,b.dot");
  EXPECT_EQ(lines[0].link, "x->\"y\"");
  EXPECT_EQ(lines[0].units, Rational(1, 3));
}

TEST(LinkReport, RefusesWhatIsNotALinkReportNamingTheSetting) {
  EXPECT_ERROR(UsageError, parse_link_report("a,b\n1,2\n", "link_loads", "x.csv"), "link_loads x.csv", "line 1",
               "no column \"row\"");
  EXPECT_ERROR(UsageError, parse_link_report("", "link_loads", "e.csv"), "link_loads e.csv", "empty");
  const std::string head = "row,topology,link,messages,units_exact,busy_exact\n";
  EXPECT_ERROR(UsageError, parse_link_report(head + "0,t,a->b,many,1,1\n", "link_loads", "m.csv"), "line 2",
               "messages \"many\" is not a whole number");
  EXPECT_ERROR(UsageError, parse_link_report(head + "0,t,a->b,1,1,soon\n", "link_loads", "b.csv"), "line 2", "soon");
  EXPECT_ERROR(UsageError, parse_link_report(head + "0,t,a->b\n", "link_loads", "s.csv"), "line 2", "3 cells");
  EXPECT_ERROR(UsageError, parse_link_report(head + "0,\"t,a->b,1,1,1\n", "link_loads", "o.csv"), "not closed");
  EXPECT_EQ(testing::setting_of([] { (void)read_link_report("/nonexistent/r.csv", "link_loads"); }),
            "link_loads=/nonexistent/r.csv");
  EXPECT_ERROR(UsageError, read_link_report("/nonexistent/r.csv", "link_loads"), "link_loads /nonexistent/r.csv",
               "does not exist");
}

}  // namespace
}  // namespace starnet::api

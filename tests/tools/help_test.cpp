// Every subcommand's --help, as a user reads it: the option column in
// ASCII so that CLI11's padding keeps the descriptions aligned, choices shown where an option has
// them, and no option a subcommand would refuse.
#include "cli_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <vector>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

/// Every subcommand path, e.g. "allreduce", "schedule run", "steady scatter".
std::vector<std::string> subcommands() {
  return {"topo info",   "topo compare", "topo export",  "topo draw",      "allreduce",      "broadcast",
          "demo",        "worker",       "keygen",       "viz allreduce",  "viz broadcast",  "markov",
          "reduce",      "steady scatter", "steady gossip", "steady reduce", "montecarlo",   "whatif",
          "schedule run", "schedule export", "schedule convert", "optimal"};
}

TEST(Help, TheOptionColumnIsAsciiSoDescriptionsStayAligned) {
  static const std::regex OPTION_LINE(R"(^  (-[^ ].*?)(  +|$))");
  for (const auto& command : subcommands()) {
    const auto r = run_starnet(command + " --help");
    ASSERT_EQ(r.exit_code, 0) << command << ": " << r.err;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, OPTION_LINE)) continue;
      const std::string column = m[1].str();
      for (const unsigned char c : column) EXPECT_LT(c, 0x80) << command << ": " << line;
    }
  }
}

TEST(Help, ChoicesAreShownWhereAnOptionHasThem) {
  EXPECT_THAT(run_starnet("optimal --help").out, HasSubstr("--duplex TEXT:{full,half}"));
  EXPECT_THAT(run_starnet("optimal --help").out, HasSubstr("{sat,uniform,coset,auto}"));
  EXPECT_THAT(run_starnet("schedule run --help").out, HasSubstr("{unit,topology}"));
  EXPECT_THAT(run_starnet("allreduce --help").out, HasSubstr("{local,zmq}"));
}

TEST(Help, SaysOnlyWhatTheSubcommandTakes) {
  const auto schedule = run_starnet("schedule run --help").out;
  for (const char* option : {"--processes", "--listen", "--address", "--key-file", "--peer-timeout", "--timeout"}) {
    EXPECT_THAT(schedule, Not(HasSubstr(std::string(option) + " "))) << option;
  }
  EXPECT_THAT(run_starnet("topo --help").out, HasSubstr(".xml"));
  EXPECT_THAT(run_starnet("steady scatter --help").out, HasSubstr("SimGrid"));
}

}  // namespace
}  // namespace starnet::tools::testing

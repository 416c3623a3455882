// Unknown subcommands and options on the command line (tools/suggest.cpp, tools/main.cpp): the
// first unknown word is named, with the nearest name or the choices, exit 2.
#include "cli_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

/// Runs `starnet ARGS`, which must be refused as a usage error (exit 2); returns its first line.
std::string refusal(const std::string& args) {
  const auto r = run_starnet(args);
  EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
  EXPECT_TRUE(r.out.empty()) << args;
  return r.err.substr(0, r.err.find('\n'));
}

TEST(Suggest, AMistypedSubcommandGetsTheNearestOne) {
  EXPECT_EQ(refusal("allreduse --topology star:4"),
            "starnet: usage error: unknown subcommand \"allreduse\" (did you mean \"allreduce\"?)");
  // Two neighbouring letters swapped are one edit (Damerau–Levenshtein), not two.
  EXPECT_EQ(refusal("allrdeuce --topology star:4"),
            "starnet: usage error: unknown subcommand \"allrdeuce\" (did you mean \"allreduce\"?)");
  EXPECT_EQ(refusal("montecralo --runs 3"),
            "starnet: usage error: unknown subcommand \"montecralo\" (did you mean \"montecarlo\"?)");
}

TEST(Suggest, AMistypedOptionGetsTheNearestOptionOfItsSubcommand) {
  EXPECT_EQ(refusal("allreduce --topolgy star:4"),
            "starnet: usage error: allreduce: unknown option \"--topolgy\" (did you mean \"--topology\"?)");
  EXPECT_EQ(refusal("allreduce --topolgy=star:4"),
            "starnet: usage error: allreduce: unknown option \"--topolgy\" (did you mean \"--topology\"?)");
  // The options of the command above fall through: --progress is one of every subcommand's.
  EXPECT_EQ(refusal("allreduce --topology star:4 --progres never"),
            "starnet: usage error: allreduce: unknown option \"--progres\" (did you mean \"--progress\"?)");
  EXPECT_EQ(refusal("topo info star:4 --jsno"),
            "starnet: usage error: topo info: unknown option \"--jsno\" (did you mean \"--json\"?)");
}

TEST(Suggest, AMistypedSubcommandOfASubcommandIsNamedWithItsParent) {
  EXPECT_EQ(refusal("topo inf star:4"), "starnet: usage error: topo: unknown subcommand \"inf\" (did you mean \"info\"?)");
  EXPECT_EQ(refusal("schedule rn x.json"),
            "starnet: usage error: schedule: unknown subcommand \"rn\" (did you mean \"run\"?)");
}

TEST(Suggest, TheFirstUnknownWordIsNamedNotTheLast) {
  // CLI11 listed the words it did not expect last first ("star:4 --topology allreduse").
  const auto line = refusal("allreduce --topolgy star:4 --sed 3");
  EXPECT_THAT(line, HasSubstr("\"--topolgy\""));
  EXPECT_THAT(line, Not(HasSubstr("--sed")));
  EXPECT_THAT(line, Not(HasSubstr("star:4")));
}

TEST(Suggest, WithNothingNearTheChoicesAreListed) {
  const auto command = refusal("frobnicate");
  EXPECT_THAT(command, StartsWith("starnet: usage error: unknown subcommand \"frobnicate\" (expected one of: topo, "));
  EXPECT_THAT(command, HasSubstr("allreduce"));
  EXPECT_THAT(command, HasSubstr("optimal)"));
  const auto option = refusal("allreduce --zzzzzz");
  EXPECT_THAT(option, StartsWith("starnet: usage error: allreduce: unknown option \"--zzzzzz\" (expected one of: "));
  EXPECT_THAT(option, HasSubstr("--topology"));
  EXPECT_THAT(option, Not(HasSubstr("did you mean")));
}

TEST(Suggest, AShortWordIsNotMatchedToAnyShortName) {
  // One edit in a one-letter name is a different name, not a typo: no suggestion.
  EXPECT_THAT(refusal("allreduce --topology star:4 -x"), Not(HasSubstr("did you mean")));
  EXPECT_THAT(refusal("topo x"), HasSubstr("expected one of: info"));
}

TEST(Suggest, AnArgumentACommandDoesNotTakeIsNamed) {
  EXPECT_EQ(refusal("allreduce --topology star:4 extra"),
            "starnet: usage error: allreduce: unexpected argument \"extra\" (see 'starnet allreduce --help')");
}

}  // namespace
}  // namespace starnet::tools::testing

// `--progress auto|always|never` (tools/progress.hpp): accepted after any subcommand, refused when
// unknown, silent on a pipe unless asked, and shown on stderr for a run longer than a second.
#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace starnet::tools::testing {
namespace {

TEST(Progress, IsAnOptionOfEverySubcommand) {
  for (const char* args : {"allreduce --topology star:3", "topo info star:4", "markov --n 4", "reduce --algo greedy --n 5 --d 1 --c 1"}) {
    for (const char* mode : {"auto", "always", "never"}) {
      const auto r = run_starnet(std::string(args) + " --progress " + mode);
      EXPECT_EQ(r.exit_code, 0) << args << " " << mode << r.err;
    }
  }
  const auto bad = run_starnet("allreduce --topology star:3 --progress sometimes");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--progress"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("sometimes"), std::string::npos) << bad.err;
}

TEST(Progress, ShowsOnStderrOnlyWhenAskedOnAPipe) {
  // Long enough to pass the one-second mark on any machine the suite runs on.
  const std::string slow = "montecarlo --n 64 --algos tree-dyn --runs 200000 --threads 1";
  const auto start = std::chrono::steady_clock::now();
  const auto shown = run_starnet(slow + " --progress always");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  if (seconds > 2) {
    EXPECT_NE(shown.err.find("starnet montecarlo"), std::string::npos) << seconds << " s:\n" << shown.err;
    EXPECT_NE(shown.err.find("runs, ETA"), std::string::npos) << shown.err;
  }
  // stderr is a file here: auto (the default) and never print nothing but what failed.
  const auto quiet = run_starnet(slow);
  ASSERT_EQ(quiet.exit_code, 0);
  EXPECT_EQ(quiet.err, "");
}

}  // namespace
}  // namespace starnet::tools::testing

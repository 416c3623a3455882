// docs/json.md, checked on the document of every subcommand that prints JSON: "version" is the
// program's, counts are numbers, a non-integer rational is a number beside KEY_exact, and one
// top-level "verified" wherever something is checked.
#include "starnet_test_paths.hpp"
#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <unistd.h>

namespace starnet::tools::testing {
namespace {

/// Keys whose string values are names (a node called "0" is still a name).
const std::set<std::string> NAME_KEYS = {"name", "root", "node", "from", "to", "label", "topology", "file", "task",
                                         "type", "source", "target", "emulated_root_value", "version"};

/// Checks @p j recursively; @p where names the place in messages.
void expect_conventions(const nlohmann::json& j, const std::string& where) {
  static const std::regex NUMBER(R"(-?[0-9]+(/[0-9]+)?)");
  if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) expect_conventions(j[i], where + "[" + std::to_string(i) + "]");
    return;
  }
  if (!j.is_object()) return;
  for (const auto& [key, value] : j.items()) {
    const std::string at = where + "." + key;
    if (key.ends_with("_exact")) {
      const std::string base = key.substr(0, key.size() - 6);
      ASSERT_TRUE(value.is_string()) << at << " is not the exact text";
      EXPECT_TRUE(std::regex_match(value.get<std::string>(), NUMBER)) << at << " = " << value;
      ASSERT_TRUE(j.contains(base)) << at << " has no number " << base << " beside it";
      EXPECT_TRUE(j.at(base).is_number_float()) << where << "." << base << " is not a number";
      continue;
    }
    if (value.is_string() && !NAME_KEYS.contains(key)) {
      EXPECT_FALSE(std::regex_match(value.get<std::string>(), NUMBER)) << at << " is a number written as a string: " << value;
    }
    expect_conventions(value, at);
  }
}

struct Case {
  std::string args;
  bool checks;  // the command verifies something: a top-level "verified"
};

TEST(JsonConventions, EveryDocumentFollowsThem) {
  const auto version = run_starnet("--version");
  ASSERT_EQ(version.exit_code, 0) << version.err;
  ASSERT_TRUE(version.out.starts_with("starnet ")) << version.out;
  const std::string number = version.out.substr(8, version.out.find('\n') - 8);

  const auto dir = std::filesystem::temp_directory_path() / ("starnet_json_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto ab = (dir / "ab.dot").string();
  std::ofstream(ab) << "graph { a -- b [latency=2, bandwidth=4]; b -- c [latency=\"1/2\"]; }\n";
  const std::string golden_dir = std::string(STARNET_SOURCE_DIR) + "/tests/tools/golden/";
  const std::vector<Case> cases = {
      {"topo info --json star:4", false},
      {"topo compare --json star:4 ring:5", false},
      {"allreduce --topology star:4 --json", true},
      {"allreduce --compare --max-n 5 --json", true},
      {"markov --n 4 --rate 3/2 --json", true},
      {"reduce --algo greedy --n 5 --d 3/2 --c 0 --json", true},
      {"steady scatter --topology " + golden_dir + "steady_figure2.dot --source Ps --targets P0,P1 --emulate 20 --json",
       true},
      {"montecarlo --n 8 --runs 20 --json", true},
      {"montecarlo --worst-case --json", true},
      {"whatif --topologies ring:5," + ab + " --costs topology --message-size 3 --json", true},
      {"optimal --collective allreduce --topology star:3 --json", true},
      {"optimal --collective gossip --topology star:4 --method uniform --json", true},
      {"schedule run " + std::string(STARNET_SOURCE_DIR) + "/docs/examples/schedules/allreduce.json --json", true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    const auto r = run_starnet(c.args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = r.json();
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j.value("version", ""), number);
    if (c.checks) {
      ASSERT_TRUE(j.contains("verified"));
      EXPECT_EQ(j.at("verified"), true);
    }
    expect_conventions(j, "");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace starnet::tools::testing

// How the command line says a library error about a setting (tools/options.cpp), and the rule
// behind it: the libraries' messages name settings in their own words, never a flag.
#include "starnet_test_paths.hpp"
#include "../../tools/command.hpp"

#include <starnet/emulator/engine.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace starnet::tools {
namespace {

using ::testing::HasSubstr;

TEST(CommandLineMessage, NamesTheFlagThatGivesTheSettingAtFault) {
  try {
    (void)emulator::partition_nodes(topology::StarGraph(3), 7);
    FAIL() << "7 workers for 6 nodes";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "workers 7: more workers than the 6 nodes of star:3 (use at most 6)");
    EXPECT_EQ(command_line_message(e), "--workers 7: more workers than the 6 nodes of star:3 (use at most 6)");
  }
  EXPECT_EQ(command_line_message(UsageError(Setting{"port models", ""}, "no port model given")),
            "--ports/--duplex: no port model given");
  EXPECT_EQ(command_line_message(UsageError(Setting{"key descriptor", "9"}, "not an open file descriptor")),
            "--key-fd 9: not an open file descriptor");
}

/// A request of this test's own, declared by one table.
struct Gadgets {
  std::uint64_t max_gadgets = 4;
  std::string shape = "round";
};

const api::SettingTable<Gadgets>& gadget_settings() {
  using T = api::SettingType;
  static const api::SettingTable<Gadgets> table(
      "gadgets", {{{"max_gadgets", T::WHOLE, "4", "Most gadgets, each of «shape»", {.max = 9}}, api::into(&Gadgets::max_gadgets)},
                  {{"shape", T::CHOICE, "round", "Their shape", {.choices = {"round", "square"}}}, api::into(&Gadgets::shape)}});
  return table;
}

TEST(SettingOptions, DeclaresEveryRowAsAnOptionAndTheApiChecksItsValue) {
  CLI::App app("gadgets");
  app.option_defaults()->always_capture_default();
  SettingOptions options;
  options.add_to(app, gadget_settings().rows());
  const std::string help = app.help();
  EXPECT_THAT(help, HasSubstr("--max-gadgets UINT:INT in 0..9=4"));
  EXPECT_THAT(help, HasSubstr("Most gadgets, each of --shape"));
  EXPECT_THAT(help, HasSubstr("--shape TEXT:{round,square}=round"));
  app.parse("--max-gadgets 7 --shape square", /*program_name_included=*/false);
  const auto given = options.given();
  ASSERT_EQ(given.size(), 2U);
  const Gadgets g = gadget_settings().parse(given);
  EXPECT_EQ(g.max_gadgets, 7U);
  EXPECT_EQ(g.shape, "square");
  EXPECT_EQ(options.text("max_gadgets"), "7");

  // Refused by the api, not by CLI11 (which would word it its own way): one message for both faces.
  CLI::App bad("gadgets");
  SettingOptions refused;
  refused.add_to(bad, gadget_settings().rows());
  bad.parse("--max-gadgets 10", /*program_name_included=*/false);
  try {
    (void)gadget_settings().parse(refused.given());
    FAIL() << "--max-gadgets 10 read";
  } catch (const Error& e) {
    EXPECT_EQ(command_line_message(e), "--max-gadgets 10: expected an integer in 0..9");
  }
}

TEST(CommandLineMessage, AnApiKeywordIsItsFlagInKebabCase) {
  EXPECT_EQ(flag_of("max_n"), "--max-n");
  EXPECT_EQ(flag_of("workers"), "--workers");
  EXPECT_EQ(command_line_message(UsageError(Setting{"peer_timeout", "1"}, "expected a number of seconds ≥ 2")),
            "--peer-timeout 1: expected a number of seconds ≥ 2");
}

TEST(CommandLineMessage, SettingsNamedInsideAMessageBecomeFlags) {
  EXPECT_EQ(command_line_message(UsageError(Setting{"address", "10.0.0.1"}, "applies only with «processes»")),
            "--address 10.0.0.1: applies only with --processes");
  EXPECT_EQ(command_line_message(InputError("too big: use «force» or a smaller «max_n»")),
            "too big: use --force or a smaller --max-n");
}

TEST(CommandLineMessage, SaysOtherErrorsAsTheLibraryDoes) {
  EXPECT_EQ(command_line_message(InputError("topology file \"t.dot\" line 7: no such node")),
            "topology file \"t.dot\" line 7: no such node");
  // A setting named in words the command line gives no flag for (a library caller's own): the
  // library's words.
  EXPECT_EQ(command_line_message(UsageError(Setting{"line colour", "blue"}, "not a colour")),
            "line colour blue: not a colour");
  const UsageError copy = UsageError(Setting{"runs", "0"}, "at least one run is needed");
  ASSERT_NE(copy.setting(), nullptr);
  EXPECT_EQ(copy.setting()->value, "0");
  EXPECT_STREQ(copy.reason(), "at least one run is needed");
}

/// The string literals of @p line, outside a comment.
std::vector<std::string> literals(const std::string& line) {
  static const std::regex LITERAL(R"re("((?:[^"\\]|\\.)*)")re");
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string::npos || line.compare(start, 2, "//") == 0 || line.compare(start, 1, "*") == 0) return {};
  std::vector<std::string> out;
  for (std::sregex_iterator it(line.begin(), line.end(), LITERAL), end; it != end; ++it) out.push_back((*it)[1]);
  return out;
}

TEST(LibraryMessages, NameNoCommandLineFlag) {
  // A literal of the libraries that names a flag ("--workers") is a message that only the command
  // line's users can read. Two are not messages: the command line of a worker process the
  // coordinator starts, and the SAT solver's.
  static const std::regex FLAG(R"((^|[^-\w])--[a-z])");
  const std::filesystem::path root = STARNET_SOURCE_DIR;
  // api/src/viz.cpp: the page's CSS custom properties (--d2, --d3: the colour of each link dimension).
  const std::vector<std::string> allowed = {"emulator/src/zmq_coordinator.cpp", "algorithms/src/optimal/optimal_search.cpp",
                                            "api/src/viz.cpp"};
  std::vector<std::string> found;
  std::size_t files = 0;
  for (const char* library : {"topology", "emulator", "algorithms", "api"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / library)) {
      const auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
      ++files;
      const auto relative = entry.path().lexically_relative(root).generic_string();
      if (std::find(allowed.begin(), allowed.end(), relative) != allowed.end()) continue;
      std::ifstream in(entry.path());
      std::string line;
      for (int number = 1; std::getline(in, line); ++number) {
        for (const auto& text : literals(line)) {
          if (std::regex_search(text, FLAG)) found.push_back(relative + ":" + std::to_string(number) + ": " + text);
        }
      }
    }
  }
  EXPECT_GT(files, 50U) << " the libraries' sources were not found under " << root;
  EXPECT_TRUE(found.empty()) << ::testing::PrintToString(found);
}

}  // namespace
}  // namespace starnet::tools

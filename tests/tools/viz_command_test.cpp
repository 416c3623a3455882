// `starnet viz allreduce` and `starnet viz broadcast --all-to-all`, run as a user runs them: the page
// is checked against the run's own trace (what it draws is what happened), against the paper's
// schedule (level m and link d of every step), and, for S_3, against a stored transcript.
#include "../core/scratch_dir.hpp"
#include "cli_runner.hpp"
#include "viz_xml.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;

std::filesystem::path scratch_dir() {
  return starnet::testing::scratch_dir("starnet_viz");
}

/// The JSON document a page embeds (<script type="application/json" id="starnet-data">).
nlohmann::json page_data(const std::string& html) {
  const std::string open = R"(<script type="application/json" id="starnet-data">)";
  const auto begin = html.find(open);
  if (begin == std::string::npos) return nullptr;
  const auto end = html.find("</script>", begin);
  return nlohmann::json::parse(html.substr(begin + open.size(), end - begin - open.size()));
}

/// The drawing of a page: the <svg id="star"> element.
std::string page_svg(const std::string& html) {
  const auto begin = html.find("<svg id=\"star\"");
  const auto end = html.find("</svg>\n</div>", begin);
  return html.substr(begin, end + 6 - begin);
}

std::uint64_t le_hex(const std::string& hex, std::size_t offset, std::size_t bytes) {
  std::uint64_t x = 0;
  for (std::size_t i = bytes; i-- > 0;) x = (x << 8) | std::stoul(hex.substr(2 * (offset + i), 2), nullptr, 16);
  return x;
}

std::uint64_t factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

TEST(VizCommand, AllReducePageOfS3MatchesTheStoredTranscript) {
  const auto r = run_starnet("viz allreduce --topology star:3 -o -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out == golden("viz_allreduce_s3.html", r.out))
      << "the S_3 page differs from golden/viz_allreduce_s3.html";
}

TEST(VizCommand, EveryStepShowsTheTracesMessagesAndThePapersPhase) {
  for (const bool broadcast : {false, true}) {
    for (int n = 2; n <= 4; ++n) {
      const std::string what = broadcast ? "broadcast --all-to-all" : "allreduce";
      const auto trace_path = scratch_dir() / "trace.jsonl";
      const auto run = run_starnet(what + " --topology star:" + std::to_string(n) + " --trace " + trace_path.string());
      ASSERT_EQ(run.exit_code, 0) << run.err;
      const auto r = run_starnet("viz " + what + " --topology star:" + std::to_string(n) + " -o -");
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const auto page = page_data(r.out);
      ASSERT_FALSE(page.is_null());
      const auto nodes = factorial(n);
      const auto steps = static_cast<std::size_t>(n * (n - 1) / 2);
      ASSERT_EQ(page["steps"].size(), steps + 1) << what << " n=" << n;

      // The messages of page step k are the trace's sends at step k − 1, values decoded.
      std::vector<std::set<std::tuple<std::string, std::string, std::string>>> sent(steps);
      std::istringstream lines(read(trace_path));
      for (std::string line; std::getline(lines, line);) {
        const auto e = nlohmann::json::parse(line);
        if (e["event"] != "send") continue;
        const std::string hex = e["payload"];
        const std::string value =
            broadcast ? (le_hex(hex, 4, 4) - le_hex(hex, 0, 4) == 1
                             ? std::to_string(le_hex(hex, 0, 4) + 1)
                             : std::to_string(le_hex(hex, 0, 4) + 1) + "–" + std::to_string(le_hex(hex, 4, 4)))
                      : std::to_string(le_hex(hex, 0, 8));
        sent.at(e["step"].get<std::size_t>())
            .insert({e["node"].get<std::string>(), e["peer"].get<std::string>(), value});
      }
      for (std::size_t k = 1; k <= steps; ++k) {
        const auto& step = page["steps"][k];
        std::set<std::tuple<std::string, std::string, std::string>> drawn;
        for (const auto& m : step["messages"]) {
          drawn.insert({page["nodes"][m[0].get<std::size_t>()][2].get<std::string>(),
                        page["nodes"][m[1].get<std::size_t>()][2].get<std::string>(), m[3].get<std::string>()});
        }
        EXPECT_EQ(drawn, sent[k - 1]) << what << " n=" << n << " step " << k;
        EXPECT_EQ(step["messages"].size(), nodes) << what << " n=" << n << " step " << k;
        // Oracle: the paper's schedule. Step s = k − 1 lies in level m when T(m−1) ≤ s < T(m),
        // T(m) = m(m−1)/2, and uses link m first, then m−1, …, 2.
        int m = 2;
        while (static_cast<std::size_t>(m * (m - 1) / 2) <= k - 1) ++m;
        const int offset = static_cast<int>(k - 1) - (m - 1) * (m - 2) / 2;
        EXPECT_EQ(step["level"], m) << what << " n=" << n << " step " << k;
        EXPECT_EQ(step["links"], nlohmann::json::array({offset == 0 ? m : m - offset}))
            << what << " n=" << n << " step " << k;
        EXPECT_THAT(step["explain"].get<std::string>(), HasSubstr("Level m = " + std::to_string(m)));
      }
      // Every node ends with the sum 1 + … + n!, or with all n! items.
      const auto& last = page["steps"][steps];
      for (std::size_t v = 0; v < nodes; ++v) {
        EXPECT_EQ(last["result"][v], std::to_string(broadcast ? nodes : nodes * (nodes + 1) / 2)) << what << " n=" << n;
        if (broadcast) {
          EXPECT_EQ(last["held"][v], "1–" + std::to_string(nodes)) << " n=" << n;
        }
      }
      EXPECT_EQ(page["verified"], true) << what << " n=" << n;
    }
  }
}

TEST(VizCommand, OtherOperatorsAreShownToo) {
  const auto r = run_starnet("viz allreduce --topology star:4 --op max -o -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto page = page_data(r.out);
  for (const auto& value : page["steps"].back()["result"]) EXPECT_EQ(value, "24");
  EXPECT_THAT(page["final"].get<std::string>(), HasSubstr("the max of all 24 values"));
}

TEST(VizCommand, PageIsSelfContainedAndItsDrawingWellFormed) {
  const auto path = scratch_dir() / "s4.html";
  const auto r = run_starnet("viz allreduce --topology star:4 -o " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("all-reduce (sum) on star:4, 24 nodes, 6 steps, 144 messages, verified"));
  const std::string html = read(path);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U);
  // Nothing to fetch: the only URL is the SVG namespace, and the page forbids loading anything.
  for (auto at = html.find("://"); at != std::string::npos; at = html.find("://", at + 1)) {
    EXPECT_EQ(html.substr(at - 4, 26), "http://www.w3.org/2000/svg") << html.substr(at - 5, 60);
  }
  for (const char* external : {"<script src", "<link", "@import", "@font-face", "<img"}) {
    EXPECT_THAT(html, ::testing::Not(HasSubstr(external)));
  }
  EXPECT_THAT(html, HasSubstr("Content-Security-Policy\" content=\"default-src 'none'"));
  const std::string svg = page_svg(html);
  ASSERT_EQ(xml_errors(svg), "");
  const auto all = xml_elements(svg);
  // A link is a <line>, or a <polyline> where it bends around a node (viz_geometry_test.cpp).
  const auto links = [&](const std::string& classes) {
    return select(all, "line", classes).size() + select(all, "polyline", classes).size();
  };
  EXPECT_EQ(links("link"), 24U * 3 / 2);  // n!(n−1)/2 links
  for (int k = 2; k <= 4; ++k) EXPECT_EQ(links("link d" + std::to_string(k)), 12U) << " k=" << k;
  EXPECT_EQ(select(all, "g", "node").size(), 24U);
  EXPECT_EQ(select(all, "circle", "m3").size(), 4U);   // the S_3 copies
  EXPECT_EQ(select(all, "circle", "m2").size(), 12U);  // the S_2 copies
}

TEST(VizCommand, BadInputIsExitTwoAndWritesNothing) {
  const auto dir = scratch_dir() / "bad";
  std::filesystem::create_directories(dir / "existing_dir");
  const auto out = (dir / "page.html").string();
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"viz allreduce --topology star:6 -o " + out, {"star:6", "unreadable", "--trace-format chrome", "720 nodes"}},
      {"viz broadcast --all-to-all --topology star:9 -o " + out, {"star:9", "unreadable", "broadcast --all-to-all"}},
      {"viz allreduce --topology star:1 -o " + out, {"star:1", "no step"}},
      {"viz allreduce --topology hypercube:3 -o " + out, {"hypercube:3", "not a star graph"}},
      {"viz allreduce --topology star:3 --op avg -o " + out, {"--op", "avg"}},
      {"viz allreduce --topology star:3", {"--output"}},
      {"viz broadcast --topology star:3 -o " + out, {"--all-to-all"}},
      {"viz allreduce --topology star:3 -o /nonexistent_starnet_dir/page.html", {"/nonexistent_starnet_dir/page.html"}},
      {"viz allreduce --topology star:3 -o " + (dir / "existing_dir").string(), {"existing_dir", "is a directory"}}};
  for (const auto& [args, needles] : cases) {
    const auto r = run_starnet(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    for (const auto& needle : needles) EXPECT_THAT(r.err, HasSubstr(needle)) << args;
    EXPECT_TRUE(r.out.empty()) << args;
  }
  // Nothing half-written: no page, and no temporary file left beside the directory.
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) left.push_back(entry.path().filename());
  EXPECT_EQ(left, std::vector<std::string>{"existing_dir"});
}

}  // namespace
}  // namespace starnet::tools::testing

// The SVG drawings of the command line: `starnet topo draw` (Graphviz) and `starnet allreduce
// --gantt` (api/gantt.hpp), run as a user runs them; every SVG must be well-formed XML.
#include "../core/scratch_dir.hpp"
#include "starnet_test_paths.hpp"
#include "cli_runner.hpp"
#include "viz_xml.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;

std::filesystem::path scratch(const std::string& name) {
  return starnet::testing::scratch_dir("starnet_drawings") / name;
}

/// The titles of Graphviz's node groups (<g class="node"><title>NAME</title>…).
std::set<std::string> graphviz_titles(const std::vector<XmlElement>& all, const std::string& cls) {
  std::set<std::string> out;
  for (std::size_t i = 0; i + 1 < all.size(); ++i) {
    if (all[i].name == "g" && all[i].has_class(cls) && all[i + 1].name == "title") out.insert(all[i + 1].text);
  }
  return out;
}

TEST(TopoDraw, StarGraphShowsEveryNodeAndLinkColouredByDimension) {
  const auto path = scratch("s4.svg");
  const auto r = run_starnet("topo draw star:4 -o " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out,
              HasSubstr("star:4 (24 nodes, 36 links) drawn by Graphviz neato at the sub-star layout's positions"));
  const std::string svg = read(path);
  ASSERT_EQ(xml_errors(svg), "");
  const auto all = xml_elements(svg);
  const auto titles = graphviz_titles(all, "node");
  for (const char* label : {"1234", "4321", "2143", "3412"}) EXPECT_TRUE(titles.contains(label)) << label;
  // 24 nodes, plus the outlines of the 4 S_3 and 12 S_2 copies and the 4 S_3 captions.
  EXPECT_EQ(titles.size(), 24U + 16U + 4U);
  EXPECT_EQ(graphviz_titles(all, "edge").size(), 36U);
  // Links of dimension 2, 3, 4 in three colours, 12 each.
  std::map<std::string, int> colours;
  for (const auto& path_element : select(all, "path")) ++colours[path_element.attributes.at("stroke")];
  for (const char* c : {"#0072b2", "#e69f00", "#009e73"}) EXPECT_EQ(colours[c], 12) << c;
}

TEST(TopoDraw, FamiliesAndEnginesDrawTheirNodesAndLinks) {
  for (const std::string spec : {"ring:8", "hypercube:3", "complete:5", "torus:3x3", "mesh:2x3", "debruijn:3",
                                 "tiers:1", "star:3 --layout circo", "star:3 --layout dot", "star:2", "star:1"}) {
    const auto path = scratch("family.svg");
    const auto r = run_starnet("topo draw " + spec + " -o " + path.string());
    ASSERT_EQ(r.exit_code, 0) << spec << r.err;
    const std::string svg = read(path);
    ASSERT_EQ(xml_errors(svg), "") << spec;
    const auto all = xml_elements(svg);
    // Oracle: what `topo info` counts.
    const auto info = run_starnet("topo info " + spec.substr(0, spec.find(' ')) + " --json").json();
    EXPECT_EQ(graphviz_titles(all, "node").size(), info["nodes"].get<std::size_t>()) << spec;
    EXPECT_EQ(graphviz_titles(all, "edge").size(), info["links"].get<std::size_t>()) << spec;
  }
  // A Tiers platform: routers in grey boxes, exact link costs on the links.
  const auto path = scratch("tiers.svg");
  ASSERT_EQ(run_starnet("topo draw tiers:1 -o " + path.string()).exit_code, 0);
  const std::string svg = read(path);
  EXPECT_THAT(svg, HasSubstr("wan0"));
  EXPECT_THAT(svg, HasSubstr("fill=\"#dddddd\""));
  EXPECT_THAT(svg, HasSubstr("speed "));
}

TEST(TopoDraw, BadInputIsExitTwoAndWritesNothing) {
  const auto out = scratch("bad.svg");
  std::filesystem::remove(out);
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"topo draw star:6 -o " + out.string(), {"star:6", "720 nodes", "at most 256", "export it as a DOT, GraphML or SimGrid file"}},
      {"topo draw complete:300 -o " + out.string(), {"complete:300", "300 nodes"}},
      {"topo draw star:3 --layout sfdp -o " + out.string(), {"--layout"}},
      {"topo draw star:0 -o " + out.string(), {"star:0"}},
      {"topo draw star:3", {"--output"}},
      {"topo draw star:3 -o /nonexistent_starnet_dir/s.svg", {"/nonexistent_starnet_dir/s.svg"}}};
  for (const auto& [args, needles] : cases) {
    const auto r = run_starnet(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    for (const auto& needle : needles) EXPECT_THAT(r.err, HasSubstr(needle)) << args;
    EXPECT_TRUE(r.out.empty()) << args;
  }
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(TopoDraw, MissingGraphvizIsARuntimeFailure) {
  const auto out = scratch("no_graphviz.svg");
  const auto err = scratch("no_graphviz.err");
  const int status = std::system(
      ("PATH=/nonexistent " + std::string(STARNET_EXE) + " topo draw star:3 -o " + out.string() + " 2>" + err.string())
          .c_str());
  EXPECT_EQ(WEXITSTATUS(status), 3);
  EXPECT_THAT(read(err), HasSubstr("Graphviz's `dot` is not installed"));
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(AllReduceGantt, OneRowPerNodeTwoBarsPerTransferMakespanMarked) {
  for (const char* collective : {"allreduce", "broadcast --all-to-all"}) {
    const auto path = scratch("gantt.svg");
    const auto r = run_starnet(std::string(collective) + " --topology star:3 --gantt " + path.string());
    ASSERT_EQ(r.exit_code, 0) << collective << r.err;
    const std::string svg = read(path);
    ASSERT_EQ(xml_errors(svg), "") << collective;
    const auto all = xml_elements(svg);
    EXPECT_EQ(select(all, "rect", "bar send").size(), 18U) << collective;
    EXPECT_EQ(select(all, "rect", "bar receive").size(), 18U) << collective;
    EXPECT_EQ(select(all, "rect", "band").size(), 3U) << collective;  // every other of the 6 rows
    const auto label = select(all, "text", "makespan-label");
    ASSERT_EQ(label.size(), 1U);
    EXPECT_EQ(label.front().text, "makespan 3") << collective;
  }
}

TEST(AllReduceGantt, TooManyRowsOrAnUnwritablePathIsExitTwo) {
  const auto r = run_starnet("allreduce --topology star:7 --gantt " + scratch("big.svg").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("star:7 has 5040 nodes"));
  EXPECT_THAT(r.err, HasSubstr("record the trace with --trace instead (written as a Chrome trace"));
  EXPECT_TRUE(r.out.empty());
  EXPECT_FALSE(std::filesystem::exists(scratch("big.svg")));
  const auto unwritable = run_starnet("allreduce --topology star:3 --gantt /nonexistent_starnet_dir/g.svg");
  EXPECT_EQ(unwritable.exit_code, 2);
  EXPECT_THAT(unwritable.err, HasSubstr("/nonexistent_starnet_dir/g.svg"));
  const auto compare = run_starnet("allreduce --compare --gantt " + scratch("c.svg").string());
  EXPECT_EQ(compare.exit_code, 2);
  EXPECT_THAT(compare.err, HasSubstr("--gantt"));
}

}  // namespace
}  // namespace starnet::tools::testing

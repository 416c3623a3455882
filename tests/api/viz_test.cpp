// The teaching pages as library calls (api/viz.hpp): a star run's page, a stepped all-gather
// schedule's page and the page of a user's node programs, each verified against the run's trace;
// sizes a page cannot show are refused.
#include "../core/expect_error.hpp"

#include <starnet/api/markup.hpp>
#include <starnet/api/schedule.hpp>
#include <starnet/api/star.hpp>
#include <starnet/api/viz.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>

namespace starnet::api {
namespace {

StarResult traced_run(const std::string& topology, Collective collective = Collective::ALLREDUCE) {
  auto request = StarRequest::on(topology, collective);
  request.trace = true;
  return run_star(request);
}

TEST(StarPage, AnAllReducePageIsVerifiedWithOneFramePerStep) {
  for (int n = 2; n <= MAX_PAGE_N; ++n) {
    const auto page = star_page(traced_run("star:" + std::to_string(n)));
    EXPECT_TRUE(page.verified) << n;
    EXPECT_EQ(page.steps, static_cast<std::size_t>(n * (n - 1) / 2)) << n;  // Oh, Choi and Primeaux
    EXPECT_NE(page.html.find("<svg"), std::string::npos) << n;
    EXPECT_EQ(page.html.find("http://"), page.html.find("http://www.w3.org"));  // no network but the SVG namespace
  }
}

TEST(StarPage, RefusesARunWithoutItsTraceAndSizesBeyondAPage) {
  EXPECT_ERROR(UsageError, (void)star_page(run_star(StarRequest::on("star:3"))), "trace");
  EXPECT_ERROR(UsageError, check_page_size(6), "topology");
  EXPECT_ERROR(UsageError, check_page_size(1), "topology");
  EXPECT_NO_THROW(check_page_size(MAX_PAGE_N));
}

TEST(SchedulePage, AStarAllGatherScheduleIsRunAndVerified) {
  ExportRequest request;
  request.algorithm = "star-broadcast";
  request.topology = "star:4";
  const auto page = schedule_page(export_schedule(request));
  EXPECT_TRUE(page.verified);
  EXPECT_GT(page.steps, 0U);
  EXPECT_NE(page.html.find("<svg"), std::string::npos);
}

TEST(SchedulePage, RefusesWhatIsNotAStarAllGather) {
  ExportRequest request;
  request.algorithm = "ring";
  request.topology = "ring:6";
  EXPECT_ERROR(UsageError, (void)schedule_page(export_schedule(request)), "star");
}

/// Flooding from node 0: a node that has heard the token passes it on along each of its ports in
/// turn, its text being the sender's name; arbitrated, as receivers may be sent two at once.
class Flood final : public emulator::NodeProgram {
 public:
  void react(emulator::Context& ctx) override {
    const auto v = ctx.node();
    if (ctx.starting() && v == 0) heard_.insert(v);
    for (const auto& m : ctx.received()) heard_.insert(v), (void)m;
    if (!heard_.contains(v) || ctx.free_send_ports() == 0) return;
    auto& next = next_port_[v];
    if (next < ctx.topology().degree(v)) ctx.send(next++, ctx.topology().node_name(v));
  }

 private:
  std::set<topology::NodeId> heard_;
  std::map<topology::NodeId, topology::Port> next_port_;
};

EmulateResult traced_flood(const std::string& topology) {
  EmulateRequest request(topology, [](emulator::NodeRange) { return std::make_unique<Flood>(); });
  request.checking = "arbitrated";
  request.trace = true;
  return emulate(request);
}

/// The data the page's script reads.
nlohmann::json page_data(const VizPage& page) {
  const std::string open = R"(<script type="application/json" id="starnet-data">)";
  const auto begin = page.html.find(open) + open.size();
  return nlohmann::json::parse(page.html.substr(begin, page.html.find("</script>", begin) - begin));
}

TEST(ProgramPage, ARunOnAHypercubeIsDrawnFromItsTrace) {
  const auto run = traced_flood("hypercube:3");
  ASSERT_TRUE(run.verified) << run.problem;
  const auto page = program_page(run, {});
  EXPECT_TRUE(page.verified);
  const auto data = page_data(page);
  ASSERT_EQ(data["nodes"].size(), 8U);
  std::size_t messages = 0;
  for (const auto& step : data["steps"]) messages += step["messages"].size();
  EXPECT_EQ(messages, run.messages);
  EXPECT_EQ(page.steps + 1, data["steps"].size());
  // With no views, a node's box counts what it received: in all, every message once.
  std::size_t received = 0;
  for (const auto& r : data["steps"].back()["result"]) received += std::stoul(r.get<std::string>());
  EXPECT_EQ(received, run.messages);
  EXPECT_EQ(data["links_named"], false);
  EXPECT_NE(page.html.find("Your node program on hypercube:3"), std::string::npos);
}

TEST(ProgramPage, AStarRunShowsTheNodesViewsAndTheCallersTexts) {
  const auto run = traced_flood("star:3");
  ASSERT_TRUE(run.verified) << run.problem;
  ProgramPageNotes notes;
  notes.payload_text = [](std::string_view payload) { return fmt::format("<{}>", payload); };
  for (topology::NodeId v = 0; v < 6; ++v) notes.views.push_back({run.steps, v, "done " + std::to_string(v)});
  const auto page = program_page(run, notes);
  const auto data = page_data(page);
  EXPECT_EQ(data["links_named"], true);
  EXPECT_EQ(data["steps"].back()["result"][5], "done 5");
  EXPECT_EQ(data["steps"][1]["messages"][0][3], "<123>");  // node 0 is 123
  notes.problem = "your check found node 2 wrong";
  const auto failed = program_page(run, notes);
  EXPECT_FALSE(failed.verified);
  EXPECT_EQ(page_data(failed)["final"], "NOT VERIFIED: your check found node 2 wrong");
}

TEST(ProgramPage, AFailedRunsPageEndsWhereItFailedMarkingTheNode) {
  auto request = EmulateRequest("ring:6", [](emulator::NodeRange) { return std::make_unique<Flood>(); });
  request.trace = true;
  request.max_steps = 1;  // the flood goes on reacting at step 2: stopped there
  const auto run = emulate(request);
  ASSERT_FALSE(run.verified);
  const auto page = program_page(run, {});
  EXPECT_FALSE(page.verified);
  const auto data = page_data(page);
  const auto& last = data["steps"].back();
  EXPECT_EQ(last["failed_node"], *run.failed_node);
  EXPECT_NE(last["explain"].get<std::string>().find("The run failed at step 2"), std::string::npos) << last["explain"];
  EXPECT_EQ(data["final"], "NOT VERIFIED: " + run.problem);
  EXPECT_NE(page.html.find(".node.failing rect"), std::string::npos);
}

TEST(ProgramPage, LongTextsGrowTheBoxesOnACircleAndStayWholeOnHover) {
  const auto run = traced_flood("ring:5");
  ASSERT_TRUE(run.verified) << run.problem;
  ProgramPageNotes notes;
  const std::string long_text = "a message far longer than any label: its whole text on hover";
  notes.payload_text = [&](std::string_view) { return long_text; };
  const std::string state = "{'leader': 4}";
  for (topology::NodeId v = 0; v < 5; ++v) notes.views.push_back({run.steps, v, state});
  const auto page = program_page(run, notes);
  const auto data = page_data(page);
  // A message: its label shortened, its whole text beside it for the tooltip.
  const auto& message = data["steps"][1]["messages"][0];
  ASSERT_EQ(message.size(), 5U);
  EXPECT_EQ(message[3], shorten(long_text, 18));
  EXPECT_EQ(message[4], long_text);
  // The boxes fit their longest line ("last " and the long text) up to the widest box, and say how
  // much of each value fits; a box as wide as its text where it fits.
  const double box_w = data["box"][0];
  EXPECT_GT(box_w, 68);
  EXPECT_LE(box_w, 220);
  const auto value_chars = data["value_chars"];
  EXPECT_GE(value_chars[0].get<std::size_t>(), state.size()) << "the state fits whole";
  EXPECT_LT(value_chars[1].get<std::size_t>(), long_text.size()) << "the long text is cut in the box";
  const auto rect = page.html.find(fmt::format("width=\"{:.0f}\" height=\"46\"", box_w));
  EXPECT_NE(rect, std::string::npos) << "the drawn boxes are that wide";
  // Neighbours on the circle stay a box and a gap apart.
  const auto& nodes = data["nodes"];
  const double dx = nodes[1][0].get<double>() - nodes[0][0].get<double>();
  const double dy = nodes[1][1].get<double>() - nodes[0][1].get<double>();
  EXPECT_GE(std::hypot(dx, dy), box_w + 50);
  // A star graph keeps its layout's boxes, the values cut to them.
  const auto star = page_data(program_page(traced_flood("star:3"), notes));
  EXPECT_EQ(star["box"][0], 68);
  EXPECT_LT(star["value_chars"][1].get<std::size_t>(), long_text.size());
}

TEST(ProgramPage, AHypercubeIsDrawnAsAHypercubeWithNoTwoBoxesOverlapping) {
  for (const std::string spec : {"hypercube:4", "mesh:3x4", "torus:4x4"}) {
    const auto page = program_page(traced_flood(spec), {});
    const auto data = page_data(page);
    const auto& nodes = data["nodes"];
    const double box_w = data["box"][0];
    const double box_h = data["box"][1];
    // Not a circle: the nodes' distances from their centre differ.
    double cx = 0;
    double cy = 0;
    for (const auto& p : nodes) cx += p[0].get<double>() / static_cast<double>(nodes.size()), cy += p[1].get<double>() / static_cast<double>(nodes.size());
    std::set<long> radii;
    for (const auto& p : nodes) radii.insert(std::lround(std::hypot(p[0].get<double>() - cx, p[1].get<double>() - cy)));
    EXPECT_GT(radii.size(), 1U) << spec;
    for (std::size_t u = 0; u < nodes.size(); ++u) {
      for (std::size_t v = u + 1; v < nodes.size(); ++v) {
        const double dx = std::abs(nodes[u][0].get<double>() - nodes[v][0].get<double>());
        const double dy = std::abs(nodes[u][1].get<double>() - nodes[v][1].get<double>());
        EXPECT_TRUE(dx >= box_w || dy >= box_h) << spec << ": boxes " << u << " and " << v << " overlap";
      }
    }
    EXPECT_NE(page.html.find("where Graphviz places them"), std::string::npos) << spec;
  }
}

TEST(ProgramPage, TwoHundredFiftySixNodesAreDrawn) {
  const auto page = program_page(traced_flood("hypercube:8"), {});
  EXPECT_EQ(page_data(page)["nodes"].size(), 256U);
}

TEST(ProgramPage, RefusesRunsItCannotShow) {
  EXPECT_ERROR(UsageError, (void)program_page(traced_flood("hypercube:9"), {}), "topology", "at most 256 nodes");
  EXPECT_ERROR(UsageError, (void)program_page(traced_flood("star:6"), {}), "topology", "star:6");
  EmulateRequest untraced("ring:4", [](emulator::NodeRange) { return std::make_unique<Flood>(); });
  EXPECT_ERROR(UsageError, (void)program_page(emulate(untraced), {}), "trace");
}

}  // namespace
}  // namespace starnet::api

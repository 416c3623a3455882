// The Gantt chart (api/gantt.hpp), drawn as the faces draw it: on real traces of the emulator, and
// on traces changed by hand to see that the picture follows the trace.
#include "../core/expect_error.hpp"
#include "../tools/viz_xml.hpp"
#include "star_trace.hpp"

#include <starnet/api/gantt.hpp>

#include <starnet/core/error.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <set>

namespace starnet::api {
namespace {

using tools::testing::select;
using tools::testing::xml_elements;
using tools::testing::xml_errors;
using tools::testing::XmlElement;

/// The SVG both faces' chart becomes on the command line.
template <class Time>
std::string gantt_svg(const std::vector<TraceEvent<Time>>& trace, const Topology& topology, const std::string& title = "",
                      double width = GANTT_SVG_WIDTH) {
  return api::gantt_svg(gantt_chart(trace, topology, title), width);
}

using emulator::EventKind;
using emulator::TraceEvent;
using topology::StarGraph;

using testing::allreduce_trace;

std::string text_of(const std::vector<XmlElement>& all, const std::string& cls) {
  const auto found = select(all, "text", cls);
  return found.empty() ? "" : found.front().text;
}

TEST(GanttChart, AllReduceOnS3HasASendAndAReceiveBarPerTransfer) {
  const StarGraph g(3);
  const std::string svg = gantt_svg(allreduce_trace(g), g);
  ASSERT_EQ(xml_errors(svg), "");
  const auto all = xml_elements(svg);
  // 6 nodes × 3 steps = 18 transfers, each on its sender's and its receiver's row.
  EXPECT_EQ(select(all, "rect", "bar send").size(), 18U);
  EXPECT_EQ(select(all, "rect", "bar receive").size(), 18U);
  EXPECT_EQ(select(all, "rect", "bar compute").size(), 0U);
  EXPECT_EQ(select(all, "line", "flow").size(), 18U);
  EXPECT_EQ(select(all, "rect", "bar unfinished").size(), 0U);
  EXPECT_EQ(text_of(all, "makespan-label"), "makespan 3");
  // One row per node, labelled with its permutation; bars start at the three step times.
  std::set<std::string> labels;
  for (const auto& t : select(all, "text")) labels.insert(t.text);
  for (StarGraph::vertex_descriptor v = 0; v < g.size(); ++v) EXPECT_TRUE(labels.contains(g.label_string(v))) << v;
  std::set<double> starts;
  std::set<double> widths;
  for (const auto& bar : select(all, "rect", "bar send")) {
    starts.insert(bar.number("x"));
    widths.insert(bar.number("width"));
  }
  EXPECT_EQ(starts.size(), 3U);
  EXPECT_EQ(widths.size(), 1U);  // unit time: every transfer takes one step
}

TEST(GanttChart, AChangedTraceDrawsADifferentPicture) {
  const StarGraph g(3);
  const auto trace = allreduce_trace(g);
  auto changed = trace;
  // The first transfer now ends at 5/2 instead of 1: its two bars grow by half, nothing else moves.
  const auto receive =
      std::find_if(changed.begin(), changed.end(), [](const auto& e) { return e.kind == EventKind::RECEIVE; });
  ASSERT_NE(receive, changed.end());
  receive->time = Rational(5, 2);
  const auto before = xml_elements(gantt_svg(trace, g));
  const std::string changed_svg = gantt_svg(changed, g);
  ASSERT_EQ(xml_errors(changed_svg), "");
  const auto after = xml_elements(changed_svg);
  for (const char* cls : {"send", "receive"}) {
    const auto a = select(before, "rect", std::string("bar ") + cls);
    const auto b = select(after, "rect", std::string("bar ") + cls);
    ASSERT_EQ(a.size(), b.size()) << cls;
    int different = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].number("x"), b[i].number("x")) << cls << " bar " << i;
      if (a[i].number("width") != b[i].number("width")) {
        ++different;
        EXPECT_NEAR(b[i].number("width"), 2.5 * a[i].number("width"), 0.02) << cls << " bar " << i;
      }
    }
    EXPECT_EQ(different, 1) << cls;
  }
  // A last transfer ending at 4 moves the makespan.
  for (auto it = changed.rbegin(); it != changed.rend(); ++it) {
    if (it->kind == EventKind::RECEIVE) {
      it->time = Rational(4);
      break;
    }
  }
  EXPECT_EQ(text_of(xml_elements(gantt_svg(changed, g)), "makespan-label"), "makespan 4");
}

TEST(GanttChart, ComputationsAndUnfinishedTransfersOnDoubleTime) {
  const StarGraph g(2);
  // Node 12 computes 3 tasks over [0, 1.5], then sends to 21 a transfer that the horizon cuts at 2.
  std::vector<TraceEvent<double>> trace(3);
  trace[0].kind = EventKind::COMPUTE;
  trace[0].size = 3;
  trace[1].kind = EventKind::COMPUTE_END;
  trace[1].time = 1.5;
  trace[1].step = 1;
  trace[2].kind = EventKind::SEND;
  trace[2].time = 2;
  trace[2].step = 2;
  trace[2].peer = 1;
  const std::string svg = gantt_svg(trace, g, "two nodes", 600);
  ASSERT_EQ(xml_errors(svg), "");
  const auto all = xml_elements(svg);
  const auto compute = select(all, "rect", "bar compute");
  ASSERT_EQ(compute.size(), 1U);
  const auto unfinished = select(all, "rect", "bar unfinished");
  EXPECT_EQ(unfinished.size(), 2U);  // the cut transfer, on both rows
  for (const auto& bar : unfinished) EXPECT_EQ(bar.number("width"), 1.0) << "zero length, drawn one pixel wide";
  EXPECT_EQ(text_of(all, "makespan-label"), "makespan 2");
  EXPECT_THAT(svg, ::testing::HasSubstr("two nodes"));
  EXPECT_THAT(svg, ::testing::HasSubstr("compute at 12: 3 tasks, time 0 to 1.5"));
  // The computation spans 0..1.5 of a 0..2 axis.
  const auto sends = select(all, "rect", "bar send");
  ASSERT_EQ(sends.size(), 1U);
  EXPECT_NEAR(compute.front().number("width"), 0.75 * (sends.front().number("x") - compute.front().number("x")), 0.02);
}

/// Every node sends on all its ports at once, then node 0 once more on port 0.
class AllPorts final : public emulator::NodeProgram {
 public:
  void react(emulator::Context& ctx) override {
    if (ctx.starting()) {
      for (topology::Port p = 0; p < ctx.topology().degree(ctx.node()); ++p) ctx.send(p, "x");
    } else if (ctx.node() == 0 && ctx.step() == 1) {
      ctx.send(0, "again");
    }
  }
};

/// The most bars of @p lane that @p row has at once (a sweep over their ends).
std::size_t most_at_once(const GanttChart& chart, NodeId row, GanttLane lane) {
  std::vector<std::pair<double, int>> events;  // (time, +1 start / −1 end): an end before a start at one time
  for (const auto& b : chart.bars) {
    if (b.row == row && b.lane == lane) {
      events.emplace_back(b.start, 1);
      events.emplace_back(b.end, -1);
    }
  }
  std::sort(events.begin(), events.end());
  int now = 0;
  int most = 0;
  for (const auto& [t, d] : events) most = std::max(most, now += d);
  return static_cast<std::size_t>(most);
}

TEST(GanttChart, EachTransferANodeHasAtOnceGetsASubRowOfItsOwn) {
  const StarGraph g(4);
  emulator::RunConfig config;
  config.trace = true;
  config.ports.ports = 3;
  const auto run = emulator::LocalEngine<Rational>().run(
      g, emulator::UnitCosts<Rational>(), [](emulator::NodeRange) { return std::make_unique<AllPorts>(); }, config);
  ASSERT_EQ(run.counters.max_concurrent_sends, 3U);
  const auto chart = gantt_chart(run.trace, g);
  ASSERT_EQ(chart.row_slots.size(), g.size());
  std::size_t most_sends = 0;
  for (NodeId v = 0; v < g.size(); ++v) {
    // A lane's sub-rows: as many as its bars at once, and no two bars of one sub-row overlap.
    std::array<std::set<std::uint32_t>, 3> slots;
    for (const auto& b : chart.bars) {
      if (b.row == v) slots[static_cast<std::size_t>(b.lane)].insert(b.slot);
    }
    EXPECT_EQ(slots[0].size(), most_at_once(chart, v, GanttLane::SEND)) << "node " << v;
    EXPECT_EQ(slots[1].size(), most_at_once(chart, v, GanttLane::RECEIVE)) << "node " << v;
    EXPECT_EQ(chart.row_slots[v], 3U + 3U + 1U) << "3 sends, 3 receives at once, no computation: node " << v;
    most_sends = std::max(most_sends, slots[0].size());
    for (const auto& a : chart.bars) {
      for (const auto& b : chart.bars) {
        if (&a != &b && a.row == v && b.row == v && a.slot == b.slot) {
          EXPECT_TRUE(a.end <= b.start || b.end <= a.start) << "node " << v << " sub-row " << a.slot;
        }
      }
    }
  }
  EXPECT_EQ(most_sends, run.counters.max_concurrent_sends);
  // Node 0's second send, after its first three, takes the first sub-row again.
  const auto again = std::find_if(chart.bars.begin(), chart.bars.end(),
                                  [](const GanttBar& b) { return b.row == 0 && b.lane == GanttLane::SEND && b.start == 1; });
  ASSERT_NE(again, chart.bars.end());
  EXPECT_EQ(again->slot, 0U);
  // The SVG: three heights of send bars on a row, a flow line per transfer.
  const auto all = xml_elements(gantt_svg(run.trace, g));
  std::set<double> send_heights;
  for (const auto& bar : select(all, "rect", "bar send")) send_heights.insert(bar.number("y"));
  EXPECT_EQ(send_heights.size(), 3U * g.size());
  EXPECT_EQ(select(all, "line", "flow").size(), chart.flows.size());
  EXPECT_EQ(chart.flows.size(), 24U * 3 + 1);
}

TEST(GanttChart, OverlappingBarsTakeTheFewestSubRowsFirstFit) {
  const StarGraph g(3);
  // Node 0 sends [0, 2) on port 0, [1, 3) on port 1, [2, 4) on port 0: two sub-rows, the third
  // send back on the first.
  std::vector<TraceEvent<Rational>> trace(6);
  const std::array<std::array<int, 4>, 3> sends = {{{0, 2, 0, 1}, {1, 3, 1, 2}, {2, 4, 0, 1}}};
  for (std::size_t i = 0; i < sends.size(); ++i) {
    const auto [start, end, port, to] = sends[i];
    trace[2 * i] = {};
    trace[2 * i].kind = EventKind::SEND;
    trace[2 * i].time = start;
    trace[2 * i].peer = static_cast<NodeId>(to);
    trace[2 * i].port = static_cast<topology::Port>(port);
    trace[2 * i + 1].kind = EventKind::RECEIVE;
    trace[2 * i + 1].time = end;
    trace[2 * i + 1].node = static_cast<NodeId>(to);
    trace[2 * i + 1].port = static_cast<topology::Port>(port);
  }
  std::stable_sort(trace.begin(), trace.end(), [](const auto& a, const auto& b) { return a.time < b.time; });
  for (auto& e : trace) e.step = static_cast<std::uint64_t>(e.time.to_double());
  const auto chart = gantt_chart(trace, g);
  std::vector<std::uint32_t> send_slots;
  for (const auto& b : chart.bars) {
    if (b.lane == GanttLane::SEND) send_slots.push_back(b.slot);
  }
  EXPECT_EQ(send_slots, (std::vector<std::uint32_t>{0, 1, 0}));
  EXPECT_EQ(chart.row_slots[0], 2U + 1U + 1U);
  EXPECT_EQ(chart.row_slots[2], 3U) << "a node without bars keeps one sub-row a lane";
}

TEST(GanttChart, RejectsMoreRowsThanItCanShowAndNodesOutsideTheTopology) {
  EXPECT_ERROR(UsageError, gantt_svg(std::vector<TraceEvent<Rational>>{}, StarGraph(7)), "star:7", "5040 nodes",
               "at most 1000", "Chrome trace");
  EXPECT_ERROR(UsageError, require_gantt_rows(StarGraph(7)), "gantt", "star:7");
  std::vector<TraceEvent<Rational>> trace(1);
  trace[0].node = 99;
  EXPECT_ERROR(InputError, gantt_svg(trace, StarGraph(3)), "node 99", "outside star:3", "nodes 0..5");
}

}  // namespace
}  // namespace starnet::api

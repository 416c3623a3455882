// The teaching pages of `starnet viz` and of the Python module's results in Jupyter: one self-contained HTML page
// (inline SVG, CSS, JS; no network) that steps through the star collectives of Oh, Choi and
// Primeaux (2005) on S_N, N ≤ 5 (docs/viz.md).
//
// Everything the page shows at a step is read from the emulator's trace: the messages are the
// transfers that started at that step, their values decoded from the payloads; a node's buffers
// are rebuilt from the messages it received (result = own value ⊕ everything received so far,
// outgoing = what it last received along the level's top link); the recursion level m of a step
// is the highest link dimension used so far, and its link d the dimension its messages used.
// The algorithm itself is never consulted: the page shows what happened.
#include <starnet/api/viz.hpp>

#include "html/viz_assets.hpp"
#include <starnet/api/markup.hpp>
#include <starnet/api/star_layout.hpp>

#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/emulator/trace_intervals.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <span>

namespace starnet::api {
namespace {

using algorithms::star::Op;
using emulator::NodeId;
using emulator::TransferInterval;
using emulator::trace_intervals;
using topology::StarGraph;

/// What the page shows: which collective, on which S_n, with which operator and values.
struct StarJob {
  bool broadcast = false;
  int n = 0;
  Op op = Op::SUM;
  algorithms::star::Values values;
};

/// Node boxes in the drawing (SVG user units).
constexpr double BOX_W = 68;
constexpr double BOX_H = 46;
/// The script draws a message beside its link, this far to the sender's right, and this wide.
constexpr double MESSAGE_OFFSET = 5;
constexpr double MESSAGE_WIDTH = 3;

/// The layout of the pages. A node takes a disc of radius 36 (a box's half-width and a little):
/// pairs sit side by side, so the half-diagonal (41) would only spread the drawing and shrink its
/// text; the two nodes of an S_2 are further apart, for the two message labels on their link.
/// Links, and the messages beside them, keep clear of every box they do not join
/// (api/star_layout.hpp): half a diagonal, the offset and a message's width.
StarLayout page_layout(const StarGraph& g) {
  const double clearance = std::hypot(BOX_W / 2, BOX_H / 2) + MESSAGE_OFFSET + MESSAGE_WIDTH;
  return star_layout(g, {.node_radius = 36, .gap = 28, .pair_gap = 64, .margin = 40, .clearance = clearance});
}

/// The note on the links of a star graph's page.
constexpr const char* STAR_LINKS_NOTE =
    "Coloured by dimension: the legend above the drawing. A link never crosses a node it does not join: where a "
    "straight line would, it is bent around. Grey circles group the sub-stars: nodes sharing their last symbols. "
    "Arrows are the messages of the step, with their values. Scroll to zoom, drag to pan, double-click to reset.";

/// SVG coordinates and JSON numbers of the drawing: a tenth of a unit.
double tenth(double x) { return std::round(x * 10) / 10; }

/// The drawing's part of the page data, which the script reads: node boxes, node centres and
/// labels, the corners of the bent links ([u, v, [[x, y], …]], u < v), the messages' offset.
nlohmann::json drawing_json(const StarGraph& g, const StarLayout& layout) {
  nlohmann::json nodes = nlohmann::json::array();
  for (StarGraph::vertex_descriptor v = 0; v < g.size(); ++v) {
    nodes.push_back({tenth(layout.nodes[v].x), tenth(layout.nodes[v].y), g.label_string(v)});
  }
  nlohmann::json bends = nlohmann::json::array();
  for (const auto& link : layout.links) {
    if (link.bends.empty()) continue;
    nlohmann::json corners = nlohmann::json::array();
    for (const Point p : link.bends) corners.push_back({tenth(p.x), tenth(p.y)});
    bends.push_back({link.u, link.v, corners});
  }
  return {{"box", {BOX_W, BOX_H}}, {"message_offset", MESSAGE_OFFSET}, {"nodes", nodes}, {"bends", bends}};
}

/// "S₃": sub-star names with Unicode subscripts.
std::string s_(std::uint64_t m) {
  static const char* digits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
  std::string sub;
  for (const char c : std::to_string(m)) sub += digits[c - '0'];
  return "S" + sub;
}

/// Little-endian unsigned integer of @p bytes bytes at @p offset of a payload.
std::uint64_t le_word(const std::string& payload, std::size_t offset, std::size_t bytes) {
  STARNET_ASSERT(payload.size() >= offset + bytes);
  std::uint64_t x = 0;
  for (std::size_t i = bytes; i-- > 0;) x = (x << 8) | static_cast<unsigned char>(payload[offset + i]);
  return x;
}

/// Items are numbered like the node values, rank + 1: "7–12", or "7" for one item.
std::string item_range(std::uint64_t begin, std::uint64_t end) {
  return end - begin == 1 ? std::to_string(begin + 1) : fmt::format("{}–{}", begin + 1, end);
}

std::string held_ranges(const std::vector<bool>& held) {
  std::string out;
  for (std::size_t b = 0; b < held.size();) {
    if (!held[b]) {
      ++b;
      continue;
    }
    std::size_t e = b;
    while (e < held.size() && held[e]) ++e;
    out += (out.empty() ? "" : ", ") + item_range(b, e);
    b = e;
  }
  return out;
}

std::string op_verb(Op op) {
  switch (op) {
    case Op::SUM:
      return "adds what it receives to its result";
    case Op::MIN:
      return "keeps the minimum of its result and what it receives";
    case Op::MAX:
      return "keeps the maximum of its result and what it receives";
    case Op::XOR:
      return "xors what it receives into its result";
  }
  return "";
}

/// The one-sentence explanation of a step, from what the trace says about it.
std::string explain(const StarJob& job, int level, const std::set<int>& dims, bool first_of_level,
                    std::uint64_t items) {
  if (dims.size() != 1) return fmt::format("Level m = {}: messages along links {}.", level, fmt::join(dims, ", "));
  const int d = *dims.begin();
  const std::string sub = s_(static_cast<std::uint64_t>(level - 1));
  if (!job.broadcast) {
    if (level == 2)
      return fmt::format("Level m = 2, link 2: the two nodes of each S₂ exchange their values; each {}.",
                         op_verb(job.op));
    if (first_of_level) {
      return fmt::format(
          "Level m = {0} begins, link {0}: every node sends its result — the {1} over its {2} — to its neighbour in "
          "another {2} of its {3}, and {4}; what arrives along link {0} is also kept in the outgoing buffer.",
          level, algorithms::star::to_string(job.op), sub, s_(static_cast<std::uint64_t>(level)), op_verb(job.op));
    }
    return fmt::format(
        "Level m = {0}, link d = {1}: every node forwards its outgoing buffer (the partial result received along "
        "link {0}) along link {1}, within its {2}, and {3}.",
        level, d, sub, op_verb(job.op));
  }
  if (level == 2) return "Level m = 2, link 2: the two nodes of each S₂ exchange their items.";
  if (first_of_level) {
    return fmt::format(
        "Level m = {0} begins, link {0}: every node sends the meta message of its {1} — the {2} items it holds — to "
        "its neighbour in another {1} of its {3}; what arrives is stored and kept in the outgoing buffer.",
        level, sub, items, s_(static_cast<std::uint64_t>(level)));
  }
  return fmt::format(
      "Level m = {0}, link d = {1}: every node forwards its outgoing buffer (the {2} items received along link {0}) "
      "along link {1}, within its {3}; no item reaches a node twice (NODUP).",
      level, d, items, sub);
}

struct PageData {
  nlohmann::json json;
  bool verified = false;
  std::size_t steps = 0;
};

/// The per-step data of the page, rebuilt from the trace of @p out (see the file comment).
PageData page_data(const StarJob& job, const StarGraph& g, const StarResult& out, const StarLayout& layout) {
  const NodeId nodes = g.size();
  const auto transfers = trace_intervals(out.run.trace).transfers;
  // A page step is the set of transfers that started at one event time.
  std::map<std::uint64_t, std::vector<const TransferInterval<Rational>*>> by_start;
  for (const auto& t : transfers) {
    STARNET_ASSERT(t.finished);
    by_start[t.start_step].push_back(&t);
  }

  std::vector<std::uint64_t> result(nodes);
  std::vector<std::vector<bool>> held(nodes, std::vector<bool>(nodes, false));
  std::vector<std::string> outgoing(nodes, "–");
  std::vector<std::uint64_t> items_received(nodes, 0);
  for (NodeId v = 0; v < nodes; ++v) {
    result[v] = job.values.of(v);
    held[v][v] = true;
  }
  const auto state = [&](nlohmann::json& step) {
    nlohmann::json res = nlohmann::json::array();
    nlohmann::json detail = nlohmann::json::array();
    for (NodeId v = 0; v < nodes; ++v) {
      if (job.broadcast) {
        res.push_back(std::to_string(std::count(held[v].begin(), held[v].end(), true)));
        detail.push_back(held_ranges(held[v]));
      } else {
        res.push_back(std::to_string(result[v]));
      }
    }
    step["result"] = res;
    step["outgoing"] = outgoing;
    if (job.broadcast) step["held"] = detail;
  };

  nlohmann::json steps = nlohmann::json::array();
  nlohmann::json start = {{"step", 0}, {"messages", nlohmann::json::array()}};
  const std::size_t total = by_start.size();
  start["explain"] =
      job.broadcast ? fmt::format(
                          "Start: every node holds its own item (items are numbered like the nodes' ranks + 1: 1..{}). "
                          "The broadcast takes {} steps (n(n−1)/2 = {} for n = {}).",
                          nodes, total, algorithms::star::allreduce_steps(job.n), job.n)
                    : fmt::format(
                          "Start: every node holds its own value in its result buffer (the node of rank r holds "
                          "r + 1: 1..{}); the outgoing buffers are empty. The all-reduce takes {} steps (n(n−1)/2 = {} "
                          "for n = {}).",
                          nodes, total, algorithms::star::allreduce_steps(job.n), job.n);
  state(start);
  steps.push_back(start);

  int level = 0;
  for (const auto& [start_step, group] : by_start) {
    std::set<int> dims;
    for (const auto* t : group) dims.insert(StarGraph::dimension_of(t->port));
    const bool first_of_level = *dims.rbegin() > level;
    level = std::max(level, *dims.rbegin());
    nlohmann::json messages = nlohmann::json::array();
    std::uint64_t items = 0;
    for (const auto* t : group) {
      const int dim = StarGraph::dimension_of(t->port);
      std::string text;
      if (job.broadcast) {
        const std::uint64_t b = le_word(t->payload, 0, 4);
        const std::uint64_t e = le_word(t->payload, 4, 4);
        STARNET_ASSERT(b < e && e <= nodes);
        items = e - b;
        text = item_range(b, e);
        for (std::uint64_t i = b; i < e; ++i) held[t->to][i] = true;
        items_received[t->to] += e - b;
      } else {
        const std::uint64_t x = le_word(t->payload, 0, 8);
        text = std::to_string(x);
        result[t->to] = algorithms::star::apply(job.op, result[t->to], x);
      }
      // Along the level's top link arrives what the node forwards in the rest of the level.
      if (dim == level) outgoing[t->to] = text;
      messages.push_back({t->from, t->to, dim, text});
    }
    nlohmann::json step = {{"step", steps.size()},
                           {"level", level},
                           {"links", dims},
                           {"messages", messages},
                           {"explain", explain(job, level, dims, first_of_level, items)}};
    state(step);
    steps.push_back(step);
  }

  PageData page;
  page.steps = total;
  std::uint64_t good = 0;
  for (NodeId v = 0; v < nodes; ++v) {
    const bool ok = job.broadcast ? std::count(held[v].begin(), held[v].end(), true) == static_cast<long>(nodes) &&
                                        items_received[v] == nodes - 1
                                  : result[v] == out.expected_value;
    good += ok ? 1 : 0;
  }
  page.verified = good == nodes && out.verified;
  std::string final_text;
  if (page.verified) {
    final_text =
        job.broadcast
            ? fmt::format("Done: all {0} nodes hold all {0} items, each received once (checked from the trace).", nodes)
            : fmt::format(
                  "Done: all {} nodes hold {}, the {} of all {} values (checked from the trace against "
                  "the sequential {}).",
                  nodes, out.expected_value, algorithms::star::to_string(job.op), nodes,
                  algorithms::star::to_string(job.op));
  } else {
    final_text = fmt::format("NOT VERIFIED: {} of {} nodes end as they should.", good, nodes);
  }
  page.json = {{"collective", job.broadcast ? "broadcast" : "allreduce"},
               {"topology", fmt::format("star:{}", job.n)},
               {"n", job.n},
               {"op", job.broadcast ? "" : algorithms::star::to_string(job.op)},
               {"steps", steps},
               {"final", final_text},
               {"verified", page.verified}};
  page.json.update(drawing_json(g, layout));
  return page;
}

/// The legend's letters: at least this size, and larger on larger drawings (1/64 of the width),
/// so that it reads when the whole drawing fits the screen.
constexpr double LEGEND_FONT_MIN = 15;
constexpr double LEGEND_FONT_PER_WIDTH = 1.0 / 64;

struct SvgLegend {
  std::string svg;
  double height = 0;  ///< of the band above the star the legend takes (y from −height to 0)
};

/// The legend of the link colours, one row per dimension k = 2..n: a bar in the colour of link
/// k (class dK, as the links) and "link k: swaps symbols 1 and k".
SvgLegend svg_legend(int n, double width) {
  const double font = std::max(LEGEND_FONT_MIN, width * LEGEND_FONT_PER_WIDTH);
  const double row = 1.5 * font;
  SvgLegend legend{"<g id=\"legend\">\n", row * (n - 1) + font};
  for (int k = 2; k <= n; ++k) {
    const double y = -legend.height + font / 2 + row * (k - 1.5);  // the row's middle
    legend.svg += fmt::format(
        "<g class=\"legend-entry\" data-dimension=\"{0}\"><rect class=\"swatch d{0}\" x=\"{1:.1f}\" y=\"{2:.1f}\" "
        "width=\"{3:.1f}\" height=\"{4:.1f}\"/><text x=\"{5:.1f}\" y=\"{6:.1f}\" font-size=\"{7:.1f}\">{8}</text></g>\n",
        k, font, y - font / 8, 2 * font, font / 4, 3.5 * font, y, font, star_link_legend(k));
  }
  legend.svg += "</g>\n";
  return legend;
}

/// One link of the drawing: a straight line, or the polyline around the nodes it must not cross.
std::string svg_link(const StarLayout& layout, const LinkPath& link) {
  const Point a = layout.nodes[link.u];
  const Point b = layout.nodes[link.v];
  if (link.bends.empty()) {
    return fmt::format("<line class=\"link d{}\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n",
                       link.dimension, a.x, a.y, b.x, b.y);
  }
  std::string points = fmt::format("{:.1f},{:.1f}", a.x, a.y);
  for (const Point p : link.bends) points += fmt::format(" {:.1f},{:.1f}", tenth(p.x), tenth(p.y));
  return fmt::format("<polyline class=\"link d{}\" points=\"{} {:.1f},{:.1f}\"/>\n", link.dimension, points, b.x, b.y);
}

/// The node boxes in their state at the start: @p result_key and @p outgoing_key name the two
/// lines the script updates at each step.
std::string svg_nodes(const std::vector<std::string>& labels, const std::vector<Point>& at, std::string_view result_key,
                      std::string_view outgoing_key, const nlohmann::json& start, double box_w) {
  std::string s = "<g id=\"nodes\">\n";
  for (std::size_t v = 0; v < labels.size(); ++v) {
    s += fmt::format(
        "<g class=\"node\" id=\"node-{0}\" data-rank=\"{0}\" transform=\"translate({1:.1f} {2:.1f})\" tabindex=\"0\">"
        "<rect x=\"{3:.0f}\" y=\"{4:.0f}\" width=\"{5:.0f}\" height=\"{6:.0f}\" rx=\"7\"/>"
        "<text class=\"label\" y=\"-8\">{7}</text>"
        "<text class=\"result\" y=\"7\"><tspan class=\"key\">{8} </tspan><tspan class=\"val\">{9}</tspan></text>"
        "<text class=\"outgoing\" y=\"19\"><tspan class=\"key\">{10} </tspan><tspan class=\"val\">{11}</tspan></text>"
        "</g>\n",
        v, at[v].x, at[v].y, -box_w / 2, -BOX_H / 2, box_w, BOX_H, xml_escape(labels[v]), result_key,
        xml_escape(start["result"][v].get<std::string>()), outgoing_key,
        xml_escape(start["outgoing"][v].get<std::string>()));
  }
  return s + "</g>\n";
}

/// An SVG drawing's opening: its view box (from @p top, @p width × @p height), what it shows in
/// words, and the arrow heads of the messages in the links' colours d2 … d<colours>.
std::string svg_open(double top, double width, double height, const std::string& label, int colours) {
  std::string s = fmt::format(
      "<svg id=\"star\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 {0:.0f} {1:.0f} {2:.0f}\" "
      "preserveAspectRatio=\"xMidYMid meet\" role=\"img\" aria-label=\"{3}\">\n<defs>\n",
      top, width, height, xml_escape(label));
  for (int k = 2; k <= colours; ++k) {
    s += fmt::format(
        "<marker id=\"arrow-d{0}\" class=\"d{0}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" "
        "markerHeight=\"5\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\"/></marker>\n",
        k);
  }
  return s + "</defs>\n";
}

/// A star graph's drawing up to its links: the legend above, sub-star outlines, links coloured by
/// dimension.
std::string star_background(int n, const StarGraph& g, const StarLayout& layout) {
  const SvgLegend legend = svg_legend(n, layout.width);
  std::string s = svg_open(-legend.height, layout.width, layout.height + legend.height,
                           fmt::format("the star graph {} with its sub-stars", s_(static_cast<std::uint64_t>(n))), n);
  s += legend.svg + "<g id=\"substars\">\n";
  for (const auto& o : layout.substars) {
    s += fmt::format("<circle class=\"substar m{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\"/>\n", o.m, o.center.x,
                     o.center.y, o.radius);
    if (o.m == n - 1) {
      s += fmt::format("<text class=\"substar-label\" x=\"{:.1f}\" y=\"{:.1f}\">{} · last symbol {}</text>\n",
                       o.center.x, o.center.y - o.radius - 8, s_(static_cast<std::uint64_t>(o.m)),
                       g.last_symbol(o.begin));
    }
  }
  s += "</g>\n<g id=\"links\">\n";
  for (const auto& link : layout.links) s += svg_link(layout, link);
  return s + "</g>\n";
}

/// The drawing's end: the layers of the messages and of their labels around the node boxes.
std::string svg_close(const std::vector<std::string>& labels, const std::vector<Point>& at, std::string_view result_key,
                      std::string_view outgoing_key, const nlohmann::json& start, double box_w = BOX_W) {
  return "<g id=\"messages\"></g>\n" + svg_nodes(labels, at, result_key, outgoing_key, start, box_w) +
         "<g id=\"message-labels\"></g>\n</svg>\n";
}

std::vector<std::string> node_labels(const topology::Topology& g) {
  std::vector<std::string> labels;
  for (NodeId v = 0; v < g.num_nodes(); ++v) labels.push_back(g.node_name(v));
  return labels;
}

/// The static drawing of a star collective: node boxes in their initial state (the script
/// updates buffers and draws messages).
std::string star_svg(const StarJob& job, const StarGraph& g, const StarLayout& layout, const nlohmann::json& start) {
  return star_background(job.n, g, layout) +
         svg_close(node_labels(g), layout.nodes, job.broadcast ? "held" : "res", "out", start);
}

/// The colours of the links, d2 … dN, as CSS variables: one list (LINK_PALETTE) for both drawings.
std::string link_colours_css(int n) {
  std::string s = ":root {";
  for (int k = 2; k <= n; ++k) s += fmt::format(" --d{}: {};", k, LINK_PALETTE[static_cast<std::size_t>(k - 2)]);
  return s + " }\n";
}

/// What a page says around its drawing.
struct PageWords {
  std::string title;
  std::string source;   ///< the line under the title: whose algorithm, where it ran
  std::string buffers;  ///< the note on the two lines of a node's box
  std::string links;    ///< the note on the links
  int colours = 2;      ///< the links' colours: d2 … d<colours>
};

PageWords star_words(const StarJob& job, const StarGraph& g, const PageData& page) {
  PageWords w;
  const std::string what =
      job.broadcast ? "All-to-all broadcast" : "All-reduce (" + algorithms::star::to_string(job.op) + ")";
  w.title = fmt::format("{} on the star graph {}", what, s_(static_cast<std::uint64_t>(job.n)));
  w.source = fmt::format(
      "Oh, Choi, Primeaux (2005), run on the starnet emulator: {} nodes, single-port, {} steps. Everything shown is "
      "read from the run's trace.",
      g.size(), page.steps);
  w.buffers =
      job.broadcast
          ? "<b>held</b>: how many items the node holds (its result buffer; click a node for the list); "
            "<b>out</b>: its outgoing buffer, the meta message it received along the level's top link m and forwards "
            "along links m−1, …, 2."
          : "<b>res</b>: the node's own value combined with everything it has received (the paper's result and "
            "outgoing buffers together); <b>out</b>: its outgoing buffer, the partial result it received along the "
            "level's top link m and forwards along links m−1, …, 2.";
  w.links = STAR_LINKS_NOTE;
  w.colours = job.n;
  return w;
}

std::string page_html(const PageWords& words, const std::string& svg, const PageData& page) {
  std::string data = page.json.dump();
  // Inside <script>, "</" could close the element: JSON allows "<\/".
  for (std::size_t i = data.find("</"); i != std::string::npos; i = data.find("</", i + 3)) data.replace(i, 2, "<\\/");
  return fmt::format(
      R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{0} — starnet</title>
<style>
{1}</style>
</head>
<body>
<main>
<div id="drawing">
{2}</div>
<aside id="panel">
<h1>{0}</h1>
<p class="source">{3}</p>
<div class="controls">
<button id="first" title="Back to the start (Home)">Start</button>
<button id="back" title="One step back (←)">◀ Back</button>
<button id="play" title="Play / pause (space)">▶ Play</button>
<button id="forward" title="One step forward (→)">Forward ▶</button>
<button id="last" title="To the end (End)">End</button>
</div>
<p id="step-counter" aria-live="polite">Step 0 of {4}</p>
<p id="phase"></p>
<p id="status"></p>
<h2>Buffers</h2>
<p class="note">{5}</p>
<h2>Links</h2>
<p class="note">{8}</p>
<h2>Node</h2>
<p id="detail" class="note">Click a node to see its buffers and messages.</p>
</aside>
</main>
<script type="application/json" id="starnet-data">{6}</script>
<script>
{7}</script>
</body>
</html>
)html",
      xml_escape(words.title), link_colours_css(words.colours) + VIZ_CSS, svg, words.source, page.steps,
      words.buffers, data, VIZ_JS, words.links);
}

/// The page of an all-gather schedule file on S_n: who sends to whom when comes from the
/// emulator's trace, what a message carries from the schedule's item list of that send (a
/// schedule's payloads are chunk values, not item ranges); the paper's step count beside it.
PageData schedule_page_data(const algorithms::schedule::Schedule& s, const StarGraph& g,
                            const algorithms::schedule::ScheduleRun& run, const StarLayout& layout,
                            const std::string& file, int n) {
  namespace sch = algorithms::schedule;
  const NodeId nodes = g.size();
  std::map<std::pair<std::uint64_t, NodeId>, std::span<const sch::Item>> sent;  // (step, sender) → items
  for (NodeId v = 0; v < nodes; ++v) {
    for (const auto& a : s.actions(static_cast<std::uint32_t>(v))) {
      if (a.kind == sch::Action::Kind::SEND) sent[{a.key, v}] = s.items(a.items);
    }
  }
  std::map<std::uint64_t, std::vector<TransferInterval<Rational>>> by_start;
  for (const auto& t : trace_intervals(run.run.trace).transfers) by_start[t.start_step].push_back(t);
  std::vector<std::vector<bool>> held(nodes, std::vector<bool>(nodes, false));
  std::vector<std::string> outgoing(nodes, "–");
  std::vector<std::uint64_t> received(nodes, 0);
  for (NodeId v = 0; v < nodes; ++v) held[v][v] = true;
  const auto state = [&](nlohmann::json& step) {
    nlohmann::json res = nlohmann::json::array();
    nlohmann::json detail = nlohmann::json::array();
    for (NodeId v = 0; v < nodes; ++v) {
      res.push_back(std::to_string(std::count(held[v].begin(), held[v].end(), true)));
      detail.push_back(held_ranges(held[v]));
    }
    step["result"] = res;
    step["outgoing"] = outgoing;
    step["held"] = detail;
  };
  nlohmann::json steps = nlohmann::json::array();
  nlohmann::json start = {{"step", 0}, {"messages", nlohmann::json::array()}};
  start["explain"] = fmt::format(
      "Start: every node holds its own item (numbered like the nodes' ranks + 1: 1..{}). The schedule {} takes {} "
      "steps; the paper's broadcast takes n(n−1)/2 = {} on S_{}.",
      nodes, file, by_start.size(), algorithms::star::allreduce_steps(n), n);
  state(start);
  steps.push_back(start);
  for (const auto& [step_index, group] : by_start) {
    std::set<int> dims;
    nlohmann::json messages = nlohmann::json::array();
    std::uint64_t largest = 0;
    for (const auto& t : group) {
      const int dim = StarGraph::dimension_of(t.port);
      dims.insert(dim);
      std::vector<bool> carried(nodes, false);
      const auto it = sent.find({step_index, t.from});
      if (it != sent.end()) {
        for (const auto& item : it->second) carried[item.a] = true;
      }
      for (NodeId x = 0; x < nodes; ++x) {
        if (carried[x] && !held[t.to][x]) ++received[t.to];
        if (carried[x]) held[t.to][x] = true;
      }
      const auto text = held_ranges(carried);
      largest = std::max<std::uint64_t>(largest, static_cast<std::uint64_t>(std::count(carried.begin(), carried.end(), true)));
      outgoing[t.to] = text;
      messages.push_back({t.from, t.to, dim, text});
    }
    nlohmann::json step = {{"step", steps.size()},
                           {"links", dims},
                           {"messages", messages},
                           {"explain", fmt::format("Step {}: messages along link{} {}; each carries only what its "
                                                   "receiver lacks (largest: {} items).",
                                                   steps.size(), dims.size() == 1 ? "" : "s", fmt::join(dims, ", "),
                                                   largest)}};
    state(step);
    steps.push_back(step);
  }
  PageData page;
  page.steps = by_start.size();
  std::uint64_t good = 0;
  for (NodeId v = 0; v < nodes; ++v) {
    good += std::count(held[v].begin(), held[v].end(), true) == static_cast<long>(nodes) && received[v] == nodes - 1;
  }
  page.verified = good == nodes && run.verified;
  page.json = {{"collective", "broadcast"},
               {"topology", fmt::format("star:{}", n)},
               {"n", n},
               {"op", ""},
               {"steps", steps},
               {"final", page.verified ? fmt::format("Done in {} steps (the paper: {}): all {} nodes hold all {} items, "
                                                     "each received once (checked from the trace and the schedule).",
                                                     page.steps, algorithms::star::allreduce_steps(n), nodes, nodes)
                                       : fmt::format("NOT VERIFIED: {} of {} nodes end as they should.", good, nodes)},
               {"verified", page.verified}};
  page.json.update(drawing_json(g, layout));
  return page;
}

/// A page of a user's run draws a topology other than a star graph on a circle, node centres this
/// far apart along it beyond a box's width (a message label between two neighbours).
constexpr double CIRCLE_GAP = 52;
constexpr double CIRCLE_MARGIN = 60;
/// A message's label on the page, at most this many characters (it sits beside its link); the
/// whole text is in its tooltip and in the node's details.
constexpr std::size_t MESSAGE_TEXT_MAX = 18;
/// A box of a user's run on a circle grows with the longest line it shows, up to this wide; a
/// longer line is shortened in the box and whole in its tooltip. The width of a character of the
/// boxes' text (11.5 px DejaVu Sans, a little over its mean) and the room around a line.
constexpr double MAX_BOX_W = 220;
constexpr double BOX_CHAR_W = 7.0;
constexpr double BOX_TEXT_PADDING = 12;
/// The colour of every link of a topology drawn on a circle (LINK_PALETTE's first).
constexpr int CIRCLE_LINK_COLOUR = 2;

/// Every link of @p g once, straight, into @p layout.
void add_straight_links(const topology::Topology& g, StarLayout& layout) {
  const NodeId n = g.num_nodes();
  std::set<std::pair<NodeId, NodeId>> seen;
  for (NodeId u = 0; u < n; ++u) {
    for (topology::Port p = 0; p < g.degree(u); ++p) {
      const NodeId v = g.neighbor(u, p);
      if (u != v && seen.insert(std::minmax(u, v)).second) {
        using Vertex = StarGraph::vertex_descriptor;  // ≤ MAX_PAGE_NODES
        layout.links.push_back({static_cast<Vertex>(std::min(u, v)), static_cast<Vertex>(std::max(u, v)), CIRCLE_LINK_COLOUR, {}});
      }
    }
  }
}

/// Nodes on a circle in id order, from the top clockwise; every link once, straight.
StarLayout circle_layout(const topology::Topology& g, double box_w) {
  const NodeId n = g.num_nodes();
  const auto count = static_cast<double>(n);
  const double radius = n <= 1 ? 0 : (box_w + CIRCLE_GAP) / (2 * std::sin(std::numbers::pi / count));
  StarLayout layout;
  layout.width = layout.height = 2 * (radius + CIRCLE_MARGIN);
  for (NodeId v = 0; v < n; ++v) {
    const double angle = 2 * std::numbers::pi * static_cast<double>(v) / count - std::numbers::pi / 2;
    layout.nodes.push_back({radius + CIRCLE_MARGIN + radius * std::cos(angle), radius + CIRCLE_MARGIN + radius * std::sin(angle)});
  }
  add_straight_links(g, layout);
  return layout;
}

/// A topology named by a spec as `topo draw` lays it out (api/drawing.hpp: a hypercube as a
/// hypercube, a mesh or torus as a grid, a tree as a tree), stretched until no two boxes of
/// @p box_w overlap (each pair apart by a box and a gap across or down); every link straight.
/// None where the run's topology is not a spec (built in memory) or Graphviz cannot lay it out:
/// the page draws a circle then, and says so. O(V² + E) and Graphviz's layout.
std::optional<StarLayout> drawn_layout(const EmulateResult& run, double box_w) {
  const auto& g = *run.graph;
  TopologyLayout drawn;
  try {
    drawn = topology_layout(TopologyRef(run.topology));
  } catch (const Error&) {
    return std::nullopt;
  }
  const NodeId n = g.num_nodes();
  if (drawn.nodes.size() != n) return std::nullopt;
  for (NodeId v = 0; v < n; ++v) {
    if (drawn.nodes[v].name != g.node_name(v)) return std::nullopt;
  }
  double scale = 1;
  for (NodeId u = 0; u < n; ++u) {
    for (NodeId v = u + 1; v < n; ++v) {
      const double dx = std::abs(drawn.nodes[u].x - drawn.nodes[v].x);
      const double dy = std::abs(drawn.nodes[u].y - drawn.nodes[v].y);
      const double across = dx > 0 ? (box_w + CIRCLE_GAP) / dx : HUGE_VAL;
      const double down = dy > 0 ? (BOX_H + CIRCLE_GAP) / dy : HUGE_VAL;
      scale = std::max(scale, std::min(across, down));
    }
  }
  if (!std::isfinite(scale)) return std::nullopt;  // two nodes at one place
  StarLayout layout;
  layout.width = scale * drawn.width + 2 * CIRCLE_MARGIN + box_w;
  layout.height = scale * drawn.height + 2 * CIRCLE_MARGIN + BOX_H;
  for (const auto& node : drawn.nodes) {
    layout.nodes.push_back({CIRCLE_MARGIN + box_w / 2 + scale * node.x, CIRCLE_MARGIN + BOX_H / 2 + scale * node.y});
  }
  add_straight_links(g, layout);
  return layout;
}

/// A message's whole text: the caller's, else markup's payload_text() (what the run's pictures
/// write too).
std::string message_text(const ProgramPageNotes& notes, const std::string& payload) {
  return notes.payload_text ? notes.payload_text(payload) : payload_text(payload);
}

/// UTF-8 characters of @p text (code points: what a box's line holds, near enough).
std::size_t chars_of(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U; }));
}

/// The width of the boxes of a user's run on a circle, from the longest line they show (the node's
/// name, or a key and its value at any step), between BOX_W and MAX_BOX_W; and how many
/// characters of each line's value fit ("value_chars": [state, last]), which the script shortens
/// to, the whole line in the node's tooltip.
double fit_boxes(nlohmann::json& page, const std::vector<std::string>& names, std::string_view result_key,
                 std::string_view outgoing_key, bool grow) {
  std::size_t longest = 0;
  for (const auto& name : names) longest = std::max(longest, chars_of(name));
  const std::array<std::pair<const char*, std::string_view>, 2> lines = {{{"result", result_key}, {"outgoing", outgoing_key}}};
  for (const auto& step : page["steps"]) {
    for (const auto& [field, key] : lines) {
      for (const auto& value : step[field]) longest = std::max(longest, chars_of(key) + 1 + chars_of(value.get<std::string>()));
    }
  }
  const double box_w =
      grow ? std::clamp(BOX_TEXT_PADDING + BOX_CHAR_W * static_cast<double>(longest), BOX_W, MAX_BOX_W) : BOX_W;
  const auto room = static_cast<std::size_t>((box_w - BOX_TEXT_PADDING) / BOX_CHAR_W);
  page["value_chars"] = {room - std::min(room, chars_of(result_key) + 1), room - std::min(room, chars_of(outgoing_key) + 1)};
  return box_w;
}

/// The last step of a failed run's page: where it stopped (the program's ctx.step) and the node at
/// fault, which the page marks (`failed_node`), with the states the nodes had then.
nlohmann::json failure_step(const EmulateResult& run, std::size_t index, const std::vector<std::string>& shown,
                            const std::vector<std::string>& last) {
  const auto& g = *run.graph;
  const bool named = run.failed_node && *run.failed_node < g.num_nodes();
  nlohmann::json step = {{"step", index}, {"links", nlohmann::json::array()}, {"messages", nlohmann::json::array()}};
  step["explain"] = fmt::format("The run failed at step {}{}: {}", run.failed_step.value_or(run.steps),
                                named ? fmt::format(", node {}", g.node_name(*run.failed_node)) : "", run.problem);
  step["failed_node"] = named ? nlohmann::json(*run.failed_node) : nlohmann::json(nullptr);
  step["result"] = shown;
  step["outgoing"] = last;
  return step;
}

/// The crashes of a run with faults, by the step they were noted at.
std::multimap<std::uint64_t, NodeId> crashes_of(const EmulateResult& run) {
  std::multimap<std::uint64_t, NodeId> out;
  for (const auto& e : run.run.trace) {
    if (e.kind == emulator::EventKind::CRASH) out.emplace(e.step, e.node);
  }
  return out;
}

/// The per-step data of a user's run: the transfers of each start step (a page step shows the sends
/// of one ctx.step), each node's last view (or how many messages it received) and the last message
/// it received; a lost message is drawn marked and received by no one, a crashed node says so.
PageData program_page_data(const EmulateResult& run, const StarGraph* star, const ProgramPageNotes& notes) {
  const NodeId nodes = run.graph->num_nodes();
  const auto crashes = crashes_of(run);
  auto next_crash = crashes.begin();
  std::map<std::uint64_t, std::vector<TransferInterval<Rational>>> by_start;
  for (auto& t : trace_intervals(run.run.trace).transfers) by_start[t.start_step].push_back(std::move(t));
  std::vector<NodeView> views(notes.views);
  std::stable_sort(views.begin(), views.end(), [](const NodeView& a, const NodeView& b) { return a.step < b.step; });
  auto next_view = views.begin();
  std::vector<std::string> shown(nodes, views.empty() ? "0" : "–");
  std::vector<std::uint64_t> received(nodes, 0);
  std::vector<std::string> last(nodes, "–");
  // Views up to @p step: the states after the reactions to what arrived by then.
  const auto show_until = [&](std::uint64_t step) {
    for (; next_view != views.end() && next_view->step <= step; ++next_view) {
      if (next_view->node < nodes) shown[next_view->node] = next_view->text;
    }
  };
  // Crashes noted up to @p step: the node shows it from then on.
  const auto crash_until = [&](std::uint64_t step) {
    for (; next_crash != crashes.end() && next_crash->first <= step; ++next_crash) shown[next_crash->second] = "crashed";
  };
  const auto state = [&](nlohmann::json& step) {
    step["result"] = shown;
    step["outgoing"] = last;
  };
  nlohmann::json steps = nlohmann::json::array();
  nlohmann::json start = {{"step", 0}, {"messages", nlohmann::json::array()}, {"links", nlohmann::json::array()}};
  start["explain"] = fmt::format("Start: your program on {}, {} nodes; the run takes {} steps and {} messages{}.",
                                 run.topology, nodes, run.steps, run.messages,
                                 run.lost == 0 ? "" : fmt::format(" ({} more lost)", run.lost));
  show_until(by_start.empty() ? ~std::uint64_t{0} : by_start.begin()->first);
  crash_until(by_start.empty() ? ~std::uint64_t{0} : by_start.begin()->first);
  state(start);
  steps.push_back(start);
  for (auto it = by_start.begin(); it != by_start.end(); ++it) {
    std::set<int> dims;
    nlohmann::json messages = nlohmann::json::array();
    for (const auto& t : it->second) {
      const int dim = star != nullptr ? StarGraph::dimension_of(t.port) : CIRCLE_LINK_COLOUR;
      dims.insert(dim);
      auto text = t.lost ? "✗ lost: " + message_text(notes, t.payload) : message_text(notes, t.payload);
      if (t.finished && !t.lost) {  // a failed run's last send may never have arrived
        ++received[t.to];
        last[t.to] = text;
        if (views.empty()) shown[t.to] = std::to_string(received[t.to]);
      }
      messages.push_back({t.from, t.to, dim, shorten(text, MESSAGE_TEXT_MAX), std::move(text)});
    }
    const auto following = std::next(it);
    show_until(following == by_start.end() ? ~std::uint64_t{0} : following->first);
    crash_until(following == by_start.end() ? ~std::uint64_t{0} : following->first);
    const auto& first = it->second.front();
    const auto lost = std::count_if(it->second.begin(), it->second.end(), [](const auto& t) { return t.lost; });
    std::string explain = fmt::format("Step {} (the sends of ctx.step {}{}): {} message{}{}", steps.size(), it->first,
                                      run.timed ? fmt::format(", time {}", emulator::time_text(first.start, emulator::TimeText::BRIEF)) : "",
                                      it->second.size(), it->second.size() == 1 ? "" : "s",
                                      lost == 0 ? "" : fmt::format(", {} of them lost", lost));
    if (star != nullptr) explain += fmt::format(" along link{} {}", dims.size() == 1 ? "" : "s", fmt::join(dims, ", "));
    nlohmann::json step = {{"step", steps.size()}, {"links", dims}, {"messages", messages}, {"explain", explain + "."}};
    state(step);
    steps.push_back(step);
  }
  if (!run.verified) steps.push_back(failure_step(run, steps.size(), shown, last));
  PageData page;
  page.steps = steps.size() - 1;
  page.verified = run.verified && notes.problem.empty();
  page.json = {{"collective", "program"},
               {"topology", run.topology},
               {"steps", steps},
               {"result_name", views.empty() ? "messages received" : "state"},
               {"outgoing_name", "last message received"},
               {"links_named", star != nullptr},
               {"final", page.verified ? fmt::format("Done in {} steps, {} messages: the run kept the port model{}.",
                                                     run.steps, run.messages,
                                                     notes.views.empty() && notes.problem.empty() ? "" : ", and your check passed")
                                       : "NOT VERIFIED: " + (notes.problem.empty() ? run.problem : notes.problem)},
               {"verified", page.verified}};
  return page;
}

/// The drawing part of the page data for any topology (drawing_json() for star graphs).
nlohmann::json circle_json(const topology::Topology& g, const StarLayout& layout, double box_w) {
  nlohmann::json nodes = nlohmann::json::array();
  for (NodeId v = 0; v < g.num_nodes(); ++v) {
    nodes.push_back({tenth(layout.nodes[v].x), tenth(layout.nodes[v].y), g.node_name(v)});
  }
  return {{"box", {box_w, BOX_H}}, {"message_offset", MESSAGE_OFFSET}, {"nodes", nodes}, {"bends", nlohmann::json::array()}};
}

}  // namespace

void check_page_size(int n) {
  if (n > MAX_PAGE_N || n < 2) {
    throw UsageError(Setting{"topology", fmt::format("star:{}", n)},
                     fmt::format("the animated page is limited to star:2..star:{} ({}); for a larger star graph keep "
                                 "the run's trace instead (in Chrome's trace-event format it opens in Perfetto)",
                                 MAX_PAGE_N,
                                 n < 2 ? "S_1 has one node and no step to show"
                                       : fmt::format("S_{} has {} nodes and as many messages per step: the page would "
                                                     "be unreadable",
                                                     n, StarGraph::factorial(n))));
  }
}

VizPage star_page(const StarResult& run) {
  const auto& r = run.request;
  StarJob job{r.collective == Collective::ALLGATHER, r.n, r.values.op, make_values(r.values)};
  check_page_size(job.n);
  if (!r.trace) throw UsageError(Setting{"trace", "false"}, "the page is drawn from the run's trace: run with «trace»");
  const StarGraph& g = *run.graph;
  const StarLayout layout = page_layout(g);
  const PageData page = page_data(job, g, run, layout);
  return {page_html(star_words(job, g, page), star_svg(job, g, layout, page.json["steps"][0]), page), page.verified,
          page.steps};
}

VizPage schedule_page(const LoadedSchedule& loaded) {
  namespace sch = algorithms::schedule;
  const auto* g = dynamic_cast<const StarGraph*>(loaded.topology.get());
  if (g == nullptr) {
    throw UsageError(Setting{"topology", loaded.spec}, "the pages draw star graphs (star:2..star:5)");
  }
  const int n = static_cast<int>(topology::star_dimension(topology::parse_spec(loaded.spec)));
  check_page_size(n);
  if (loaded.schedule->rules().kind() != Collective::ALLGATHER || loaded.schedule->form() != sch::Form::STEPPED) {
    throw UsageError(Setting{"schedule", loaded.path.empty() ? loaded.source : loaded.path},
                     "expected a stepped all-gather (an all-to-all broadcast)");
  }
  sch::ScheduleRunSettings settings;
  settings.config.trace = true;
  const auto run = sch::run_schedule(*loaded.schedule, *g, settings);
  const StarLayout layout = page_layout(*g);
  const StarJob job{true, n, Op::SUM, {}};
  const PageData page = schedule_page_data(*loaded.schedule, *g, run, layout,
                                           loaded.path.empty() ? loaded.source : loaded.path, n);
  return {page_html(star_words(job, *g, page), star_svg(job, *g, layout, page.json["steps"][0]), page),
          page.verified, page.steps};
}

void check_program_page(const topology::Topology& g) {
  if (const auto* star = dynamic_cast<const StarGraph*>(&g)) {
    check_page_size(star->n());
    return;
  }
  if (g.num_nodes() > MAX_PAGE_NODES) {
    throw UsageError(Setting{"topology", g.name()},
                     fmt::format("the page draws at most {} nodes (a star graph up to star:{}), and {} has "
                                 "{}: keep the run's trace instead",
                                 MAX_PAGE_NODES, MAX_PAGE_N, g.name(), g.num_nodes()));
  }
}

VizPage program_page(const EmulateResult& run, const ProgramPageNotes& notes) {
  STARNET_ASSERT(run.graph != nullptr);
  const auto& g = *run.graph;
  check_program_page(g);
  if (!run.traced) {
    throw UsageError(Setting{"trace", "false"}, "the page is drawn from the run's trace: run with «trace»");
  }
  const auto* star = dynamic_cast<const StarGraph*>(&g);
  PageData page = program_page_data(run, star, notes);
  const char* result_key = notes.views.empty() ? "recv" : "state";
  // A star graph's layout keeps its boxes' width; on a circle they grow with their text.
  const double box_w = fit_boxes(page.json, node_labels(g), result_key, "last", star == nullptr);
  const auto drawn = star != nullptr ? std::nullopt : drawn_layout(run, box_w);
  const StarLayout layout = star != nullptr ? page_layout(*star) : drawn ? *drawn : circle_layout(g, box_w);
  page.json.update(star != nullptr ? drawing_json(*star, layout) : circle_json(g, layout, box_w));
  PageWords words;
  words.title = fmt::format("Your node program on {}", run.topology);
  words.source = fmt::format(
      "Run on the starnet emulator: {} nodes, {} steps, {} messages{}. Everything shown is read from the run's trace.",
      g.num_nodes(), run.steps, run.messages, run.timed ? fmt::format(", makespan {}", emulator::time_text(run.makespan, emulator::TimeText::BRIEF)) : "");
  words.buffers = notes.views.empty()
                      ? "<b>recv</b>: how many messages the node has received; <b>last</b>: the last one."
                      : "<b>state</b>: what the node's program shows of itself after reacting to the step's messages; "
                        "<b>last</b>: the last message it received.";
  const auto& start = page.json["steps"][0];
  std::string svg;
  if (star != nullptr) {
    const int n = static_cast<int>(star->n());
    words.links = STAR_LINKS_NOTE;
    words.colours = n;
    svg = star_background(n, *star, layout);
  } else {
    words.links = fmt::format("{} Arrows are the messages of the step, with their texts. Scroll to zoom, drag to "
                              "pan, double-click to reset.",
                              drawn ? "Nodes where Graphviz places them for starnet topo draw."
                                    : "Nodes on a circle in id order, from the top clockwise.");
    svg = svg_open(0, layout.width, layout.height, "the topology " + run.topology, CIRCLE_LINK_COLOUR) +
          "<g id=\"links\">\n";
    for (const auto& link : layout.links) svg += svg_link(layout, link);
    svg += "</g>\n";
  }
  svg += svg_close(node_labels(g), layout.nodes, result_key, "last", start, box_w);
  return {page_html(words, svg, page), page.verified, page.steps};
}

}  // namespace starnet::api

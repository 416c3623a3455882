// The two drawings of the star graph S_n — `starnet topo draw star:N` (Graphviz SVG) and the
// `starnet viz` pages — run as a user runs them and read back from their SVG: no link passes over
// a node it does not join, and the legend gives every link dimension with the colour its links
// are drawn in (api/star_layout.hpp). The oracle is the drawn output itself: node boxes and link
// paths as the SVG has them, link dimensions from the node labels (link k swaps symbols 1 and k).
#include "cli_runner.hpp"
#include "viz_xml.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace starnet::tools::testing {
namespace {

/// Points a Bézier piece of a Graphviz path is sampled at: its polyline departs from the curve by
/// far less than the margin the layout keeps (several units).
constexpr int CUBIC_SAMPLES = 64;

struct Pt {
  double x = 0;
  double y = 0;
};

/// A node as drawn: its label, the centre of its box and the radius of the circle around the box.
struct DrawnNode {
  std::string label;
  Pt centre;
  double radius = 0;
};

/// A link as drawn: the labels of its ends, its polyline (curves sampled), its colour or class.
struct DrawnLink {
  std::string a;
  std::string b;
  std::vector<Pt> points;
  std::string colour;
};

struct Drawing {
  std::vector<DrawnNode> nodes;
  std::vector<DrawnLink> links;
};

std::uint64_t factorial(int n) { return n <= 1 ? 1 : static_cast<std::uint64_t>(n) * factorial(n - 1); }

std::vector<double> numbers(const std::string& text) {
  static const std::regex number(R"(-?\d+(\.\d+)?(e-?\d+)?)");
  std::vector<double> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number); it != std::sregex_iterator(); ++it) {
    out.push_back(std::stod(it->str()));
  }
  return out;
}

/// The star link k joining two labels (they differ by swapping their first and k-th symbols), or 0.
int swap_dimension(const std::string& a, const std::string& b) {
  if (a.size() != b.size() || a.size() < 2 || a == b) return 0;
  std::vector<std::size_t> differ;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) differ.push_back(i);
  }
  const bool swap = differ.size() == 2 && differ[0] == 0 && a[0] == b[differ[1]] && a[differ[1]] == b[0];
  return swap ? static_cast<int>(differ[1]) + 1 : 0;
}

double segment_distance(Pt p, Pt a, Pt b) {
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double length2 = dx * dx + dy * dy;
  const double t = length2 == 0 ? 0 : std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0.0, 1.0);
  return std::hypot(a.x + t * dx - p.x, a.y + t * dy - p.y);
}

/// Every (link, node) pair where the link comes within the node's radius of its centre while not
/// joining it: "a-b passes over c (distance d < radius r)". Empty when the drawing is clean.
std::vector<std::string> links_over_nodes(const Drawing& d) {
  std::vector<std::string> out;
  for (const auto& link : d.links) {
    for (const auto& node : d.nodes) {
      if (node.label == link.a || node.label == link.b) continue;
      double nearest = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i + 1 < link.points.size(); ++i) {
        nearest = std::min(nearest, segment_distance(node.centre, link.points[i], link.points[i + 1]));
      }
      if (nearest < node.radius) {
        std::ostringstream line;
        line << link.a << "-" << link.b << " passes over " << node.label << " (distance " << nearest << " < radius "
             << node.radius << ")";
        out.push_back(line.str());
      }
    }
  }
  return out;
}

/// Every link of S_n drawn once, each joining a pair of labels that a star link joins.
void expect_every_link_once(const Drawing& d, int n) {
  std::set<std::pair<std::string, std::string>> pairs;
  for (const auto& link : d.links) {
    EXPECT_NE(swap_dimension(link.a, link.b), 0) << link.a << "-" << link.b << " n=" << n;
    pairs.insert(std::minmax(link.a, link.b));
  }
  EXPECT_EQ(d.nodes.size(), factorial(n)) << " n=" << n;
  EXPECT_EQ(d.links.size(), factorial(n) * static_cast<std::uint64_t>(n - 1) / 2) << " n=" << n;
  EXPECT_EQ(pairs.size(), d.links.size()) << " n=" << n;
}

/// Every link of dimension k drawn in the legend's colour for k, one colour per dimension.
void expect_links_in_legend_colours(const Drawing& d, const std::map<int, std::string>& legend, int n) {
  std::set<int> dims;
  std::set<std::string> colours;
  for (const auto& [k, colour] : legend) {
    dims.insert(k);
    colours.insert(colour);
  }
  std::set<int> expected;
  for (int k = 2; k <= n; ++k) expected.insert(k);
  EXPECT_EQ(dims, expected) << " n=" << n;
  EXPECT_EQ(colours.size(), legend.size()) << " n=" << n << ": two dimensions share a colour";
  for (const auto& link : d.links) {
    const int k = swap_dimension(link.a, link.b);
    const auto it = legend.find(k);
    ASSERT_NE(it, legend.end()) << link.a << "-" << link.b << " n=" << n;
    EXPECT_EQ(link.colour, it->second) << link.a << "-" << link.b << " (link " << k << ") n=" << n;
  }
}

std::string legend_text(int k) { return "link " + std::to_string(k) + ": swaps symbols 1 and " + std::to_string(k); }

// ---- `starnet viz`: the <svg id="star"> of the page ----

std::string page_svg(const std::string& html) {
  const auto begin = html.find("<svg id=\"star\"");
  const auto end = html.find("</svg>\n</div>", begin);
  return html.substr(begin, end + 6 - begin);
}

/// The class dK of a link or swatch, as "dK".
std::string dimension_class(const XmlElement& e) {
  std::istringstream words(e.attributes.at("class"));
  for (std::string w; words >> w;) {
    if (w.size() >= 2 && w[0] == 'd' && std::isdigit(static_cast<unsigned char>(w[1])) != 0) return w;
  }
  return "";
}

/// Nodes: <g class="node" transform="translate(x y)"> then its <rect> and <text class="label">.
/// Links: <line class="link dK"> and <polyline class="link dK">, whose ends are node centres.
Drawing viz_drawing(const std::vector<XmlElement>& all) {
  Drawing d;
  for (std::size_t i = 0; i + 2 < all.size(); ++i) {
    if (all[i].name != "g" || !all[i].has_class("node")) continue;
    const auto at = numbers(all[i].attributes.at("transform"));
    const auto& box = all[i + 1];
    d.nodes.push_back({all[i + 2].text, {at.at(0), at.at(1)}, std::hypot(box.number("width") / 2, box.number("height") / 2)});
  }
  const auto node_at = [&](Pt p) {
    for (const auto& node : d.nodes) {
      if (std::hypot(node.centre.x - p.x, node.centre.y - p.y) < 0.05) return node.label;
    }
    return std::string("(no node)");
  };
  for (const auto& e : all) {
    if (!e.has_class("link") || (e.name != "line" && e.name != "polyline")) continue;
    DrawnLink link;
    const auto xy = e.name == "line" ? std::vector<double>{e.number("x1"), e.number("y1"), e.number("x2"), e.number("y2")}
                                     : numbers(e.attributes.at("points"));
    for (std::size_t j = 0; j + 1 < xy.size(); j += 2) link.points.push_back({xy[j], xy[j + 1]});
    link.a = node_at(link.points.front());
    link.b = node_at(link.points.back());
    link.colour = dimension_class(e);
    d.links.push_back(link);
  }
  return d;
}

/// The page's legend: dimension → the class of its swatch, checked against its text and the CSS
/// colour the page gives that class.
std::map<int, std::string> viz_legend(const std::string& html, const std::vector<XmlElement>& all) {
  std::map<std::string, std::string> css;  // dK → colour
  static const std::regex variable(R"(--(d\d+): (#[0-9A-Fa-f]{6}))");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), variable); it != std::sregex_iterator(); ++it) {
    css[(*it)[1].str()] = (*it)[2].str();
  }
  std::map<int, std::string> legend;
  std::set<std::string> colours;
  for (std::size_t i = 0; i + 2 < all.size(); ++i) {
    if (all[i].name != "g" || !all[i].has_class("legend-entry")) continue;
    const int k = std::stoi(all[i].attributes.at("data-dimension"));
    EXPECT_EQ(all[i + 1].name, "rect") << " k=" << k;
    EXPECT_EQ(all[i + 2].text, legend_text(k));
    const std::string cls = dimension_class(all[i + 1]);
    EXPECT_EQ(cls, "d" + std::to_string(k));
    EXPECT_TRUE(css.contains(cls)) << cls << " has no colour in the page's style sheet";
    colours.insert(css[cls]);
    legend[k] = cls;
  }
  EXPECT_EQ(colours.size(), legend.size()) << "two dimensions share a colour";
  return legend;
}

TEST(StarDrawings, VizLinksPassOverNoNodeTheyDoNotJoin) {
  for (int n = 3; n <= 5; ++n) {
    const auto r = run_starnet("viz allreduce --topology star:" + std::to_string(n) + " -o -");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string svg = page_svg(r.out);
    ASSERT_EQ(xml_errors(svg), "") << " n=" << n;
    const Drawing d = viz_drawing(xml_elements(svg));
    expect_every_link_once(d, n);
    EXPECT_EQ(links_over_nodes(d), std::vector<std::string>{}) << " n=" << n;
  }
}

TEST(StarDrawings, VizLegendGivesEveryDimensionInItsLinksColour) {
  for (int n = 3; n <= 5; ++n) {
    const auto r = run_starnet("viz broadcast --all-to-all --topology star:" + std::to_string(n) + " -o -");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto all = xml_elements(page_svg(r.out));
    expect_links_in_legend_colours(viz_drawing(all), viz_legend(r.out, all), n);
  }
}

// ---- `starnet topo draw`: Graphviz SVG ----

std::string unescape_dashes(std::string title) {
  for (auto at = title.find("&#45;"); at != std::string::npos; at = title.find("&#45;")) title.replace(at, 5, "-");
  return title;
}

/// The first element named @p name after @p i (Graphviz wraps an edge with a tooltip in <g><a>).
const XmlElement& next_named(const std::vector<XmlElement>& all, std::size_t i, const std::string& name) {
  while (++i < all.size() && all[i].name != name) {
  }
  return all.at(i);
}

/// Nodes: <g class="node"><title>LABEL</title><path or polygon>, the box's bounding box giving
/// centre and radius (sub-star outlines and captions are nodes too: their titles are not labels).
/// Links: <g class="edge"><title>A--B</title>…<path d="M p C c c p …" stroke=…>, cubic pieces sampled.
Drawing graphviz_drawing(const std::vector<XmlElement>& all, int n) {
  Drawing d;
  static const std::regex label("[1-9]+");
  for (std::size_t i = 0; i + 2 < all.size(); ++i) {
    if (all[i].name != "g" || all[i + 1].name != "title") continue;
    const std::string title = unescape_dashes(all[i + 1].text);
    if (all[i].has_class("node") && std::regex_match(title, label) && title.size() == static_cast<std::size_t>(n)) {
      const auto& shape = all[i + 2];
      const auto xy = numbers(shape.attributes.contains("d") ? shape.attributes.at("d") : shape.attributes.at("points"));
      constexpr double inf = std::numeric_limits<double>::infinity();
      double lo_x = inf, hi_x = -inf, lo_y = inf, hi_y = -inf;
      for (std::size_t j = 0; j + 1 < xy.size(); j += 2) {
        lo_x = std::min(lo_x, xy[j]);
        hi_x = std::max(hi_x, xy[j]);
        lo_y = std::min(lo_y, xy[j + 1]);
        hi_y = std::max(hi_y, xy[j + 1]);
      }
      d.nodes.push_back({title, {(lo_x + hi_x) / 2, (lo_y + hi_y) / 2}, std::hypot(hi_x - lo_x, hi_y - lo_y) / 2});
    } else if (all[i].has_class("edge")) {
      const auto dash = title.find("--");
      const auto& path = next_named(all, i, "path");
      DrawnLink link{title.substr(0, dash), title.substr(dash + 2), {}, path.attributes.at("stroke")};
      const auto xy = numbers(path.attributes.at("d"));
      std::vector<Pt> p;
      for (std::size_t j = 0; j + 1 < xy.size(); j += 2) p.push_back({xy[j], xy[j + 1]});
      link.points.push_back(p.front());
      for (std::size_t j = 0; j + 3 < p.size(); j += 3) {
        for (int s = 1; s <= CUBIC_SAMPLES; ++s) {
          const double t = static_cast<double>(s) / CUBIC_SAMPLES;
          const double u = 1 - t;
          const auto at = [&](auto coordinate) {
            return u * u * u * coordinate(p[j]) + 3 * u * u * t * coordinate(p[j + 1]) +
                   3 * u * t * t * coordinate(p[j + 2]) + t * t * t * coordinate(p[j + 3]);
          };
          link.points.push_back({at([](Pt q) { return q.x; }), at([](Pt q) { return q.y; })});
        }
      }
      d.links.push_back(link);
    }
  }
  return d;
}

/// The legend under the title: each "link k: …" text follows the bar (a filled polygon) of its colour.
std::map<int, std::string> graphviz_legend(const std::vector<XmlElement>& all, int n) {
  std::map<int, std::string> legend;
  for (std::size_t i = 1; i < all.size(); ++i) {
    for (int k = 2; k <= n; ++k) {
      if (all[i].name != "text" || all[i].text != legend_text(k)) continue;
      EXPECT_EQ(all[i - 1].name, "polygon") << legend_text(k);
      legend[k] = all[i - 1].attributes.at("fill");
    }
  }
  return legend;
}

std::vector<XmlElement> topo_drawing(int n) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("starnet_geometry_" + std::to_string(::getpid()) + "_s" + std::to_string(n) + ".svg");
  const auto r = run_starnet("topo draw star:" + std::to_string(n) + " -o " + path.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string svg = read(path);
  std::filesystem::remove(path);
  EXPECT_EQ(xml_errors(svg), "") << " n=" << n;
  return xml_elements(svg);
}

TEST(StarDrawings, TopoDrawLinksPassOverNoNodeTheyDoNotJoin) {
  for (int n = 3; n <= 5; ++n) {
    const Drawing d = graphviz_drawing(topo_drawing(n), n);
    expect_every_link_once(d, n);
    EXPECT_EQ(links_over_nodes(d), std::vector<std::string>{}) << " n=" << n;
  }
}

TEST(StarDrawings, TopoDrawLegendGivesEveryDimensionInItsLinksColour) {
  for (int n = 3; n <= 5; ++n) {
    const auto all = topo_drawing(n);
    expect_links_in_legend_colours(graphviz_drawing(all, n), graphviz_legend(all, n), n);
  }
}

// The check itself sees a link drawn over a node: the straight line through 2413 that a user
// reported on S_4 (3421–1423), in miniature.
TEST(StarDrawings, CheckerSeesALinkOverANode) {
  Drawing d;
  d.nodes = {{"3421", {0, 0}, 41}, {"1423", {300, 0}, 41}, {"2413", {150, 30}, 41}};
  d.links = {{"3421", "1423", {{0, 0}, {300, 0}}, "d4"}};
  EXPECT_THAT(links_over_nodes(d), ::testing::ElementsAre(::testing::HasSubstr("3421-1423 passes over 2413")));
  d.links.front().points = {{0, 0}, {150, -20}, {300, 0}};  // bent the other way round
  EXPECT_THAT(links_over_nodes(d), ::testing::IsEmpty());
}

}  // namespace
}  // namespace starnet::tools::testing

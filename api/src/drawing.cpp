// Topology drawings through Graphviz (api/drawing.hpp).
//
// The platform becomes a styled DOT graph — links coloured by dimension, routers as grey boxes,
// costs and speeds shown when they are not all 1 — and Graphviz lays it out and renders SVG. The
// engine fits the family: circo for rings, complete and de Bruijn graphs, dot for the tree-like
// tiers platforms, neato otherwise. Star graphs are laid out by their recursive sub-star
// structure (api/star_layout.hpp, as on the `viz` pages) and Graphviz renders those positions
// (neato -n2), with the sub-stars outlined and the links that a straight line would draw through
// a node bent around it (pos given). A legend under the title gives each link dimension's colour.
#include <starnet/api/drawing.hpp>
#include <starnet/api/markup.hpp>
#include <starnet/api/setting_table.hpp>
#include <starnet/api/star_layout.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/spec.hpp>

#include <boost/range/iterator_range.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace starnet::api {
namespace {

using topology::Platform;

/// A node's box (inches, Graphviz's unit for node sizes) and a link's width (points).
constexpr double NODE_WIDTH_IN = 0.55;
constexpr double NODE_HEIGHT_IN = 0.3;
constexpr double LINK_PENWIDTH = 1.6;
constexpr double POINTS_PER_INCH = 72;
/// Added to the clearance of the star layout's links: Graphviz rounds a box up to whole points.
constexpr double BOX_ROUNDING_PT = 1;

using Legend = std::vector<std::pair<std::string, std::string>>;

/// The graph's title with, under it, the legend of the link colours: a row per colour, a bar of
/// it and what a link of that colour is (an HTML-like label).
std::string title_with_legend(const std::string& title, const Legend& legend) {
  std::string s = "<<TABLE BORDER=\"0\" CELLSPACING=\"2\" CELLPADDING=\"1\"><TR><TD COLSPAN=\"2\">" + xml_escape(title) +
                  "</TD></TR>";
  for (const auto& [colour, text] : legend) {
    s += fmt::format(
        "<TR><TD WIDTH=\"28\" HEIGHT=\"4\" FIXEDSIZE=\"TRUE\" BGCOLOR=\"{}\"></TD>"
        "<TD ALIGN=\"LEFT\"><FONT POINT-SIZE=\"11\">{}</FONT></TD></TR>",
        colour, xml_escape(text));
  }
  return s + "</TABLE>>";
}

/// The colour of each link dimension in @p dims, and what a link of it does.
Legend dimension_legend(const std::set<int>& dims, const std::string& family) {
  Legend out;
  for (const int d : dims) {
    out.emplace_back(LINK_PALETTE[static_cast<std::size_t>(d - *dims.begin()) % LINK_PALETTE.size()],
                     family == "star" ? star_link_legend(d) : fmt::format("dimension {}", d));
  }
  return out;
}

/// The links of a drawing coloured by load (DrawnLoads): each arc's value and the scale.
class LoadScale {
 public:
  LoadScale(const Platform& p, const DrawnLoads& loads);
  /// The colour of arc (@p u, @p v), and of its reverse when @p both: by the larger value.
  [[nodiscard]] std::string colour(std::size_t u, std::size_t v, bool both) const;
  /// What the tooltip of the link says.
  [[nodiscard]] std::string tooltip(const std::string& a, const std::string& b, std::size_t u, std::size_t v,
                                    bool both) const;
  [[nodiscard]] Legend legend() const;

 private:
  [[nodiscard]] std::optional<Rational> value(std::size_t u, std::size_t v) const;
  [[nodiscard]] std::optional<Rational> larger(std::size_t u, std::size_t v, bool both) const;
  std::map<std::pair<std::size_t, std::size_t>, Rational> value_;
  Rational most_ = 0;
  std::string by_;
};

LoadScale::LoadScale(const Platform& p, const DrawnLoads& loads) : by_(loads.by) {
  if (std::find(std::begin(LOAD_MEASURES), std::end(LOAD_MEASURES), loads.by) == std::end(LOAD_MEASURES)) {
    throw UsageError(Setting{"load_by", loads.by}, "not a measure (expected busy, units or messages)");
  }
  const auto& g = p.graph();
  const auto refuse = [&](const std::string& why) { return UsageError(Setting{"link_loads", loads.source}, why); };
  std::map<std::string, std::size_t, std::less<>> node;
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) node.emplace(g[v].name, v);
  std::set<std::pair<std::size_t, std::size_t>> arcs;
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    arcs.emplace(boost::source(e, g), boost::target(e, g));
    if (!p.directed()) arcs.emplace(boost::target(e, g), boost::source(e, g));
  }
  std::set<std::uint64_t> rows;
  for (const auto& line : loads.lines) {
    if (line.topology != p.name()) continue;
    rows.insert(line.row);
    const auto arrow = line.link.find("->");
    const auto a = arrow == std::string::npos ? node.end() : node.find(std::string_view(line.link).substr(0, arrow));
    const auto b = arrow == std::string::npos ? node.end() : node.find(std::string_view(line.link).substr(arrow + 2));
    if (a == node.end() || b == node.end() || !arcs.contains({a->second, b->second})) {
      throw refuse(fmt::format("link \"{}\" is not a link of topology \"{}\" (expected \"a->b\", a and b linked)",
                               line.link, p.name()));
    }
    const Rational v = by_ == "busy" ? line.busy : by_ == "units" ? line.units : Rational(static_cast<std::int64_t>(line.messages));
    value_[{a->second, b->second}] += v;
    most_ = std::max(most_, value_[{a->second, b->second}]);
  }
  if (rows.empty()) throw refuse(fmt::format("no line of topology \"{}\" (expected a link report of a run on it)", p.name()));
  if (rows.size() > 1) {
    throw refuse(fmt::format("lines of {} runs of topology \"{}\" (rows {}; expected one: keep the lines of one row)",
                             rows.size(), p.name(), fmt::join(rows, ", ")));
  }
}

std::optional<Rational> LoadScale::value(std::size_t u, std::size_t v) const {
  const auto it = value_.find({u, v});
  return it == value_.end() ? std::nullopt : std::optional<Rational>(it->second);
}

std::optional<Rational> LoadScale::larger(std::size_t u, std::size_t v, bool both) const {
  const auto there = value(u, v);
  const auto back = both ? value(v, u) : std::nullopt;
  if (!there || !back) return there ? there : back;
  return std::max(*there, *back);
}

std::string LoadScale::colour(std::size_t u, std::size_t v, bool both) const {
  const auto load = larger(u, v, both);
  if (!load || !(most_ > 0)) return std::string(IDLE_LINK);
  constexpr auto STEPS = std::size(LOAD_PALETTE);
  // Step i holds the loads in (i, i + 1] × most / STEPS.
  const double share = (*load / most_).to_double() * static_cast<double>(STEPS);
  const auto step = static_cast<std::size_t>(std::max(0.0, std::ceil(share) - 1));
  return std::string(LOAD_PALETTE[std::min(step, STEPS - 1)]);
}

std::string LoadScale::tooltip(const std::string& a, const std::string& b, std::size_t u, std::size_t v,
                               bool both) const {
  const auto text = [&](const std::string& from, const std::string& to, std::size_t x, std::size_t y) {
    const auto load = value(x, y);
    return fmt::format("{}->{}: {} {}", from, to, by_, load ? load->to_string() : "none");
  };
  return both ? text(a, b, u, v) + "; " + text(b, a, v, u) : text(a, b, u, v);
}

Legend LoadScale::legend() const {
  Legend out;
  constexpr auto STEPS = std::size(LOAD_PALETTE);
  for (std::size_t i = 0; i < STEPS && most_ > 0; ++i) {
    const double step = most_.to_double() / static_cast<double>(STEPS);
    out.emplace_back(LOAD_PALETTE[i], fmt::format("{} {:.4g} to {:.4g}", by_, step * static_cast<double>(i),
                                                  step * static_cast<double>(i + 1)));
  }
  out.emplace_back(IDLE_LINK, "not in the link report");
  return out;
}

/// The `pos` of a bent star link for neato -n2: its polyline as straight cubic Bézier pieces,
/// Graphviz points with y upwards.
std::string bent_link_pos(const StarLayout& layout, const LinkPath& link) {
  std::vector<Point> corners{layout.nodes[link.u]};
  corners.insert(corners.end(), link.bends.begin(), link.bends.end());
  corners.push_back(layout.nodes[link.v]);
  const auto point = [&](Point p) { return fmt::format("{:.2f},{:.2f}", p.x, layout.height - p.y); };
  std::string pos = point(corners.front());
  for (std::size_t i = 1; i < corners.size(); ++i) {
    const Point a = corners[i - 1];
    const Point b = corners[i];
    pos += " " + point({a.x + (b.x - a.x) / 3, a.y + (b.y - a.y) / 3}) + " " +
           point({a.x + 2 * (b.x - a.x) / 3, a.y + 2 * (b.y - a.y) / 3}) + " " + point(b);
  }
  return pos;
}

std::string dot_id(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string auto_engine(const std::string& family) {
  if (family == "ring" || family == "complete" || family == "debruijn") return "circo";
  if (family == "tiers") return "dot";
  return "neato";
}


/// The star layout `topo draw` pins (points): links keep a box's half-diagonal, half their
/// width and the rounding away from the nodes they do not join (api/star_layout.hpp).
StarLayout pinned_star_layout(const topology::StarGraph& sg) {
  const double clearance = std::hypot(NODE_WIDTH_IN * POINTS_PER_INCH / 2, NODE_HEIGHT_IN * POINTS_PER_INCH / 2) +
                           LINK_PENWIDTH / 2 + BOX_ROUNDING_PT;
  return star_layout(sg, {.node_radius = 24, .gap = 24, .pair_gap = 24, .margin = 30, .clearance = clearance});
}

/// The dashed outlines of the sub-stars, and the captions of the S_{n−1}, as DOT nodes.
std::string star_outlines(const topology::StarGraph& sg, const StarLayout& layout) {
  std::string s;
  for (const auto& o : layout.substars) {
    const double y = layout.height - o.center.y;  // Graphviz points, y upwards
    s += fmt::format(
        "{} [shape=circle, label=\"\", fixedsize=true, width={:.3f}, style=dashed, color=\"#b0b0b0\", "
        "pos=\"{:.1f},{:.1f}!\"];\n",
        dot_id(fmt::format("S{}@{}", o.m, o.begin)), 2 * o.radius / POINTS_PER_INCH, o.center.x, y);
    if (o.m == sg.n() - 1) {
      s += fmt::format(
          "{} [shape=plaintext, style=\"\", label=\"S{} · last symbol {}\", fontcolor=\"#777777\", "
          "pos=\"{:.1f},{:.1f}!\"];\n",
          dot_id(fmt::format("S{}@{} label", o.m, o.begin)), o.m, sg.last_symbol(o.begin), o.center.x,
          y + o.radius + 10);
    }
  }
  return s;
}

/// The DOT text Graphviz draws. @p pinned: star-graph positions given (for neato -n2).
std::string styled_dot(const Platform& p, const topology::Spec& spec, bool pinned, const LoadScale* loads) {
  const auto& g = p.graph();
  bool unit_costs = true;
  bool unit_speeds = true;
  std::set<int> dims;
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    unit_costs = unit_costs && g[e].cost == Rational(1);
    if (g[e].dimension > 0) dims.insert(g[e].dimension);
  }
  for (const auto v : boost::make_iterator_range(boost::vertices(g)))
    unit_speeds = unit_speeds && g[v].speed == Rational(1);

  std::string s = fmt::format(
      "{} {} {{\n"
      "graph [bgcolor=white, outputorder=edgesfirst, fontname=\"DejaVu Sans\", fontsize=14, labelloc=t, label={}, "
      "overlap=false, splines=false];\n"
      "node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"DejaVu Sans\", fontsize=10, "
      "width={}, height={}, margin=\"0.04,0.02\"];\n"
      "edge [penwidth={}, fontname=\"DejaVu Sans\", fontsize=9];\n",
      p.directed() ? "digraph" : "graph", dot_id(p.name()),
      title_with_legend(fmt::format("{}: {}, {}{}", p.name(), plural(p.num_nodes(), "node", "nodes"),
                                    plural(p.num_links(), "link", "links"),
                                    loads != nullptr ? ", links coloured by load" : ""),
                        loads != nullptr ? loads->legend() : dimension_legend(dims, spec.family)),
      NODE_WIDTH_IN, NODE_HEIGHT_IN, LINK_PENWIDTH);

  std::optional<StarLayout> layout;
  std::map<std::pair<std::size_t, std::size_t>, const LinkPath*> bent;  // (u, v), u < v
  if (spec.family == "star") {
    const topology::StarGraph sg(topology::star_dimension(spec));
    if (pinned) {
      layout = pinned_star_layout(sg);
      s += star_outlines(sg, *layout);
      for (const auto& link : layout->links) {
        if (!link.bends.empty()) bent[{link.u, link.v}] = &link;
      }
    } else if (sg.n() > 2) {
      // Engines that draw clusters (dot, fdp) box each S_{n−1}: a contiguous rank range.
      const auto block = topology::StarGraph::factorial(sg.n() - 1);
      for (std::uint64_t b = 0; b < sg.size(); b += block) {
        s += fmt::format(
            "subgraph {} {{ label=\"S{} · last symbol {}\"; style=\"rounded,dashed\"; color=\"#b0b0b0\"; fontsize=11;",
            dot_id(fmt::format("cluster_{}", b)), sg.n() - 1,
            sg.last_symbol(static_cast<topology::StarGraph::vertex_descriptor>(b)));
        for (std::uint64_t v = b; v < b + block; ++v) s += " " + dot_id(g[v].name) + ";";
        s += " }\n";
      }
    }
  }
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    const auto& node = g[v];
    std::string label = node.name;
    if (!unit_speeds && node.role == topology::Role::PROCESSOR) label += "\nspeed " + node.speed.to_string();
    std::string attrs = "label=" + dot_id(label);
    if (node.role == topology::Role::ROUTER) attrs += ", shape=box, style=filled, fillcolor=\"#dddddd\"";
    if (layout) {
      attrs += fmt::format(", pos=\"{:.1f},{:.1f}!\"", layout->nodes[v].x, layout->height - layout->nodes[v].y);
    }
    s += fmt::format("{} [{}];\n", dot_id(node.name), attrs);
  }
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    const auto u = boost::source(e, g);
    const auto v = boost::target(e, g);
    if (!p.directed() && u > v) continue;  // an undirected link is stored as two arcs
    const auto& link = g[e];
    std::string attrs;
    if (loads != nullptr) {
      attrs = fmt::format("color=\"{}\", tooltip={}", loads->colour(u, v, !p.directed()),
                          dot_id(loads->tooltip(g[u].name, g[v].name, u, v, !p.directed())));
    } else if (link.dimension > 0) {
      attrs = fmt::format("color=\"{}\", tooltip=\"dimension {}\"",
                          LINK_PALETTE[static_cast<std::size_t>(link.dimension - *dims.begin()) % LINK_PALETTE.size()],
                          link.dimension);
    }
    if (const auto it = bent.find({u, v}); it != bent.end()) {
      attrs += fmt::format(", pos=\"{}\"", bent_link_pos(*layout, *it->second));
    }
    if (!unit_costs) attrs += std::string(attrs.empty() ? "" : ", ") + "label=" + dot_id(link.cost.to_string());
    s += fmt::format("{} {} {}{};\n", dot_id(g[u].name), p.directed() ? "->" : "--", dot_id(g[v].name),
                     attrs.empty() ? "" : " [" + attrs + "]");
  }
  return s + "}\n";
}

/// A file removed when it goes out of scope.
struct TempFile {
  std::string path;
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
};

/// Runs Graphviz (`dot -K<engine> -T<format>`) on @p dot and returns what it wrote, which must
/// contain @p complete (the end of a whole document).
/// @throws Error (exit 3) when Graphviz is missing or fails, with what it printed.
std::string run_graphviz(const std::string& engine, bool pinned, const std::string& dot, const std::string& spec,
                         const char* format, const char* complete) {
  std::string name = (std::filesystem::temp_directory_path() / "starnet_draw_XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw Error("drawing: cannot create a temporary file in " + std::filesystem::temp_directory_path().string());
  ::close(fd);
  const TempFile input{name};
  const TempFile errors{name + ".err"};
  {
    std::ofstream file(input.path);
    file << dot;
    file.close();
    if (!file) throw Error("drawing: cannot write the graph for Graphviz to " + input.path);
  }
  const std::string cmd =
      fmt::format("dot -K{} -T{} {} '{}' 2>'{}'", engine, format, pinned ? "-n2" : "", input.path, errors.path);
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) throw Error("drawing: cannot start Graphviz (" + cmd + ")");
  std::string svg;
  std::array<char, 65536> buf{};
  std::size_t got = 0;
  while ((got = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) svg.append(buf.data(), got);
  const int status = ::pclose(pipe);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::stringstream err;
  err << std::ifstream(errors.path).rdbuf();
  if (code == 127)
    throw Error("drawing: Graphviz's `dot` is not installed (tools/bootstrap installs the graphviz package)");
  if (code != 0 || svg.find(complete) == std::string::npos) {
    throw Error(
        fmt::format("drawing: Graphviz ({} layout) failed on {} (exit {}): {}", engine, spec, code, err.str()));
  }
  return svg;
}

}  // namespace

namespace {

/// What both calls draw: the platform, its family, the engine and the styled DOT text.
struct Prepared {
  std::shared_ptr<const topology::Platform> platform;
  topology::Spec spec;
  std::string engine;
  bool pinned = false;
  std::string dot;
};

Prepared prepare(const TopologyRef& t, std::string_view layout, const std::optional<DrawnLoads>& loads) {
  if (std::find(std::begin(DRAW_LAYOUTS), std::end(DRAW_LAYOUTS), layout) == std::end(DRAW_LAYOUTS)) {
    throw UsageError(Setting{"layout", std::string(layout)},
                     "not a layout (expected auto, or a Graphviz engine: dot, neato, circo, fdp, twopi)");
  }
  const std::string& name = t.spec();
  Prepared p;
  p.spec.family = "other";  // a topology built in memory has no family
  if (t.from_spec()) {
    try {
      p.spec = topology::parse_spec(name);
    } catch (const TopologyError&) {
      p.spec.family = "other";  // a file
    }
  }
  const auto too_many = [&](std::uint64_t nodes, std::string_view example) {
    return UsageError(fmt::format("topology \"{}\": {} nodes are too many to draw readably (at most {}{}); export it "
                                  "as a DOT, GraphML or SimGrid file instead",
                                  name, nodes, MAX_DRAW_NODES, example));
  };
  if (p.spec.family == "star") {
    // Check the size before materialising: star:8 would be built (40,320 nodes) only to be refused.
    const topology::StarGraph sg(topology::star_dimension(p.spec));
    if (sg.size() > MAX_DRAW_NODES) throw too_many(sg.size(), "; star:5 has 120");
  }
  p.platform = t.platform();
  if (p.platform->num_nodes() > MAX_DRAW_NODES) throw too_many(p.platform->num_nodes(), "");
  p.pinned = layout == "auto" && p.spec.family == "star";
  p.engine = layout == "auto" ? auto_engine(p.spec.family) : std::string(layout);
  const std::optional<LoadScale> scale =
      loads ? std::optional<LoadScale>(std::in_place, *p.platform, *loads) : std::nullopt;
  p.dot = styled_dot(*p.platform, p.spec, p.pinned, scale ? &*scale : nullptr);
  return p;
}

/// Graphviz's points of a `pos` attribute ("x,y x,y …", an edge's "e,x,y"/"s,x,y" ends too),
/// from the bounding box's left edge @p left with y turned downwards from its @p top.
std::vector<Point> pos_points(const std::string& pos, double left, double top) {
  std::vector<Point> out;
  std::optional<Point> end;
  std::istringstream in(pos);
  std::string token;
  while (in >> token) {
    const bool is_end = token.rfind("e,", 0) == 0;
    if (is_end || token.rfind("s,", 0) == 0) token = token.substr(2);
    double x = 0;
    double y = 0;
    if (std::sscanf(token.c_str(), "%lf,%lf", &x, &y) != 2) continue;
    const Point p{x - left, top - y};
    if (is_end) {
      end = p;
    } else {
      out.push_back(p);
    }
  }
  if (end) out.push_back(*end);
  return out;
}

}  // namespace

std::optional<DrawnLoads> drawn_loads(std::optional<std::vector<LinkReportLine>> lines,
                                      const std::optional<std::string>& load_by, std::string source) {
  applies_only("load_by", load_by, lines.has_value(), "«link_loads»");
  if (!lines) return std::nullopt;
  return DrawnLoads{std::move(*lines), load_by.value_or("busy"), std::move(source)};
}

TopologyDrawing draw_topology(const TopologyRef& t, std::string_view layout, const std::optional<DrawnLoads>& loads) {
  const Prepared p = prepare(t, layout, loads);
  TopologyDrawing d;
  d.pinned = p.pinned;
  d.engine = p.engine;
  d.nodes = p.platform->num_nodes();
  d.links = p.platform->num_links();
  d.svg = run_graphviz(d.engine, d.pinned, p.dot, t.spec(), "svg", "</svg>");
  return d;
}

TopologyLayout topology_layout(const TopologyRef& t, std::string_view layout) {
  const Prepared p = prepare(t, layout, std::nullopt);
  const auto& g = p.platform->graph();
  const auto doc = nlohmann::json::parse(run_graphviz(p.engine, p.pinned, p.dot, t.spec(), "json0", "}"));
  TopologyLayout out;
  out.engine = p.engine;
  out.pinned = p.pinned;
  out.directed = p.platform->directed();
  out.title = fmt::format("{}: {}, {}", p.platform->name(), plural(p.platform->num_nodes(), "node", "nodes"),
                          plural(p.platform->num_links(), "link", "links"));
  double left = 0;
  double bottom = 0;
  double right = 0;
  double top = 0;
  (void)std::sscanf(doc.at("bb").get<std::string>().c_str(), "%lf,%lf,%lf,%lf", &left, &bottom, &right, &top);
  out.width = right - left;
  out.height = top - bottom;
  std::map<std::string, std::size_t> index;
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    index[g[v].name] = out.nodes.size();
    out.nodes.push_back({g[v].name, 0, 0, g[v].role == topology::Role::ROUTER});
  }
  // Graphviz numbers its objects (sub-star outlines and captions among them) and edges refer to them.
  std::map<long, std::size_t> node_of;
  for (const auto& o : doc.value("objects", nlohmann::json::array())) {
    const auto it = o.contains("name") && o.contains("pos") ? index.find(o["name"].get<std::string>()) : index.end();
    if (it == index.end()) continue;
    const auto at = pos_points(o["pos"].get<std::string>(), left, top);
    if (!at.empty()) out.nodes[it->second].x = at.front().x, out.nodes[it->second].y = at.front().y;
    node_of[o.at("_gvid").get<long>()] = it->second;
  }
  for (const auto& e : doc.value("edges", nlohmann::json::array())) {
    const auto u = node_of.find(e.at("tail").get<long>());
    const auto v = node_of.find(e.at("head").get<long>());
    if (u == node_of.end() || v == node_of.end()) continue;
    out.links.push_back({u->second, v->second, e.value("color", std::string(UNCOLOURED_LINK)),
                         pos_points(e.value("pos", std::string()), left, top)});
  }
  std::set<int> dims;
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    if (g[e].dimension > 0) dims.insert(g[e].dimension);
  }
  for (const int d : dims) {
    out.legend.push_back({LINK_PALETTE[static_cast<std::size_t>(d - *dims.begin()) % LINK_PALETTE.size()],
                          p.spec.family == "star" ? star_link_legend(d) : fmt::format("dimension {}", d)});
  }
  return out;
}

}  // namespace starnet::api

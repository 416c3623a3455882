// `starnet topo draw SPEC -o FILE.svg`: a drawing of a topology through Graphviz (docs/viz.md).
//
// The platform (make_platform) becomes a styled DOT graph — links coloured by dimension, routers
// as grey boxes, costs and speeds shown when they are not all 1 — and Graphviz lays it out and
// renders SVG. The engine fits the family: circo for rings, complete and de Bruijn graphs, dot for
// the tree-like tiers platforms, neato otherwise. Star graphs are laid out by their recursive
// sub-star structure (viz_layout.hpp, as on the `viz` pages) and Graphviz renders those positions
// (neato -n2), with the sub-stars outlined; `--layout ENGINE` lets Graphviz place them instead.
#include "command.hpp"
#include "viz_layout.hpp"

#include <starnet/topology/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/spec.hpp>

#include <boost/range/iterator_range.hpp>
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace starnet::tools {
namespace {

using topology::Platform;

/// Most nodes drawn: a star:5 (120 nodes) still reads; star:6 (720) is a hairball.
constexpr std::size_t MAX_DRAW_NODES = 256;

/// Colour-blind-safe palette (Okabe–Ito), one colour per link dimension: on star graphs link 2 is
/// blue, 3 orange, 4 green, 5 pink, as on the `viz` pages.
constexpr std::array<const char*, 7> PALETTE = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                                "#D55E00", "#56B4E9", "#8C6D00"};

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

struct DrawOptions {
  std::string spec;
  std::string output;
  std::string layout = "auto";
};

/// The DOT text Graphviz draws. @p pinned: star-graph positions given (for neato -n2).
std::string styled_dot(const Platform& p, const topology::Spec& spec, bool pinned) {
  const auto& g = p.graph();
  bool unit_costs = true;
  bool unit_speeds = true;
  int min_dim = 0;
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    unit_costs = unit_costs && g[e].cost == Rational(1);
    if (g[e].dimension > 0 && (min_dim == 0 || g[e].dimension < min_dim)) min_dim = g[e].dimension;
  }
  for (const auto v : boost::make_iterator_range(boost::vertices(g)))
    unit_speeds = unit_speeds && g[v].speed == Rational(1);

  std::string s = fmt::format(
      "{} {} {{\n"
      "graph [bgcolor=white, outputorder=edgesfirst, fontname=\"DejaVu Sans\", fontsize=14, labelloc=t, label={}, "
      "overlap=false, splines=false];\n"
      "node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"DejaVu Sans\", fontsize=10, "
      "width=0.55, height=0.3, margin=\"0.04,0.02\"];\n"
      "edge [penwidth=1.6, fontname=\"DejaVu Sans\", fontsize=9];\n",
      p.directed() ? "digraph" : "graph", dot_id(p.name()),
      dot_id(fmt::format("{}: {} nodes, {} links", p.name(), p.num_nodes(), p.num_links())));

  std::vector<Point> pos;
  if (spec.family == "star") {
    const topology::StarGraph sg(topology::star_dimension(spec));
    if (pinned) {
      // Graphviz points, y upwards.
      const StarLayout layout = star_layout(sg, 24, 24, 24, 30);
      for (const auto& o : layout.substars) {
        const double y = layout.height - o.center.y;
        s += fmt::format(
            "{} [shape=circle, label=\"\", fixedsize=true, width={:.3f}, style=dashed, color=\"#b0b0b0\", "
            "pos=\"{:.1f},{:.1f}!\"];\n",
            dot_id(fmt::format("S{}@{}", o.m, o.begin)), 2 * o.radius / 72, o.center.x, y);
        if (o.m == sg.n() - 1) {
          s += fmt::format(
              "{} [shape=plaintext, style=\"\", label=\"S{} · last symbol {}\", fontcolor=\"#777777\", "
              "pos=\"{:.1f},{:.1f}!\"];\n",
              dot_id(fmt::format("S{}@{} label", o.m, o.begin)), o.m, sg.last_symbol(o.begin), o.center.x,
              y + o.radius + 10);
        }
      }
      for (const auto& n : layout.nodes) pos.push_back({n.x, layout.height - n.y});
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
    if (!pos.empty()) attrs += fmt::format(", pos=\"{:.1f},{:.1f}!\"", pos[v].x, pos[v].y);
    s += fmt::format("{} [{}];\n", dot_id(node.name), attrs);
  }
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    const auto u = boost::source(e, g);
    const auto v = boost::target(e, g);
    if (!p.directed() && u > v) continue;  // an undirected link is stored as two arcs
    const auto& link = g[e];
    std::string attrs;
    if (link.dimension > 0) {
      attrs = fmt::format("color=\"{}\", tooltip=\"dimension {}\"",
                          PALETTE[static_cast<std::size_t>(link.dimension - min_dim) % PALETTE.size()], link.dimension);
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

/// Runs Graphviz (`dot -K<engine> -Tsvg`) on @p dot and returns the SVG.
/// @throws Error (exit 3) when Graphviz is missing or fails, with what it printed.
std::string run_graphviz(const std::string& engine, bool pinned, const std::string& dot, const std::string& spec) {
  std::string name = (std::filesystem::temp_directory_path() / "starnet_draw_XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw Error("topo draw: cannot create a temporary file in " + std::filesystem::temp_directory_path().string());
  ::close(fd);
  const TempFile input{name};
  const TempFile errors{name + ".err"};
  std::ofstream(input.path) << dot;
  const std::string cmd =
      fmt::format("dot -K{} -Tsvg {} '{}' 2>'{}'", engine, pinned ? "-n2" : "", input.path, errors.path);
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) throw Error("topo draw: cannot start Graphviz (" + cmd + ")");
  std::string svg;
  std::array<char, 65536> buf{};
  std::size_t got = 0;
  while ((got = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) svg.append(buf.data(), got);
  const int status = ::pclose(pipe);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::stringstream err;
  err << std::ifstream(errors.path).rdbuf();
  if (code == 127)
    throw Error("topo draw: Graphviz's `dot` is not installed (tools/bootstrap installs the graphviz package)");
  if (code != 0 || svg.find("</svg>") == std::string::npos) {
    throw Error(
        fmt::format("topo draw: Graphviz ({} layout) failed on {} (exit {}): {}", engine, spec, code, err.str()));
  }
  return svg;
}

int draw(const DrawOptions& o) {
  const auto spec = topology::parse_spec(o.spec);
  if (spec.family == "star") {
    // Check the size before materialising: star:8 would be built (40,320 nodes) only to be refused.
    const topology::StarGraph sg(topology::star_dimension(spec));
    if (sg.size() > MAX_DRAW_NODES) {
      throw UsageError(
          fmt::format("topology \"{}\": {} nodes are too many to draw readably (at most {}; star:5 has "
                      "120); export it instead: starnet topo export {} --format dot",
                      o.spec, sg.size(), MAX_DRAW_NODES, o.spec));
    }
  }
  const Platform p = topology::make_platform(o.spec);
  if (p.num_nodes() > MAX_DRAW_NODES) {
    throw UsageError(
        fmt::format("topology \"{}\": {} nodes are too many to draw readably (at most {}); export it "
                    "instead: starnet topo export {} --format dot",
                    o.spec, p.num_nodes(), MAX_DRAW_NODES, o.spec));
  }
  const bool pinned = o.layout == "auto" && spec.family == "star";
  const std::string engine = o.layout == "auto" ? auto_engine(spec.family) : o.layout;
  const std::string svg = run_graphviz(engine, pinned, styled_dot(p, spec, pinned), o.spec);
  write_file_atomically(o.output, svg);
  if (o.output != "-") {
    std::cout << fmt::format("{}: {} ({} nodes, {} links) drawn by Graphviz {}{}\n", o.output, o.spec, p.num_nodes(),
                             p.num_links(), engine, pinned ? " at the sub-star layout's positions" : "");
  }
  return 0;
}

}  // namespace

void add_topo_draw_command(CLI::App& topo, Action& action) {
  auto o = std::make_shared<DrawOptions>();
  auto* cmd = topo.add_subcommand(
      "draw", "Draw a topology as SVG through Graphviz: links coloured by dimension, star graphs with their sub-stars");
  cmd->add_option("SPEC", o->spec, "The topology (see 'starnet topo --help'), at most 256 nodes")->required();
  cmd->add_option("-o,--output", o->output, "The SVG file to write (atomically; - for standard output)")->required();
  cmd->add_option("--layout", o->layout,
                  "auto (circo: ring, complete, debruijn; dot: tiers; neato: others; star graphs: the sub-star "
                  "layout), or a Graphviz engine: dot, neato, circo, fdp, twopi")
      ->check(CLI::IsMember({"auto", "dot", "neato", "circo", "fdp", "twopi"}))
      ->capture_default_str();
  cmd->callback([o, &action] { action = [o] { return draw(*o); }; });
}

}  // namespace starnet::tools

// DOT and GraphML platforms through Boost.Graph's readers and writers (files.hpp).
//
// Boost reads every attribute as text into a RawGraph; to_platform() then checks and converts it,
// so that each bad value is reported with the file, the node or link, and what was expected.
#include <starnet/topology/error.hpp>
#include <starnet/topology/files.hpp>

#include <boost/graph/graphml.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <type_traits>
#include <vector>

namespace starnet::topology {
namespace {

struct RawNode {
  std::string name;
  std::string role;
  std::string speed;
  std::string label;
};

struct RawLink {
  std::string cost;
  std::string dimension;
};

template <class Directed>
using RawGraph = boost::adjacency_list<boost::vecS, boost::vecS, Directed, RawNode, RawLink>;

/// Graphviz's escape for "the node's name": what DOT files carry as the label of a node that has
/// no permutation label, so that Graphviz draws its name.
constexpr std::string_view DOT_NO_LABEL = "\\N";

template <class Graph>
boost::dynamic_properties schema(Graph& g, FileFormat format) {
  boost::dynamic_properties dp(boost::ignore_other_properties);
  dp.property(format == FileFormat::DOT ? "node_id" : "name", boost::get(&RawNode::name, g));
  dp.property("role", boost::get(&RawNode::role, g));
  dp.property("speed", boost::get(&RawNode::speed, g));
  dp.property("label", boost::get(&RawNode::label, g));
  dp.property("cost", boost::get(&RawLink::cost, g));
  dp.property("dimension", boost::get(&RawLink::dimension, g));
  return dp;
}

std::string where(std::string_view path) { return fmt::format("topology file \"{}\"", path); }

Rational rational(const std::string& text, const std::string& what) {
  try {
    return Rational::parse(text, what);
  } catch (const InputError& e) {
    throw TopologyError(e.what());
  }
}

/// Checks and converts what Boost read. @param ids GraphML node ids in vertex order (a node
/// without `name` is named by its id), or null for DOT.
template <class Graph>
Platform to_platform(const Graph& g, std::string_view path, FileFormat format, const std::vector<std::string>* ids) {
  constexpr bool DIRECTED = std::is_same_v<typename boost::graph_traits<Graph>::directed_category, boost::directed_tag>;
  const std::string file = where(path);
  if (boost::num_vertices(g) == 0) throw TopologyError(file + ": has no nodes (expected at least one node)");
  // Named after the file while it is built, so that Platform's own checks name the file too.
  Platform p(file, DIRECTED);
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    const RawNode& raw = g[v];
    const std::string name = raw.name.empty() && ids != nullptr ? (*ids)[v] : raw.name;
    if (raw.role.empty()) {
      throw TopologyError(fmt::format(
          "{}: node \"{}\" has no role, so it is not declared (expected role=processor or role=router on every node; "
          "a node that only appears in a link is undeclared)",
          file, name));
    }
    const std::string node = fmt::format("{}: node \"{}\"", file, name);
    NodeProperties props{name, parse_role(raw.role, node), raw.speed.empty() ? Rational(1) : rational(raw.speed, node + " speed"),
                         format == FileFormat::DOT && raw.label == DOT_NO_LABEL ? "" : raw.label};
    p.add_node(std::move(props));
  }
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    const auto u = static_cast<Platform::vertex_descriptor>(boost::source(e, g));
    const auto v = static_cast<Platform::vertex_descriptor>(boost::target(e, g));
    const std::string link = fmt::format("{}: link {}->{}", file, p.graph()[u].name, p.graph()[v].name);
    const RawLink& raw = g[e];
    LinkProperties props{raw.cost.empty() ? Rational(1) : rational(raw.cost, link + " cost"), 0};
    if (!raw.dimension.empty()) {
      const auto* end = raw.dimension.data() + raw.dimension.size();
      const auto [ptr, ec] = std::from_chars(raw.dimension.data(), end, props.dimension);
      if (ec != std::errc() || ptr != end || props.dimension < 0) {
        throw TopologyError(fmt::format("{} dimension \"{}\" is not valid (expected an integer >= 0)", link, raw.dimension));
      }
    }
    p.add_link(u, v, props);
  }
  p.validate();
  p.set_name(std::string(path));
  return p;
}

// ---- DOT -------------------------------------------------------------------------------------

template <class Directed>
std::string dot_syntax_error(const std::string& text) {
  RawGraph<Directed> g;
  boost::dynamic_properties dp(boost::ignore_other_properties);
  try {
    boost::read_graphviz(text, g, dp, "node_id");
  } catch (const boost::bad_graphviz_syntax& e) {
    return e.what();
  }
  return {};
}

/// Boost's DOT parser names the offending token but not its line. It reads left to right, so the
/// first prefix of whole lines that fails with the same message ends on that token's line (shorter
/// prefixes parse, or stop at their end of file): binary search over prefixes. An error at the
/// end of the file is on its last non-blank line.
template <class Directed>
std::size_t dot_error_line(const std::string& text, const std::string& message) {
  std::vector<std::size_t> line_end;  // one past the end of each line
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_end.push_back(i + 1);
  }
  if (line_end.empty() || line_end.back() != text.size()) line_end.push_back(text.size());
  if (message.find("<eof>") != std::string::npos) {
    std::size_t line = line_end.size();
    const auto last_non_blank = text.find_last_not_of(" \t\r\n");
    while (line > 1 && last_non_blank != std::string::npos && line_end[line - 2] > last_non_blank) --line;
    return line;
  }
  std::size_t lo = 1;
  std::size_t hi = line_end.size();
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (dot_syntax_error<Directed>(text.substr(0, line_end[mid - 1])) == message) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

template <class Directed>
Platform read_dot_as(const std::string& text, std::string_view path) {
  RawGraph<Directed> g;
  auto dp = schema(g, FileFormat::DOT);
  try {
    boost::read_graphviz(text, g, dp, "node_id");
  } catch (const boost::bad_graphviz_syntax& e) {
    throw TopologyError(fmt::format("{} line {}: malformed DOT: {} (expected a GraphViz graph or digraph)", where(path),
                                    dot_error_line<Directed>(text, e.what()), e.what()));
  }
  return to_platform(g, path, FileFormat::DOT, nullptr);
}

Platform parse_dot(const std::string& text, std::string_view path) {
  try {
    return read_dot_as<boost::directedS>(text, path);
  } catch (const boost::undirected_graph_error&) {
    return read_dot_as<boost::undirectedS>(text, path);
  }
}

// ---- GraphML ---------------------------------------------------------------------------------

namespace pt = boost::property_tree;

std::optional<std::string> attribute(const pt::ptree& element, std::string_view name) {
  if (const auto attrs = element.get_child_optional("<xmlattr>")) {
    for (const auto& [key, value] : *attrs) {
      if (key == name) return value.data();
    }
  }
  return std::nullopt;
}

struct GraphmlOutline {
  bool directed = false;
  std::vector<std::string> node_ids;  // document order, which is Boost's vertex order
};

/// What Boost's GraphML reader does not check or loses: well-formed XML (with the line of an
/// error), one graph, edgedefault, unique node ids, edge ends that are declared, the text type
/// of our keys — and the ids themselves, which name nodes that have no `name`.
GraphmlOutline outline_graphml(const std::string& text, std::string_view path) {
  const std::string file = where(path);
  pt::ptree tree;
  std::istringstream in(text);
  try {
    pt::read_xml(in, tree, pt::xml_parser::no_comments);
  } catch (const pt::xml_parser_error& e) {
    throw TopologyError(fmt::format("{} line {}: malformed GraphML: {} (expected well-formed XML)", file, e.line(), e.message()));
  }
  const auto root = tree.get_child_optional("graphml");
  if (!root) throw TopologyError(file + ": no <graphml> root element (expected a GraphML document)");
  const pt::ptree* graph = nullptr;
  for (const auto& [tag, child] : *root) {
    if (tag == "key") {
      const auto name = attribute(child, "attr.name").value_or("");
      const auto type = attribute(child, "attr.type").value_or("");
      if ((name == "name" || name == "role" || name == "speed" || name == "label" || name == "cost" ||
           name == "dimension") &&
          type != "string") {
        throw TopologyError(fmt::format("{}: key \"{}\" has attr.type \"{}\" (expected attr.type=\"string\": speeds "
                                        "and costs are exact rationals such as 2/3)",
                                        file, name, type));
      }
    } else if (tag == "graph") {
      if (graph != nullptr) throw TopologyError(file + ": has more than one <graph> (expected exactly one)");
      graph = &child;
    }
  }
  if (graph == nullptr) throw TopologyError(file + ": has no <graph> element (expected exactly one)");
  GraphmlOutline out;
  const auto edgedefault = attribute(*graph, "edgedefault").value_or("");
  if (edgedefault != "directed" && edgedefault != "undirected") {
    throw TopologyError(fmt::format("{}: <graph> has edgedefault \"{}\" (expected directed or undirected)", file, edgedefault));
  }
  out.directed = edgedefault == "directed";
  std::set<std::string> declared;
  for (const auto& [tag, child] : *graph) {
    if (tag == "graph" || (tag == "node" && child.get_child_optional("graph"))) {
      throw TopologyError(file + ": has a nested <graph> (expected one flat graph)");
    }
    if (tag != "node") continue;
    const auto id = attribute(child, "id");
    if (!id) throw TopologyError(file + ": a <node> has no id (expected <node id=\"...\">)");
    if (!declared.insert(*id).second) {
      throw TopologyError(fmt::format("{}: node id \"{}\" is declared twice (expected unique ids)", file, *id));
    }
    out.node_ids.push_back(*id);
  }
  for (const auto& [tag, child] : *graph) {
    if (tag != "edge") continue;
    const auto source = attribute(child, "source");
    const auto target = attribute(child, "target");
    if (!source || !target) throw TopologyError(file + ": an <edge> lacks source or target (expected both)");
    for (const auto& end : {*source, *target}) {
      if (!declared.contains(end)) {
        throw TopologyError(fmt::format("{}: link {}->{} names node \"{}\", which is not declared (expected a <node "
                                        "id=\"{}\"> element)",
                                        file, *source, *target, end, end));
      }
    }
    if (const auto directed = attribute(child, "directed"); directed && (*directed == "true") != out.directed) {
      throw TopologyError(fmt::format("{}: link {}->{} has directed=\"{}\" in an {} graph (expected all links of one kind)",
                                      file, *source, *target, *directed, edgedefault));
    }
  }
  return out;
}

template <class Directed>
Platform read_graphml_as(const std::string& text, std::string_view path, const GraphmlOutline& outline) {
  RawGraph<Directed> g;
  auto dp = schema(g, FileFormat::GRAPHML);
  std::istringstream in(text);
  try {
    boost::read_graphml(in, g, dp, 0);
  } catch (const std::exception& e) {
    throw TopologyError(fmt::format("{}: Boost's GraphML reader failed: {} (expected the schema of docs/topology.md)",
                                    where(path), e.what()));
  }
  STARNET_ASSERT(boost::num_vertices(g) == outline.node_ids.size());
  return to_platform(g, path, FileFormat::GRAPHML, &outline.node_ids);
}

Platform parse_graphml(const std::string& text, std::string_view path) {
  const GraphmlOutline outline = outline_graphml(text, path);
  return outline.directed ? read_graphml_as<boost::directedS>(text, path, outline)
                          : read_graphml_as<boost::undirectedS>(text, path, outline);
}

// ---- writing ---------------------------------------------------------------------------------

template <class Directed>
std::string write_as(const Platform& platform, FileFormat format) {
  const auto& pg = platform.graph();
  RawGraph<Directed> g;
  for (const auto v : boost::make_iterator_range(boost::vertices(pg))) {
    const auto& n = pg[v];
    boost::add_vertex(RawNode{n.name, to_string(n.role), n.speed.to_string(),
                              format == FileFormat::DOT && n.label.empty() ? std::string(DOT_NO_LABEL) : n.label},
                      g);
  }
  for (const auto e : boost::make_iterator_range(boost::edges(pg))) {
    const auto u = boost::source(e, pg);
    const auto v = boost::target(e, pg);
    // An undirected link is stored as two arcs; write it once.
    if (platform.directed() || u < v) boost::add_edge(u, v, RawLink{pg[e].cost.to_string(), std::to_string(pg[e].dimension)}, g);
  }
  const auto dp = schema(g, format);
  std::ostringstream out;
  if (format == FileFormat::DOT) {
    boost::write_graphviz_dp(out, g, dp, "node_id");
  } else {
    boost::write_graphml(out, g, dp, /*ordered_vertices=*/true);
  }
  return out.str();
}

}  // namespace

std::string to_string(FileFormat format) { return format == FileFormat::DOT ? "dot" : "graphml"; }

FileFormat parse_file_format(std::string_view text, std::string_view what) {
  if (text == "dot") return FileFormat::DOT;
  if (text == "graphml") return FileFormat::GRAPHML;
  throw UsageError(fmt::format("{}: format \"{}\" is not known (expected dot or graphml)", what, text));
}

std::optional<FileFormat> format_of_path(std::string_view path) {
  if (path.ends_with(".dot") || path.ends_with(".gv")) return FileFormat::DOT;
  if (path.ends_with(".graphml")) return FileFormat::GRAPHML;
  return std::nullopt;
}

Platform parse_platform(std::string_view text, FileFormat format, std::string_view path) {
  const std::string copy(text);
  return format == FileFormat::DOT ? parse_dot(copy, path) : parse_graphml(copy, path);
}

Platform read_platform_file(const std::string& path) {
  const std::string file = where(path);
  const auto format = format_of_path(path);
  if (!format) throw TopologyError(file + ": unknown extension (expected .dot, .gv or .graphml)");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw TopologyError(file + ": is a directory (expected a readable file)");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw TopologyError(fmt::format("{}: cannot be read ({}; expected a readable .dot, .gv or .graphml file)", file,
                                    std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw TopologyError(fmt::format("{}: reading failed ({})", file, std::strerror(errno)));
  return parse_platform(text.str(), *format, path);
}

std::string write_platform(const Platform& platform, FileFormat format) {
  return platform.directed() ? write_as<boost::directedS>(platform, format) : write_as<boost::undirectedS>(platform, format);
}

}  // namespace starnet::topology

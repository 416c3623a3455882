// DOT and GraphML platforms (files.hpp).
//
// Each reader turns its file into a RawPlatform: every attribute as the text the file gives, each
// node and link with the line it is on when the parser knows it. to_platform() then checks and
// converts it, so that each bad value is reported with the file, the line, the node or link, and
// what was expected, in the same words for both formats. DOT is read by Boost.Graph's reader,
// after dot_text.cpp has kept numerals with an exponent whole and checked numeric values by line;
// GraphML by our own reader on pugixml, which accepts the attr.type values other tools write
// (networkx writes weights as double) where Boost's read_graphml refuses any type that differs
// from its property map's.
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/files.hpp>
#include <starnet/topology/input.hpp>
#include <starnet/topology/simgrid.hpp>

#include "decimal.hpp"
#include "dot_text.hpp"
#include "xml_text.hpp"

#include <boost/graph/graphml.hpp>
#include <boost/graph/graphviz.hpp>
#include <fmt/format.h>
#include <pugixml.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace starnet::topology {
namespace {

/// A node or a link as read, before any check; an empty text is an absent attribute.
struct RawNode {
  std::string name;
  std::string role;
  std::string speed;
  std::string label;
  std::size_t line = 0;  // 0: unknown (DOT)
};

struct RawLink {
  std::string cost;
  std::string weight;
  std::string dimension;
  std::string latency;
  std::string bandwidth;
  // Whether the value is a GraphML key's <default>: a value given on the link itself wins over it.
  bool cost_is_default = false;
  bool weight_is_default = false;
};

struct RawEdge {
  std::size_t source = 0;  // index into RawPlatform::nodes
  std::size_t target = 0;
  RawLink link;
  std::size_t line = 0;
};

struct RawPlatform {
  bool directed = false;
  std::vector<RawNode> nodes;  // in platform order
  std::vector<RawEdge> edges;
};

/// @p read() with its InputError thrown as a TopologyError, the documented type of every error of
/// a topology file (input.hpp's checks throw the general type).
template <class Read>
auto as_topology_error(Read&& read) {
  try {
    return read();
  } catch (const TopologyError&) {
    throw;
  } catch (const InputError& e) {
    throw TopologyError(e.what());
  }
}

std::string where(std::string_view path) { return fmt::format("topology file \"{}\"", path); }

/// `topology file "F" line L`, or without the line when it is not known.
std::string place(const std::string& file, std::size_t line) {
  return line == 0 ? file : fmt::format("{} line {}", file, line);
}

/// One warning per attribute (or element) name and kind of owner, in the order first met.
class Warnings {
 public:
  explicit Warnings(std::string file) : file_(std::move(file)) {}

  /// @param owner "nodes", "links", "the graph", "the document" (GraphML's <graphml>) or "every
  /// element" (the <default> of a GraphML key for several kinds of element).
  void unused_attribute(std::string_view name, std::string_view owner) {
    add(fmt::format("{}: attribute \"{}\" of {} is not used by starnet (ignored)", file_, name, owner));
  }
  /// A GraphML key without attr.name, named by its id.
  void unused_key(std::string_view id, std::string_view owner) {
    add(fmt::format("{}: attribute of key \"{}\" (no attr.name) of {} is not used by starnet (ignored)", file_, id, owner));
  }
  void unused_element(std::string_view name, std::string_view parent) {
    add(fmt::format("{}: element <{}> in <{}> is not used by starnet (ignored)", file_, name, parent));
  }
  void clear() {
    seen_.clear();
    messages_.clear();
  }
  [[nodiscard]] const std::vector<std::string>& messages() const { return messages_; }

 private:
  void add(std::string message) {
    if (seen_.insert(message).second) messages_.push_back(std::move(message));
  }
  std::string file_;
  std::set<std::string> seen_;
  std::vector<std::string> messages_;
};

// ---- numbers ---------------------------------------------------------------------------------

using detail::Lines;
using detail::trimmed;

/// A speed, cost, weight, latency or bandwidth, exactly (decimal.hpp).
Rational number(std::string_view text, const std::string& what) { return detail::exact_number(text, what); }

// ---- checks shared by both formats -----------------------------------------------------------

/// The α–β attributes of a link: latency α ≥ 0, bandwidth β > 0 giving the cost 1/β. A link with
/// both a cost (or weight) and a bandwidth must have cost = 1/β.
void alpha_beta(const RawLink& r, const std::string& link, bool has_cost, LinkProperties& props) {
  if (!r.latency.empty()) {
    props.latency = number(r.latency, link + " latency");
    if (props.latency < Rational(0)) {
      throw TopologyError(fmt::format("{} has latency {} (must be >= 0)", link, props.latency.to_string()));
    }
  }
  if (r.bandwidth.empty()) return;
  const Rational bandwidth = number(r.bandwidth, link + " bandwidth");
  if (bandwidth <= Rational(0)) {
    throw TopologyError(fmt::format("{} has bandwidth {} (must be > 0)", link, bandwidth.to_string()));
  }
  const Rational per_unit = Rational(1) / bandwidth;
  if (has_cost && props.cost != per_unit) {
    throw TopologyError(fmt::format("{} has cost {} and bandwidth {} (expected cost = 1/bandwidth = {}, or one of them)",
                                    link, props.cost.to_string(), bandwidth.to_string(), per_unit.to_string()));
  }
  props.cost = per_unit;
}

/// Graphviz's escape for "the node's name": what DOT files carry as the label of a node that has
/// no permutation label, so that Graphviz draws its name.
constexpr std::string_view DOT_NO_LABEL = "\\N";

/// Checks and converts what a reader found. Checks that Platform also makes are made here first,
/// so that the message carries the line of the node or link.
Platform to_platform(const RawPlatform& raw, std::string_view path) {
  const std::string file = where(path);
  if (raw.nodes.empty()) throw TopologyError(file + ": has no nodes (expected at least one node)");
  if (raw.nodes.size() > MAX_PLATFORM_NODES || raw.edges.size() > MAX_PLATFORM_LINKS) {
    throw TopologyError(fmt::format("{}: has {} nodes and {} links (expected at most {} nodes and {} links, the limits "
                                    "of a platform)",
                                    file, raw.nodes.size(), raw.edges.size(), MAX_PLATFORM_NODES, MAX_PLATFORM_LINKS));
  }
  // Named after the file while it is built, so that Platform's own checks name the file too.
  Platform p(file, raw.directed);
  std::set<std::string_view> names;
  for (const RawNode& n : raw.nodes) {
    const std::string at = place(file, n.line);
    if (!names.insert(n.name).second) {
      throw TopologyError(fmt::format("{}: node name \"{}\" is used twice (names must be unique)", at, n.name));
    }
    const std::string node = fmt::format("{}: node \"{}\"", at, n.name);
    NodeProperties props{n.name, n.role.empty() ? Role::PROCESSOR : parse_role(n.role, node),
                         n.speed.empty() ? Rational(1) : number(n.speed, node + " speed"), n.label};
    if (props.speed <= Rational(0)) {
      throw TopologyError(fmt::format("{} has speed {} (must be > 0)", node, props.speed.to_string()));
    }
    p.add_node(std::move(props));
  }
  std::set<std::pair<std::size_t, std::size_t>> arcs;
  for (const RawEdge& e : raw.edges) {
    const auto u = static_cast<Platform::vertex_descriptor>(e.source);
    const auto v = static_cast<Platform::vertex_descriptor>(e.target);
    const std::string link = fmt::format("{}: link {}->{}", place(file, e.line), raw.nodes[u].name, raw.nodes[v].name);
    const RawLink& r = e.link;
    std::optional<Rational> cost = r.cost.empty() ? std::nullopt : std::optional(number(r.cost, link + " cost"));
    std::optional<Rational> weight = r.weight.empty() ? std::nullopt : std::optional(number(r.weight, link + " weight"));
    if (cost && weight && r.cost_is_default != r.weight_is_default) (r.cost_is_default ? cost : weight).reset();
    if (cost && weight && *cost != *weight) {
      throw TopologyError(fmt::format("{} has cost {} and weight {} (expected one value: weight is read as the cost, so "
                                      "give one of them or both equal)",
                                      link, cost->to_string(), weight->to_string()));
    }
    if (!cost) cost = weight;
    LinkProperties props{cost.value_or(Rational(1)), 0};
    if (props.cost <= Rational(0)) {
      throw TopologyError(fmt::format("{} has {} {} (must be > 0)", link, r.cost.empty() ? "weight" : "cost",
                                      props.cost.to_string()));
    }
    alpha_beta(r, link, cost.has_value(), props);
    if (!r.dimension.empty()) {
      const std::string_view text = trimmed(r.dimension);
      const auto* end = text.data() + text.size();
      const auto [ptr, ec] = std::from_chars(text.data(), end, props.dimension);
      if (ec != std::errc() || ptr != end || props.dimension < 0) {
        throw TopologyError(fmt::format("{} dimension \"{}\" is not valid (expected an integer >= 0)", link, r.dimension));
      }
    }
    if (u == v) throw TopologyError(link + " is a self-loop");
    const bool forward = raw.directed || e.source < e.target;
    if (!arcs.insert(forward ? std::pair(e.source, e.target) : std::pair(e.target, e.source)).second) {
      throw TopologyError(link + " is given twice");
    }
    p.add_link(u, v, props);
  }
  p.validate();
  p.set_name(std::string(path));
  return p;
}

// ---- DOT -------------------------------------------------------------------------------------

template <class Directed>
using DotGraph = boost::adjacency_list<boost::vecS, boost::vecS, Directed, RawNode, RawLink>;

/// The properties starnet writes; reading also takes `weight`. @p other is called for each
/// attribute the file has and the schema lacks (boost::dynamic_properties' generator).
template <class Graph>
boost::dynamic_properties schema(Graph& g, FileFormat format, const boost::dynamic_properties::generate_fn_type& other,
                                 bool with_latency = false) {
  boost::dynamic_properties dp(other);
  dp.property(format == FileFormat::DOT ? "node_id" : "name", boost::get(&RawNode::name, g));
  dp.property("role", boost::get(&RawNode::role, g));
  dp.property("speed", boost::get(&RawNode::speed, g));
  dp.property("label", boost::get(&RawNode::label, g));
  dp.property("cost", boost::get(&RawLink::cost, g));
  dp.property("dimension", boost::get(&RawLink::dimension, g));
  if (with_latency) dp.property("latency", boost::get(&RawLink::latency, g));
  return dp;
}

template <class Directed>
std::string dot_syntax_error(const std::string& text) {
  DotGraph<Directed> g;
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

/// @p problem (dot_text.hpp) is thrown unless Boost's reader finds a syntax error on an earlier line.
template <class Directed>
RawPlatform read_dot_as(const std::string& text, std::string_view path, Warnings& warnings,
                        const std::optional<detail::DotProblem>& problem) {
  using Graph = DotGraph<Directed>;
  Graph g;
  // Returning no map makes Boost drop the value; the generator is asked again at the next one,
  // and Warnings keeps one message per name.
  const auto unknown = [&warnings](const std::string& name, const boost::any& key, const boost::any&) {
    const auto& type = key.type();
    warnings.unused_attribute(name, type == typeid(typename boost::graph_traits<Graph>::vertex_descriptor) ? "nodes"
                                    : type == typeid(typename boost::graph_traits<Graph>::edge_descriptor) ? "links"
                                                                                                           : "the graph");
    return boost::shared_ptr<boost::dynamic_property_map>();
  };
  auto dp = schema(g, FileFormat::DOT, unknown);
  dp.property("weight", boost::get(&RawLink::weight, g));
  dp.property("latency", boost::get(&RawLink::latency, g));
  dp.property("bandwidth", boost::get(&RawLink::bandwidth, g));
  try {
    boost::read_graphviz(text, g, dp, "node_id");
  } catch (const boost::bad_graphviz_syntax& e) {
    const std::size_t line = dot_error_line<Directed>(text, e.what());
    if (problem && problem->line <= line) throw TopologyError(problem->message);
    throw TopologyError(fmt::format("{} line {}: malformed DOT: {} (expected a GraphViz graph or digraph)", where(path),
                                    line, e.what()));
  }
  if (problem) throw TopologyError(problem->message);
  RawPlatform raw;
  raw.directed = std::is_same_v<Directed, boost::directedS>;
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    raw.nodes.push_back(g[v]);
    if (raw.nodes.back().label == DOT_NO_LABEL) raw.nodes.back().label.clear();
  }
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    raw.edges.push_back({boost::source(e, g), boost::target(e, g), g[e], 0});
  }
  return raw;
}

RawPlatform read_dot(const std::string& file_text, std::string_view path, Warnings& warnings) {
  // Numerals with an exponent quoted, so that Boost's tokenizer cannot split them (dot_text.hpp).
  const auto checked = detail::checked_dot_text(file_text, where(path));
  try {
    return read_dot_as<boost::directedS>(checked.text, path, warnings, checked.problem);
  } catch (const boost::undirected_graph_error&) {
    warnings.clear();
    return read_dot_as<boost::undirectedS>(checked.text, path, warnings, checked.problem);
  }
}

// ---- GraphML ---------------------------------------------------------------------------------


/// Reads GraphML (http://graphml.graphdrawing.org/specification.html) with pugixml. Only fixed
/// levels are visited (graphml > key | graph > node | edge > data), by loops: nothing here recurses
/// per level of XML nesting, and pugixml's parser does not either, so a deeply nested document
/// costs memory, not stack.
class GraphmlReader {
 public:
  GraphmlReader(const std::string& text, std::string_view path, Warnings& warnings)
      : text_(text), file_(where(path)), lines_(text), warnings_(warnings) {}

  RawPlatform read();

 private:
  /// The elements a key can be for, as bits.
  enum Domain : unsigned { NODE = 1U, EDGE = 2U, GRAPH = 4U, DOCUMENT = 8U };
  /// The attributes starnet reads. NONE: one it does not know.
  enum class Field { NONE, NAME, ROLE, SPEED, LABEL, COST, WEIGHT, DIMENSION, LATENCY, BANDWIDTH };

  struct Key {
    std::string id;
    std::string name;  // attr.name, or empty
    std::string type;  // attr.type
    unsigned domains = 0;
    std::optional<std::string> fallback;  // <default>
  };

  [[noreturn]] void fail(const pugi::xml_node& at, const std::string& what) const {
    throw TopologyError(fmt::format("{}: {}", place(file_, lines_.of(at.offset_debug())), what));
  }
  static Field field(unsigned domain, std::string_view name);
  static std::string_view owner(unsigned domain);
  void read_key(const pugi::xml_node& element);
  /// Calls @p set(field, text, is_default) for each attribute of @p element that starnet reads,
  /// its <data> children then the <default> of each key it has no <data> for; warns about the
  /// others.
  template <class Set>
  void read_data(const pugi::xml_node& element, unsigned domain, Set&& set);

  const std::string& text_;
  std::string file_;
  Lines lines_;
  Warnings& warnings_;
  std::vector<Key> keys_;
  std::unordered_map<std::string, std::size_t> key_index_;
};

GraphmlReader::Field GraphmlReader::field(unsigned domain, std::string_view name) {
  if (domain == NODE) {
    if (name == "name") return Field::NAME;
    if (name == "role") return Field::ROLE;
    if (name == "speed") return Field::SPEED;
    if (name == "label") return Field::LABEL;
  } else if (domain == EDGE) {
    if (name == "cost") return Field::COST;
    if (name == "weight") return Field::WEIGHT;
    if (name == "latency") return Field::LATENCY;
    if (name == "bandwidth") return Field::BANDWIDTH;
    if (name == "dimension") return Field::DIMENSION;
  }
  return Field::NONE;
}

std::string_view GraphmlReader::owner(unsigned domain) {
  switch (domain) {
    case NODE: return "nodes";
    case EDGE: return "links";
    case GRAPH: return "the graph";
    default: return "the document";
  }
}

void GraphmlReader::read_key(const pugi::xml_node& element) {
  Key key;
  key.id = element.attribute("id").value();
  if (key.id.empty()) fail(element, "a <key> has no id (expected <key id=\"...\">)");
  key.name = element.attribute("attr.name").value();
  const auto type = element.attribute("attr.type");
  key.type = type ? type.value() : "string";
  static const std::set<std::string_view> TYPES = {"boolean", "int", "long", "float", "double", "string"};
  if (!TYPES.contains(key.type)) {
    fail(element, fmt::format("key \"{}\" has attr.type \"{}\" (expected boolean, int, long, float, double or string)",
                              key.id, key.type));
  }
  const auto for_attribute = element.attribute("for");
  const std::string_view kind = for_attribute ? for_attribute.value() : "all";
  if (kind == "node") {
    key.domains = NODE;
  } else if (kind == "edge") {
    key.domains = EDGE;
  } else if (kind == "graph") {
    key.domains = GRAPH;
  } else if (kind == "graphml") {
    key.domains = DOCUMENT;
  } else if (kind == "all") {
    key.domains = NODE | EDGE | GRAPH | DOCUMENT;
  } else if (kind != "hyperedge" && kind != "port" && kind != "endpoint") {
    fail(element, fmt::format("key \"{}\" has for=\"{}\" (expected node, edge, graph, graphml, all, hyperedge, port or "
                              "endpoint)",
                              key.id, kind));
  }
  for (const unsigned domain : {NODE, EDGE}) {
    if ((key.domains & domain) == 0 || key.name.empty()) continue;
    const Field f = field(domain, key.name);
    const bool text = f == Field::NAME || f == Field::ROLE || f == Field::LABEL || f == Field::DIMENSION;
    const bool numeric =
        f == Field::SPEED || f == Field::COST || f == Field::WEIGHT || f == Field::LATENCY || f == Field::BANDWIDTH;
    if (text && key.type != "string" && key.type != "int" && key.type != "long") {
      fail(element, fmt::format("key \"{}\" has attr.type \"{}\" (expected string, int or long)", key.name, key.type));
    }
    if (numeric && key.type == "boolean") {
      fail(element, fmt::format("key \"{}\" has attr.type \"{}\" (expected string, int, long, float or double: speeds "
                                "and costs are numbers, exact rationals such as 2/3 in a string)",
                                key.name, key.type));
    }
  }
  if (const auto fallback = element.child("default")) key.fallback = fallback.child_value();
  if (!key_index_.emplace(key.id, keys_.size()).second) {
    fail(element, fmt::format("key id \"{}\" is declared twice (expected unique key ids)", key.id));
  }
  keys_.push_back(std::move(key));
}

template <class Set>
void GraphmlReader::read_data(const pugi::xml_node& element, unsigned domain, Set&& set) {
  const auto apply = [&](const Key& key, const char* value, bool is_default) {
    const Field f = key.name.empty() ? Field::NONE : field(domain, key.name);
    if (f != Field::NONE) {
      set(f, std::string(value), is_default);
      return;
    }
    // The <default> of a key for several kinds of element is named once, and not at all when
    // starnet reads it on one of them (a for="all" weight serves the links).
    std::string_view whose = owner(domain);
    if (is_default && key.domains != domain) {
      if (field(NODE, key.name) != Field::NONE || field(EDGE, key.name) != Field::NONE) return;
      whose = "every element";
    }
    if (key.name.empty()) {
      warnings_.unused_key(key.id, whose);
    } else {
      warnings_.unused_attribute(key.name, whose);
    }
  };
  std::vector<std::size_t> given;
  for (const pugi::xml_node child : element.children()) {
    if (child.type() != pugi::node_element) continue;
    const std::string_view tag = child.name();
    if (tag == "data") {
      const auto id = child.attribute("key");
      if (!id) fail(child, fmt::format("a <data> in <{}> has no key (expected <data key=\"...\">)", element.name()));
      const auto it = key_index_.find(id.value());
      if (it == key_index_.end()) {
        fail(child, fmt::format("<data key=\"{}\"> names no key (expected a <key id=\"{}\"> element)", id.value(),
                                id.value()));
      }
      const Key& key = keys_[it->second];
      if ((key.domains & domain) == 0) {
        fail(child, fmt::format("<data key=\"{}\"> in <{}>: that key is not for {} (expected a key with for=\"{}\" or "
                                "for=\"all\")",
                                key.id, element.name(), owner(domain), element.name()));
      }
      if (std::find(given.begin(), given.end(), it->second) != given.end()) {
        fail(child, fmt::format("<{}> has two <data key=\"{}\"> (expected one value per key)", element.name(), key.id));
      }
      given.push_back(it->second);
      apply(key, child.child_value(), false);
    } else if (tag == "graph" && domain != DOCUMENT) {
      fail(child, fmt::format("has a nested <graph> in <{}> (expected one flat graph)", element.name()));
    } else if (tag == "hyperedge") {
      fail(child, "has a <hyperedge> (expected links of two ends, <edge>)");
    } else if (tag != "desc" && !(domain == GRAPH && (tag == "node" || tag == "edge")) &&
               !(domain == DOCUMENT && (tag == "key" || tag == "graph"))) {
      warnings_.unused_element(tag, element.name());
    }
  }
  for (std::size_t k = 0; k < keys_.size(); ++k) {
    if (keys_[k].fallback && (keys_[k].domains & domain) != 0 && std::find(given.begin(), given.end(), k) == given.end()) {
      apply(keys_[k], keys_[k].fallback->c_str(), true);
    }
  }
}

RawPlatform GraphmlReader::read() {
  pugi::xml_document doc;
  // parse_doctype keeps a DOCTYPE as a node, to be refused below; pugixml expands no entities.
  const auto parsed = doc.load_buffer(text_.data(), text_.size(), pugi::parse_default | pugi::parse_doctype);
  if (!parsed) {
    throw TopologyError(fmt::format("{} line {}: malformed GraphML: {} (expected well-formed XML)", file_,
                                    std::max<std::size_t>(lines_.of(parsed.offset), 1), parsed.description()));
  }
  for (const pugi::xml_node child : doc.children()) {
    if (child.type() == pugi::node_doctype) {
      fail(child, "has a <!DOCTYPE> (refused: starnet expands no entities; expected GraphML without a DOCTYPE)");
    }
  }
  const pugi::xml_node root = doc.document_element();
  if (std::string_view(root.name()) != "graphml") {
    fail(root, fmt::format("has the root element <{}> (expected a <graphml> document)", root.name()));
  }
  pugi::xml_node graph;
  for (const pugi::xml_node child : root.children()) {
    const std::string_view tag = child.name();
    if (tag == "key") read_key(child);
    if (tag == "graph") {
      if (graph) fail(child, "has more than one <graph> (expected exactly one)");
      graph = child;
    }
  }
  if (!graph) fail(root, "has no <graph> element (expected exactly one)");
  read_data(root, DOCUMENT, [](Field, const std::string&, bool) {});

  RawPlatform raw;
  const std::string_view edgedefault = graph.attribute("edgedefault").value();
  if (edgedefault != "directed" && edgedefault != "undirected") {
    fail(graph, fmt::format("<graph> has edgedefault \"{}\" (expected directed or undirected)", edgedefault));
  }
  raw.directed = edgedefault == "directed";
  read_data(graph, GRAPH, [](Field, const std::string&, bool) {});

  std::unordered_map<std::string_view, std::size_t> by_id;
  for (const pugi::xml_node element : graph.children("node")) {
    const std::string_view id = element.attribute("id").value();
    if (id.empty()) fail(element, "a <node> has no id (expected <node id=\"...\">)");
    if (!by_id.emplace(id, raw.nodes.size()).second) {
      fail(element, fmt::format("node id \"{}\" is declared twice (expected unique ids)", id));
    }
    RawNode node;
    node.line = lines_.of(element.offset_debug());
    read_data(element, NODE, [&](Field f, std::string value, bool) {
      switch (f) {
        case Field::NAME: node.name = std::move(value); break;
        case Field::ROLE: node.role = std::move(value); break;
        case Field::SPEED: node.speed = std::move(value); break;
        case Field::LABEL: node.label = std::move(value); break;
        default: STARNET_ASSERT(false);
      }
    });
    if (node.name.empty()) node.name = id;
    raw.nodes.push_back(std::move(node));
  }
  for (const pugi::xml_node element : graph.children("edge")) {
    const auto source = element.attribute("source");
    const auto target = element.attribute("target");
    if (!source || !target) fail(element, "an <edge> lacks source or target (expected both)");
    RawEdge edge;
    edge.line = lines_.of(element.offset_debug());
    for (const auto& [end, index] : {std::pair(source.value(), &edge.source), std::pair(target.value(), &edge.target)}) {
      const auto it = by_id.find(end);
      if (it == by_id.end()) {
        fail(element, fmt::format("link {}->{} names node \"{}\", which is not declared (expected a <node id=\"{}\"> "
                                  "element)",
                                  source.value(), target.value(), end, end));
      }
      *index = it->second;
    }
    if (const auto directed = element.attribute("directed"); directed && (std::string_view(directed.value()) == "true") != raw.directed) {
      fail(element, fmt::format("link {}->{} has directed=\"{}\" in a graph with edgedefault=\"{}\" (expected all links of "
                                "one kind)",
                                source.value(), target.value(), directed.value(), edgedefault));
    }
    read_data(element, EDGE, [&](Field f, std::string value, bool is_default) {
      switch (f) {
        case Field::COST:
          edge.link.cost = std::move(value);
          edge.link.cost_is_default = is_default;
          break;
        case Field::WEIGHT:
          edge.link.weight = std::move(value);
          edge.link.weight_is_default = is_default;
          break;
        case Field::DIMENSION: edge.link.dimension = std::move(value); break;
        case Field::LATENCY: edge.link.latency = std::move(value); break;
        case Field::BANDWIDTH: edge.link.bandwidth = std::move(value); break;
        default: STARNET_ASSERT(false);
      }
    });
    raw.edges.push_back(std::move(edge));
  }
  return raw;
}

// ---- writing ---------------------------------------------------------------------------------

/// DOT's keywords, which are case-insensitive: a node named so must be quoted.
constexpr std::array<std::string_view, 6> DOT_KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph", "strict"};
/// Names Boost's writer takes for numerals, but DOT does not: a numeral needs a digit.
constexpr std::array<std::string_view, 2> DOT_DIGITLESS_NUMERALS = {".", "-."};

/// Whether Boost's DOT writer would leave @p name unquoted where DOT needs quotes: it quotes only
/// names that are not identifiers or numerals by its own rule, which lets these through.
bool dot_writer_cannot_quote(std::string_view name) {
  const bool keyword = std::any_of(DOT_KEYWORDS.begin(), DOT_KEYWORDS.end(), [&](std::string_view k) {
    return name.size() == k.size() && std::equal(name.begin(), name.end(), k.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == b;
           });
  });
  return keyword || std::find(DOT_DIGITLESS_NUMERALS.begin(), DOT_DIGITLESS_NUMERALS.end(), name) !=
                        DOT_DIGITLESS_NUMERALS.end();
}

template <class Directed>
std::string write_as(const Platform& platform, FileFormat format) {
  const auto& pg = platform.graph();
  DotGraph<Directed> g;
  for (const auto v : boost::make_iterator_range(boost::vertices(pg))) {
    const auto& n = pg[v];
    if (format == FileFormat::DOT && dot_writer_cannot_quote(n.name)) {
      throw TopologyError(fmt::format("node \"{}\": a DOT keyword or a numeral without digits cannot be written as a "
                                      "DOT node name (Boost's DOT writer leaves it unquoted, and it would not read "
                                      "back); expected another name, or export to GraphML",
                                      n.name));
    }
    boost::add_vertex(RawNode{n.name, to_string(n.role), n.speed.to_string(),
                              format == FileFormat::DOT && n.label.empty() ? std::string(DOT_NO_LABEL) : n.label, 0},
                      g);
  }
  bool with_latency = false;
  for (const auto e : boost::make_iterator_range(boost::edges(pg))) {
    const auto u = boost::source(e, pg);
    const auto v = boost::target(e, pg);
    // An undirected link is stored as two arcs; write it once.
    if (platform.directed() || u < v) {
      boost::add_edge(u, v,
                      RawLink{pg[e].cost.to_string(), "", std::to_string(pg[e].dimension), pg[e].latency.to_string(), ""},
                      g);
    }
    with_latency = with_latency || pg[e].latency != 0;
  }
  // Latencies are written only when a link has one, so that files of the linear model stay as they were.
  const auto dp = schema(g, format, boost::ignore_other_properties, with_latency);
  std::ostringstream out;
  if (format == FileFormat::DOT) {
    boost::write_graphviz_dp(out, g, dp, "node_id");
  } else {
    boost::write_graphml(out, g, dp, /*ordered_vertices=*/true);
  }
  return out.str();
}

}  // namespace

std::string to_string(FileFormat format) {
  switch (format) {
    case FileFormat::DOT: return "dot";
    case FileFormat::GRAPHML: return "graphml";
    case FileFormat::SIMGRID: return "simgrid";
  }
  return "dot";
}

FileFormat parse_file_format(std::string_view text, std::string_view what) {
  if (text == "dot") return FileFormat::DOT;
  if (text == "graphml") return FileFormat::GRAPHML;
  if (text == "simgrid") return FileFormat::SIMGRID;
  throw UsageError(fmt::format("{}: format \"{}\" is not known (expected dot, graphml or simgrid)", what, text));
}

std::optional<FileFormat> format_of_path(std::string_view path) {
  // Extensions in any case: Windows and macOS users write .DOT and .GraphML.
  std::string lower(path.substr(path.size() - std::min<std::size_t>(path.size(), 8)));
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string_view end(lower);
  if (end.ends_with(".dot") || end.ends_with(".gv")) return FileFormat::DOT;
  if (end.ends_with(".graphml")) return FileFormat::GRAPHML;
  if (end.ends_with(".xml")) return FileFormat::SIMGRID;
  return std::nullopt;
}

Platform parse_platform(std::string_view text, FileFormat format, std::string_view path,
                        std::vector<std::string>* warnings) {
  as_topology_error([&] { check_nesting(text, format == FileFormat::DOT ? Nesting::DOT : Nesting::XML, where(path)); });
  if (format == FileFormat::SIMGRID) return parse_simgrid(text, path, warnings);
  const std::string copy(text);
  Warnings found(where(path));
  const RawPlatform raw =
      format == FileFormat::DOT ? read_dot(copy, path, found) : GraphmlReader(copy, path, found).read();
  Platform p = to_platform(raw, path);
  if (warnings != nullptr) warnings->insert(warnings->end(), found.messages().begin(), found.messages().end());
  return p;
}

namespace {

std::mutex& sink_mutex() {
  static std::mutex m;
  return m;
}
FileWarningSink& sink() {
  static FileWarningSink s;
  return s;
}

}  // namespace

void set_file_warning_sink(FileWarningSink s) {
  const std::scoped_lock lock(sink_mutex());
  sink() = std::move(s);
}

Platform read_platform_file(const std::string& path, std::vector<std::string>* warnings) {
  if (warnings == nullptr) {
    std::vector<std::string> found;
    Platform p = read_platform_file(path, &found);
    const std::scoped_lock lock(sink_mutex());
    if (sink()) {
      for (const auto& w : found) sink()(w);
    }
    return p;
  }
  const std::string file = where(path);
  const auto format = format_of_path(path);
  if (!format) throw TopologyError(file + ": unknown extension (expected .dot, .gv, .graphml or a SimGrid .xml)");
  const std::string text =
      as_topology_error([&] { return read_input(path, file, "a .dot, .gv, .graphml or SimGrid .xml platform file"); });
  return parse_platform(text, *format, path, warnings);
}

std::string write_platform(const Platform& platform, FileFormat format) {
  if (format == FileFormat::SIMGRID) return write_simgrid(platform);
  return platform.directed() ? write_as<boost::directedS>(platform, format) : write_as<boost::undirectedS>(platform, format);
}

}  // namespace starnet::topology

#pragma once
/// @file
/// Platforms in GraphViz DOT and GraphML files. DOT is read and written through Boost.Graph
/// (boost::read_graphviz / write_graphviz_dp); GraphML is written by boost::write_graphml and read
/// by our own reader on pugixml, which accepts the attr.type values networkx, yEd and Gephi write.
/// The attribute schema (docs/topology.md):
///
///   node  name       GraphML only: the node's name (default: its id). In DOT the node ID is
///                    the name.
///   node  role       processor | router (default processor).
///   node  speed      number > 0 (default 1).
///   node  label      permutation label of a star-graph node (default none; DOT writes "\N",
///                    Graphviz's "the node's name", for none).
///   link  cost       number > 0 (default 1): time to send one unit-size message.
///   link  weight     the cost under the name other tools use; a link with both gives them equal.
///   link  dimension  integer >= 0 (default 0): star link k or hypercube bit + 1.
///   link  latency    number >= 0 (default 0): α of the α–β model (m units take α + m·cost).
///   link  bandwidth  number > 0: β; the cost is 1/β (a link with both needs cost = 1/β).
///   graph            directedness: `graph` / `digraph` in DOT, edgedefault in GraphML.
/// A number is exact: an integer, a fraction (2/3) or a decimal with an optional exponent (0.25,
/// 2.0, 1e-3), read as the rational it writes; nan and inf are refused. In DOT, fractions must be
/// quoted (cost="2/3"). GraphML keys may have attr.type string, int, long, float or double for
/// numbers (name, role, label and dimension: string, int or long); an empty value is absent, and
/// a key's <default> applies to the elements without a <data> for it.
///
/// So a DOT or GraphML graph without any starnet attribute loads: every node a processor of speed
/// 1, every link of cost 1 (or its weight). Every other attribute is ignored and named in one
/// warning per name and kind of owner (nodes, links, the graph), e.g.
/// `topology file "g.dot": attribute "color" of links is not used by starnet (ignored)`; so is a
/// GraphML element starnet does not read (e.g. <port>).
///
/// Node order: GraphML keeps the document order; Boost's DOT reader returns nodes sorted by name,
/// so a DOT round trip gives the same platform up to node order (difference() compares by name).
///
/// IMPORTANT: Boost's DOT reader merges repeated statements for one node ID (DOT semantics), so a
/// repeated DOT node is not reported, and it drops the attributes of subgraphs themselves
/// (`subgraph { color=red }`) without telling; a repeated GraphML `name` or id is reported. Boost's
/// DOT parser reports the offending token but no line; the line given is that of the token, found
/// by re-parsing prefixes of the file. A GraphML DOCTYPE is refused (no entity is ever expanded).

#include <starnet/topology/platform.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::topology {

/// SIMGRID: a SimGrid platform (simgrid.hpp, docs/simgrid.md), read and written through
/// parse_simgrid() and write_simgrid().
enum class FileFormat { DOT, GRAPHML, SIMGRID };
[[nodiscard]] std::string to_string(FileFormat format);
/// "dot", "graphml" or "simgrid". @throws UsageError naming @p what and the text otherwise.
[[nodiscard]] FileFormat parse_file_format(std::string_view text, std::string_view what);
/// The format a path's extension names: .dot/.gv → DOT, .graphml → GraphML, .xml → SimGrid.
[[nodiscard]] std::optional<FileFormat> format_of_path(std::string_view path);

/// Reads a platform from the text of a file; the platform is named @p path.
/// @param path names the input in messages (`topology file "PATH" line L: …`).
/// @param warnings when not null, receives one sentence per attribute the file has and starnet
/// does not use (see the file comment), in the order first met, appended after a successful read.
/// The library prints nothing: a caller that reads files for a user should pass a vector and show
/// it (the command line prints each on stderr).
/// @throws TopologyError naming the file, the line when the parser gives one (GraphML: always;
/// DOT: syntax errors), the node or link, and what was expected: malformed DOT/XML, a GraphML
/// DOCTYPE, a missing or repeated <graph> or edgedefault, a nested <graph> or a <hyperedge>, a
/// key with an unknown attr.type or for, or a type that cannot hold its attribute (e.g. a boolean
/// cost), a <data> whose key is not declared or is for other elements, a duplicate name or GraphML
/// node or key id, an edge to an undeclared GraphML id, an unknown role, a non-numeric,
/// non-finite or non-positive speed, cost or weight, a cost and weight that differ, a bad
/// dimension, a self-loop or a link given twice, a file without nodes.
/// O(V log V + E log E) plus, for a DOT syntax error, O(log L) re-parses. Memory O(file size);
/// no recursion per level of XML nesting.
///
///   std::vector<std::string> warnings;
///   const Platform p = parse_platform("graph { a -- b [weight=2, color=red]; }", FileFormat::DOT, "g.dot", &warnings);
///   // 2 processors, one link of cost 2; warnings: attribute "color" of links is not used ...
[[nodiscard]] Platform parse_platform(std::string_view text, FileFormat format, std::string_view path,
                                      std::vector<std::string>* warnings = nullptr);

/// Reads the file at @p path, in the format of its extension.
/// @param warnings as for parse_platform().
/// @throws TopologyError naming the file when it is missing, unreadable or has no known
/// extension, and as parse_platform().
[[nodiscard]] Platform read_platform_file(const std::string& path, std::vector<std::string>* warnings = nullptr);

/// Where the warnings of a file read without a vector go: make_platform("file:…") and every other
/// read through a spec pass none. A program installs one sink at start-up (the command line prints
/// each distinct warning once on stderr); without one they are dropped. Thread-safe: calls to the
/// sink are serialised.
using FileWarningSink = std::function<void(const std::string&)>;
void set_file_warning_sink(FileWarningSink sink);

/// The text of @p platform in @p format: nodes in platform order, each undirected link once.
/// Reading it back gives the same platform (up to node order for DOT).
/// @throws TopologyError for DOT when a node is named after a DOT keyword (node, edge, graph,
///         digraph, subgraph, strict, in any case) or is "." or "-.", which Boost's writer would
///         leave unquoted.
[[nodiscard]] std::string write_platform(const Platform& platform, FileFormat format);

}  // namespace starnet::topology

#pragma once
/// @file
/// Platforms in GraphViz DOT and GraphML files, read and written through Boost.Graph's own
/// readers and writers (boost::read_graphviz / write_graphviz_dp, boost::read_graphml /
/// write_graphml) with this attribute schema (docs/topology.md):
///
///   node  name       GraphML only: the node's name (default: its id). In DOT the node ID is
///                    the name.
///   node  role       processor | router. Required: it is what declares a node (see below).
///   node  speed      exact rational text, e.g. 3, 2/3, 0.25 (> 0; default 1).
///   node  label      permutation label of a star-graph node (default none; DOT writes "\N",
///                    Graphviz's "the node's name", for none).
///   link  cost       exact rational text (> 0; default 1): time to send one unit-size message.
///   link  dimension  integer ≥ 0 (default 0): star link k or hypercube bit + 1.
///   graph            directedness: `graph` / `digraph` in DOT, edgedefault in GraphML.
/// Other attributes are ignored. In DOT, fractions must be quoted (cost="2/3").
///
/// Declared nodes: in DOT an edge statement creates the nodes it names, so "declared" means
/// "carries a role", given in the node's own statement or by a `node [role=…]` default before
/// it; a node named only by an edge has none and is refused as undeclared. In GraphML every
/// edge end must be the id of a <node> element, and ids must be unique.
///
/// Node order: GraphML keeps the document order; Boost's DOT reader returns nodes sorted by name,
/// so a DOT round trip gives the same platform up to node order (difference() compares by name).
///
/// IMPORTANT: Boost's DOT reader merges repeated statements for one node ID (DOT semantics), so a
/// repeated DOT node is not reported; a repeated GraphML `name` or id is. Boost's DOT parser
/// reports the offending token but no line; the line given is that of the token, found by
/// re-parsing prefixes of the file.

#include <starnet/topology/platform.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace starnet::topology {

enum class FileFormat { DOT, GRAPHML };
[[nodiscard]] std::string to_string(FileFormat format);
/// "dot" or "graphml". @throws UsageError naming @p what and the text otherwise.
[[nodiscard]] FileFormat parse_file_format(std::string_view text, std::string_view what);
/// The format a path's extension names: .dot/.gv → DOT, .graphml → GraphML.
[[nodiscard]] std::optional<FileFormat> format_of_path(std::string_view path);

/// Reads a platform from the text of a file; the platform is named @p path.
/// @param path names the input in messages (`topology file "PATH" line L: …`).
/// @throws TopologyError naming the file, the line when the parser gives one, the node or link,
/// and what was expected: malformed DOT/XML, a node without role (undeclared), a duplicate name
/// or GraphML id, an edge to an undeclared GraphML id, a non-numeric or non-positive speed or
/// cost, a bad dimension, a self-loop or a link given twice. O(V log V + E) plus, for a DOT
/// syntax error, O(log L) re-parses.
[[nodiscard]] Platform parse_platform(std::string_view text, FileFormat format, std::string_view path);

/// Reads the file at @p path, in the format of its extension.
/// @throws TopologyError naming the file when it is missing, unreadable or has no known
/// extension, and as parse_platform().
[[nodiscard]] Platform read_platform_file(const std::string& path);

/// The text of @p platform in @p format: nodes in platform order, each undirected link once.
/// Reading it back gives the same platform (up to node order for DOT).
[[nodiscard]] std::string write_platform(const Platform& platform, FileFormat format);

}  // namespace starnet::topology

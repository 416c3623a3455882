#pragma once
/// @file
/// Topology specs as users write them on the command line: `star:5`, `pancake:5`, `bubblesort:5`,
/// `transposition:5`, `nkstar:7:3`, `arrangement:5:2`, `hypercube:7`, `debruijn:7`, `complete:8`,
/// `ring:8`, `torus:4x4` or `torus:4x4x4`, `mesh:4x4x2`, `mct:4:3`, `product:ring:4*star:3`,
/// `fattree:4`, `dragonfly:4:2:2`, `tiers:SEED`, or a path to a `.dot` / `.gv` / `.graphml` file or
/// a SimGrid `.xml` platform (docs/topology.md; the families in families.hpp).

#include <string>
#include <string_view>

namespace starnet::topology {

/// A spec split into family and argument ("star", "5"); for a file, family is "file".
struct Spec {
  std::string text;
  std::string family;
  std::string argument;
};

/// Splits @p text. A known family followed by ':' wins over a file extension, so that
/// `product:a.dot*b.dot` is a product; write `./ring:8.dot` for a file with such a name.
/// @throws TopologyError naming the spec when it is neither `family:argument` with a known family
/// nor a path ending in .dot, .gv, .graphml or .xml.
[[nodiscard]] Spec parse_spec(std::string_view text);

/// The n of a `star:N` spec. @throws TopologyError naming the spec when it is not a star graph
/// spec, or when N is not an integer in 1..12.
[[nodiscard]] int star_dimension(const Spec& spec);

/// Parses a whole number in [lo, hi] from a spec argument.
/// @param meaning what the number is, e.g. "dimension D of hypercube:D".
/// @param hint appended to the expectation, e.g. why @p hi is the limit; may be empty.
/// @throws TopologyError naming @p spec, the value and the range.
[[nodiscard]] long parse_spec_integer(std::string_view value, long lo, long hi, const Spec& spec,
                                      std::string_view meaning, std::string_view hint = {});

}  // namespace starnet::topology

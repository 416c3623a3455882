#include <starnet/core/error.hpp>
#include <starnet/topology/files.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <array>
#include <charconv>

namespace starnet::topology {
namespace {

constexpr std::array<std::string_view, 17> FAMILIES = {
    "star",  "pancake", "bubblesort", "transposition", "nkstar", "arrangement", "hypercube", "debruijn", "complete",
    "ring",  "torus",   "mesh",       "mct",           "product", "fattree",    "dragonfly", "tiers"};

/// A path with a graph file's extension (and more than the extension).
bool is_file_path(std::string_view text) {
  const auto dot = text.rfind('.');
  return dot != std::string_view::npos && dot > 0 && format_of_path(text).has_value();
}

}  // namespace

Spec parse_spec(std::string_view text) {
  const auto colon = text.find(':');
  const std::string_view family = text.substr(0, colon);
  for (const auto known : FAMILIES) {
    if (family == known && colon != std::string_view::npos) {
      return {std::string(text), std::string(family), std::string(text.substr(colon + 1))};
    }
  }
  if (is_file_path(text)) return {std::string(text), "file", std::string(text)};
  throw TopologyError(fmt::format(
      "topology \"{}\" is not known (expected FAMILY:ARG with FAMILY one of {} — e.g. star:5, torus:4x4 — or a "
      ".dot/.graphml file or SimGrid .xml platform)",
      text, fmt::join(FAMILIES, ", ")));
}

long parse_spec_integer(std::string_view value, long lo, long hi, const Spec& spec, std::string_view meaning,
                        std::string_view hint) {
  long v = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() || v < lo || v > hi) {
    throw TopologyError(fmt::format("topology \"{}\": {} \"{}\" is not valid (expected an integer {}..{}{}{})",
                                    spec.text, meaning, value, lo, hi, hint.empty() ? "" : "; ", hint));
  }
  return v;
}

int star_dimension(const Spec& spec) {
  if (spec.family != "star") {
    throw TopologyError(fmt::format("topology \"{}\" is not a star graph (expected star:N with N in 1..{})",
                                    spec.text, StarGraph::MAX_N));
  }
  return static_cast<int>(parse_spec_integer(spec.argument, 1, StarGraph::MAX_N, spec, "dimension N of star:N"));
}

}  // namespace starnet::topology

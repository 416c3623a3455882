#pragma once
// How the family generators check their arguments and sizes, shared by families.cpp,
// arrangement_graph.cpp and datacenter.cpp so that every family words its limits alike.
#include <starnet/topology/spec.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::topology::detail {

/// 1234567 → "1,234,567", for limits in messages.
[[nodiscard]] std::string grouped(std::uint64_t v);

/// The accepted range of one family argument, shared by make_platform() (the user's text) and
/// the family functions (their int argument), so that both report it the same way.
struct Bound {
  const char* meaning;
  long lo;
  long hi;
  const char* hint;
};

/// @p value parsed within @p b. @throws TopologyError naming @p spec_text, the meaning and the range.
[[nodiscard]] int bounded(std::string_view value, const Bound& b, std::string_view spec_text);
/// The same for an int a family function was given.
void check_bound(long value, const Bound& b, std::string_view spec_text);

/// @throws TopologyError naming @p spec_text when a platform of this size exceeds
/// MAX_PLATFORM_NODES or MAX_PLATFORM_LINKS.
void check_size(std::string_view spec_text, std::uint64_t nodes, std::uint64_t links);

/// The parts of spec.argument split at @p separator ("12:6" → {"12", "6"}).
/// @throws TopologyError naming the spec, its argument and @p form (the expected spec, with an
/// example) unless there are exactly @p count parts (at least one when @p count is 0).
[[nodiscard]] std::vector<std::string> split_argument(const Spec& spec, char separator, std::size_t count,
                                                      std::string_view form);

}  // namespace starnet::topology::detail

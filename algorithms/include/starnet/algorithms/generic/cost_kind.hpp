#pragma once
/// @file
/// What a message of a what-if study costs on a link (subnetwork.hpp, which gives each kind its
/// times): the names both faces take.

#include <cstdint>
#include <string>
#include <string_view>

namespace starnet::algorithms::generic {

enum class CostKind : std::uint8_t { UNIT, TOPOLOGY, RANDOM };
/// "unit", "topology", "random".
[[nodiscard]] std::string to_string(CostKind kind);
/// @throws UsageError naming @p what and @p text for anything but unit, topology, random.
[[nodiscard]] CostKind parse_cost_kind(std::string_view text, std::string_view what);

}  // namespace starnet::algorithms::generic

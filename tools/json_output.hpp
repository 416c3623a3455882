#pragma once
/// @file
/// Printing the JSON documents of starnet::api results (their conventions: api/json.hpp,
/// docs/json.md) on standard output.

#include <starnet/api/json.hpp>

#include <nlohmann/json.hpp>

#include <iostream>

namespace starnet::tools {

using api::put_exact;
using api::version;

/// Prints @p doc, an object, on standard output with "version" added; indented by @p indent
/// spaces, or on one line with indent < 0 (JSON lines).
template <class Json = nlohmann::json>
void print_json(Json doc, int indent = 2) {
  std::cout << api::with_version(std::move(doc)).dump(indent) << "\n";
}

}  // namespace starnet::tools

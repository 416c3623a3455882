#pragma once
/// @file
/// The conventions of every JSON document the command line prints (docs/json.md): one object with
/// "version" (the program's), counts and integers as JSON numbers, an exact rational as a number
/// when it is an integer and otherwise as a double beside its exact text in KEY_exact
/// ("ratio": 0.996, "ratio_exact": "249/250"), and one top-level "verified" wherever something is
/// checked. Templates so that documents built as nlohmann::ordered_json keep their field order.

#include <starnet/core/rational.hpp>

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdint>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>

namespace starnet::tools {

/// The version of starnet (the CMake project's), as `starnet --version` prints it.
[[nodiscard]] std::string_view version();

/// Sets j[key] to @p r as a JSON number, and j[key + "_exact"] to its text when it is not an
/// integer of 64 bits (a double cannot hold 1/3).
template <class Json>
void put_exact(Json& j, const std::string& key, const Rational& r) {
  if (r.is_integer() && r.is_small()) {
    j[key] = r.num();
  } else {
    j[key] = r.to_double();
    j[key + "_exact"] = r.to_string();
  }
}

/// The same for an exact value given as its text (a GMP rational such as "249/250" or "6") and
/// its nearest double: integers that fit in 64 bits become JSON integers.
template <class Json>
void put_exact(Json& j, const std::string& key, const std::string& exact, double approx) {
  std::int64_t integer = 0;
  const auto* end = exact.data() + exact.size();
  if (const auto [ptr, ec] = std::from_chars(exact.data(), end, integer); ec == std::errc() && ptr == end) {
    j[key] = integer;
  } else {
    j[key] = approx;
    j[key + "_exact"] = exact;
  }
}

/// Prints @p doc, an object, on standard output with "version" added; indented by @p indent
/// spaces, or on one line with indent < 0 (JSON lines).
template <class Json = nlohmann::json>
void print_json(Json doc, int indent = 2) {
  Json out = {{"version", std::string(version())}};
  for (auto& [key, value] : doc.items()) out[key] = std::move(value);
  std::cout << out.dump(indent) << "\n";
}

}  // namespace starnet::tools

#pragma once
/// @file
/// The conventions of every JSON document a result of starnet::api gives (docs/json.md): one
/// object with "version" (starnet's), counts and integers as JSON numbers, an exact rational as a
/// number when it is an integer and otherwise as a double beside its exact text in KEY_exact
/// ("ratio": 0.996, "ratio_exact": "249/250"), and one top-level "verified" wherever something is
/// checked. The command line prints these documents; the Python module turns them into results
/// whose attributes are their fields, KEY_exact read as a fractions.Fraction.
/// Templates so that documents built as nlohmann::ordered_json keep their field order.

#include <starnet/core/rational.hpp>

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace starnet::api {

/// The version of starnet (the CMake project's), as `starnet --version` and every document print.
[[nodiscard]] std::string_view version();

/// Whether put_exact() also writes KEY_exact for integers, so that a reader can tell an exact
/// rational that happens to be whole from a count (the Python module asks for this; the command
/// line's documents keep docs/json.md's form). Per thread.
[[nodiscard]] bool exact_always();
/// Sets exact_always() for this thread while it lives.
class ExactAlways {
 public:
  ExactAlways();
  ~ExactAlways();
  ExactAlways(const ExactAlways&) = delete;
  ExactAlways& operator=(const ExactAlways&) = delete;

 private:
  bool before_;
};

/// Sets j[key] to @p r as a JSON number, and j[key + "_exact"] to its text when it is not an
/// integer (a double cannot hold 1/3).
template <class Json>
void put_exact(Json& j, const std::string& key, const Rational& r) {
  if (r.is_integer() && r.is_small()) {
    j[key] = r.num();
    if (exact_always()) j[key + "_exact"] = r.to_string();
  } else {
    j[key] = r.to_double();
    j[key + "_exact"] = r.to_string();
  }
}

/// Sets j[key] to @p r as a JSON double and j[key + "_exact"] to its text, even when it is whole:
/// for a quantity that is a fraction by nature (an average), whose readers look for KEY_exact.
template <class Json>
void put_rational(Json& j, const std::string& key, const Rational& r) {
  j[key] = r.to_double();
  j[key + "_exact"] = r.to_string();
}

/// The same for an exact value given as its text (a GMP rational such as "249/250" or "6") and
/// its nearest double: integers that fit in 64 bits become JSON integers.
template <class Json>
void put_exact(Json& j, const std::string& key, const std::string& exact, double approx) {
  std::int64_t integer = 0;
  const auto* end = exact.data() + exact.size();
  if (const auto [ptr, ec] = std::from_chars(exact.data(), end, integer); ec == std::errc() && ptr == end) {
    j[key] = integer;
    if (exact_always()) j[key + "_exact"] = exact;
  } else {
    j[key] = approx;
    j[key + "_exact"] = exact;
  }
}

/// @p doc, an object, with "version" first.
template <class Json>
[[nodiscard]] Json with_version(Json doc) {
  Json out = {{"version", std::string(version())}};
  for (auto& [key, value] : doc.items()) out[key] = std::move(value);
  return out;
}

}  // namespace starnet::api

// libFuzzer harness: Rational::parse, and parse(to_string(r)) == r.
#include "fuzz_support.hpp"

#include <starnet/core/rational.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using starnet::Rational;
  return starnet::fuzz::expect_only([&] {
    const Rational r = Rational::parse(starnet::fuzz::as_text(data, size), "fuzz");
    starnet::fuzz::check_round_trip(
        "rational", r, r.to_string(), [](const std::string& text) { return Rational::parse(text, "written"); },
        [](const Rational& a, const Rational& b) -> std::optional<std::string> {
          if (a == b) return std::nullopt;
          return a.to_string() + " reads back as " + b.to_string();
        });
  });
}

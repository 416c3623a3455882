#include <starnet/api/settings.hpp>
#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include <string>

namespace starnet::api {
namespace {

std::string_view trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::string name_settings(std::string_view message, const std::function<std::string(std::string_view)>& word) {
  constexpr std::string_view OPEN = "«";
  constexpr std::string_view CLOSE = "»";
  std::string out;
  std::size_t at = 0;
  while (at < message.size()) {
    const auto open = message.find(OPEN, at);
    const auto close = open == std::string_view::npos ? open : message.find(CLOSE, open + OPEN.size());
    if (close == std::string_view::npos) break;
    out += message.substr(at, open - at);
    out += word(message.substr(open + OPEN.size(), close - open - OPEN.size()));
    at = close + CLOSE.size();
  }
  out += message.substr(at);
  return out;
}

emulator::PortModel port_model(long ports, std::string_view duplex) {
  if (ports < 1 || ports > static_cast<long>(MAX_PORTS)) {
    throw UsageError(Setting{"ports", std::to_string(ports)},
                     fmt::format("expected a number of ports in 1..{}", MAX_PORTS));
  }
  if (duplex != "full" && duplex != "half") {
    throw UsageError(Setting{"duplex", std::string(duplex)}, "expected full or half");
  }
  return {static_cast<unsigned>(ports), duplex == "half"};
}

std::string duplex_name(const emulator::PortModel& model) { return model.half_duplex ? "half" : "full"; }

std::vector<std::string> split_list(std::string_view text) { return algorithms::generic::split_list(text); }

Collective parse_collective(std::string_view text, std::string_view setting) {
  if (const auto c = algorithms::find_collective(trimmed(text))) return *c;
  throw UsageError(Setting{std::string(setting), std::string(text)},
                   fmt::format("not a collective (expected {})", algorithms::collective_choices()));
}

Op parse_op(std::string_view text, std::string_view setting) {
  for (const Op op : {Op::SUM, Op::MIN, Op::MAX, Op::XOR}) {
    if (trimmed(text) == algorithms::star::to_string(op)) return op;
  }
  static_assert(OP_NAMES.size() == 4, "one name an operator");
  throw UsageError(Setting{std::string(setting), std::string(text)}, "not an operator (expected sum, min, max or xor)");
}

ValuesKind parse_values(std::string_view text) {
  if (text == "index" || text == "rank") return ValuesKind::INDEX;
  if (text == "random") return ValuesKind::RANDOM;
  throw UsageError(Setting{"values", std::string(text)},
                   "not known (expected index — item i holds i + 1; rank is the same — or random)");
}

std::string to_string(ValuesKind kind) { return kind == ValuesKind::RANDOM ? "random" : "index"; }

algorithms::star::Values make_values(ValuesKind kind, std::uint64_t seed) { return {kind == ValuesKind::RANDOM, seed}; }

algorithms::star::Values make_values(const NodeValues& values) { return make_values(values.kind, values.seed); }

namespace {

/// Largest magnitude of a decimal exponent: 10^18 is the largest power of ten of 64 bits.
constexpr long MAX_EXPONENT = 18;

/// A decimal with an exponent, "1e-6" or "2.5E9", exactly: the mantissa as Rational::parse reads
/// it, times 10^exponent.
/// @throws UsageError about Setting{setting, text} for an exponent beyond ±MAX_EXPONENT;
/// InputError for text that is no such number.
Rational parse_scientific(std::string_view text, std::string_view setting) {
  const auto e = text.find_first_of("eE");
  if (e == std::string_view::npos) return Rational::parse(text, setting);
  const auto mantissa = Rational::parse(text.substr(0, e), setting);
  const auto exponent_text = text.substr(e + 1);
  long exponent = 0;
  const auto* begin = exponent_text.data() + (exponent_text.starts_with('+') ? 1 : 0);
  const auto [end, ec] = std::from_chars(begin, exponent_text.data() + exponent_text.size(), exponent);
  if (ec == std::errc::result_out_of_range || (ec == std::errc() && (exponent > MAX_EXPONENT || exponent < -MAX_EXPONENT))) {
    throw UsageError(Setting{std::string(setting), std::string(text)},
                     fmt::format("exponent {} outside -{}..{} (expected a decimal such as 1e-6 with its exponent in "
                                 "that range, or a fraction such as 1/1000000)",
                                 exponent_text, MAX_EXPONENT, MAX_EXPONENT));
  }
  if (ec != std::errc() || end != exponent_text.data() + exponent_text.size() || begin == end) {
    throw InputError(fmt::format("{}: \"{}\" has no integer exponent after its 'e'", setting, text));
  }
  std::int64_t power = 1;
  for (long i = 0; i < (exponent < 0 ? -exponent : exponent); ++i) power *= 10;
  return exponent < 0 ? mantissa / Rational(power) : mantissa * Rational(power);
}

}  // namespace

RunCosts parse_run_costs(std::string_view text) {
  if (text == "unit") return RunCosts::UNIT;
  if (text == "topology") return RunCosts::TOPOLOGY;
  throw UsageError(Setting{"costs", std::string(text)},
                   "expected unit (one step per transfer) or topology (timed: the links' α–β costs)");
}

emulator::Checking parse_checking(std::string_view text, std::string_view setting) {
  if (text == "strict") return emulator::Checking::STRICT;
  if (text == "arbitrated") return emulator::Checking::ARBITRATED;
  throw UsageError(Setting{std::string(setting), std::string(text)}, "expected strict or arbitrated");
}

void check_seconds(std::optional<double> seconds, std::string_view setting) {
  if (seconds && !(std::isfinite(*seconds) && *seconds >= 0)) {
    throw UsageError(Setting{std::string(setting), fmt::format("{}", *seconds)}, "expected a finite number ≥ 0 (0: no limit)");
  }
}

Rational parse_number(std::string_view text, std::string_view setting, Rational at_least, bool strictly) {
  Rational value;
  try {
    value = parse_scientific(trimmed(text), setting);
  } catch (const OverflowError&) {
    throw;
  } catch (const UsageError&) {
    throw;  // it says what is wrong already
  } catch (const InputError& e) {
    const bool zero = std::string_view(e.what()).find("zero denominator") != std::string_view::npos;
    throw UsageError(Setting{std::string(setting), std::string(text)},
                     zero ? "has a zero denominator (expected a fraction such as 2/3)"
                          : "not a number (expected an integer, a fraction such as 2/3, or a decimal such as 0.25 "
                            "or 1e-6)");
  }
  if (strictly ? !(value > at_least) : !(value >= at_least)) {
    throw UsageError(Setting{std::string(setting), std::string(text)},
                     fmt::format("expected a number {} {}", strictly ? ">" : "≥", at_least.to_string()));
  }
  return value;
}

}  // namespace starnet::api

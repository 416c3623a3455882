// Transit laws and faults of asynchronous runs as the faces spell them (api/delays.hpp).
#include <starnet/api/delays.hpp>

#include <starnet/algorithms/stochastic/cost_distribution.hpp>
#include <starnet/algorithms/stochastic/random_stream.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/rational_gmp.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace starnet::api {
namespace {

namespace stochastic = algorithms::stochastic;

constexpr std::string_view DELAYS = "delays";
constexpr std::string_view LAWS_EXPECTED =
    "expected constant:D, uniform:LO:HI, exponential:MEAN, or LAW:MEAN:CV with LAW one of the Monte-Carlo laws "
    "(bernoulli, beta0.01, beta1, beta100, binomial, exponential, gamma, poisson, triangle)";

/// Splits @p text at each @p separator.
std::vector<std::string_view> fields_of(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const auto end = text.find(separator, start);
    out.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

/// The exact number @p field (≥ 0) of @p item, an item of setting @p setting: an error names the
/// setting and the whole item.
Rational number_in(std::string_view field, std::string_view setting, std::string_view item) {
  try {
    return parse_number(field, setting);
  } catch (const UsageError& e) {
    throw UsageError(Setting{std::string(setting), std::string(item)}, e.reason());
  }
}

/// A number of a law, ≥ 0, as a double.
double law_number(std::string_view field, std::string_view law) { return number_in(field, DELAYS, law).to_double(); }

/// Every message the same exact time.
class ConstantDelay final : public emulator::DelayLaw {
 public:
  explicit ConstantDelay(Rational d) : d_(std::move(d)) {}
  [[nodiscard]] Rational delay(const emulator::Transit&) const override { return d_; }

 private:
  Rational d_;
};

/// Uniform on [lo, hi].
class UniformDelay final : public emulator::DelayLaw {
 public:
  UniformDelay(double lo, double hi) : lo_(lo), width_(hi - lo) {}
  [[nodiscard]] Rational delay(const emulator::Transit& m) const override {
    stochastic::RandomStream stream(m.key, 0);
    return to_rational(mpq_class(lo_ + width_ * stream.next_uniform()));
  }

 private:
  double lo_;
  double width_;
};

/// A Monte-Carlo study's law (cost_distribution.hpp) with its mean and CV.
class TableDelay final : public emulator::DelayLaw {
 public:
  explicit TableDelay(stochastic::CostDistribution law) : law_(std::move(law)) {}
  [[nodiscard]] Rational delay(const emulator::Transit& m) const override {
    stochastic::RandomStream stream(m.key, 0);
    return to_rational(mpq_class(law_(stream)));
  }

 private:
  stochastic::CostDistribution law_;
};

[[noreturn]] void refuse(std::string_view text, std::string_view why) {
  throw UsageError(Setting{std::string(DELAYS), std::string(text)}, std::string(why));
}

}  // namespace

std::shared_ptr<const emulator::DelayLaw> parse_delay_law(std::string_view text) {
  const auto f = fields_of(text, ':');
  const auto name = f.front();
  if (name == "constant" && f.size() == 2) {
    return std::make_shared<ConstantDelay>(number_in(f[1], DELAYS, text));
  }
  if (name == "uniform" && f.size() == 3) {
    const double lo = law_number(f[1], text);
    const double hi = law_number(f[2], text);
    if (hi < lo) refuse(text, fmt::format("expected LO <= HI, got {} > {}", f[1], f[2]));
    return std::make_shared<UniformDelay>(lo, hi);
  }
  if (name == "exponential" && f.size() == 2) {
    return std::make_shared<TableDelay>(
        stochastic::CostDistribution(stochastic::DistributionKind::EXPONENTIAL, law_number(f[1], text), 1.0));
  }
  if (f.size() == 3 && name != "uniform" && name != "constant") {
    stochastic::DistributionKind kind{};
    try {
      kind = stochastic::parse_distribution(name);
    } catch (const InputError&) {
      refuse(text, LAWS_EXPECTED);
    }
    try {
      return std::make_shared<TableDelay>(stochastic::CostDistribution(kind, law_number(f[1], text), law_number(f[2], text)));
    } catch (const UsageError&) {
      throw;
    } catch (const InputError& e) {
      refuse(text, e.what());  // a CV outside the law's range
    }
  }
  refuse(text, LAWS_EXPECTED);
}

emulator::Crash parse_crash(std::string_view item) {
  const auto f = fields_of(item, '@');
  if (f.size() != 2) throw UsageError(Setting{"crash", std::string(item)}, "expected NODE@TIME (a node id, an exact time)");
  const auto node = number_in(f[0], "crash", item);
  if (!node.is_integer() || !node.is_small()) throw UsageError(Setting{"crash", std::string(item)}, "expected a node id before @");
  return {static_cast<emulator::NodeId>(node.num()), number_in(f[1], "crash", item)};
}

emulator::LinkFailure parse_link_failure(std::string_view item) {
  const auto at = fields_of(item, '@');
  const auto ends = fields_of(at.front(), '-');
  if (at.size() > 2 || ends.size() != 2) {
    throw UsageError(Setting{"fail_links", std::string(item)}, "expected A-B or A-B@TIME (node ids, an exact time)");
  }
  const auto a = number_in(ends[0], "fail_links", item);
  const auto b = number_in(ends[1], "fail_links", item);
  if (!a.is_integer() || !b.is_integer() || !a.is_small() || !b.is_small()) {
    throw UsageError(Setting{"fail_links", std::string(item)}, "expected node ids at the link's ends");
  }
  return {static_cast<emulator::NodeId>(a.num()), static_cast<emulator::NodeId>(b.num()),
          at.size() == 2 ? number_in(at[1], "fail_links", item) : Rational(0)};
}

}  // namespace starnet::api

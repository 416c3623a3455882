// The cost laws of Table II (Benoit, Canon, Marchal 2014) and the samplers under them; the
// parameterisations are derived in docs/stochastic.md.
#include <starnet/algorithms/stochastic/cost_distribution.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace starnet::algorithms::stochastic {
namespace {

constexpr int BINOMIAL_TRIALS = 100;
constexpr double INF = std::numeric_limits<double>::infinity();

// 256-layer ziggurats (Marsaglia and Tsang, J. Stat. Softw. 5(8), 2000) for a decreasing
// density f on [0, ∞): layer i covers [0, x[i]] × [f(x[i]), f(x[i+1])] and all layers have area
// v; layer 0 is the rectangle [0, r] × [0, f(r)] plus the tail beyond r, seen as a rectangle of
// width v/f(r). v is computed from r (base rectangle plus tail), so that the layers close at 0.
struct Ziggurat {
  std::array<double, 257> x{};
  std::array<double, 257> f{};
  Ziggurat(double r, double v, double (*density)(double), double (*inverse)(double)) {
    x[0] = v / density(r);
    x[1] = r;
    for (std::size_t i = 1; i < 255; ++i) x[i + 1] = inverse(v / x[i] + density(x[i]));
    x[256] = 0;
    for (std::size_t i = 0; i < 257; ++i) f[i] = density(x[i]);
  }
};

constexpr double NORMAL_R = 3.6541528853610088;
constexpr double EXPONENTIAL_R = 7.69711747013104972;

double normal_density(double t) { return std::exp(-0.5 * t * t); }
double normal_inverse(double y) { return std::sqrt(-2 * std::log(y)); }
double exponential_density(double t) { return std::exp(-t); }
double exponential_inverse(double y) { return -std::log(y); }

const Ziggurat& normal_ziggurat() {
  static const Ziggurat table(NORMAL_R,
                              NORMAL_R * normal_density(NORMAL_R) +
                                  std::sqrt(std::numbers::pi / 2) * std::erfc(NORMAL_R / std::numbers::sqrt2),
                              normal_density, normal_inverse);
  return table;
}

const Ziggurat& exponential_ziggurat() {
  static const Ziggurat table(EXPONENTIAL_R, (EXPONENTIAL_R + 1) * exponential_density(EXPONENTIAL_R),
                              exponential_density, exponential_inverse);
  return table;
}

// A uniform in (0, 1) from the top 53 bits of @p bits (the low bits choose the layer).
double top_bits_uniform(std::uint64_t bits) { return (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53; }

std::string_view range_reason(DistributionKind kind) {
  switch (kind) {
    case DistributionKind::BETA_0_01:
    case DistributionKind::BETA_1:
    case DistributionKind::BETA_100:
      return "beyond it M = (1+CV²)/(1−α·CV²) does not exist";
    case DistributionKind::EXPONENTIAL:
      return "beyond it the minimum m = 1 − CV is negative";
    case DistributionKind::POISSON:
      return "beyond it the shift m = 1 − CV² is negative";
    case DistributionKind::TRIANGLE:
      return "beyond it the minimum 1 − √6·CV is negative";
    case DistributionKind::UNIFORM:
      return "beyond it the minimum 1 − √3·CV is negative";
    default:
      return "CV and CV² must be finite";
  }
}

double beta_alpha(DistributionKind kind) {
  switch (kind) {
    case DistributionKind::BETA_0_01: return 0.01;
    case DistributionKind::BETA_1: return 1;
    default: return 100;
  }
}

}  // namespace

std::string_view to_string(DistributionKind kind) {
  switch (kind) {
    case DistributionKind::BERNOULLI: return "bernoulli";
    case DistributionKind::BETA_0_01: return "beta0.01";
    case DistributionKind::BETA_1: return "beta1";
    case DistributionKind::BETA_100: return "beta100";
    case DistributionKind::BINOMIAL: return "binomial";
    case DistributionKind::EXPONENTIAL: return "exponential";
    case DistributionKind::GAMMA: return "gamma";
    case DistributionKind::POISSON: return "poisson";
    case DistributionKind::TRIANGLE: return "triangle";
    case DistributionKind::UNIFORM: return "uniform";
  }
  return "?";
}

DistributionKind parse_distribution(std::string_view name) {
  std::string names;
  for (const auto kind : ALL_DISTRIBUTIONS) {
    if (to_string(kind) == name) return kind;
    names += (names.empty() ? "" : ", ") + std::string(to_string(kind));
  }
  throw InputError(fmt::format("unknown distribution \"{}\" (expected one of {})", name, names));
}

bool CvRange::contains(double cv) const { return cv >= 0 && (cv < max || (max_included && cv == max)); }

std::string CvRange::to_string() const {
  if (std::isinf(max)) return "[0, ∞)";
  return fmt::format("[0, {:.6g}{}", max, max_included ? "]" : ")");
}

CvRange cv_range(DistributionKind kind) {
  switch (kind) {
    case DistributionKind::BETA_0_01:
    case DistributionKind::BETA_1:
    case DistributionKind::BETA_100:
      return {1 / std::sqrt(beta_alpha(kind)), false};
    case DistributionKind::EXPONENTIAL:
    case DistributionKind::POISSON:
      return {1, true};
    case DistributionKind::TRIANGLE: return {1 / std::sqrt(6.0), true};
    case DistributionKind::UNIFORM: return {1 / std::sqrt(3.0), true};
    default: return {INF, false};
  }
}

double standard_normal(RandomStream& stream) {
  const Ziggurat& z = normal_ziggurat();
  for (;;) {
    const std::uint64_t bits = stream.next_u64();
    const std::size_t i = bits & 0xFFU;
    const double u = 2 * top_bits_uniform(bits) - 1;
    const double x = u * z.x[i];
    if (std::abs(x) < z.x[i + 1]) return x;  // inside the layer's rectangle under the curve
    if (i == 0) {
      // Marsaglia (1964): the tail beyond r, by rejection from an exponential.
      double t = 0;
      double y = 0;
      do {
        t = standard_exponential(stream) / NORMAL_R;
        y = standard_exponential(stream);
      } while (2 * y < t * t);
      return u < 0 ? -(NORMAL_R + t) : NORMAL_R + t;
    }
    if (z.f[i] + (z.f[i + 1] - z.f[i]) * stream.next_uniform() < normal_density(x)) return x;
  }
}

double standard_exponential(RandomStream& stream) {
  const Ziggurat& z = exponential_ziggurat();
  double shift = 0;  // the tail beyond r is r + Exp(1): memorylessness
  for (;;) {
    const std::uint64_t bits = stream.next_u64();
    const std::size_t i = bits & 0xFFU;
    const double x = top_bits_uniform(bits) * z.x[i];
    if (x < z.x[i + 1]) return shift + x;
    if (i == 0) {
      shift += EXPONENTIAL_R;
      continue;
    }
    if (z.f[i] + (z.f[i + 1] - z.f[i]) * stream.next_uniform() < exponential_density(x)) return shift + x;
  }
}

GammaSampler::GammaSampler(double shape)
    : shape_(shape),
      boosted_(shape < 1),
      d_((shape < 1 ? shape + 1 : shape) - 1.0 / 3),
      c_(1 / std::sqrt(9 * d_)),
      inverse_shape_(1 / shape) {
  if (!(shape > 0 && shape < INF)) throw InputError(fmt::format("gamma shape {} (must be > 0 and finite)", shape));
}

double GammaSampler::marsaglia_tsang(RandomStream& stream) const {
  for (;;) {
    const double x = standard_normal(stream);
    double v = 1 + c_ * x;
    if (v <= 0) continue;
    v = v * v * v;
    const double u = stream.next_uniform();
    const double x2 = x * x;
    if (u < 1 - 0.0331 * x2 * x2) return d_ * v;  // squeeze: accepts ~98% without a log
    if (std::log(u) < 0.5 * x2 + d_ * (1 - v + std::log(v))) return d_ * v;
  }
}

double GammaSampler::operator()(RandomStream& stream) const {
  const double g = marsaglia_tsang(stream);
  return boosted_ ? g * std::exp(-standard_exponential(stream) * inverse_shape_) : g;  // U^(1/k) = e^(−E/k)
}

CostDistribution::CostDistribution(DistributionKind kind, double mean, double cv)
    : kind_(kind), mean_(mean), cv_(cv) {
  if (!(mean >= 0 && mean < INF)) {
    throw InputError(fmt::format("distribution {}: mean {} is invalid (must be finite and >= 0)", to_string(kind), mean));
  }
  const CvRange range = cv_range(kind);
  const double cv2 = cv * cv;
  if (!range.contains(cv) || !(cv2 < INF)) {
    throw InputError(fmt::format("distribution {}: CV {} is outside its range {} ({})", to_string(kind), cv,
                                 range.to_string(), range_reason(kind)));
  }
  // Below the smallest normal double, CV² would make 1/CV² or 1/β infinite; σ/μ < 1.5e-154 anyway.
  constant_ = mean == 0 || cv2 < std::numeric_limits<double>::min();
  offset_ = mean;
  if (constant_) return;
  offset_ = 0;
  switch (kind) {
    case DistributionKind::BERNOULLI: {
      const double m = 1 + cv2;
      scale_ = mean * m;
      parameter_ = 1 / m;
      break;
    }
    case DistributionKind::BETA_0_01:
    case DistributionKind::BETA_1:
    case DistributionKind::BETA_100: {
      const double alpha = beta_alpha(kind);
      const double denominator = 1 - alpha * cv2;
      scale_ = mean * (1 + cv2) / denominator;
      const double beta = alpha * cv2 * (1 + alpha) / denominator;  // α(M − 1), without cancellation
      beta_alpha_ = alpha;
      beta_beta_ = beta;
      if (alpha == 1) {
        beta_method_ = BetaMethod::INVERSION;
      } else if (alpha < 1 && beta < 1) {
        beta_method_ = BetaMethod::JOHNK;  // G_α and G_β could both underflow to 0
      } else {
        first_ = GammaSampler(alpha);
        second_ = GammaSampler(beta);
      }
      break;
    }
    case DistributionKind::BINOMIAL: {
      const double spread = BINOMIAL_TRIALS * cv2;
      const double p = 1 / (1 + spread);
      const double q = spread / (1 + spread);  // 1 − p, without cancellation for small CV
      scale_ = mean * (1 + spread) / BINOMIAL_TRIALS;  // μ/(100p)
      // Probabilities relative to the mode (no underflow of (1−p)^100), then Vose's alias table.
      std::array<double, BINOMIAL_TRIALS + 1> w{};
      const int mode = std::min(BINOMIAL_TRIALS, static_cast<int>(std::floor((BINOMIAL_TRIALS + 1) * p)));
      w[static_cast<std::size_t>(mode)] = 1;
      for (int k = mode; k < BINOMIAL_TRIALS; ++k) {
        w[static_cast<std::size_t>(k + 1)] = w[static_cast<std::size_t>(k)] * (BINOMIAL_TRIALS - k) / (k + 1) * (p / q);
      }
      for (int k = mode; k > 0; --k) {
        w[static_cast<std::size_t>(k - 1)] = w[static_cast<std::size_t>(k)] * k / (BINOMIAL_TRIALS - k + 1) * (q / p);
      }
      double total = 0;
      for (const double x : w) total += x;
      constexpr std::size_t K = BINOMIAL_TRIALS + 1;
      alias_probability_.assign(K, 1.0);
      alias_.resize(K);
      std::vector<std::size_t> small;
      std::vector<std::size_t> large;
      for (std::size_t k = 0; k < K; ++k) {
        alias_[k] = static_cast<std::uint8_t>(k);
        alias_probability_[k] = w[k] / total * K;
        (alias_probability_[k] < 1 ? small : large).push_back(k);
      }
      while (!small.empty() && !large.empty()) {
        const std::size_t s = small.back();
        small.pop_back();
        const std::size_t l = large.back();
        alias_[s] = static_cast<std::uint8_t>(l);
        alias_probability_[l] -= 1 - alias_probability_[s];
        if (alias_probability_[l] < 1) {
          large.pop_back();
          small.push_back(l);
        }
      }
      // Leftovers differ from 1 by rounding only: they always keep their own outcome.
      for (const std::size_t k : small) alias_probability_[k] = 1;
      for (const std::size_t k : large) alias_probability_[k] = 1;
      break;
    }
    case DistributionKind::EXPONENTIAL:
      offset_ = mean * std::max(0.0, 1 - cv);
      scale_ = mean * cv;
      break;
    case DistributionKind::GAMMA:
      first_ = GammaSampler(1 / cv2);
      scale_ = mean * cv2;
      break;
    case DistributionKind::POISSON:
      offset_ = mean * std::max(0.0, 1 - cv2);
      scale_ = mean;
      poisson_lambda_ = cv2;
      parameter_ = std::exp(-cv2);
      break;
    case DistributionKind::TRIANGLE:
      offset_ = mean * std::max(0.0, 1 - std::sqrt(6.0) * cv);
      scale_ = mean * std::sqrt(6.0) * cv;  // times U1 + U2, which is triangular on (0, 2)
      break;
    case DistributionKind::UNIFORM:
      offset_ = mean * std::max(0.0, 1 - std::sqrt(3.0) * cv);
      scale_ = 2 * mean * std::sqrt(3.0) * cv;
      break;
  }
}

double CostDistribution::operator()(RandomStream& stream) const {
  if (constant_) return offset_;
  switch (kind_) {
    case DistributionKind::BERNOULLI: return stream.next_uniform() < parameter_ ? scale_ : 0.0;
    case DistributionKind::BETA_0_01:
    case DistributionKind::BETA_1:
    case DistributionKind::BETA_100: {
      switch (beta_method_) {
        case BetaMethod::INVERSION:  // Beta(1, β): 1 − U^(1/β) = −expm1(−E/β)
          return -scale_ * std::expm1(-standard_exponential(stream) / beta_beta_);
        case BetaMethod::JOHNK:
          // X = U^(1/α), Y = V^(1/β) conditioned on X + Y ≤ 1 gives X/(X+Y) ~ Beta(α, β); accepted
          // with probability Γ(α+1)Γ(β+1)/Γ(α+β+1) ≥ 1/2. Underflow of X or Y to 0 only makes
          // the test X + Y ≤ 1 true where it is true; the ratio is taken from the logarithms.
          for (;;) {
            const double log_x = -standard_exponential(stream) / beta_alpha_;
            const double log_y = -standard_exponential(stream) / beta_beta_;
            if (std::exp(log_x) + std::exp(log_y) <= 1) return scale_ / (1 + std::exp(log_y - log_x));
          }
        case BetaMethod::GAMMA_RATIO: {
          const double a = first_(stream);
          const double b = second_(stream);  // one shape ≥ 1: its sample is > 0, no 0/0
          return scale_ * (a / (a + b));
        }
      }
      return scale_;
    }
    case DistributionKind::BINOMIAL: {
      const double x = stream.next_uniform() * static_cast<double>(alias_.size());
      const std::size_t k = std::min(static_cast<std::size_t>(x), alias_.size() - 1);
      const double outcome = x - static_cast<double>(k) < alias_probability_[k] ? static_cast<double>(k) : alias_[k];
      return scale_ * outcome;
    }
    case DistributionKind::EXPONENTIAL: return offset_ + scale_ * standard_exponential(stream);
    case DistributionKind::GAMMA: return scale_ * first_(stream);
    case DistributionKind::POISSON: {
      // Inversion from 0: λ ≤ 1, so at most 1 + λ steps on average.
      const double u = stream.next_uniform();
      double k = 0;
      double p = parameter_;
      double cdf = p;
      while (u > cdf && p > 0) {
        k += 1;
        p *= poisson_lambda_ / k;
        cdf += p;
      }
      return offset_ + scale_ * k;
    }
    case DistributionKind::TRIANGLE: return offset_ + scale_ * (stream.next_uniform() + stream.next_uniform());
    case DistributionKind::UNIFORM: return offset_ + scale_ * stream.next_uniform();
  }
  return offset_;
}

}  // namespace starnet::algorithms::stochastic

// `starnet markov`: exact expectation and variance of Tree-dyn's completion time with
// exponential transfer times and free computation (HeteroPar 2013, Section 3).
#include "command.hpp"
#include "json_output.hpp"

#include <starnet/algorithms/stochastic/tree_dyn_markov.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/rational_gmp.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <iostream>
#include <string>

namespace starnet::tools {
namespace {

// Beyond this the exact fractions have tens of thousands of digits and the solve takes minutes.
constexpr std::int64_t MAX_PROCESSORS = 20000;

}  // namespace

void add_markov_command(CLI::App& app, Action& action) {
  auto* markov = app.add_subcommand(
      "markov",
      "Exact E[T] and Var[T] of Tree-dyn's completion time T when every transfer time is exponential\n"
      "(rate L, mean 1/L) and computations are free: first-step analysis of the Markov chain whose\n"
      "states are (transfers in progress, processor waiting in the slot) (Benoit, Canon, Marchal,\n"
      "HeteroPar 2013, Section 3). Results are exact fractions, checked against the closed form\n"
      "E[T] = (2H(k) - [n even]/k)/L, Var[T] = (2H2(k) - [n even]/k^2)/L^2 with k = floor(n/2).\n"
      "(The paper prints (2H(n/2) + 2/n)/L for even n: a sign typo; see docs/stochastic.md.)\n"
      "Exit codes: 0 success, 1 the check failed, 2 bad input.");
  static std::int64_t n = 0;
  static std::string rate_text = "1";
  static bool json = false;
  markov->add_option("--n", n, fmt::format("Number of processors, 1..{}", MAX_PROCESSORS))
      ->required()
      ->check(integer_in(1, MAX_PROCESSORS));
  markov->add_option("--rate", rate_text, "Transfer rate L > 0: an integer, fraction (2/3) or decimal (0.5); default 1");
  markov->add_flag("--json", json, "Print one JSON document: n, rate, states, expected, variance (numbers, with\n"
                                   "rate_exact, expected_exact, variance_exact fractions when not integers), verified "
                                   "(docs/json.md)");
  markov->callback([&action] {
    action = [] {
      if (n < 1 || n > MAX_PROCESSORS) {
        throw UsageError(fmt::format("--n {}: the number of processors must be in 1..{}", n, MAX_PROCESSORS));
      }
      const Rational rate = Rational::parse(rate_text, "--rate");
      if (rate <= 0) throw UsageError(fmt::format("--rate {}: the transfer rate must be > 0", rate_text));
      const mpq_class exact_rate = to_mpq(rate);

      using algorithms::stochastic::TreeDynMarkovChain;
      TreeDynMarkovChain chain(n);
      chain.transfer_rate(exact_rate).run();
      const auto closed = algorithms::stochastic::tree_dyn_closed_form(n, exact_rate);
      const bool verified = closed.expected == chain.expected() && closed.variance == chain.variance();

      if (json) {
        nlohmann::json out = {{"n", n}, {"states", chain.states().size()}, {"verified", verified}};
        put_exact(out, "rate", exact_rate.get_str(), exact_rate.get_d());
        put_exact(out, "expected", chain.expected().get_str(), chain.expected().get_d());
        put_exact(out, "variance", chain.variance().get_str(), chain.variance().get_d());
        print_json(std::move(out));
      } else {
        fmt::print("Tree-dyn, n = {}, transfer times Exp(rate {}), free computation: {} states\n", n,
                   exact_rate.get_str(), chain.states().size());
        fmt::print("E[T]   = {} ≈ {:.10g}\n", chain.expected().get_str(), chain.expected().get_d());
        fmt::print("Var[T] = {} ≈ {:.10g}\n", chain.variance().get_str(), chain.variance().get_d());
      }
      if (!verified) {
        fmt::print(stderr, "starnet markov: the chain disagrees with the closed form (closed form E = {}, Var = {})\n",
                   closed.expected.get_str(), closed.variance.get_str());
        return 1;
      }
      return 0;
    };
  });
}

}  // namespace starnet::tools

// `starnet markov`: exact expectation and variance of Tree-dyn's completion time with
// exponential transfer times and free computation (HeteroPar 2013, Section 3).
#include "command.hpp"
#include "json_output.hpp"

#include <starnet/api/markov.hpp>
#include <starnet/api/core.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <iostream>
#include <string>

namespace starnet::tools {

void declare_markov_command(CLI::App& markov, Action& action) {
  static std::int64_t n = 0;
  static std::string rate_text = "1";
  static bool json = false;
  markov.add_option("--n", n, fmt::format("Number of processors, 1..{}", api::MAX_MARKOV_PROCESSORS))
      ->required()
      ->check(integer_in(1, api::MAX_MARKOV_PROCESSORS));
  markov.add_option("--rate", rate_text, "Transfer rate L > 0: an integer, fraction (2/3) or decimal (0.5); default 1");
  markov.add_flag("--json", json, "Print one JSON document: n, rate, states, expected, variance (numbers, with\n"
                                   "rate_exact, expected_exact, variance_exact fractions when not integers), verified "
                                   "(docs/json.md)");
  markov.callback([&action] {
    action = [] {
      const auto r = api::tree_dyn_markov(n, rate_text);
      if (json) {
        print_json(r.to_json());
      } else {
        fmt::print("Tree-dyn, n = {}, transfer times Exp(rate {}), free computation: {}\n", n, r.rate.get_str(),
                   plural(r.states, "state", "states"));
        fmt::print("E[T]   = {} ≈ {:.10g}\n", r.expected.get_str(), r.expected.get_d());
        fmt::print("Var[T] = {} ≈ {:.10g}\n", r.variance.get_str(), r.variance.get_d());
      }
      if (!r.verified) {
        fmt::print(stderr, "starnet markov: the chain disagrees with the closed form (closed form E = {}, Var = {})\n",
                   r.closed_expected.get_str(), r.closed_variance.get_str());
        return 1;
      }
      return 0;
    };
  });
}

}  // namespace starnet::tools

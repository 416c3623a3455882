#include <starnet/api/markov.hpp>
#include <starnet/api/json.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/algorithms/stochastic/tree_dyn_markov.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/core/rational_gmp.hpp>

#include <fmt/format.h>

namespace starnet::api {

MarkovResult tree_dyn_markov(std::int64_t n, const std::string& rate_text) {
  const StopScope scope;
  if (n < 1 || n > MAX_MARKOV_PROCESSORS) {
    throw UsageError(Setting{"n", std::to_string(n)},
                     fmt::format("the number of processors must be in 1..{}", MAX_MARKOV_PROCESSORS));
  }
  const Rational rate = parse_number(rate_text, "rate", 0, /*strictly=*/true);
  MarkovResult out;
  out.n = n;
  out.rate = to_mpq(rate);
  algorithms::stochastic::TreeDynMarkovChain chain(n);
  chain.transfer_rate(out.rate).run();
  const auto closed = algorithms::stochastic::tree_dyn_closed_form(n, out.rate);
  out.states = chain.states().size();
  out.expected = chain.expected();
  out.variance = chain.variance();
  out.closed_expected = closed.expected;
  out.closed_variance = closed.variance;
  out.verified = closed.expected == chain.expected() && closed.variance == chain.variance();
  return out;
}

nlohmann::json MarkovResult::to_json() const {
  nlohmann::json out = {{"n", n}, {"states", states}, {"verified", verified}};
  put_exact(out, "rate", rate.get_str(), rate.get_d());
  put_exact(out, "expected", expected.get_str(), expected.get_d());
  put_exact(out, "variance", variance.get_str(), variance.get_d());
  return out;
}

}  // namespace starnet::api

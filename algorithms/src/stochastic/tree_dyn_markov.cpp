#include <starnet/algorithms/stochastic/tree_dyn_markov.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <map>
#include <utility>

namespace starnet::algorithms::stochastic {

FirstStepAnalysis::FirstStepAnalysis(std::size_t num_states) : out_(num_states) {}

FirstStepAnalysis& FirstStepAnalysis::add_transition(std::size_t from, std::size_t to, const mpq_class& rate) {
  if (from >= out_.size() || to >= out_.size() || from == to) {
    throw InputError(fmt::format("Markov chain transition {} -> {}: states must differ and be below {}", from, to,
                                 out_.size()));
  }
  if (sgn(rate) <= 0) {
    throw InputError(fmt::format("Markov chain transition {} -> {}: rate {} (must be > 0)", from, to, rate.get_str()));
  }
  out_[from].push_back({to, rate});
  return *this;
}

FirstStepAnalysis::Status FirstStepAnalysis::run() {
  const std::size_t n = out_.size();
  expected_.assign(n, mpq_class(0));
  second_moment_.assign(n, mpq_class(0));
  // Iterative depth-first search; a state is evaluated once all its successors are.
  enum class Mark : unsigned char { NEW, OPEN, DONE };
  std::vector<Mark> mark(n, Mark::NEW);
  std::vector<std::pair<std::size_t, std::size_t>> stack;  // (state, next arc to explore)
  for (std::size_t root = 0; root < n; ++root) {
    if (mark[root] != Mark::NEW) continue;
    stack.emplace_back(root, 0);
    mark[root] = Mark::OPEN;
    while (!stack.empty()) {
      auto& [s, next] = stack.back();
      if (next < out_[s].size()) {
        const std::size_t t = out_[s][next++].to;
        if (mark[t] == Mark::OPEN) return Status::CYCLIC;
        if (mark[t] == Mark::NEW) {
          mark[t] = Mark::OPEN;
          stack.emplace_back(t, 0);
        }
        continue;
      }
      if (!out_[s].empty()) {
        mpq_class total_rate = 0;
        mpq_class first = 1;
        mpq_class second = 0;
        for (const Arc& arc : out_[s]) {
          total_rate += arc.rate;
          first += arc.rate * expected_[arc.to];
          second += arc.rate * second_moment_[arc.to];
        }
        expected_[s] = first / total_rate;
        second_moment_[s] = (2 * expected_[s] + second) / total_rate;
      }
      mark[s] = Mark::DONE;
      stack.pop_back();
    }
  }
  return Status::SOLVED;
}

mpq_class FirstStepAnalysis::variance(std::size_t s) const {
  return mpq_class(second_moment(s) - expected(s) * expected(s));
}

std::string_view to_string(FirstStepAnalysis::Status status) {
  return status == FirstStepAnalysis::Status::SOLVED ? "SOLVED" : "CYCLIC";
}

namespace {

void check_processors(std::int64_t n) {
  if (n < 1) throw InputError(fmt::format("Tree-dyn Markov chain: n = {} processors (must be >= 1)", n));
}

void check_rate(const mpq_class& rate) {
  if (sgn(rate) <= 0) {
    throw InputError(fmt::format("Tree-dyn Markov chain: transfer rate {} (must be > 0)", rate.get_str()));
  }
}

}  // namespace

TreeDynMarkovChain::TreeDynMarkovChain(std::int64_t n) : n_(n) { check_processors(n); }

TreeDynMarkovChain& TreeDynMarkovChain::transfer_rate(const mpq_class& rate) {
  check_rate(rate);
  rate_ = rate;
  return *this;
}

TreeDynMarkovChain& TreeDynMarkovChain::run() {
  states_.clear();
  transitions_.clear();
  std::map<std::pair<std::int64_t, bool>, std::size_t> index;
  const auto state_index = [&](std::int64_t transfers, bool slot_full) {
    const auto [it, inserted] = index.try_emplace({transfers, slot_full}, states_.size());
    if (inserted) states_.push_back({transfers, slot_full, n_ - 2 * transfers - (slot_full ? 1 : 0)});
    return it->second;
  };
  state_index(n_ / 2, n_ % 2 == 1);
  // Breadth-first over the reachable states, applying Tree-dyn's slot rule to the receiver of
  // whichever transfer ends first (all i transfers are equally likely: rate iλ in total).
  for (std::size_t s = 0; s < states_.size(); ++s) {
    const State state = states_[s];
    if (state.transfers == 0) continue;
    const std::size_t next =
        state.slot_full ? state_index(state.transfers, false) : state_index(state.transfers - 1, true);
    transitions_.push_back({s, next, mpq_class(rate_ * state.transfers)});
  }
  FirstStepAnalysis analysis(states_.size());
  for (const Transition& t : transitions_) analysis.add_transition(t.from, t.to, t.rate);
  const auto status = analysis.run();
  STARNET_ASSERT(status == FirstStepAnalysis::Status::SOLVED);  // each transition ends one sender: acyclic
  expected_ = analysis.expected(0);
  second_moment_ = analysis.second_moment(0);
  variance_ = analysis.variance(0);
  return *this;
}

TimeMoments tree_dyn_closed_form(std::int64_t n, const mpq_class& rate) {
  check_processors(n);
  check_rate(rate);
  const std::int64_t k = n / 2;
  mpq_class h1 = 0;
  mpq_class h2 = 0;
  for (std::int64_t i = 1; i <= k; ++i) {
    mpq_class inverse(1, static_cast<unsigned long>(i));
    h1 += inverse;
    h2 += inverse * inverse;
  }
  TimeMoments m{2 * h1, 2 * h2};
  if (n % 2 == 0) {  // one sojourn at rate kλ instead of two
    mpq_class inverse(1, static_cast<unsigned long>(k));
    m.expected -= inverse;
    m.variance -= inverse * inverse;
  }
  m.expected /= rate;
  m.variance /= rate * rate;
  return m;
}

}  // namespace starnet::algorithms::stochastic

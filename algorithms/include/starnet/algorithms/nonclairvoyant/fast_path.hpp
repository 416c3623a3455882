#pragma once
/// @file
/// The Monte-Carlo fast path: one untraced run of Binomial-stat, Fibonacci-stat, Tree-dyn or
/// Non-Commut-Tree-dyn (A. Benoit, L.-C. Canon, L. Marchal, "Non-clairvoyant reduction algorithms
/// for heterogeneous platforms", CCPE 2014, Section 3) by an event loop made for these four
/// algorithms, in place of the emulator's general engine, with the same makespan bit for bit.
///
/// The general engine (emulator/src/worker.cpp: timed, arbitrated, one full-duplex port, as
/// MonteCarlo runs it) goes in rounds. A round at time t takes the ends due (those of t in its
/// first round; a zero-duration end in the next round at the same t), lets every node with news
/// react in id order (its delivery first, then its finished reduction), then starts the transfers
/// that may start. This loop keeps exactly that order and that arithmetic: the ends at later
/// times in a heap on the time, those at the current time in a list for the next round (as the
/// engine's agenda), a node's reductions one after another (end = start + c), a transfer's duration asked
/// of the cost model when its sender sends (so the costs are drawn in the same order) and its end
/// = the round's time + duration, where the round is the one in which the receiver has posted
/// that sender (static plans: one posted reception at a time, in plan order) — so that every time
/// is the same sum of the same doubles. What it drops is what an untraced run does not observe:
/// the trace, payload strings, port bookkeeping (no transfer of these algorithms ever waits for
/// a port: a processor sends once, and receives one value at a time) and the round protocol.
/// Every run is still verified: the values are combined as the programs combine them
/// (reduce_value.hpp) and the result checked as MonteCarlo checks the general engine's.
///
/// Complexity: O(n log n) a run (a binary heap of at most n pending ends); memory O(n), reused
/// from run to run.
/// IMPORTANT: bit-identity with the general engine holds for these four algorithms in that
/// configuration; a run with a trace goes through the general engine (single_run.hpp).
/// tests/algorithms/nonclairvoyant/fast_path_test.cpp compares both on a corpus.

#include <starnet/algorithms/nonclairvoyant/algorithm_outcome.hpp>
#include <starnet/algorithms/nonclairvoyant/reduce_value.hpp>
#include <starnet/algorithms/nonclairvoyant/single_run.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/topology/complete_graph.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace starnet::algorithms::nonclairvoyant {

/// Runs of the four algorithms on n processors (complete graph) with a reused state.
///
/// Usage:
/// @code
///   FastPath fast(64);
///   const auto out = fast.run(Algorithm::TREE_DYN, costs);  // costs: an emulator::CostModel<double>
///   if (out.verified) use(out.makespan);
/// @endcode
class FastPath {
 public:
  /// @throws UsageError when n < 1 (static_tree()). O(n log n): the two static plans.
  explicit FastPath(int n);

  [[nodiscard]] int n() const { return static_cast<int>(fresh_.size()); }

  /// Runs @p a once. @p costs is asked what the general engine asks, in the same order:
  /// transfer(from, port, to, 1) when a processor sends, compute(v, 1) when a reduction starts;
  /// the run's makespan is the general engine's (run_algorithm) bit for bit. Never a trace.
  /// @param compute when given, c_v for each processor v, read instead of asking
  ///        costs.compute(v, 1): for a cost model whose compute(v, w) is c_v·w (MonteCarlo's),
  ///        the same double, without the call. Known in advance, a dynamic algorithm's
  ///        reduction is then filed when its value is sent (the receiver does nothing else
  ///        until it ends): one end instead of two.
  /// @throws UsageError when @p compute is given with other than n() entries.
  [[nodiscard]] Emulation<double> run(Algorithm a, const emulator::CostModel<double>& costs,
                                      std::span<const double> compute = {});

 private:
  static constexpr std::uint32_t NONE = ~std::uint32_t{0};
  /// A transfer's or reduction's end at @p node: @p from is the sender, NONE for a reduction.
  struct End {
    double at;
    std::uint32_t node;
    std::uint32_t from;
  };
  /// A static plan as flat arrays: node v's children are children[begin[v] .. begin[v + 1]).
  struct Plan {
    std::vector<std::uint32_t> parent;  // NONE for the root
    std::vector<std::uint32_t> begin;
    std::vector<std::uint32_t> children;
    std::uint32_t root = 0;
  };
  static constexpr std::uint8_t DELIVERED = 1;
  static constexpr std::uint8_t REDUCED = 2;

  /// A processor's state in a run, 32 bytes. No byte-sized field: a byte store may alias
  /// anything, which would make the compiler reload every array after it.
  struct Node {
    ReduceValue value;
    std::uint16_t news;       // DELIVERED | REDUCED this round
    std::uint16_t computing;  // a reduction is under way
    std::uint32_t from;       // the sender of this round's delivery
    std::uint32_t queued;     // reductions waiting for the processor
    std::uint32_t arrived;    // static plans: children's values received
    std::uint32_t reduced;    // and reduced
    std::uint32_t posted;     // the child whose value it takes next, or NONE
  };

  template <class React>
  double loop(React&& react);
  void take(const End& e);
  void schedule(double at, std::uint32_t node, std::uint32_t from);
  void reduce(std::uint32_t v);
  [[nodiscard]] double transfer_time(std::uint32_t from, std::uint32_t to) const;
  void transfer(std::uint32_t from, std::uint32_t to, double duration) { schedule(now_ + duration, to, from); }

  // The algorithms' reactions (the node programs of plan_program.cpp and tree_dyn.cpp).
  void start_static(const Plan& plan, std::uint32_t v);
  void react_static(const Plan& plan, std::uint32_t v);
  void post(std::uint32_t v, std::uint32_t child);
  void send_static(std::uint32_t v, std::uint32_t parent);
  template <bool ORDERED>  // Non-Commut-Tree-dyn
  void react_dynamic(std::uint32_t v);
  template <bool ORDERED>
  void idle(std::uint32_t v);
  void send_dynamic(std::uint32_t v, std::uint32_t to);
  void combine_into(std::uint32_t v, std::uint32_t from);  // v reduces from's value (tree_dyn.cpp)
  [[nodiscard]] bool verified_static(const Plan& plan) const;
  [[nodiscard]] bool verified_dynamic(bool ordered) const;

  topology::CompleteGraph graph_;
  std::array<Plan, 2> plans_;  // indexed by Algorithm::BINOMIAL_STAT, FIBONACCI_STAT
  ReduceValue expected_;
  const emulator::CostModel<double>* costs_ = nullptr;
  const double* compute_ = nullptr;  // c_v, or none: ask costs_

  double now_ = 0;
  std::vector<End> heap_;  // ends at later times, a min-heap on the time
  std::vector<End> soon_;  // ends at now_, due in the next round
  std::vector<End> due_;   // this round's, when there are several
  std::vector<std::uint32_t> touched_;  // the nodes that react this round
  std::vector<Node> fresh_;  // every processor as a run starts
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> waiting_;  // static plans: its send waits for the receiver's post,
  std::vector<double> asked_;           // that long
  std::vector<std::uint32_t> by_lo_;  // Non-Commut-Tree-dyn's idle array
  std::vector<std::uint32_t> by_hi_;
  std::uint32_t slot_ = NONE;         // Tree-dyn's slot
  std::uint64_t sends_ = 0;
};

}  // namespace starnet::algorithms::nonclairvoyant

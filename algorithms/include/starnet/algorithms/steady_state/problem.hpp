#pragma once
/// @file
/// The steady-state problems of Legrand, Marchal and Robert, "Optimizing the steady-state
/// throughput of scatter and reduce operations on heterogeneous platforms", INRIA RR-4872 /
/// JPDC 2005: series of scatters (SSSP, Section 3.1), series of personalised all-to-all
/// "gossips" (SSPA2A, Section 3.5) and series of reduces with an associative, non-commutative
/// operator (SSR, Section 4.2), as linear programs over a weighted Platform.
///
/// One model covers the three. Messages have *types* (scatter: m_k for target P_k; gossip:
/// m_{k,l} from P_k to P_l; reduce: the partial result v[k,m]). A *task* is either a transfer
/// send(P_i → P_j, type) along an arc, taking size(type)·c(i,j) time units per message, or a
/// computation cons(P_i, T_{k,l,m}) (v[k,m] = v[k,l] ⊕ v[l+1,m]) taking w(P_i, T_{k,l,m}) =
/// work(k,l,m) / speed(P_i). A *location* (type, node) is a message of a type held on a node.
/// *Leaves* hold an unlimited supply (scatter: every m_k on the source; gossip: m_{k,l} on P_k;
/// reduce: v[i,i] on P_i), *sinks* consume TP messages per time unit (scatter: m_k on P_k;
/// gossip: m_{k,l} on P_l; reduce: v[0,N] on the target). The LP, with x_t ≥ 0 the number of
/// task t per time unit:
///
///   maximise TP subject to
///   ∀ node i:  Σ_{sends t out of i} time(t)·x_t ≤ 1     (one-port emission, (2) and (4)/(8))
///              Σ_{sends t into i}   time(t)·x_t ≤ 1     (one-port reception, (3))
///              Σ_{computations t on i} time(t)·x_t ≤ 1  (α(P_i) ≤ 1, (7) and (9))
///   ∀ location ℓ neither leaf nor sink:  Σ_{t produces ℓ} x_t = Σ_{t consumes ℓ} x_t   ((5), (10))
///   ∀ sink ℓ:  Σ_{t produces ℓ} x_t = TP                                               ((6), (11))
///
/// s(P_i → P_j) and α(P_i) of the paper are substituted by their defining sums.
///
/// Departures from the paper (see docs/steady_state.md):
/// - No task sends a message into one of its leaves or out of one of its sinks. The paper's
///   SSSP applies the conservation law at the source too (forcing the source's emission to 0:
///   the law must exclude P_source) and lets a target forward its own messages, so that a
///   circulation P_k → P_j → P_k would be counted as received twice and overstate TP; likewise
///   for SSPA2A and for v[0,N] on the target in SSR. The restriction loses no optimal solution.
/// - In SSPA2A the throughput row of the paper reads Σ send(P_i → P_k, m_k); it is
///   Σ_i send(P_i → P_l, m_{k,l}) = TP for every pair (k, l).
/// - Routers forward messages but neither hold values nor compute; every processor may compute
///   reduce tasks (the paper's participants are exactly its processors).
///
/// Complexity of the model: scatter |E|·|T| tasks; gossip |E|·|S|·|T|; reduce |E|·(N+1)(N+2)/2
/// sends and |processors|·Σ_{d=1}^{N} d·(N+1−d) computations for N+1 participants.
///
/// IMPORTANT: a problem holds a reference to its Platform, which must outlive it; the platform
/// is validated when the problem is built, not afterwards.

#include <starnet/algorithms/steady_state/exact_lp.hpp>
#include <starnet/topology/platform.hpp>
#include <starnet/core/rational_gmp.hpp>

#include <gmpxx.h>

#include <starnet/algorithms/collective.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::algorithms::steady_state {

using Vertex = topology::Platform::vertex_descriptor;

/// The series this folder plans: SCATTER, ALLTOALL (the paper's "gossip": personalised
/// all-to-alls) and REDUCE.
using algorithms::Collective;

/// A kind of message.
struct MessageType {
  std::string label;  ///< "m[P0]" (scatter), "m[Pk,Pl]" (gossip), "v[0,2]" (reduce)
  mpq_class size = 1; ///< size in unit-size messages: a transfer takes size·c(e)
  int first = -1;     ///< reduce: v[first,last] (participant indices), else -1
  int last = -1;
};

enum class TaskKind { SEND, COMPUTE };

/// send(from → to, type), or cons(from, T_{k,l,m}) with from == to producing `type` = v[k,m]
/// from `left` = v[k,l] and `right` = v[l+1,m].
struct Task {
  TaskKind kind = TaskKind::SEND;
  Vertex from = 0;
  Vertex to = 0;
  int type = 0;
  int left = -1;
  int right = -1;
  mpq_class time;  ///< time units to perform one task: size·c(from,to), or work/speed(from)
};

/// A message of type `type` held on node `node`: an input or the result of a task.
struct Location {
  int type = 0;
  Vertex node = 0;
  friend bool operator==(const Location&, const Location&) = default;
};

/// Reduce costs: size(v[k,m]) and the work of T_{k,l,m} (it takes work / speed(P) on P).
/// Empty functions mean 1 (Figure 6 of the paper); Section 4.7 uses size 10 and work 10.
struct ReduceCosts {
  std::function<Rational(int k, int m)> message_size;
  std::function<Rational(int k, int l, int m)> task_work;
};

class SteadyStateProblem {
 public:
  /// Series of scatters from @p source to every node of @p targets.
  /// @param platform validated here (costs and speeds > 0, …); must outlive the problem.
  /// @throws TopologyError naming the link or node when the platform is invalid, and naming an
  ///   unknown node name.
  /// @throws ScheduleError naming the node when the target list is empty, a node is a router,
  ///   is given twice, the source is a target, or a target is unreachable from the source.
  /// Complexity: O(|E|·|targets|).
  static SteadyStateProblem scatter(const topology::Platform& platform, std::string_view source,
                                    const std::vector<std::string>& targets);
  /// Series of personalised all-to-alls: every source sends a distinct message to every target
  /// other than itself, at the same rate TP for every pair. Errors as for scatter(), for every
  /// (source, target) pair; also when no pair with source ≠ target exists.
  static SteadyStateProblem gossip(const topology::Platform& platform, const std::vector<std::string>& sources,
                                   const std::vector<std::string>& targets);
  /// Series of reduces of v_0 ⊕ … ⊕ v_N (participants in this order, ⊕ non-commutative), the
  /// result stored on @p target (a processor, participant or not).
  /// @throws InputError naming v[k,m] or T_{k,l,m} when @p costs gives a size or work ≤ 0.
  /// @throws ScheduleError when fewer than two participants are given, a node is a router or
  ///   given twice, or a participant cannot reach the target; TopologyError as for scatter().
  static SteadyStateProblem reduce(const topology::Platform& platform, const std::vector<std::string>& participants,
                                   std::string_view target, const ReduceCosts& costs = {});

  [[nodiscard]] Collective collective() const { return collective_; }
  [[nodiscard]] const topology::Platform& platform() const { return *platform_; }
  [[nodiscard]] const std::vector<MessageType>& types() const { return types_; }
  [[nodiscard]] const std::vector<Task>& tasks() const { return tasks_; }
  /// Locations with unlimited supply, and locations that receive TP per time unit.
  [[nodiscard]] const std::vector<Location>& leaves() const { return leaves_; }
  [[nodiscard]] const std::vector<Location>& sinks() const { return sinks_; }
  [[nodiscard]] bool is_leaf(Location where) const;
  /// Index of @p where in sinks(), or -1.
  [[nodiscard]] int sink_index(Location where) const;
  /// Tasks whose result is @p where, and tasks that take @p where as an input.
  [[nodiscard]] const std::vector<int>& producers(Location where) const;
  [[nodiscard]] const std::vector<int>& consumers(Location where) const;
  /// The inputs of task @p t: one location for a send, two (left, right) for a computation.
  [[nodiscard]] std::vector<Location> inputs(int t) const;
  /// The result of task @p t.
  [[nodiscard]] Location output(int t) const;

  /// Participants in the order given: scatter source then targets; gossip sources then targets
  /// not already sources; reduce P_0 … P_N.
  [[nodiscard]] const std::vector<Vertex>& participants() const { return participants_; }
  /// Reduce only: the target node.
  [[nodiscard]] Vertex target() const { return target_; }
  /// One line: "scatter Ps -> P0,P1 on NAME".
  [[nodiscard]] std::string describe() const;

  [[nodiscard]] const std::string& node_name(Vertex v) const;
  /// "send(Pa->P0, m[P0])" or "cons(P1, T[1,1,2])".
  [[nodiscard]] std::string task_label(int t) const;
  /// "v[1,2]@P1".
  [[nodiscard]] std::string location_label(Location where) const;

  /// The LP of the file comment: column t < tasks().size() is x_t, column throughput_column()
  /// is TP; rows are named after their node or location.
  [[nodiscard]] LinearProgram linear_program() const;
  [[nodiscard]] int throughput_column() const { return static_cast<int>(tasks_.size()); }

 private:
  SteadyStateProblem(const topology::Platform& platform, Collective collective);
  [[nodiscard]] std::size_t key(Location where) const;
  void add_send_tasks();
  void index_locations();

  const topology::Platform* platform_;
  Collective collective_;
  std::vector<MessageType> types_;
  std::vector<Task> tasks_;
  std::vector<Location> leaves_;
  std::vector<Location> sinks_;
  std::vector<Vertex> participants_;
  Vertex target_ = 0;
  std::vector<char> leaf_;                 // by key()
  std::vector<int> sink_;                  // by key(), -1 when not a sink
  std::vector<std::vector<int>> producers_;  // by key()
  std::vector<std::vector<int>> consumers_;  // by key()
};

/// Exact conversions to GMP and back (core/rational_gmp.hpp), which never fail.
using starnet::to_mpq;
using starnet::to_rational;

}  // namespace starnet::algorithms::steady_state

#pragma once
/// @file
/// The collectives a schedule file may claim, as pre- and postconditions on chunks
/// (docs/schedules.md, "Collectives").
///
/// Every node owns a buffer of `chunks` data chunks (C), followed by scratch chunks. A chunk
/// holds a value or nothing. A *contribution* (u, c) is input chunk c of node u; its value is a
/// 64-bit word (star::Values of the id u·I + c, I the number of input chunks per node). With
/// N nodes, k = C / N for the collectives that split the buffer into one block per node:
///
/// | collective    | I   | before (node v)                    | after (node v; rooted: root r only)    |
/// |---------------|-----|------------------------------------|----------------------------------------|
/// | allreduce     | C   | chunk c = (v, c)                   | chunk c = ⊕_u (u, c)                   |
/// | reduce        | C   | chunk c = (v, c)                   | root: chunk c = ⊕_u (u, c)             |
/// | broadcast     | C   | root: chunk c = (r, c); others none| chunk c = (r, c)                       |
/// | allgather     | k   | chunk v·k+j = (v, j)               | chunk u·k+j = (u, j) for every u       |
/// | gather        | k   | chunk v·k+j = (v, j)               | root: chunk u·k+j = (u, j)             |
/// | scatter       | C   | root: chunk c = (r, c)             | chunk v·k+j = (r, v·k+j)               |
/// | reducescatter | C   | chunk c = (v, c)                   | chunk v·k+j = ⊕_u (u, v·k+j)           |
/// | alltoall      | C   | chunk c = (v, c)                   | chunk u·k+j = (u, v·k+j)               |
///
/// This is the in-place layout of a starnet schedule file (one buffer). MSCCL files may keep the
/// input and the output in separate buffers: Layout says where each starts.
///
/// Relays (a platform's routers, built in memory only): the collective is among the other nodes,
/// the participants, numbered 0..P−1 in node order; N above is P, u and v are participant
/// numbers, a block per participant. A relay has no input and no output (nothing of it is
/// checked) and only forwards: every chunk it receives is a COPY (the builder refuses a relay's
/// reduction or local operation).
///
/// Complexity: every query is O(1); reduced() is O(N·I) once per run.
/// IMPORTANT: a reduction is checked through its 64-bit value only: with random values a wrong
/// multiset of contributions gives the right word with probability about 2^-63; with copies
/// only (allgather, alltoall, …) every value is distinct and the check is exact.

#include <starnet/algorithms/collective.hpp>
#include <starnet/algorithms/star/star_report.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::algorithms::schedule {

using star::Op;

using algorithms::ALL_COLLECTIVES;
using algorithms::Collective;
using algorithms::find_collective;
using algorithms::is_blocked;
using algorithms::is_rooted;
using algorithms::to_string;

/// Where the input and the output start in a node's slots (both 0 for an in-place schedule).
struct Layout {
  std::uint32_t input = 0;
  std::uint32_t output = 0;
  bool in_place = true;
};

/// One collective on N nodes with C data chunks per node.
class ChunkRules {
 public:
  /// @throws ScheduleError when C = 0, when a blocked collective's C is not a multiple of N, or a
  /// root is outside 0..N−1.
  ChunkRules(Collective kind, std::uint32_t nodes, std::uint32_t chunks, std::uint32_t root, Layout layout = {});
  /// The collective among the nodes that are not relays (file comment), in place; @p root a node.
  /// @throws ScheduleError as above with N the participants, and when @p relays has not one flag
  /// per node, no node takes part, or the root is a relay.
  ChunkRules(Collective kind, std::uint32_t nodes, std::uint32_t chunks, std::uint32_t root,
             const std::vector<bool>& relays);

  [[nodiscard]] Collective kind() const { return kind_; }
  [[nodiscard]] std::uint32_t nodes() const { return nodes_; }
  /// The participants P (N without relays).
  [[nodiscard]] std::uint32_t members() const { return members_; }
  [[nodiscard]] bool has_relays() const { return !rank_.empty(); }
  /// Whether node @p v only forwards. @pre v < nodes().
  [[nodiscard]] bool relay(std::uint32_t v) const { return !rank_.empty() && rank_[v] == NOT_MEMBER; }
  /// Participant number of node @p v. @pre !relay(v).
  [[nodiscard]] std::uint32_t rank(std::uint32_t v) const { return rank_.empty() ? v : rank_[v]; }
  /// The node of participant @p u. @pre u < members().
  [[nodiscard]] std::uint32_t member(std::uint32_t u) const { return member_.empty() ? u : member_[u]; }
  [[nodiscard]] std::uint32_t chunks() const { return chunks_; }
  [[nodiscard]] std::uint32_t root() const { return root_; }
  /// Input chunks per node (I of the table).
  [[nodiscard]] std::uint32_t inputs() const { return inputs_; }
  /// Chunks of one block: C / N for blocked collectives, C otherwise.
  [[nodiscard]] std::uint32_t block() const { return block_; }

  /// Calls f(slot, contribution id) for every chunk node @p v holds before the run.
  template <class F>
  void for_each_input(std::uint32_t v, F&& f) const;
  /// Calls f(slot, expected contribution id or reduced chunk) for every chunk checked at node @p v
  /// after the run; `reduced` is true when the value must be ⊕ over all nodes of input chunk `id`.
  template <class F>
  void for_each_output(std::uint32_t v, F&& f) const;
  [[nodiscard]] bool reduces() const { return algorithms::reduces(kind_); }
  /// The contribution id of input chunk c of participant u: u·I + c.
  [[nodiscard]] std::uint64_t contribution(std::uint32_t u, std::uint32_t c) const {
    return static_cast<std::uint64_t>(u) * inputs_ + c;
  }

 private:
  static constexpr std::uint32_t NOT_MEMBER = std::numeric_limits<std::uint32_t>::max();
  void check_and_size();

  Collective kind_;
  std::uint32_t nodes_;
  std::uint32_t members_;
  std::vector<std::uint32_t> rank_;    // by node, NOT_MEMBER for a relay; empty without relays
  std::vector<std::uint32_t> member_;  // by participant; empty without relays
  std::uint32_t chunks_;
  std::uint32_t root_;
  Layout layout_;
  std::uint32_t inputs_ = 0;
  std::uint32_t block_ = 0;
};

/// The values of the contributions and the reductions a correct run ends with.
class ChunkValues {
 public:
  /// O(N·I) when the collective reduces, O(1) otherwise.
  ChunkValues(const ChunkRules& rules, Op op, star::Values values);
  [[nodiscard]] std::uint64_t of(std::uint64_t contribution) const { return values_.of(contribution); }
  /// ⊕ over all nodes u of input chunk c. @pre the collective reduces, c < inputs().
  [[nodiscard]] std::uint64_t reduced(std::uint32_t c) const { return reduced_[c]; }
  [[nodiscard]] Op op() const { return op_; }

 private:
  Op op_;
  star::Values values_;
  std::vector<std::uint64_t> reduced_;
};

template <class F>
void ChunkRules::for_each_input(std::uint32_t v, F&& f) const {
  const bool root_only = kind_ == Collective::BROADCAST || kind_ == Collective::SCATTER;
  if (relay(v) || (root_only && v != root_)) return;
  const std::uint32_t r = rank(v);
  const bool own_block = kind_ == Collective::ALLGATHER || kind_ == Collective::GATHER;
  const std::uint32_t at = layout_.input + (own_block && layout_.in_place ? r * block_ : 0);
  for (std::uint32_t c = 0; c < inputs_; ++c) f(at + c, contribution(r, c));
}

template <class F>
void ChunkRules::for_each_output(std::uint32_t v, F&& f) const {
  const bool root_only = kind_ == Collective::REDUCE || kind_ == Collective::GATHER;
  if (relay(v) || (root_only && v != root_)) return;
  const std::uint32_t r = rank(v);
  const std::uint32_t root = rank(root_);
  const std::uint32_t out = layout_.output;
  switch (kind_) {
    case Collective::ALLREDUCE:
    case Collective::REDUCE:
      for (std::uint32_t c = 0; c < chunks_; ++c) f(out + c, std::uint64_t{c}, true);
      return;
    case Collective::BROADCAST:
      for (std::uint32_t c = 0; c < chunks_; ++c) f(out + c, contribution(root, c), false);
      return;
    case Collective::ALLGATHER:
    case Collective::GATHER:
      for (std::uint32_t u = 0; u < members_; ++u) {
        for (std::uint32_t j = 0; j < block_; ++j) f(out + u * block_ + j, contribution(u, j), false);
      }
      return;
    case Collective::SCATTER:
    case Collective::REDUCESCATTER: {
      const std::uint32_t at = out + (layout_.in_place ? r * block_ : 0);
      for (std::uint32_t j = 0; j < block_; ++j) {
        const std::uint32_t c = r * block_ + j;
        if (kind_ == Collective::SCATTER) {
          f(at + j, contribution(root, c), false);
        } else {
          f(at + j, std::uint64_t{c}, true);
        }
      }
      return;
    }
    case Collective::ALLTOALL:
      for (std::uint32_t u = 0; u < members_; ++u) {
        for (std::uint32_t j = 0; j < block_; ++j) f(out + u * block_ + j, contribution(u, r * block_ + j), false);
      }
      return;
  }
}

}  // namespace starnet::algorithms::schedule

#pragma once
/// @file
/// A chunk schedule written as an MSCCL algorithm file, the XML that msccl-executor (NCCL) and
/// RCCL load and run on GPUs (docs/gpu.md; msccl.hpp reads the same format back).
///
/// The layout chosen (docs/gpu.md, "What the file says"):
///   - one GPU per node, rank = node index; `ngpus` = nodes; in place (`inplace="1"`,
///     `outofplace="0"`, the collective called with NCCL's in-place buffers); `minBytes="0"`,
///     `maxBytes="0"` (any size); `proto` as asked (Simple unless told);
///   - the data chunks are one buffer, `nchunksperloop` = C: `i` for the collectives whose input is
///     the whole buffer, `o` for all-gather and gather (whose input is the node's own block of the
///     output); `i_chunks`/`o_chunks` the collective's own sizes, `s_chunks` the schedule's scratch
///     and the staging chunks below;
///   - per node, one threadblock per (thread of the schedule, channel, peer), `send` and `recv`
///     that peer where it sends to or receives from it (else -1); local steps join the
///     threadblock of the transfer before them (at a thread's start, the one after them; a thread
///     of local steps alone gets one of its own); a stepped schedule has one thread and channel 0;
///   - each node runs its actions in the schedule's order: an action whose previous action (or
///     the action it depends on, programmed form) is in another threadblock depends on that one's
///     last step; a second dependency takes a `nop` step before it;
///   - a send of chunks that are not consecutive in one buffer copies them (`cpy`) into staging
///     scratch first, and a receive that is not a plain copy or reduction of the whole message
///     into consecutive chunks receives into staging and then copies (`cpy`) or reduces (`re`)
///     each chunk where it goes; a local operation is one `cpy` or `re` per run of consecutive
///     chunks. Every message of the schedule is one send and one receive step: the transfers are
///     the same, message for message (same_transfers()).
///
/// What MSCCL cannot express is refused (ScheduleError naming the node and why): relays (every
/// rank is a GPU), a schedule read from an out-of-place MSCCL file (written in place only), a message of 72 chunks or more (`cnt` is below 72), more than 64 steps in a
/// threadblock or 1,024 XML elements for one rank (the loader's limits), two threads of a node
/// that both send to (or both receive from) one peer on one channel (the pair's messages would have
/// no order), a local operation that reads a chunk it also writes (MSCCL's steps act one after
/// the other).
///
/// Complexity: O(actions + items) per node. IMPORTANT: the file is checked against the loader's
/// rules by the tests (tests/algorithms/schedule/msccl_rules.hpp) and read back here; how fast it
/// runs on GPUs, and whether a runtime's buffering admits a programmed schedule that relies on
/// unbounded buffering, is not checked (no GPU here).

#include <starnet/algorithms/schedule/chunk_schedule.hpp>

#include <optional>
#include <string>

namespace starnet::algorithms::schedule {

/// The protocols a file may name: Simple, LL128, LL.
[[nodiscard]] bool is_msccl_protocol(std::string_view protocol);

struct MscclWriteOptions {
  /// The algorithm's name (`name`): free text, characters the loader's tokenizer cannot take
  /// (quotes, <, >, &, control characters) written as '_', at most 255 bytes.
  std::string name = "starnet";
  /// `proto`: Simple (every size), LL128 or LL (latency-bound messages).
  std::string protocol = "Simple";
};

/// What a written file holds.
struct MscclFile {
  std::string xml;
  std::uint32_t threadblocks = 0;  ///< all GPUs'
  std::uint32_t steps = 0;         ///< <step> elements, nop steps included
  std::uint32_t channels = 1;      ///< nchannels
  std::uint32_t staging = 0;       ///< most staging chunks a GPU uses (part of s_chunks)
};

/// Writes @p schedule as MSCCL XML (the layout in the file comment); the same schedule gives the
/// same bytes.
/// @throws ScheduleError naming the node and the reason for what MSCCL cannot express, and for a
/// protocol that is not Simple, LL128 or LL.
[[nodiscard]] MscclFile write_msccl(const Schedule& schedule, const MscclWriteOptions& options = {});

/// Whether @p back (a schedule read from the file written for @p original) makes the same transfers:
/// the same collective, nodes and chunks, and between every ordered pair of nodes the same messages
/// in the same order, each sending the same chunks and received into the same chunks with the
/// same operations — or, where the writer staged a message, the same number of chunks through
/// staging chunks (slots beyond @p original's).
/// @return the first difference, or nothing. Complexity: O(actions · log actions).
[[nodiscard]] std::optional<std::string> transfer_difference(const Schedule& original, const Schedule& back);

}  // namespace starnet::algorithms::schedule

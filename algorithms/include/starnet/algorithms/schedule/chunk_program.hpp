#pragma once
/// @file
/// The one node program that executes any chunk schedule (chunk_schedule.hpp) and checks its
/// collective on every node and chunk (docs/schedules.md, "Running a schedule").
///
/// Every chunk of every node holds a 64-bit value or nothing; values start as the collective's
/// precondition says (collective.hpp) and travel for real: a message is the words of the chunks
/// it carries, captured when the send starts. A node performs the actions of each of its threads
/// in order (an action waits for the one it depends on):
///   - SEND: in unit time a stepped send starts at its step, never earlier (the node sleeps one
///     step at a time until then, so that ctx.step() is the time); otherwise as soon as the node
///     reaches it. Sending a chunk the node does not hold is an error.
///   - RECV: waits for the message (sender, tag) — tag = the step (stepped) or the channel and
///     ordinal (programmed) — then copies or reduces each position into its chunk; reducing into
///     a chunk the node does not hold is an error.
///   - LOCAL: copies or reduces chunks of the node itself.
/// After the run every output chunk the collective names is compared with the value it must
/// hold. Errors are reported, not thrown: the first by (step, node), with what happened.
///
/// Complexity: O(1) per item and action, plus a scan of the few messages that arrived before the
/// node was ready for them; memory: one word and one byte per chunk per node.
/// IMPORTANT: the port model (a second send in a step, a missing link) is the emulator's to check:
/// run stepped schedules with Checking::STRICT to certify them.

#include <starnet/algorithms/schedule/chunk_report.hpp>
#include <starnet/algorithms/schedule/chunk_schedule.hpp>
#include <starnet/emulator/config.hpp>
#include <starnet/emulator/program.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace starnet::algorithms::schedule {

struct ChunkRunOptions {
  /// Unit time: a stepped schedule's sends wait for their steps. run_schedule() sets it to the
  /// run's time mode.
  emulator::TimeMode time = emulator::TimeMode::UNIT;
  /// Size of one chunk in unit-size messages (a message's size is its chunk count times this).
  Rational chunk_size = 1;
};

/// The program for the nodes of @p range. The references must outlive the run.
[[nodiscard]] std::unique_ptr<emulator::NodeProgram> make_chunk_program(const Schedule& schedule,
                                                                        const ChunkValues& values,
                                                                        const ChunkRunOptions& options,
                                                                        emulator::NodeRange range);

}  // namespace starnet::algorithms::schedule

#pragma once
/// @file
/// The transit laws and faults of an asynchronous run of node programs (api/emulate.hpp), as the
/// faces spell them (docs/emulator.md, "Asynchrony and faults"):
///   delays     "constant:D" (exact), "uniform:LO:HI", "exponential:MEAN", or one of the
///              Monte-Carlo study's laws with its mean and CV, "gamma:MEAN:CV" (docs/stochastic.md);
///   crash      an item "NODE@TIME": node NODE (an id) stops at TIME (exact);
///   fail_links an item "A-B" or "A-B@TIME": the link between nodes A and B fails (at 0, or TIME).

#include <starnet/emulator/asynchrony.hpp>

#include <memory>
#include <string_view>

namespace starnet::api {

/// The law @p text names. A law's draw is a double, taken exactly (a dyadic rational), from a
/// Philox stream keyed by the message's own random bits. @throws UsageError about "delays".
[[nodiscard]] std::shared_ptr<const emulator::DelayLaw> parse_delay_law(std::string_view text);
/// @throws UsageError about "crash".
[[nodiscard]] emulator::Crash parse_crash(std::string_view item);
/// @throws UsageError about "fail_links".
[[nodiscard]] emulator::LinkFailure parse_link_failure(std::string_view item);

}  // namespace starnet::api

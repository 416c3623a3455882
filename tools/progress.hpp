#pragma once
/// @file
/// Progress on standard error for whatever runs longer than a second (`--progress
/// auto|always|never`, on every subcommand). main() runs each subcommand under one ProgressMeter
/// that shows the elapsed time; long loops add what they know (`progress_detail("n = 7 of 9")`).
/// The detail and the count come from core/interrupt.hpp, where long loops of the libraries
/// report them. `auto` draws only when standard error is a terminal, so that logs, pipes and the tests see
/// nothing; `always` also writes to files, one line per report.

#include <starnet/api/core.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace starnet::tools {

enum class ProgressMode { AUTO, ALWAYS, NEVER };
/// @throws UsageError naming --progress unless @p text is auto, always or never.
[[nodiscard]] ProgressMode parse_progress_mode(std::string_view text);

/// Shows "starnet WHAT: DETAIL (S s)" on stderr every PROGRESS_INTERVAL once the task has run for
/// PROGRESS_DELAY, from a thread of its own; clears its line when destroyed. One at a time.
class ProgressMeter {
 public:
  ProgressMeter(std::string what, ProgressMode mode);
  ~ProgressMeter();
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;

 private:
  struct State;
  std::unique_ptr<State> state_;  // none when nothing is shown
};

/// What the running task is doing now, shown by the meter: the libraries' progress
/// (core/interrupt.hpp), which the command line reports too.
using starnet::progress_detail;

}  // namespace starnet::tools

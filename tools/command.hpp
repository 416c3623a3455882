#pragma once
/// @file
/// How a subcommand of `starnet` is written (STYLE.md rule 14): a file tools/X_command.cpp
/// defines `void add_X_command(CLI::App& app, Action& action)`, which declares the options and
/// sets `action` to the body: parse options → run → self-check → report, returning the exit code
/// (0 success, 1 a verification failed). Errors are thrown (starnet::Error) and main() maps them
/// to exit codes 2 and 3 (DESIGN.md).

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <string_view>

namespace starnet::tools {

using Action = std::function<int()>;

void add_topo_command(CLI::App& app, Action& action);
void add_allreduce_command(CLI::App& app, Action& action);
void add_broadcast_command(CLI::App& app, Action& action);
void add_demo_command(CLI::App& app, Action& action);
void add_worker_command(CLI::App& app, Action& action);
void add_viz_command(CLI::App& app, Action& action);
/// `topo draw`, added to the `topo` subcommand by add_topo_command (tools/topo_draw.cpp).
void add_topo_draw_command(CLI::App& topo, Action& action);
void add_markov_command(CLI::App& app, Action& action);
void add_reduce_command(CLI::App& app, Action& action);
void add_steady_command(CLI::App& app, Action& action);
void add_montecarlo_command(CLI::App& app, Action& action);
void add_whatif_command(CLI::App& app, Action& action);
void add_schedule_command(CLI::App& app, Action& action);
void add_optimal_command(CLI::App& app, Action& action);

/// Writes @p content to @p path through a temporary file in the same folder and a rename, so
/// that no half-written file is ever left behind. "-" writes to standard output.
/// @throws UsageError naming the path when it cannot be written.
void write_file_atomically(const std::string& path, const std::string& content);

/// @p text as a terminal may show it: valid UTF-8 passes; control bytes (but newline) and bytes
/// that are not UTF-8 become \xNN, so a message quoting a binary input prints as text.
[[nodiscard]] std::string printable(std::string_view text);

}  // namespace starnet::tools

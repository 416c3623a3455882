#pragma once
/// @file
/// How a subcommand of `starnet` is written (docs/architecture.md, "tools/"): tools/subcommands.cpp
/// names it and gives its help, and a file tools/X_command.cpp defines
/// `void declare_X_command(CLI::App& cmd, Action& action)`, which declares the options on `cmd` and
/// sets `action` to the body: parse options → run → self-check → report, returning the exit code
/// (0 success, 1 a verification failed). Errors are thrown (starnet::Error) and main() maps them
/// to exit codes 2 and 3 (README, "Exit codes").

#include <starnet/api/core.hpp>
#include <starnet/api/markup.hpp>
#include <starnet/api/setting_table.hpp>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::tools {

using Action = std::function<int()>;

/// The topology specs the commands take, one table (tools/topo_command.cpp): the help footer of
/// `topo` and of `whatif --topologies`.
extern const char* const SPEC_SYNTAX;

/// Adds every subcommand to @p app (tools/subcommands.cpp), in the order `starnet --help` lists them.
void add_subcommands(CLI::App& app, Action& action);

void declare_topo_command(CLI::App& cmd, Action& action);
void declare_allreduce_command(CLI::App& cmd, Action& action);
void declare_broadcast_command(CLI::App& cmd, Action& action);
void declare_demo_command(CLI::App& cmd, Action& action);
void declare_worker_command(CLI::App& cmd, Action& action);
/// `starnet keygen -o FILE`: a run's key file for workers that join a --listen run.
void declare_keygen_command(CLI::App& cmd, Action& action);
void declare_viz_command(CLI::App& cmd, Action& action);
/// `topo draw`, added to the `topo` subcommand by declare_topo_command (tools/topo_draw.cpp).
void add_topo_draw_command(CLI::App& topo, Action& action);
void declare_markov_command(CLI::App& cmd, Action& action);
void declare_reduce_command(CLI::App& cmd, Action& action);
void declare_steady_command(CLI::App& cmd, Action& action);
void declare_montecarlo_command(CLI::App& cmd, Action& action);
void declare_whatif_command(CLI::App& cmd, Action& action);
void declare_schedule_command(CLI::App& cmd, Action& action);
void declare_optimal_command(CLI::App& cmd, Action& action);

/// Writes @p content to @p path through a temporary file in the same folder and a rename, so
/// that no half-written file is ever left behind. "-" writes to standard output; an existing
/// device or FIFO is written in place (a rename would replace the node).
/// @throws UsageError naming the path when it cannot be opened; Error (exit 3) when a write fails
///         (a full disk).
void write_file_atomically(const std::string& path, const std::string& content);

/// The check of an output option, run while the command line is parsed, so that a bad output is
/// refused before anything runs or is written: not empty, ending in one of @p extensions (when
/// given), not a directory, in an existing writable folder; "-" only when @p standard_output.
[[nodiscard]] CLI::Validator output_file(std::vector<std::string> extensions = {}, bool standard_output = false);

/// Whether printable() keeps newlines (a report) or writes them as \n (a message, which must stay
/// one line: a name holding "\nstarnet: error: ..." would otherwise forge a second message).
enum class Lines { MANY, ONE };

/// An option's check: an integer in @p lo..@p hi, the whole text (CLI11 alone would clamp an
/// overflowing value into range).
[[nodiscard]] CLI::Validator integer_in(long long lo, long long hi);
/// A seed: an integer in 0..2^64 − 1, the whole text (CLI11 alone would wrap -1 to 2^64 − 1).
[[nodiscard]] CLI::Validator any_seed();
/// A finite number ≥ @p lo (nan, inf and 1e400 refused).
[[nodiscard]] CLI::Validator finite_number(double lo);

/// `--gantt FILE.svg`: the run drawn (api/gantt.hpp), @p what saying which run; the help gives the
/// api's limit of rows.
CLI::Option* add_gantt_option(CLI::App& cmd, std::string& path, std::string_view what);
/// `--op`: the word operators of the library (api::OP_NAMES), @p what saying what it combines.
void add_op_option(CLI::App& cmd, std::string& op, std::string_view what = "Operator");
/// `--values`: what the nodes or chunks start with (api::VALUES_NAMES), @p what saying how.
void add_values_option(CLI::App& cmd, std::string& values, std::string_view what);

/// A request's settings as options of a subcommand, declared from its table (api/setting_table.hpp):
/// `--` and the kebab case of each name, its help (other settings named as flags), its default
/// shown, its type and range in the option column. The values stay text; the api reads and checks
/// them (SettingTable::parse), so that both faces refuse a value with one message.
class SettingOptions {
 public:
  /// Declares every row of @p rows on @p cmd, in their order.
  void add_to(CLI::App& cmd, const std::vector<api::SettingInfo>& rows);
  /// The options given on the command line, as the api's table reads them.
  [[nodiscard]] api::SettingValues given() const;
  /// The text of setting @p name: as given, else its default ("" for none).
  [[nodiscard]] const std::string& text(const std::string& name) const { return texts_.at(name); }

 private:
  std::vector<api::SettingInfo> rows_;
  std::map<std::string, std::string> texts_;
  std::map<std::string, bool> flags_;
  std::map<std::string, const CLI::Option*> options_;
};

/// Refuses @p option of @p cmd when it was given but does not apply (@p applies false): a run
/// that ignored it would print results the user did not ask for. @p when says when it applies.
/// @throws UsageError naming the option and its value.
void applies_only(const CLI::App& cmd, const std::string& option, bool applies, std::string_view when);

/// An exact time as text: "7/2", and a long fraction with its decimal beside it,
/// "1234567/1000 ≈ 1234.57".
[[nodiscard]] std::string time_text(const Rational& t);

using api::plural;

/// @p text as a terminal may show it: valid UTF-8 passes; control bytes (but newline, with
/// Lines::MANY) and bytes that are not UTF-8 become \xNN, so a message quoting a binary input
/// prints as text.
[[nodiscard]] std::string printable(std::string_view text, Lines lines = Lines::MANY);

/// An error as the command line says it: an error about a library setting (Error::setting())
/// names the flag that sets it, `--workers 0: …`, and settings a message names between «»
/// become flags too; any other error is its what().
[[nodiscard]] std::string command_line_message(const Error& e);
/// The flag of a library setting: its kebab-case keyword (`max_n` → `--max-n`), or the flag of a
/// setting the algorithms name in words ("failed links" → `--fail-links`).
[[nodiscard]] std::string flag_of(std::string_view setting);

}  // namespace starnet::tools

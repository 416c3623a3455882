#pragma once
// What `starnet` says about a word of its command line that it does not know (CLI11's
// ExtrasError): the subcommand or option nearest to it, or the choices (docs/limits.md).

#include <CLI/CLI.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::tools {

/// A name is suggested for a word at most this many edits away...
inline constexpr std::size_t MAX_SUGGESTION_EDITS = 2;
/// ...and with at most one edit per this many letters of the longer of the two (dashes left out),
/// so that a short name is not offered for any short word (`-o` for `-x`).
inline constexpr std::size_t LETTERS_PER_EDIT = 3;

/// The Damerau–Levenshtein distance in its optimal-string-alignment form: insertions, deletions,
/// substitutions and swaps of two neighbouring characters, each substring edited once.
/// Complexity: O(|a|·|b|).
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

/// The name of @p choices nearest to @p word within the limits above (the first of them on a tie),
/// leading dashes left out of the comparison; nullopt when none is near enough.
[[nodiscard]] std::optional<std::string> nearest(std::string_view word, const std::vector<std::string>& choices);

/// The message for a command line that CLI11 refused because of words it did not expect, about
/// the first of them in @p args (the arguments after the program's name): an unknown subcommand
/// of the last command named, an unknown option of it, or an argument it does not take, with
/// the nearest name (`did you mean "allreduce"?`) or, when none is near, the choices.
/// @pre app.parse(args) has thrown CLI::ExtrasError.
/// @return nullopt when none of the words CLI11 left over is found in @p args.
[[nodiscard]] std::optional<std::string> unexpected_word_message(const CLI::App& app,
                                                                 const std::vector<std::string>& args);

}  // namespace starnet::tools

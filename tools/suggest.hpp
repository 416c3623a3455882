#pragma once
// What `starnet` says about a word of its command line that it does not know (CLI11's
// ExtrasError): the subcommand or option nearest to it, or the choices (docs/limits.md).

#include <starnet/api/setting_table.hpp>

#include <CLI/CLI.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::tools {

/// The nearest name to a word, as the api suggests a keyword (api/setting_table.hpp): at most
/// MAX_SUGGESTION_EDITS edits, one per LETTERS_PER_EDIT letters, leading dashes left out.
using api::edit_distance;
using api::LETTERS_PER_EDIT;
using api::MAX_SUGGESTION_EDITS;
using api::nearest;

/// The message for a command line that CLI11 refused because of words it did not expect, about
/// the first of them in @p args (the arguments after the program's name): an unknown subcommand
/// of the last command named, an unknown option of it, or an argument it does not take, with
/// the nearest name (`did you mean "allreduce"?`) or, when none is near, the choices.
/// @pre app.parse(args) has thrown CLI::ExtrasError.
/// @return nullopt when none of the words CLI11 left over is found in @p args.
[[nodiscard]] std::optional<std::string> unexpected_word_message(const CLI::App& app,
                                                                 const std::vector<std::string>& args);

}  // namespace starnet::tools

#pragma once
// Internal to the topology library: DOT text looked over before Boost's reader parses it
// (files.cpp).
//
// A DOT numeral is [-] ( . digits | digits [ . digits ] ): it has no exponent. Boost's tokenizer,
// like Graphviz's, ends a numeral where its grammar ends, so `weight=1e-3` reads as weight 1
// followed by two more attributes, `e` and `-3`, and `2a -> b` as the nodes 2 and a: a different
// number or graph, with at most a warning. Here a numeral run into letters, digits, dots or an
// exponent's sign is one word: a decimal with an exponent is quoted, so that Boost takes it whole
// and the file's reader reads the exact number it means; any other such word is refused with the
// file and the line. Values of the numeric attributes are checked here too, where the line is
// known (Boost's reader gives no lines). The first problem is returned, not thrown: a syntax
// error that Boost's reader finds on an earlier line is reported first.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace starnet::topology::detail {

/// The first word of a DOT text that Boost's reader would misread or starnet would refuse.
struct DotProblem {
  std::size_t line = 0;
  std::string message;  ///< the whole message, file and line included
};

struct CheckedDotText {
  std::string text;
  /// Reported unless Boost's reader finds a syntax error on an earlier line (errors in file order).
  std::optional<DotProblem> problem;
};

/// @p text with each unquoted decimal that carries an exponent (1e-3, -2.5E+4) quoted, so that it
/// stays one ID; nothing else changes, lines included. Quoted and HTML strings and comments are
/// left as they are.
/// @param file the file as messages name it (`topology file "t.dot"`).
/// @return the text, and its first problem: a numeral run into other characters that is not a
/// decimal (1x, 2.5.1, 1e), or a value of cost, weight, speed, latency or bandwidth that is not a
/// number (exact_number), named with @p file, the line, the attribute and its owner, and the word.
/// Complexity: linear in the size of @p text.
[[nodiscard]] CheckedDotText checked_dot_text(std::string_view text, const std::string& file);

}  // namespace starnet::topology::detail

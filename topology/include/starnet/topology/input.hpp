#pragma once
/// @file
/// What starnet reads from users, and the limits it reads it under (docs/limits.md). Every input
/// file of every subcommand (platforms, schedules, MSCCL algorithms) is read through
/// read_input(): a regular file, or `-` for standard input, of at most MAX_INPUT_BYTES. A FIFO, a
/// device (/dev/zero) or a directory is refused before it is opened, so a run never waits on a
/// pipe nobody writes or reads without end. Parsers that nest check their depth before they
/// recurse: check_nesting() counts it on the text, so a hostile file is refused in linear time
/// with a message naming the limit instead of overflowing the stack.
#include <cstddef>
#include <string>
#include <string_view>

namespace starnet {

/// Largest input file starnet reads (512 MiB): far beyond the largest platform (1,048,576 links)
/// or schedule a run can hold, small enough that reading it cannot exhaust memory by itself.
inline constexpr std::size_t MAX_INPUT_BYTES = std::size_t{512} << 20;
/// Deepest nesting of DOT subgraphs `{ … }` and of XML elements. Boost's DOT parser recurses
/// once per subgraph (about 1 KiB of stack a level, more under AddressSanitizer); real platform
/// files nest a few levels.
inline constexpr std::size_t MAX_NESTING = 1'000;
/// Deepest nesting of arrays and objects in a schedule JSON file (its format nests four levels).
inline constexpr std::size_t MAX_JSON_NESTING = 64;

/// @brief The whole text of an input.
/// @param path a regular file, or `-` for standard input.
/// @param what names the input in messages, e.g. `schedule file "s.json"`.
/// @param expected what the input should be, e.g. "a starnet schedule (JSON) or MSCCL XML file".
/// @throws InputError `WHAT: …` when @p path does not exist, is a directory, a FIFO, a device or
/// anything but a regular file, cannot be read, or holds more than MAX_INPUT_BYTES.
/// Complexity: O(size); memory: the text.
[[nodiscard]] std::string read_input(const std::string& path, std::string_view what, std::string_view expected);

/// The syntax whose nesting check_nesting() counts.
enum class Nesting {
  DOT,  ///< braces of graphs and subgraphs, outside quoted strings, HTML strings and comments
  XML,  ///< elements, outside comments, CDATA sections, processing instructions and attributes
};

/// @brief Refuses a text nested deeper than @p limit before a recursive parser sees it.
/// Only the nesting is counted: a malformed text within the limit is left to the parser.
/// @param what names the input in messages.
/// @throws InputError `WHAT line L: nesting deeper than LIMIT levels (…)`.
/// Complexity: O(size), no recursion.
void check_nesting(std::string_view text, Nesting syntax, std::string_view what, std::size_t limit = MAX_NESTING);

}  // namespace starnet

#pragma once
/// @file
/// A request declared once, as a table of settings (docs/architecture.md, "api/"): a row per
/// setting gives its name (the Python keyword; the command line's flag is its kebab case), type,
/// default, range or choices, unit and help, and how its value is read into the typed request.
/// The faces generate their options from the rows — the command line's flags and help, Python's
/// signature and docstring — and hand back the values as they spell them: the command line its
/// option strings, Python its objects converted by the row's type into the same text.
/// SettingTable::parse() then reads and checks every value once, and last the request's rules
/// across settings; errors are UsageErrors about the setting (core/error.hpp), which each face
/// names its own way (`--max-steps x: …`, `max_steps=x: …`).
///
/// Adding a setting is one row:
/// @code
///   {{"max_steps", SettingType::WHOLE, std::nullopt, "Most steps"}, into(&EmulateRequest::max_steps)},
/// @endcode

#include <starnet/api/settings.hpp>
#include <starnet/api/topology.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/rational.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace starnet::api {

/// What a setting's value is; each face spells and converts it by this.
enum class SettingType : std::uint8_t {
  WHOLE,     ///< an integer ≥ 0 of 64 bits, within the row's bounds
  REAL,      ///< a finite number (double), ≥ the row's minimum
  EXACT,     ///< an exact number: "3", "7/2", "0.25", "1e-6" (parse_number), ≥ (or >) the minimum
  FLAG,      ///< true or false
  TEXT,      ///< any text
  CHOICE,    ///< one of the row's choices
  PATH,      ///< a file path
  NODE,      ///< a node by name or index
  TOPOLOGY,  ///< a spec or file — or, from Python, a topology built in memory
};
/// The words of the type: "whole number", "number", "exact number", "flag", "text", "choice",
/// "file path", "node", "topology".
[[nodiscard]] std::string_view to_string(SettingType type);

/// What a row adds beyond name, type, default and help; every member is optional.
struct SettingLimits {
  /// A comma-separated list of the type (the command line: "1,2"; Python: a list too).
  bool list = false;
  /// CHOICE: the words taken.
  std::vector<std::string> choices;
  /// The least value (WHOLE, REAL, EXACT); with strictly, values must exceed it.
  std::optional<std::int64_t> min;
  bool strictly = false;
  /// The largest value (WHOLE).
  std::optional<std::uint64_t> max;
  /// The unit of a number ("seconds"), for the docs.
  std::string unit;
  /// The setting applies only when this FLAG setting is true: given without it, it is refused.
  std::string needs;
  /// The call cannot run without it (Python: a positional parameter without default).
  bool required = false;
  /// It may be unset although it has a default (Python's None: max_steps=None, no limit); the
  /// face hands an empty text, which leaves an optional member unset (into()).
  bool unset = false;
};

/// A row as every face sees it.
struct SettingInfo {
  SettingInfo(std::string name_, SettingType type_, std::optional<std::string> fallback_, std::string help_,
              SettingLimits limits_ = {})
      : name(std::move(name_)), type(type_), fallback(std::move(fallback_)), help(std::move(help_)),
        limits(std::move(limits_)) {}
  /// The Python keyword, lower case with underscores; the command line's flag is `--` and its kebab case.
  std::string name;
  SettingType type;
  /// The default as the command line spells it; none: unset (Python's None).
  std::optional<std::string> fallback;
  /// What it sets, naming other settings «like_this» (each face writes them its own way).
  std::string help;
  SettingLimits limits;
  /// The range as the command line's help shows it: "INT in 0..18446744073709551615" (WHOLE),
  /// "NUMBER>=0" (REAL), "{a,b}" (CHOICE); empty for a list or where there is none.
  [[nodiscard]] std::string range_text() const;
};

/// A value as a face hands it: its text, as the command line spells it — or, for a TOPOLOGY row,
/// the topologies themselves (Python's, built in memory), which then stand for the text.
struct SettingValue {
  std::string text;
  std::vector<TopologyRef> topologies;
};
/// The settings a face was given, by name, in the order given.
using SettingValues = std::vector<std::pair<std::string, SettingValue>>;

/// The reading of one item of a row's value (a list's item, or the whole value): checked against
/// the row's type, bounds and choices. @throws UsageError about the row's setting and @p text.
[[nodiscard]] std::uint64_t read_whole(const SettingInfo& row, std::string_view text);
[[nodiscard]] double read_real(const SettingInfo& row, std::string_view text);
[[nodiscard]] Rational read_exact(const SettingInfo& row, std::string_view text);
[[nodiscard]] bool read_flag(const SettingInfo& row, std::string_view text);
/// TEXT, PATH, NODE as given; CHOICE one of the choices.
[[nodiscard]] std::string read_text(const SettingInfo& row, std::string_view text);

/// An item of @p row's value as @p T: the row's type says how it is written and checked.
template <class T>
T read_item(const SettingInfo& row, std::string_view text) {
  if constexpr (std::is_same_v<T, bool>) {
    return read_flag(row, text);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(read_whole(row, text));  // the row's bounds keep it within T
  } else if constexpr (std::is_same_v<T, double>) {
    return read_real(row, text);
  } else if constexpr (std::is_same_v<T, Rational>) {
    return read_exact(row, text);
  } else if constexpr (std::is_same_v<T, TopologyRef>) {
    return TopologyRef(std::string(text));
  } else {
    static_assert(std::is_same_v<T, std::string>, "a row of another type reads its items with a parser: into(member, parse)");
    return read_text(row, text);
  }
}

/// Refuses the setting @p name, given as @p value (none: not given), where it does not apply
/// (@p applies false): a run that ignored it would answer what was not asked. @p when names what
/// it needs «like_this». Requests with a table check this through GivenSettings; others call it.
/// @throws UsageError about @p name.
void applies_only(std::string_view name, const std::optional<std::string>& value, bool applies, std::string_view when);

/// The settings a face gave, for a request's rules: whether one was given, and as what.
class GivenSettings {
 public:
  explicit GivenSettings(const SettingValues& values) : values_(values) {}
  [[nodiscard]] bool has(std::string_view name) const;
  /// Its text as given ("" when not given).
  [[nodiscard]] std::string text(std::string_view name) const;
  /// Refuses @p name when it was given but does not apply (@p applies false): a run that ignored
  /// it would answer what was not asked. @p when names the settings it needs «like_this».
  /// @throws UsageError about @p name.
  void applies_only(std::string_view name, bool applies, std::string_view when) const;

 private:
  const SettingValues& values_;
};

/// How a row reads a value into the request R.
template <class R>
using SettingReader = std::function<void(R& request, const SettingInfo& row, const SettingValue& value)>;

template <class R>
struct SettingRow {
  SettingInfo info;
  SettingReader<R> read;
};

namespace detail {
template <class T>
struct Field {
  using Item = T;
  static constexpr bool LIST = false;
};
template <class T>
struct Field<std::optional<T>> {
  using Item = T;
  static constexpr bool LIST = false;
};
template <class T, class A>
struct Field<std::vector<T, A>> {
  using Item = T;
  static constexpr bool LIST = true;
};

/// @p value's items: the topologies a face gave, or the text split at commas (@p split) or whole
/// (a member that holds a list as its text).
template <class Item>
std::vector<Item> items_of(const SettingValue& value, const std::function<Item(std::string_view)>& parse, bool split);
}  // namespace detail

/// The reader that sets @p member (T, std::optional<T> or std::vector<T>; a vector takes every
/// item of a list) from items read as read_item<T>() reads them — or by @p parse (text → T) for
/// a type of the request's own, after the row's own check (a CHOICE's choices). An empty text
/// leaves an optional member unset.
template <class R, class M, class Parse>
SettingReader<R> into(M R::*member, Parse parse) {
  using Item = typename detail::Field<M>::Item;
  return [member, parse](R& request, const SettingInfo& row, const SettingValue& value) {
    const std::function<Item(std::string_view)> item = [&row, &parse](std::string_view text) {
      if constexpr (std::is_invocable_r_v<Item, Parse, std::string_view>) {
        if (row.type == SettingType::CHOICE) (void)read_text(row, text);
        return parse(text);
      } else {
        return read_item<Item>(row, text);
      }
    };
    auto& field = request.*member;
    if constexpr (detail::Field<M>::LIST) {
      field = detail::items_of<Item>(value, item, /*split=*/true);
    } else {
      if constexpr (!std::is_same_v<M, Item>) {
        if (value.text.empty() && value.topologies.empty()) {
          field.reset();
          return;
        }
      }
      field = detail::items_of<Item>(value, item, /*split=*/false).at(0);
    }
  };
}
/// No parser: items read by the row's type.
struct ByType {};
template <class R, class M>
SettingReader<R> into(M R::*member) {
  return into(member, ByType{});
}

/// The reader that hands @p store the value read as @p V (T, std::optional<T> or std::vector<T>),
/// for a setting that sets more than one member or a member of a member: by<R, V>(store).
template <class R, class V, class Store>
SettingReader<R> by(Store store) {
  struct Holder {
    V value{};
  };
  return [store](R& request, const SettingInfo& row, const SettingValue& value) {
    Holder h;
    into(&Holder::value)(h, row, value);
    store(request, std::move(h.value));
  };
}

/// A misspelt name is answered with the nearest name at most MAX_SUGGESTION_EDITS edits away, with
/// at most one edit per LETTERS_PER_EDIT letters of the longer of the two (so that a short name is
/// not offered for any short word).
inline constexpr std::size_t MAX_SUGGESTION_EDITS = 2;
inline constexpr std::size_t LETTERS_PER_EDIT = 3;
/// The Damerau–Levenshtein distance in its optimal-string-alignment form: insertions, deletions,
/// substitutions and swaps of two neighbouring characters, each substring edited once.
/// Complexity: O(|a|·|b|).
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);
/// The name of @p choices nearest to @p word within the limits above (the first of them on a tie),
/// leading dashes left out of the comparison; nullopt when none is near enough.
[[nodiscard]] std::optional<std::string> nearest(std::string_view word, const std::vector<std::string>& choices);

/// The table of a request R: its rows, in the order the faces list them, and the rules across
/// settings (or that need the topology) checked after every row has been read.
template <class R>
class SettingTable {
 public:
  using Rules = std::function<void(const R& request, const GivenSettings& given)>;

  SettingTable(std::string call, std::vector<SettingRow<R>> rows, Rules rules = {})
      : call_(std::move(call)), rows_(std::move(rows)), rules_(std::move(rules)) {
    for (const auto& r : rows_) infos_.push_back(r.info);
  }

  /// The call the table belongs to ("whatif"), for messages.
  [[nodiscard]] const std::string& call() const { return call_; }
  [[nodiscard]] const std::vector<SettingInfo>& rows() const { return infos_; }

  /// @p start with every row read from @p given, or from its default when not given (a row with
  /// neither leaves its member as @p start has it), then checked by the rules.
  /// @throws UsageError about a setting the table lacks (naming the nearest), given twice, or
  /// whose value is wrong, or that a rule refuses.
  [[nodiscard]] R parse(const SettingValues& given, R start) const {
    check_names(given);
    for (const auto& row : rows_) {
      const SettingValue* value = find(given, row.info.name);
      if (value != nullptr) {
        row.read(start, row.info, *value);
      } else if (row.info.fallback) {
        row.read(start, row.info, SettingValue{*row.info.fallback, {}});
      }
    }
    const GivenSettings settings(given);
    check_needs(settings);
    if (rules_) rules_(start, settings);
    return start;
  }
  [[nodiscard]] R parse(const SettingValues& given) const { return parse(given, R{}); }

 private:
  static const SettingValue* find(const SettingValues& given, std::string_view name) {
    for (const auto& [n, v] : given) {
      if (n == name) return &v;
    }
    return nullptr;
  }
  void check_names(const SettingValues& given) const;
  void check_needs(const GivenSettings& given) const;

  std::string call_;
  std::vector<SettingRow<R>> rows_;
  std::vector<SettingInfo> infos_;
  Rules rules_;
};

/// Refuses a setting @p name that @p rows lack (the nearest named) or given twice in @p given.
/// @throws UsageError about it.
void check_setting_names(const std::string& call, const std::vector<SettingInfo>& rows, const SettingValues& given);
/// The same against the names a face's call takes (a table's rows and the face's own keywords,
/// such as Python's program, check and progress), so that a misspelling of any of them is
/// answered with the nearest. @throws UsageError about the first name not among @p names.
void check_setting_names(const std::string& call, const std::vector<std::string>& names, const SettingValues& given);
/// Refuses a required setting not given, and one given while the FLAG setting it needs is not
/// true. @throws UsageError about it.
void check_setting_needs(const std::vector<SettingInfo>& rows, const GivenSettings& given);

template <class R>
void SettingTable<R>::check_names(const SettingValues& given) const {
  check_setting_names(call_, infos_, given);
}
template <class R>
void SettingTable<R>::check_needs(const GivenSettings& given) const {
  check_setting_needs(infos_, given);
}

namespace detail {
template <class Item>
std::vector<Item> items_of(const SettingValue& value, const std::function<Item(std::string_view)>& parse, bool split) {
  std::vector<Item> out;
  if constexpr (std::is_same_v<Item, TopologyRef>) {
    if (!value.topologies.empty()) return value.topologies;
  }
  if (!split) {
    out.push_back(parse(value.text));
    return out;
  }
  for (const auto& item : split_list(value.text)) out.push_back(parse(item));
  return out;
}
}  // namespace detail

}  // namespace starnet::api

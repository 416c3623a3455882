#include <starnet/api/setting_table.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace starnet::api {
namespace {

std::string_view without_dashes(std::string_view name) {
  return name.substr(std::min(name.find_first_not_of('-'), name.size()));
}

UsageError bad(const SettingInfo& row, std::string_view text, const std::string& reason) {
  return UsageError(Setting{row.name, std::string(text)}, reason);
}

/// "a, b or c".
std::string either(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  }
  return out;
}

}  // namespace

std::string_view to_string(SettingType type) {
  switch (type) {
    case SettingType::WHOLE: return "whole number";
    case SettingType::REAL: return "number";
    case SettingType::EXACT: return "exact number";
    case SettingType::FLAG: return "flag";
    case SettingType::TEXT: return "text";
    case SettingType::CHOICE: return "choice";
    case SettingType::PATH: return "file path";
    case SettingType::NODE: return "node";
    case SettingType::TOPOLOGY: return "topology";
  }
  return "text";
}

std::string SettingInfo::range_text() const {
  if (limits.list) return "";
  switch (type) {
    case SettingType::WHOLE:
      return fmt::format("INT in {}..{}", limits.min.value_or(0), limits.max.value_or(UINT64_MAX));
    case SettingType::REAL:
      // ASCII: CLI11 pads the option column by bytes.
      return limits.min ? fmt::format("NUMBER{}{}", limits.strictly ? ">" : ">=", *limits.min) : "";
    case SettingType::CHOICE: {
      std::string set;
      for (const auto& c : limits.choices) set += (set.empty() ? "" : ",") + c;
      return "{" + set + "}";
    }
    default: return "";
  }
}

std::uint64_t read_whole(const SettingInfo& row, std::string_view text) {
  const auto lo = static_cast<std::uint64_t>(std::max<std::int64_t>(row.limits.min.value_or(0), 0));
  const std::uint64_t hi = row.limits.max.value_or(UINT64_MAX);
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || at != end || value < lo || value > hi) {
    throw bad(row, text, fmt::format("expected an integer in {}..{}", lo, hi));
  }
  return value;
}

double read_real(const SettingInfo& row, std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  const double value = std::strtod(s.c_str(), &end);
  const bool number = !s.empty() && end == s.c_str() + s.size() && std::isfinite(value);
  const auto lo = static_cast<double>(row.limits.min.value_or(0));
  const bool within = !row.limits.min || (row.limits.strictly ? value > lo : value >= lo);
  if (!number || !within) {
    throw bad(row, text,
              row.limits.min ? fmt::format("expected a finite number {} {}", row.limits.strictly ? ">" : "≥", lo)
                             : "expected a finite number");
  }
  return value;
}

Rational read_exact(const SettingInfo& row, std::string_view text) {
  return parse_number(text, row.name, Rational(row.limits.min.value_or(0)), row.limits.strictly);
}

bool read_flag(const SettingInfo& row, std::string_view text) {
  if (text == "true") return true;
  if (text == "false") return false;
  throw bad(row, text, "expected true or false");
}

std::string read_text(const SettingInfo& row, std::string_view text) {
  const auto& choices = row.limits.choices;
  if (row.type == SettingType::CHOICE && std::find(choices.begin(), choices.end(), text) == choices.end()) {
    throw bad(row, text, "expected " + either(choices));
  }
  return std::string(text);
}

bool GivenSettings::has(std::string_view name) const {
  return std::any_of(values_.begin(), values_.end(), [&](const auto& v) { return v.first == name; });
}

std::string GivenSettings::text(std::string_view name) const {
  for (const auto& [n, v] : values_) {
    if (n == name) return v.text;
  }
  return "";
}

void applies_only(std::string_view name, const std::optional<std::string>& value, bool applies, std::string_view when) {
  if (applies || !value) return;
  throw UsageError(Setting{std::string(name), *value}, fmt::format("applies only with {} (it would be ignored)", when));
}

void GivenSettings::applies_only(std::string_view name, bool applies, std::string_view when) const {
  api::applies_only(name, has(name) ? std::optional<std::string>(text(name)) : std::nullopt, applies, when);
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  // d[i][j]: the distance between the first i characters of a and the first j of b.
  std::vector<std::size_t> d((n + 1) * (m + 1));
  const auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * (m + 1) + j]; };
  for (std::size_t i = 0; i <= n; ++i) at(i, 0) = i;
  for (std::size_t j = 0; j <= m; ++j) at(0, j) = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
      }
    }
  }
  return at(n, m);
}

std::optional<std::string> nearest(std::string_view word, const std::vector<std::string>& choices) {
  const std::string_view bare = without_dashes(word);
  std::optional<std::string> best;
  std::size_t best_distance = MAX_SUGGESTION_EDITS + 1;
  for (const auto& choice : choices) {
    const std::string_view name = without_dashes(choice);
    const std::size_t d = edit_distance(bare, name);
    if (d < best_distance && d * LETTERS_PER_EDIT <= std::max(bare.size(), name.size())) {
      best = choice;
      best_distance = d;
    }
  }
  return best;
}

void check_setting_names(const std::string& call, const std::vector<SettingInfo>& rows, const SettingValues& given) {
  std::vector<std::string> names;
  for (const auto& r : rows) names.push_back(r.name);
  check_setting_names(call, names, given);
}

void check_setting_names(const std::string& call, const std::vector<std::string>& names, const SettingValues& given) {
  for (std::size_t i = 0; i < given.size(); ++i) {
    const auto& [name, value] = given[i];
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      const auto near = nearest(name, names);
      throw UsageError(Setting{name, value.text},
                       near ? fmt::format("{} takes no such setting (did you mean «{}»?)", call, *near)
                            : fmt::format("{} takes no such setting", call));
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (given[j].first == name) throw UsageError(Setting{name, value.text}, "given twice");
    }
  }
}

void check_setting_needs(const std::vector<SettingInfo>& rows, const GivenSettings& given) {
  for (const auto& r : rows) {
    if (r.limits.required && !given.has(r.name)) throw UsageError(Setting{r.name, ""}, "required");
    if (r.limits.needs.empty()) continue;
    const bool on = given.has(r.limits.needs) && given.text(r.limits.needs) == "true";
    given.applies_only(r.name, on, "«" + r.limits.needs + "»");
  }
}

}  // namespace starnet::api

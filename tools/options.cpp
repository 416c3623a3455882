// Checks of option values and of options that apply only with others (docs/limits.md): a value
// CLI11 would wrap (-1 into a 64-bit unsigned) or clamp (99999999999999999999 into a 64-bit
// signed), a number that is not finite, an option the run would silently ignore. And the flag
// each library setting is given by, for the messages of errors about one.
#include "command.hpp"

#include <starnet/api/gantt.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/core.hpp>

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

namespace starnet::tools {
namespace {

/// Whether all of @p text is an integer of type T (no sign for unsigned, no spaces), into @p value.
template <class T>
bool whole_integer(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && at == end && !text.empty();
}

template <class T>
CLI::Validator integer_validator(T lo, T hi) {
  const std::string range = fmt::format("{}..{}", lo, hi);
  return {[lo, hi, range](const std::string& text) -> std::string {
            T value{};
            if (whole_integer(text, value) && value >= lo && value <= hi) return "";
            return fmt::format("\"{}\": expected an integer in {}", text, range);
          },
          "INT in " + range};
}

}  // namespace

std::string time_text(const Rational& t) {
  // Fractions longer than this are hard to read: their decimal goes beside them.
  constexpr std::size_t LONG_FRACTION = 7;
  const std::string exact = t.to_string();
  if (t.is_integer() || exact.size() <= LONG_FRACTION) return exact;
  return fmt::format("{} ≈ {:.6g}", exact, t.to_double());
}

CLI::Option* add_gantt_option(CLI::App& cmd, std::string& path, std::string_view what) {
  return cmd
      .add_option("--gantt", path,
                  fmt::format("Draw {} as a Gantt chart, SVG (one row per node, at most {}; docs/viz.md)", what,
                              api::MAX_GANTT_ROWS))
      ->check(output_file({".svg"}));
}

void add_op_option(CLI::App& cmd, std::string& op, std::string_view what) {
  cmd.add_option("--op", op, fmt::format("{}: sum (mod 2^64), min, max or xor", what))
      ->check(CLI::IsMember(std::vector<std::string>(api::OP_NAMES.begin(), api::OP_NAMES.end())))
      ->capture_default_str();
}

void add_values_option(CLI::App& cmd, std::string& values, std::string_view what) {
  cmd.add_option("--values", values, std::string(what))
      ->check(CLI::IsMember(std::vector<std::string>(api::VALUES_NAMES.begin(), api::VALUES_NAMES.end())))
      ->capture_default_str();
}

CLI::Validator integer_in(long long lo, long long hi) { return integer_validator<long long>(lo, hi); }

CLI::Validator any_seed() { return integer_validator<std::uint64_t>(0, UINT64_MAX); }

CLI::Validator finite_number(double lo) {
  return {[lo](const std::string& text) -> std::string {
            char* end = nullptr;
            const double value = std::strtod(text.c_str(), &end);
            if (!text.empty() && end == text.c_str() + text.size() && std::isfinite(value) && value >= lo) return "";
            return fmt::format("\"{}\": expected a finite number ≥ {}", text, lo);
          },
          fmt::format("NUMBER>={}", lo)};  // ASCII: CLI11 pads the option column by bytes
}

void SettingOptions::add_to(CLI::App& cmd, const std::vector<api::SettingInfo>& rows) {
  rows_ = rows;
  for (const auto& row : rows_) {
    const std::string flag = flag_of(row.name);
    const std::string help = api::name_settings(row.help, flag_of);
    if (row.type == api::SettingType::FLAG) {
      bool& on = flags_[row.name];
      on = row.fallback == "true";
      options_[row.name] = cmd.add_flag(flag, on, help);
      texts_[row.name] = on ? "true" : "false";
      continue;
    }
    std::string& text = texts_[row.name];
    text = row.fallback.value_or("");
    const bool whole = row.type == api::SettingType::WHOLE && !row.limits.list;
    const bool real = row.type == api::SettingType::REAL && !row.limits.list;
    auto* option = cmd.add_option(flag, text, help)->type_name(whole ? "UINT" : real ? "FLOAT" : "TEXT");
    // The range is shown, not checked here: the api checks every value (SettingTable::parse).
    if (const auto range = row.range_text(); !range.empty()) option->check(CLI::Validator(range));
    options_[row.name] = option;
  }
}

api::SettingValues SettingOptions::given() const {
  api::SettingValues values;
  for (const auto& row : rows_) {
    const CLI::Option* option = options_.at(row.name);
    if (option->count() == 0) continue;
    const std::string text = row.type == api::SettingType::FLAG ? (flags_.at(row.name) ? "true" : "false")
                                                                : texts_.at(row.name);
    values.emplace_back(row.name, api::SettingValue{text, {}});
  }
  return values;
}

void applies_only(const CLI::App& cmd, const std::string& option, bool applies, std::string_view when) {
  const CLI::Option* o = cmd.get_option_no_throw(option);
  if (applies || o == nullptr || o->count() == 0) return;
  std::string given = option;
  for (const auto& value : o->results()) given += " " + value;
  throw UsageError(fmt::format("{}: applies only with {} (it would be ignored)", given, when));
}

std::string flag_of(std::string_view setting) {
  // Settings named in words by the algorithms' own calls; every other setting is a keyword of
  // starnet::api (api/settings.hpp), whose flag is the keyword in kebab case: max_n → --max-n.
  static const std::map<std::string_view, std::string_view> FLAG_OF = {
      {"key descriptor", "--key-fd"},
      {"failed links", "--fail-links"},
      {"failed nodes", "--fail-nodes"},
      {"port models", "--ports/--duplex"},
      {"failure probability", "--fail-random"},
      {"message size", "--message-size"},
      {"algorithms", "--algos"},
      {"limit K", "--k"},
      {"coordinator", "--connect"},
  };
  if (const auto flag = FLAG_OF.find(setting); flag != FLAG_OF.end()) return std::string(flag->second);
  if (setting.empty() || setting.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string_view::npos) {
    return std::string(setting);
  }
  std::string flag = "--";
  for (const char c : setting) flag += c == '_' ? '-' : c;
  return flag;
}

std::string command_line_message(const Error& e) {
  const Setting* setting = e.setting();
  if (setting == nullptr) return api::name_settings(e.what(), flag_of);
  const std::string flag = flag_of(setting->name);
  return fmt::format("{}{}{}: {}", flag, setting->value.empty() ? "" : " ", setting->value,
                     api::name_settings(e.reason(), flag_of));
}

}  // namespace starnet::tools

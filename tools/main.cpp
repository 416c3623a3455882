// The `starnet` command: one executable, one subcommand per tools/*_command.cpp.
#include "command.hpp"
#include "json_output.hpp"
#include "progress.hpp"
#include "suggest.hpp"

#include <starnet/api/core.hpp>
#include <starnet/api/topology.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <regex>
#include <set>
#include <string>
#include <exception>
#include <vector>

namespace {

/// Refuses a command line whose last command has subcommands but names none, with the choices
/// (CLI11 would only say "A subcommand is required").
void require_subcommand_chosen(const CLI::App& app) {
  const CLI::App* at = &app;
  while (!at->get_subcommands().empty()) at = at->get_subcommands().front();
  const auto choices = at->get_subcommands([](const CLI::App*) { return true; });
  if (choices.empty()) return;
  std::string names;
  for (const auto* c : choices) names += (names.empty() ? "" : ", ") + c->get_name();
  const std::string path = at == &app ? "starnet" : "starnet " + at->get_name();
  throw CLI::RequiredError(fmt::format("{}: expected a subcommand: {}", path, names), CLI::ExitCodes::RequiredError);
}

/// CLI11's "Could not convert: --n = abc", with what the option takes.
std::string conversion_message(const CLI::App& app, const CLI::ConversionError& e) {
  const std::string text = e.what();
  const auto colon = text.find(": ");
  const auto equals = text.find(" = ");
  if (colon == std::string::npos || equals == std::string::npos || equals < colon) return text;
  const std::string name = text.substr(colon + 2, equals - colon - 2);
  for (const CLI::App* at = &app; at != nullptr;) {
    if (const CLI::Option* o = at->get_option_no_throw(name); o != nullptr) {
      const std::string type = o->get_type_name();
      if (type.starts_with("UINT")) return text + " (expected an integer ≥ 0)";
      if (type.starts_with("INT")) return text + " (expected an integer)";
      if (type.starts_with("FLOAT")) return text + " (expected a number)";
      return text;
    }
    at = at->get_subcommands().empty() ? nullptr : at->get_subcommands().front();
  }
  return text;
}

/// CLI11's "--duplex: quarter not in {full,half}" as every other refusal is said: "--duplex
/// quarter: expected full or half".
std::string choice_message(const std::string& text) {
  static const std::regex NOT_IN(R"((-[-\w]+): (.*) not in \{(.*)\})");
  std::smatch m;
  if (!std::regex_match(text, m, NOT_IN)) return text;
  std::string choices = m[3].str();
  const auto last = choices.rfind(',');
  if (last != std::string::npos) choices.replace(last, 1, " or ");
  for (auto comma = choices.find(','); comma != std::string::npos; comma = choices.find(',', comma + 2)) {
    choices.replace(comma, 1, ", ");
  }
  return fmt::format("{} {}: expected {}", m[1].str(), m[2].str(), choices);
}

/// @p code, unless standard output could not be written: a full disk or a closed pipe must not
/// pass for success (exit 3).
int checked_stdout(int code) {
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "starnet: error: standard output: writing failed (%s)\n", std::strerror(errno));
    return 3;
  }
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace starnet::tools;
  CLI::App app{
      "starnet — an emulator of processor interconnects centred on the star graph S_n.\n"
      "Exit codes: 0 success, 1 a verification failed, 2 bad input or usage, 3 a runtime failure, 4 nothing ran.",
      "starnet"};
  app.require_subcommand(0, 1);  // an unknown word is then named (ExtrasError); none: see require_subcommand_chosen()
  // A graph file's unused attributes are named once each, whichever command read the file.
  starnet::api::set_file_warning_sink([shown = std::set<std::string>{}](const std::string& w) mutable {
    if (shown.insert(w).second) std::fprintf(stderr, "starnet: warning: %s\n", printable(w, Lines::ONE).c_str());
  });
  app.set_help_all_flag("--help-all", "Print the help of every subcommand and exit");
  app.set_version_flag("--version", "starnet " + std::string(version()));
  std::string progress = "auto";
  app.add_option("--progress", progress,
                 "auto (on stderr when it is a terminal), always or never: progress of anything that runs longer "
                 "than a second, on every subcommand")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  // Subcommands inherit fallthrough: `starnet allreduce --progress never` reaches the option above.
  app.fallthrough();
  Action action;
  add_subcommands(app, action);
  try {
    app.parse(argc, argv);
    require_subcommand_chosen(app);
  } catch (const CLI::CallForHelp& e) {
    return checked_stdout(app.exit(e));
  } catch (const CLI::CallForAllHelp& e) {
    return checked_stdout(app.exit(e));
  } catch (const CLI::CallForVersion& e) {
    return checked_stdout(app.exit(e));
  } catch (const CLI::ParseError& e) {
    std::string message = choice_message(e.what());
    if (const auto* conversion = dynamic_cast<const CLI::ConversionError*>(&e)) message = conversion_message(app, *conversion);
    // CLI11 lists the words it did not expect, last first: name the first, with the nearest choice.
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
      message = unexpected_word_message(app, std::vector<std::string>(argv + 1, argv + argc)).value_or(message);
    }
    std::fprintf(stderr, "starnet: usage error: %s\nRun 'starnet --help' (or 'starnet SUBCOMMAND --help').\n",
                 printable(message, Lines::ONE).c_str());
    return 2;
  } catch (const starnet::Error& e) {
    std::fprintf(stderr, "starnet: error: %s\n", printable(command_line_message(e), Lines::ONE).c_str());
    return e.exit_code();
  }
  try {
    int code = 0;
    {
      const CLI::App* command = app.get_subcommands().front();
      // Worker processes share their parent's terminal: only the parent reports.
      const bool worker = command->get_name() == "worker";
      const ProgressMeter meter(command->get_name(), worker ? ProgressMode::NEVER : parse_progress_mode(progress));
      code = action ? action() : 0;
    }
    return checked_stdout(code);
  } catch (const starnet::Error& e) {
    std::fprintf(stderr, "starnet: error: %s\n", printable(command_line_message(e), Lines::ONE).c_str());
    return e.exit_code();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "starnet: error: out of memory (try a smaller topology)\n");
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "starnet: internal error: %s\n", printable(e.what(), Lines::ONE).c_str());
    return 3;
  }
}

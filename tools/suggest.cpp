// The nearest subcommand or option for a word the command line does not know (suggest.hpp).
#include "suggest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace starnet::tools {
namespace {

/// Whether CLI11 reads @p arg as an option: a dash and a letter (`-1` and `-` are values).
bool looks_like_option(std::string_view arg) {
  return arg.size() > 1 && arg[0] == '-' && !(arg[1] >= '0' && arg[1] <= '9') && arg[1] != '.';
}

/// The commands from the root to the last one named on the command line.
std::vector<const CLI::App*> parsed_chain(const CLI::App& app) {
  std::vector<const CLI::App*> chain{&app};
  while (!chain.back()->get_subcommands().empty()) chain.push_back(chain.back()->get_subcommands().front());
  return chain;
}

/// `topo info` for the chain root → topo → info; empty for the root alone.
std::string path_of(const std::vector<const CLI::App*>& chain) {
  std::string path;
  for (std::size_t i = 1; i < chain.size(); ++i) path += (path.empty() ? "" : " ") + chain[i]->get_name();
  return path;
}

/// The subcommands of @p at a user may name (not hidden, not option groups), aliases after names.
std::vector<std::string> subcommand_names(const CLI::App& at) {
  std::vector<std::string> names;
  std::vector<std::string> aliases;
  for (const CLI::App* sub : at.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name().empty() || sub->get_group().empty()) continue;
    names.push_back(sub->get_name());
    for (const auto& alias : sub->get_aliases()) aliases.push_back(alias);
  }
  names.insert(names.end(), aliases.begin(), aliases.end());
  return names;
}

/// The options of the last command named and of the commands above it (subcommands fall through
/// to their parents' options): each long name as --name, each short one as -n; the first name of
/// each option also in @p listed, for the list of choices.
std::vector<std::string> option_names(const std::vector<const CLI::App*>& chain, std::vector<std::string>& listed) {
  std::vector<std::string> names;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    for (const CLI::Option* o : (*it)->get_options()) {
      if (o->get_group().empty()) continue;  // hidden
      std::vector<std::string> own;
      for (const auto& l : o->get_lnames()) own.push_back("--" + l);
      for (const auto& s : o->get_snames()) own.push_back("-" + s);
      if (own.empty()) continue;  // a positional
      if (std::find(listed.begin(), listed.end(), own.front()) == listed.end()) listed.push_back(own.front());
      names.insert(names.end(), own.begin(), own.end());
    }
  }
  return names;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

/// " (did you mean "X"?)" or " (expected one of: ...)".
std::string hint(std::string_view word, const std::vector<std::string>& choices, const std::vector<std::string>& listed) {
  if (const auto best = nearest(word, choices)) return fmt::format(" (did you mean \"{}\"?)", *best);
  return fmt::format(" (expected one of: {})", join(listed));
}

}  // namespace

std::optional<std::string> unexpected_word_message(const CLI::App& app, const std::vector<std::string>& args) {
  std::map<std::string, std::size_t> left_over;
  for (const auto& word : app.remaining(/*recurse=*/true)) ++left_over[word];
  const auto first = std::find_if(args.begin(), args.end(), [&](const std::string& a) { return left_over[a] > 0; });
  if (first == args.end()) return std::nullopt;
  const auto chain = parsed_chain(app);
  const std::string path = path_of(chain);
  const std::string where = path.empty() ? "" : path + ": ";
  if (looks_like_option(*first)) {
    const std::string name = first->substr(0, first->find('='));
    std::vector<std::string> listed;
    const auto names = option_names(chain, listed);
    return fmt::format("{}unknown option \"{}\"{}", where, name, hint(name, names, listed));
  }
  const auto subcommands = subcommand_names(*chain.back());
  if (!subcommands.empty()) {
    return fmt::format("{}unknown subcommand \"{}\"{}", where, *first, hint(*first, subcommands, subcommands));
  }
  return fmt::format("{}unexpected argument \"{}\" (see 'starnet {}--help')", where, *first,
                     path.empty() ? "" : path + " ");
}

}  // namespace starnet::tools

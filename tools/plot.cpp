#include "plot.hpp"

#include "command.hpp"

#include <starnet/topology/error.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace starnet::tools {

std::string gnuplot_quote(const std::string& text) {
  std::string out = "'";
  for (const char ch : text) out += ch == '\'' ? std::string("''") : std::string(1, ch);
  return out + "'";
}

void check_plot_name(const std::string& plot) {
  if (!plot.ends_with(".svg") && !plot.ends_with(".png")) {
    throw UsageError(fmt::format("--plot \"{}\": expected a file name ending in .svg or .png", plot));
  }
}

std::string gnuplot_terminal(const std::string& plot, int width, int height) {
  return plot.ends_with(".svg")
             ? fmt::format("set terminal svg size {},{} dynamic background rgb 'white' font 'sans,12'\nset output 'plot.out'\n",
                           width, height)
             : fmt::format("set terminal pngcairo size {},{} font 'sans,11'\nset output 'plot.out'\n", width, height);
}

void draw_gnuplot(const std::string& plot, const std::string& script,
                  const std::vector<std::pair<std::string, std::string>>& data) {
  namespace fs = std::filesystem;
  std::string pattern = (fs::temp_directory_path() / "starnet-plot-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw Error(fmt::format("--plot \"{}\": cannot create a scratch folder", plot));
  const fs::path dir(pattern);
  const auto cleanup = [&] {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  };
  for (const auto& [name, content] : data) std::ofstream(dir / name) << content;
  std::ofstream(dir / "plot.gp") << script;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, (dir / "gnuplot.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  const std::string cd_and_run = fmt::format("cd {} && exec gnuplot plot.gp", gnuplot_quote(dir.string()));
  std::string shell = "/bin/sh";
  std::string dash_c = "-c";
  std::vector<char*> argv{shell.data(), dash_c.data(), const_cast<char*>(cd_and_run.c_str()), nullptr};
  pid_t pid = 0;
  int status = 0;
  const int spawned = ::posix_spawn(&pid, "/bin/sh", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  const bool ran = spawned == 0 && ::waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::stringstream produced;
  produced << std::ifstream(dir / "plot.out", std::ios::binary).rdbuf();
  if (!ran || produced.str().empty()) {
    std::stringstream log;
    log << std::ifstream(dir / "gnuplot.log").rdbuf();
    cleanup();
    throw Error(fmt::format("--plot \"{}\": gnuplot failed ({}; gnuplot-nox is in tools/packages.txt): {}", plot,
                            spawned != 0 ? "cannot be started" : "non-zero exit", log.str()));
  }
  cleanup();
  write_file_atomically(plot, produced.str());
}

}  // namespace starnet::tools

#include "plot.hpp"

#include "command.hpp"

#include <starnet/api/core.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace starnet::tools {

GnuplotData datablock(const api::FigureTable& table) {
  std::string rows = "# " + fmt::format("{}", fmt::join(table.columns, ", ")) + "\n";
  for (const auto& block : table.blocks) {
    rows += "# " + block.label + "\n";
    for (const auto& row : block.rows) {
      for (std::size_t k = 0; k < row.size(); ++k) {
        rows += (k == 0 ? "" : " ") + (std::isnan(row[k]) ? std::string("NaN") : fmt::format("{:.9g}", row[k]));
      }
      rows += "\n";
    }
    rows += table.grid ? "\n" : "\n\n";
  }
  return {table.name, rows};
}
namespace {

bool is_identifier(const std::string& name) {
  const auto word = [](unsigned char ch) { return std::isalnum(ch) != 0 || ch == '_'; };
  return !name.empty() && std::isdigit(static_cast<unsigned char>(name.front())) == 0 &&
         std::all_of(name.begin(), name.end(), word);
}

/// The whole of FILE.gp: what the figure is, how to redraw it, the data, the drawing.
std::string script_file(const std::string& plot, const std::string& about, const std::string& script,
                        const std::vector<GnuplotData>& data) {
  namespace fs = std::filesystem;
  const std::string figure = fs::path(plot).filename().string();
  const std::string self = fs::path(gnuplot_script_path(plot)).filename().string();
  const std::string format = plot.substr(plot.size() - 3);
  std::string out;
  std::istringstream about_lines(about);
  for (std::string line; std::getline(about_lines, line);) out += "# " + line + "\n";
  // ARG0 is the script's path as gnuplot was given it: the figure goes beside the script wherever
  // gnuplot runs, and a copy of the script (restyled.gp) draws its own figure (restyled.svg).
  out += fmt::format(
      "# Drawn by starnet through gnuplot; the data are inline ($name << EOD blocks), so this file is\n"
      "# all it takes to restyle the figure. Edit it, then redraw:\n"
      "#   gnuplot {0}    (redraws {1} beside this script, wherever gnuplot runs)\n"
      "#   gnuplot -e \"outfile='other.{2}'\" {0}    (writes other.{2} instead; {2}: the terminal below)\n"
      "if (!exists(\"outfile\")) outfile = (ARG0[strlen(ARG0)-2:] eq '.gp') ? ARG0[:strlen(ARG0)-2].'{2}' : {3}\n",
      self, figure, format, gnuplot_quote(figure));
  for (const auto& [name, rows] : data) {
    STARNET_ASSERT(is_identifier(name));
    out += "$" + name + " << EOD\n";
    std::istringstream lines(rows);
    for (std::string line; std::getline(lines, line);) {
      STARNET_ASSERT(line != "EOD");
      out += line + "\n";
    }
    out += "EOD\n";
  }
  return out + script;
}

}  // namespace

std::string gnuplot_quote(const std::string& text) {
  std::string out = "'";
  for (const char ch : text) out += ch == '\'' ? std::string("''") : std::string(1, ch);
  return out + "'";
}


std::string gnuplot_script_path(const std::string& plot) { return plot.substr(0, plot.size() - 4) + ".gp"; }

std::string gnuplot_terminal(const std::string& plot, int width, int height, int font_points) {
  return plot.ends_with(".svg")
             ? fmt::format("set terminal svg size {},{} dynamic background rgb 'white' font 'sans,{}'\nset output outfile\n",
                           width, height, font_points)
             : fmt::format("set terminal pngcairo size {},{} font 'sans,{}'\nset output outfile\n", width, height,
                           font_points - 1);
}

void draw_gnuplot(const std::string& plot, const std::string& about, const std::string& script,
                  const std::vector<GnuplotData>& data) {
  namespace fs = std::filesystem;
  const std::string text = script_file(plot, about, script, data);
  std::string pattern = (fs::temp_directory_path() / "starnet-plot-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw Error(fmt::format("--plot \"{}\": cannot create a scratch folder", plot));
  const fs::path dir(pattern);
  const auto cleanup = [&] {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  };
  if (!(std::ofstream(dir / "plot.gp") << text)) {
    cleanup();
    throw Error(fmt::format("--plot \"{}\": cannot write gnuplot's script into a scratch folder", plot));
  }
  // The script reads nothing but itself and writes nothing but `outfile`: no shell, no cd.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, (dir / "gnuplot.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::string program = "gnuplot";
  std::string dash_e = "-e";
  std::string set_outfile = "outfile = " + gnuplot_quote((dir / "plot.out").string());
  std::string script_path = (dir / "plot.gp").string();
  std::vector<char*> argv{program.data(), dash_e.data(), set_outfile.data(), script_path.data(), nullptr};
  pid_t pid = 0;
  int status = 0;
  const int spawned = ::posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  const bool ran = spawned == 0 && ::waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::stringstream produced;
  produced << std::ifstream(dir / "plot.out", std::ios::binary).rdbuf();
  if (!ran || produced.str().empty()) {
    std::stringstream log;
    log << std::ifstream(dir / "gnuplot.log").rdbuf();
    cleanup();
    // The script holds the figure's data: kept, it draws the figure once gnuplot is there.
    const std::string kept = gnuplot_script_path(plot);
    write_file_atomically(kept, text);
    throw Error(fmt::format("--plot \"{}\": gnuplot failed ({}; gnuplot-nox is in tools/packages.txt), the script "
                            "is kept in \"{}\" (`gnuplot {}` draws the figure): {}",
                            plot, spawned != 0 ? "cannot be started" : "non-zero exit", kept, kept,
                            log.str()));
  }
  cleanup();
  // The script first: whoever finds the new figure finds the script that drew it.
  write_file_atomically(gnuplot_script_path(plot), text);
  write_file_atomically(plot, produced.str());
}

}  // namespace starnet::tools

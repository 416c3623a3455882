#pragma once
/// @file
/// Figures through gnuplot, for every subcommand with --plot: data and script go to a scratch
/// folder, gnuplot runs there, and the figure is moved into place atomically (never half-written).

#include <string>
#include <utility>
#include <vector>

namespace starnet::tools {

/// A string literal for a gnuplot script (single quotes, a quote doubled).
[[nodiscard]] std::string gnuplot_quote(const std::string& text);

/// @throws UsageError naming --plot unless @p plot ends in .svg or .png.
void check_plot_name(const std::string& plot);

/// The terminal lines of a script drawing @p width × @p height pixels to `plot.out`, SVG or PNG as
/// @p plot's extension says.
[[nodiscard]] std::string gnuplot_terminal(const std::string& plot, int width, int height);

/// Runs gnuplot on @p script with the files @p data (name, content) beside it, and writes the
/// figure the script draws to `plot.out` into @p plot.
/// @throws Error naming the plot and gnuplot's complaint when gnuplot fails.
void draw_gnuplot(const std::string& plot, const std::string& script,
                  const std::vector<std::pair<std::string, std::string>>& data);

}  // namespace starnet::tools

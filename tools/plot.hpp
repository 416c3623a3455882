#pragma once
/// @file
/// Figures through gnuplot, for every subcommand with --plot. A figure FILE.svg (or FILE.png) comes
/// with its script FILE.gp beside it, self-contained — the data inline as datablocks — so that
/// users can restyle it and redraw with `gnuplot FILE.gp`. gnuplot runs that very script in a
/// scratch folder; both files are moved into place atomically (never half-written).
///
/// IMPORTANT: SVG markers are drawn with `scale(pointsize)`, and librsvg (rsvg-convert, GNOME)
/// rejects `scale(0)` as a singular matrix: never give a plot style with points `ps 0` (draw a
/// line without markers instead: `with lines`, `with vectors nohead`). tests/tools check that
/// every SVG of --plot renders in rsvg-convert.

#include <starnet/api/figures.hpp>

#include <string>
#include <vector>

namespace starnet::tools {

/// A string literal for a gnuplot script (single quotes, a quote doubled).
[[nodiscard]] std::string gnuplot_quote(const std::string& text);

/// The script kept beside @p plot: FILE.gp for FILE.svg or FILE.png. @pre @p plot ends in .svg or
/// .png (the --plot options check it: output_file()).
[[nodiscard]] std::string gnuplot_script_path(const std::string& plot);

/// The terminal lines of a script drawing @p width × @p height pixels to `outfile` (see
/// draw_gnuplot), SVG or PNG as @p plot's extension says; text in sans of @p font_points points
/// (one less in PNG, whose cairo fonts look larger).
[[nodiscard]] std::string gnuplot_terminal(const std::string& plot, int width, int height, int font_points = 12);

/// One table of a figure, inlined into its script as the datablock `$name`.
struct GnuplotData {
  std::string name;  ///< a gnuplot identifier (letters, digits, _; not a digit first)
  std::string rows;  ///< columns separated by spaces, '\n' after each row; `#` comments allowed
};

/// @p table as its datablock `$name`: a comment naming the columns, a comment before each block
/// with its label, blocks two blank lines apart (gnuplot's `index`) or, for a grid, one (its scans);
/// values with 9 significant digits, NaN where there is none.
[[nodiscard]] GnuplotData datablock(const api::FigureTable& table);

/// Draws @p plot with gnuplot and keeps its script as gnuplot_script_path(plot): @p about as
/// comment lines, how to redraw, `outfile` (FILE.svg beside the script unless set with -e), the
/// datablocks @p data, then @p script. gnuplot runs that script in a scratch folder; once it has
/// drawn the figure, the script and then the figure are written atomically, so the .gp kept is the
/// one that drew the figure, byte for byte.
/// @param about what the figure shows and the command that computed its data, one line each
/// @param script starts with gnuplot_terminal(plot, …) and reads the data as `$name`
/// @pre every name is an identifier and no row of @p data reads `EOD` (the datablocks' end)
/// @throws Error naming the plot, the script and gnuplot's complaint when gnuplot fails or is
/// missing (the script is then kept all the same, without the figure); UsageError naming the path
/// when the script or the figure cannot be written.
///
///     draw_gnuplot("f.svg", "Figure 1 of the paper, from `starnet x --study figure1`",
///                  gnuplot_terminal("f.svg", 900, 540) + "plot $points using 1:2 with lines\n",
///                  {{"points", "1 2\n2 4\n"}});
void draw_gnuplot(const std::string& plot, const std::string& about, const std::string& script,
                  const std::vector<GnuplotData>& data);

}  // namespace starnet::tools

// `starnet topo draw SPEC -o FILE.svg`: a drawing of a topology through Graphviz (api/drawing.hpp,
// docs/viz.md).
#include "command.hpp"

#include <starnet/api/drawing.hpp>

#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>

namespace starnet::tools {
namespace {

struct DrawOptions {
  std::string spec;
  std::string output;
  std::string layout = "auto";
  std::string link_loads;
  std::optional<std::string> load_by;
};

int draw(const DrawOptions& o) {
  std::optional<std::vector<api::LinkReportLine>> lines;
  if (!o.link_loads.empty()) lines = api::read_link_report(o.link_loads, "link_loads");
  const auto loads = api::drawn_loads(std::move(lines), o.load_by, o.link_loads);
  const auto d = api::draw_topology(o.spec, o.layout, loads);
  write_file_atomically(o.output, d.svg);
  if (o.output != "-") {
    std::cout << fmt::format("{}: {} ({}, {}) drawn by Graphviz {}{}{}\n", o.output, o.spec, plural(d.nodes, "node", "nodes"),
                             plural(d.links, "link", "links"), d.engine,
                             d.pinned ? " at the sub-star layout's positions" : "",
                             loads ? fmt::format(", links coloured by {} from {}", loads->by, o.link_loads) : "");
  }
  return 0;
}

}  // namespace

void add_topo_draw_command(CLI::App& topo, Action& action) {
  auto o = std::make_shared<DrawOptions>();
  auto* cmd = topo.add_subcommand(
      "draw", "Draw a topology as SVG through Graphviz: links coloured by dimension, star graphs with their sub-stars");
  cmd->add_option("SPEC", o->spec, fmt::format("The topology (see 'starnet topo --help'), at most {} nodes", api::MAX_DRAW_NODES))->required();
  cmd->add_option("-o,--output", o->output, "The SVG file to write (atomically; - for standard output)")
      ->required()
      ->check(output_file({".svg"}, true));
  cmd->add_option("--layout", o->layout,
                  "auto (circo: ring, complete, debruijn; dot: tiers; neato: others; star graphs: the sub-star "
                  "layout), or a Graphviz engine: dot, neato, circo, fdp, twopi")
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(api::DRAW_LAYOUTS), std::end(api::DRAW_LAYOUTS))))
      ->capture_default_str();
  cmd->add_option("--link-loads", o->link_loads,
                  "Colour the links by load from a link report (the CSV of 'schedule run --link-report' or 'whatif "
                  "--link-report'; its lines of this topology, one run): a scale from light to dark red with a "
                  "legend, links the report does not name grey");
  cmd->add_option("--load-by", o->load_by, "With --link-loads: busy (time held; the default), units or messages")
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(api::LOAD_MEASURES), std::end(api::LOAD_MEASURES))));
  cmd->callback([o, &action] {
    action = [o] { return draw(*o); };
  });
}

}  // namespace starnet::tools

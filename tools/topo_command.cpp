// `starnet topo`: the topology model (info, compare, export).
#include "command.hpp"

#include <starnet/topology/spec.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

namespace starnet::tools {

void add_topo_command(CLI::App& app, Action& action) {
  auto* topo = app.add_subcommand("topo", "Inspect topologies: star graphs S_n and weighted platforms");
  topo->require_subcommand(1);
  auto* info = topo->add_subcommand("info", "Size, degrees, diameter and distances of one topology");
  static std::string spec;
  info->add_option("SPEC", spec, "star:N, hypercube:D, debruijn:D, complete:N, ring:N, torus:AxB, tiers:SEED or a file")
      ->required();
  info->callback([&action] {
    action = [] {
      const topology::StarGraph g(topology::star_dimension(topology::parse_spec(spec)));
      fmt::print("{}: {} nodes\n", g.name(), g.size());
      return 0;
    };
  });
}

}  // namespace starnet::tools

// `starnet topo`: the topology model — info, compare, export (issue 2; docs/topology.md).
#include "command.hpp"

#include <starnet/topology/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/files.hpp>
#include <starnet/topology/properties.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace starnet::tools {
namespace {

using topology::TopologyProperties;

constexpr const char* SPEC_SYNTAX =
    "SPEC is one of:\n"
    "  star:N            star graph S_N, N = 1..12 (implicit; distances: N <= 11;\n                    export and products: N <= 8)\n"
    "  hypercube:D       D-cube, D = 1..16\n"
    "  debruijn:D        undirected binary de Bruijn graph, D = 1..16\n"
    "  complete:N        complete graph, N = 1..1448\n"
    "  ring:N            cycle, N = 1..65536\n"
    "  torus:AxB         ring:A x ring:B;  mesh:AxB: grid of A x B nodes\n"
    "  product:S1*S2...  Cartesian product of two or more of the above or of files\n"
    "  tiers:SEED        seeded random WAN/MAN/LAN platform (routers and LAN processors)\n"
    "  FILE.dot|.gv|.graphml  a platform file (schema: docs/topology.md)\n"
    "Platforms are limited to 65,536 nodes and 1,048,576 links.";

/// Every ordered pair is at some distance or unreachable: Σ h[d] + unreachable = V².
bool self_check(const TopologyProperties& p) {
  const std::uint64_t pairs = std::accumulate(p.distance_histogram.begin(), p.distance_histogram.end(), std::uint64_t{0});
  return pairs + p.unreachable_pairs == p.nodes * p.nodes && (p.nodes == 0 || p.distance_histogram[0] == p.nodes);
}

/// Exit code 1 (DESIGN.md): a verification failed.
int verification_failed(const std::string& what) {
  fmt::print(stderr, "starnet: verification failed: {}\n", what);
  return 1;
}

/// The properties of each spec, or the name of the first whose self-check fails.
std::pair<std::vector<TopologyProperties>, std::optional<std::string>> checked_properties(
    const std::vector<std::string>& specs) {
  std::vector<TopologyProperties> out;
  for (const auto& spec : specs) {
    out.push_back(topology::topology_properties(spec));
    if (!self_check(out.back())) {
      return {out, fmt::format("topology \"{}\": the distance histogram does not count every ordered pair once", spec)};
    }
  }
  return {out, std::nullopt};
}

nlohmann::json to_json(const TopologyProperties& p) {
  const auto diameter = p.diameter();
  const auto average = p.average_distance();
  return {{"name", p.name},
          {"model", p.implicit ? "implicit-star-graph" : "platform"},
          {"nodes", p.nodes},
          {"links", p.links},
          {"directed", p.directed},
          {"processors", p.processors},
          {"degree_min", p.degree_min},
          {"degree_max", p.degree_max},
          {"diameter", diameter ? nlohmann::json(*diameter) : nlohmann::json(nullptr)},
          {"unreachable_pairs", p.unreachable_pairs},
          {"average_distance", average.to_double()},
          {"average_distance_exact", average.to_string()},
          {"distance_histogram", p.distance_histogram},
          {"method", topology::to_string(p.method)}};
}

std::string degree_text(const TopologyProperties& p) {
  return p.degree_min == p.degree_max ? std::to_string(p.degree_max) : fmt::format("{}..{}", p.degree_min, p.degree_max);
}

std::string diameter_text(const TopologyProperties& p) {
  const auto d = p.diameter();
  return d ? std::to_string(*d) : "inf";
}

std::string info_text(const TopologyProperties& p) {
  const auto average = p.average_distance();
  std::string out = fmt::format("{}: {} nodes ({} processors), {} {}{}\n", p.name, p.nodes, p.processors, p.links,
                                p.directed ? "arcs (directed)" : "links (undirected)",
                                p.implicit ? ", implicit star graph" : "");
  out += fmt::format("degree {}, diameter {}, average distance {} = {:.4f}\n", degree_text(p), diameter_text(p),
                     average.to_string(), average.to_double());
  if (p.unreachable_pairs > 0) {
    out += fmt::format("{} ordered pairs are unreachable (the diameter is infinite; averages and the histogram cover "
                       "the reachable pairs)\n",
                       p.unreachable_pairs);
  }
  if (p.distance_histogram.size() <= 32) {
    out += fmt::format("ordered pairs at distance 0..{}: {}\n", p.distance_histogram.size() - 1,
                       fmt::join(p.distance_histogram, " "));
  } else {
    out += fmt::format("distances 0..{} (histogram: --json)\n", p.distance_histogram.size() - 1);
  }
  out += fmt::format("method: {}\n", topology::to_string(p.method));
  return out;
}

std::string compare_table(const std::vector<TopologyProperties>& rows) {
  std::size_t width = 8;
  for (const auto& p : rows) width = std::max(width, p.name.size());
  std::string out = fmt::format("{:<{}}  {:>10}  {:>10}  {:>6}  {:>8}  {:>12}\n", "topology", width, "nodes", "links",
                                "degree", "diameter", "avg distance");
  for (const auto& p : rows) {
    out += fmt::format("{:<{}}  {:>10}  {:>10}  {:>6}  {:>8}  {:>12.4f}\n", p.name, width, p.nodes, p.links,
                       degree_text(p), diameter_text(p), p.average_distance().to_double());
  }
  return out;
}

struct TopoOptions {
  std::vector<std::string> specs;
  std::string spec;
  bool json = false;
  std::string format;
  std::string output = "-";
};

}  // namespace

void add_topo_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<TopoOptions>();
  auto* topo = app.add_subcommand("topo", "Inspect topologies: star graphs S_n, families and weighted platforms");
  topo->require_subcommand(1);
  topo->footer(SPEC_SYNTAX);

  auto* info = topo->add_subcommand(
      "info", "Size, degrees, diameter, average distance and distance histogram of one topology (hop distances)");
  info->add_option("SPEC", opts->spec, "The topology (see 'starnet topo --help')")->required();
  info->add_flag("--json", opts->json,
                 "Print one JSON object: name, model, nodes, links, directed, processors, degree_min, degree_max, "
                 "diameter (null if some pair is unreachable), unreachable_pairs, average_distance, "
                 "average_distance_exact, distance_histogram (ordered pairs at distance d), method");
  info->footer(SPEC_SYNTAX);
  info->callback([opts, &action] {
    action = [opts] {
      const auto [rows, failure] = checked_properties({opts->spec});
      if (failure) return verification_failed(*failure);
      if (opts->json) {
        fmt::print("{}\n", to_json(rows.front()).dump(2));
      } else {
        fmt::print("{}", info_text(rows.front()));
      }
      return 0;
    };
  });

  auto* compare = topo->add_subcommand("compare", "A table of size, links, degree, diameter and average distance");
  compare->add_option("SPEC", opts->specs, "Topologies to compare, e.g. star:5 hypercube:7 debruijn:7")->required();
  compare->add_flag("--json", opts->json, "Print one JSON object {\"topologies\": [...]} with the fields of 'info --json'");
  compare->footer(SPEC_SYNTAX);
  compare->callback([opts, &action] {
    action = [opts] {
      const auto [rows, failure] = checked_properties(opts->specs);
      if (failure) return verification_failed(*failure);
      if (opts->json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& p : rows) list.push_back(to_json(p));
        fmt::print("{}\n", nlohmann::json{{"topologies", list}}.dump(2));
      } else {
        fmt::print("{}", compare_table(rows));
      }
      return 0;
    };
  });

  auto* exporter = topo->add_subcommand("export", "Write a topology as a GraphViz DOT or GraphML file");
  exporter->add_option("SPEC", opts->spec, "The topology (star:N up to N = 8)")->required();
  exporter->add_option("--format", opts->format, "dot or graphml")->required()->check(CLI::IsMember({"dot", "graphml"}));
  exporter->add_option("-o,--output", opts->output, "Output file, written atomically; - for standard output")
      ->capture_default_str();
  exporter->footer(SPEC_SYNTAX);
  exporter->callback([opts, &action] {
    action = [opts] {
      const auto format = topology::parse_file_format(opts->format, "--format");
      const topology::Platform platform = topology::make_platform(opts->spec);
      const std::string text = topology::write_platform(platform, format);
      // Self-check: what is written reads back as the same platform.
      if (const auto diff = topology::difference(platform, topology::parse_platform(text, format, "(export)"))) {
        return verification_failed(fmt::format("topology \"{}\": the exported file reads back differently: {}", opts->spec, *diff));
      }
      write_file_atomically(opts->output, text);
      return 0;
    };
  });

  add_topo_draw_command(*topo, action);
}

}  // namespace starnet::tools

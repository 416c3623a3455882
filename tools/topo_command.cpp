// `starnet topo`: the topology model — info, compare, export (docs/topology.md).
#include "command.hpp"
#include "json_output.hpp"

#include <starnet/api/topology.hpp>

#include <starnet/api/core.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace starnet::tools {
const char* const SPEC_SYNTAX =
    "SPEC is one of:\n"
    "  star:N            star graph S_N, N = 1..12 (implicit; distances: N <= 11;\n                    export and products: N <= 8)\n"
    "  pancake:N         pancake graph (prefix reversals), N = 1..12; bubblesort:N\n"
    "                    (adjacent swaps), transposition:N (all swaps): implicit,\n"
    "                    distances up to 10! nodes, export up to 65,536 nodes\n"
    "  nkstar:N:K        (n,k)-star graph, arrangement:N:K arrangement graph,\n"
    "                    1 <= K < N <= 12 (implicit, like pancake:N)\n"
    "  hypercube:D       D-cube, D = 1..16\n"
    "  debruijn:D        undirected binary de Bruijn graph, D = 1..16\n"
    "  complete:N        complete graph, N = 1..1448\n"
    "  ring:N            cycle, N = 1..65536\n"
    "  torus:AxBx...     ring:A x ring:B x ...;  mesh:AxBx...: grid of paths (1..16 sides)\n"
    "  mct:D:L           mesh-connected trees: product of D complete binary trees of\n                    L levels (MCT_D(L)); properties up to 2^28 nodes\n"
    "  product:S1*S2...  Cartesian product of two or more of the above or of files\n"
    "  fattree:K         k-ary fat-tree, K even 2..62: K^3/4 hosts, 5K^2/4 switches (routers)\n"
    "  dragonfly:A:P:H[:ARR]  dragonfly: A*H+1 groups of A routers, P hosts and H global\n                    links per router; ARR absolute (default), relative or circulant\n"
    "  tiers:SEED        seeded random WAN/MAN/LAN platform (routers and LAN processors)\n"
    "  FILE.dot|.gv|.graphml  a platform file (schema: docs/topology.md; extensions in any case)\n"
    "  FILE.xml          a SimGrid platform (docs/simgrid.md)\n"
    "Platforms are limited to 65,536 nodes and 1,048,576 links.";

namespace {

using api::TopologyProperties;

/// Exit code 1: a verification failed (README, "Exit codes").
int verification_failed(const std::string& what) {
  fmt::print(stderr, "starnet: verification failed: {}\n", what);
  return 1;
}

std::string self_check_failure(const std::string& spec) {
  return fmt::format("topology \"{}\": the distance histogram does not count every ordered pair once", spec);
}

std::string diameter_text(const TopologyProperties& p) {
  const auto d = p.diameter();
  return d ? std::to_string(*d) : "inf";
}

/// "3.7016" or "7/2 ≈ 3.5000" or "2".
std::string average_text(const Rational& average) {
  return average.is_integer() ? average.to_string()
                              : fmt::format("{} ≈ {:.4f}", average.to_string(), average.to_double());
}

/// The line of the distances among a network's hosts (api::TopologyInfo::hosts).
std::string hosts_text(const TopologyProperties& h) {
  return fmt::format("host to host ({} processors, routes through routers only): diameter {}, average distance {}\n",
                     h.processors, diameter_text(h), average_text(h.average_distance()));
}

std::string info_text(const TopologyProperties& p) {
  const auto average = p.average_distance();
  const auto plural = [](std::uint64_t n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
  };
  std::string out = fmt::format("{}: {} ({}), {}{}\n", p.name, plural(p.nodes, "node", "nodes"),
                                plural(p.processors, "processor", "processors"),
                                p.directed ? plural(p.links, "arc (directed)", "arcs (directed)")
                                           : plural(p.links, "link (undirected)", "links (undirected)"),
                                p.implicit ? ", implicit " + p.implicit_graph : "");
  out += fmt::format("degree {}, diameter {}, average distance {}\n", api::degree_text(p), diameter_text(p),
                     average_text(average));
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
  out += fmt::format("method: {}\n", to_string(p.method)  /* topology::to_string, found by its argument */);
  return out;
}

/// The comparison's rows; where one has routers, two columns more: the diameter and the average
/// distance among the hosts ("-" on a direct network, where they are the columns before).
std::string compare_table(const std::vector<api::TopologyInfo>& rows) {
  std::size_t width = 8;
  bool hosts = false;
  for (const auto& r : rows) {
    width = std::max(width, r.properties.name.size());
    hosts = hosts || r.hosts;
  }
  std::string out = fmt::format("{:<{}}  {:>10}  {:>10}  {:>6}  {:>8}  {:>12}", "topology", width, "nodes", "links",
                                "degree", "diameter", "avg distance");
  out += hosts ? fmt::format("  {:>9}  {:>8}\n", "host diam", "host avg") : "\n";
  for (const auto& r : rows) {
    const auto& p = r.properties;
    out += fmt::format("{:<{}}  {:>10}  {:>10}  {:>6}  {:>8}  {:>12.4f}", p.name, width, p.nodes, p.links,
                       api::degree_text(p), diameter_text(p), p.average_distance().to_double());
    if (!hosts) {
      out += "\n";
    } else if (r.hosts) {
      out += fmt::format("  {:>9}  {:>8.4f}\n", diameter_text(*r.hosts), r.hosts->average_distance().to_double());
    } else {
      out += fmt::format("  {:>9}  {:>8}\n", "-", "-");
    }
  }
  return out;
}

/// `topo compare --paper table1`: the paper's rows beside the measured ones; exit 1 if a
/// histogram does not count every ordered pair once.
int print_paper_table1(bool json) {
  const auto table = api::topology_table1();
  if (!table.verified) return verification_failed("Table 1: a distance histogram does not count every ordered pair once");
  if (json) {
    print_json(table.to_json());
    return 0;
  }
  fmt::print("Table 1 of Oh, Choi, Primeaux (2005): networks of sizes similar to S_5 and S_6\n"
             "(size, degree, diameter of each spec beside the paper's; degree: the paper gives the maximum)\n");
  fmt::print("{:<8} {:<21} | {:>7} {:>6} | {:>6} {:>6} | {:>8} {:>6}\n", "model", "spec", "size", "paper", "degree",
             "paper", "diameter", "paper");
  for (const auto& row : table.rows) {
    const auto& p = row.measured;
    fmt::print("{:<8} {:<21} | {:>7} {:>6} | {:>6} {:>6} | {:>8} {:>6}\n", row.model, row.spec, p.nodes, row.size_paper,
               api::degree_text(p), row.degree_paper, diameter_text(p), row.diameter_paper);
  }
  for (const auto& n : table.notes) fmt::print("note: {}\n", n);
  return 0;
}

/// `topo NAME`: a subcommand that takes topology specs, its help ending with their syntax.
CLI::App& add_spec_subcommand(CLI::App& topo, const char* name, const char* help) {
  auto& cmd = *topo.add_subcommand(name, help);
  cmd.footer(SPEC_SYNTAX);
  return cmd;
}

struct TopoOptions {
  std::vector<std::string> specs;
  std::string paper;
  std::string spec;
  bool json = false;
  std::string format;
  std::string output = "-";
};

}  // namespace

void declare_topo_command(CLI::App& topo, Action& action) {
  auto opts = std::make_shared<TopoOptions>();
  topo.require_subcommand(0, 1);  // none: main() names the choices
  topo.footer(SPEC_SYNTAX);

  auto& info_cmd = add_spec_subcommand(
      topo, "info", "Size, degrees, diameter, average distance and distance histogram of one topology (hop distances)");
  info_cmd.add_option("SPEC", opts->spec, "The topology (see 'starnet topo --help')")->required();
  info_cmd.add_flag("--json", opts->json,
                 "Print one JSON object: name, model, nodes, links, directed, processors, degree_min, degree_max, "
                 "diameter (null if some pair is unreachable), unreachable_pairs, average_distance, "
                 "average_distance_exact, distance_histogram (ordered pairs at distance d), method, bisection ({links, "
                 "exact, argument}: a formula, or an upper bound from a cut or a balanced partition; null for "
                 "a graph too large to partition), hosts (with routers: {processors, diameter, average_distance, "
                 "average_distance_exact, distance_histogram, unreachable_pairs} among the hosts over routes through "
                 "routers; null otherwise), network_notes (what a fat-tree's or dragonfly's links offer its hosts)");
  info_cmd.callback([opts, &action] {
    action = [opts] {
      const auto info = api::topology_info(opts->spec);
      if (!info.verified) return verification_failed(self_check_failure(opts->spec));
      if (opts->json) {
        print_json(info.to_json());
      } else {
        fmt::print("{}", info_text(info.properties));
        if (info.bisection) {
          fmt::print("bisection width: {} link{}{} ({})\n", info.bisection->links, info.bisection->links == 1 ? "" : "s",
                     info.bisection->exact ? "" : " at most", info.bisection->argument);
        }
        if (info.hosts) fmt::print("{}", hosts_text(*info.hosts));
        if (!info.hosts_note.empty()) fmt::print("hosts: {}\n", info.hosts_note);
        for (const auto& note : info.network_notes) fmt::print("note: {}\n", note);
      }
      return 0;
    };
  });

  auto& compare = add_spec_subcommand(topo, "compare", "A table of size, links, degree, diameter and average distance");
  compare.add_option("SPEC", opts->specs, "Topologies to compare, e.g. star:5 hypercube:7 debruijn:7");
  compare.add_option("--paper", opts->paper,
                     "Instead of SPECs, the networks of a paper's table beside its printed values, with a note where "
                     "they differ: table1 = Table 1 of Oh, Choi, Primeaux (2005), size, degree, diameter")
      ->check(CLI::IsMember({"table1"}));
  compare.add_flag("--json", opts->json,
                   "Print one JSON object {\"topologies\": [...]} with the fields of 'info --json'; with --paper "
                   "{\"rows\": [...], \"notes\": [...], \"verified\": true}, each row with model, spec, size, "
                   "size_paper, degree_min, degree_max, degree_paper, diameter, diameter_paper, links, method, "
                   "average_distance, differences (the fields that differ) and notes");
  compare.callback([opts, &action] {
    action = [opts] {
      if (!opts->paper.empty() && !opts->specs.empty()) {
        throw UsageError(fmt::format("--paper {} compares the paper's own networks (expected no SPEC with it, got {})",
                                     opts->paper, fmt::join(opts->specs, " ")));
      }
      if (!opts->paper.empty()) return print_paper_table1(opts->json);
      if (opts->specs.empty()) {
        throw UsageError("topo compare needs at least one SPEC (e.g. star:5 hypercube:7) or --paper table1");
      }
      std::vector<api::TopologyInfo> infos;
      for (const auto& spec : opts->specs) {
        infos.push_back(api::topology_info(spec));
        if (!infos.back().verified) return verification_failed(self_check_failure(spec));
      }
      if (opts->json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& info : infos) list.push_back(info.to_json());
        print_json({{"topologies", list}, {"verified", true}});
      } else {
        fmt::print("{}", compare_table(infos));
      }
      return 0;
    };
  });

  auto& exporter = add_spec_subcommand(topo, "export", "Write a topology as a GraphViz DOT or GraphML file");
  exporter.add_option("SPEC", opts->spec, "The topology (star:N up to N = 8)")->required();
  exporter.add_option("--format", opts->format,
                      "dot, graphml or simgrid (a SimGrid 4.1 platform to cross-check a study in SimGrid: "
                      "docs/simgrid.md)")
      ->required()
      ->check(CLI::IsMember({"dot", "graphml", "simgrid"}));
  exporter.add_option("-o,--output", opts->output, "Output file, written atomically; - for standard output")
      ->capture_default_str()
      ->check(output_file({}, true));
  exporter.callback([opts, &action] {
    action = [opts] {
      const auto exported = api::export_topology(opts->spec, std::string_view(opts->format));
      if (!exported.verified) return verification_failed(exported.problem);
      write_file_atomically(opts->output, exported.text);
      return 0;
    };
  });

  add_topo_draw_command(topo, action);
}

}  // namespace starnet::tools

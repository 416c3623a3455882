// `starnet topo`: the topology model — info, compare, export (issue 2; docs/topology.md).
#include "command.hpp"
#include "json_output.hpp"

#include <starnet/core/error.hpp>
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
    "  mct:D:L           mesh-connected trees: product of D complete binary trees of\n                    L levels (MCT_D(L)); properties up to 2^28 nodes\n"
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
  nlohmann::json j = {{"name", p.name},
          {"model", p.implicit ? "implicit-star-graph" : "platform"},
          {"nodes", p.nodes},
          {"links", p.links},
          {"directed", p.directed},
          {"processors", p.processors},
          {"degree_min", p.degree_min},
          {"degree_max", p.degree_max},
          {"diameter", diameter ? nlohmann::json(*diameter) : nlohmann::json(nullptr)},
          {"unreachable_pairs", p.unreachable_pairs},
          {"distance_histogram", p.distance_histogram},
          {"method", topology::to_string(p.method)}};
  put_exact(j, "average_distance", average);
  return j;
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

/// Table 1 of Oh, Choi, Primeaux (2005) as printed — model, size, degree, diameter — with the spec
/// that is that network here, and the paper's errata we could explain (docs/topology.md, "Table 1
/// of Oh–Choi–Primeaux"). Degree is compared with the maximum degree.
struct PaperRow {
  const char* model;
  const char* spec;
  std::uint64_t size;
  std::uint32_t degree;
  std::uint32_t diameter;
  /// Why the printed size is not the network's, or nullptr.
  const char* size_erratum;
  /// How the row is read, or nullptr.
  const char* remark;
};

constexpr PaperRow PAPER_TABLE1[] = {
    {"S5", "star:5", 120, 4, 6, nullptr, nullptr},
    {"S6", "star:6", 720, 5, 7, nullptr, nullptr},
    {"7-Cube", "hypercube:7", 128, 7, 7, nullptr, nullptr},
    {"10-Cube", "hypercube:10", 1024, 10, 10, nullptr, nullptr},
    {"MCT4(3)", "mct:4:3", 81, 12, 16,
     "4 complete binary trees of 3 levels, 7 nodes each, make 7^4 = 2401 nodes; 81 = 3^4 counts levels, not nodes "
     "(degree 12 = 3·4 and diameter 16 = 4·2·(3 − 1) are the product's)",
     nullptr},
    {"MCT6(3)", "mct:6:3", 729, 18, 24,
     "6 complete binary trees of 3 levels, 7 nodes each, make 7^6 = 117649 nodes; 729 = 3^6 counts levels, not nodes "
     "(degree 18 = 3·6 and diameter 24 = 6·2·(3 − 1) are the product's)",
     nullptr},
    {"D7", "debruijn:7", 128, 4, 7, nullptr, nullptr},
    {"D10", "debruijn:10", 1024, 4, 10, nullptr, nullptr},
    {"HS4,3", "product:star:4*star:3", 144, 5, 7, nullptr,
     "the caption reads HS_{n,m} as hypercube × star, but no Q_a × S_b with a ≥ 1 has 144 = 2^4·3^2 nodes; 144, 5 "
     "and 7 are the size, degree and diameter of S_4 × S_3"},
    {"HS5,3", "product:star:5*star:3", 720, 6, 9, nullptr,
     "the caption reads HS_{n,m} as hypercube × star, but no Q_a × S_b with a ≥ 1 has 720 = 2^4·45 nodes; 720, 6 "
     "and 9 are the size, degree and diameter of S_5 × S_3"},
};

/// The fields of @p paper that differ from the measured @p p ("size", "degree", "diameter"), and a
/// note for each difference and for each remark on the row.
std::pair<std::vector<std::string>, std::vector<std::string>> paper_differences(const PaperRow& paper,
                                                                                const TopologyProperties& p) {
  std::vector<std::string> fields;
  std::vector<std::string> notes;
  const auto note = [&](const std::string& text) { notes.push_back(fmt::format("{}: {}", paper.model, text)); };
  if (paper.size != p.nodes) {
    fields.emplace_back("size");
    note(fmt::format("the paper prints size {}, {} has {} nodes — {}", paper.size, paper.spec, p.nodes,
                     paper.size_erratum != nullptr ? paper.size_erratum : "unexplained"));
  }
  if (paper.degree != p.degree_max) {
    fields.emplace_back("degree");
    note(fmt::format("the paper prints degree {}, {} has degrees {}", paper.degree, paper.spec, degree_text(p)));
  } else if (p.degree_min != p.degree_max) {
    note(fmt::format("the paper's degree {} is the maximum; {} has degrees {}", paper.degree, paper.spec, degree_text(p)));
  }
  if (paper.diameter != p.diameter()) {
    fields.emplace_back("diameter");
    note(fmt::format("the paper prints diameter {}, {} has {}", paper.diameter, paper.spec, diameter_text(p)));
  }
  if (paper.remark != nullptr) note(paper.remark);
  return {fields, notes};
}

/// `topo compare --paper table1`: the paper's rows beside the measured ones; exit 1 if a
/// histogram does not count every ordered pair once.
int print_paper_table1(bool json) {
  std::vector<std::string> specs;
  for (const auto& row : PAPER_TABLE1) specs.emplace_back(row.spec);
  const auto [measured, failure] = checked_properties(specs);
  if (failure) return verification_failed(*failure);
  nlohmann::json rows = nlohmann::json::array();
  std::vector<std::string> notes;
  std::string table = fmt::format("{:<8} {:<21} | {:>7} {:>6} | {:>6} {:>6} | {:>8} {:>6}\n", "model", "spec",
                                  "size", "paper", "degree", "paper", "diameter", "paper");
  for (std::size_t i = 0; i < std::size(PAPER_TABLE1); ++i) {
    const PaperRow& paper = PAPER_TABLE1[i];
    const TopologyProperties& p = measured[i];
    auto [fields, row_notes] = paper_differences(paper, p);
    table += fmt::format("{:<8} {:<21} | {:>7} {:>6} | {:>6} {:>6} | {:>8} {:>6}\n", paper.model, paper.spec, p.nodes,
                         paper.size, degree_text(p), paper.degree, diameter_text(p), paper.diameter);
    nlohmann::json row = {{"model", paper.model},
                          {"spec", paper.spec},
                          {"size", p.nodes},
                          {"size_paper", paper.size},
                          {"degree_min", p.degree_min},
                          {"degree_max", p.degree_max},
                          {"degree_paper", paper.degree},
                          {"diameter", p.diameter() ? nlohmann::json(*p.diameter()) : nlohmann::json(nullptr)},
                          {"diameter_paper", paper.diameter},
                          {"links", p.links},
                          {"method", topology::to_string(p.method)},
                          {"differences", fields},
                          {"notes", row_notes}};
    put_exact(row, "average_distance", p.average_distance());
    rows.push_back(std::move(row));
    notes.insert(notes.end(), row_notes.begin(), row_notes.end());
  }
  if (json) {
    print_json({{"rows", rows}, {"notes", notes}, {"verified", true}});
  } else {
    fmt::print("Table 1 of Oh, Choi, Primeaux (2005): networks of sizes similar to S_5 and S_6\n"
               "(size, degree, diameter of each spec beside the paper's; degree: the paper gives the maximum)\n"
               "{}",
               table);
    for (const auto& n : notes) fmt::print("note: {}\n", n);
  }
  return 0;
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

void add_topo_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<TopoOptions>();
  auto* topo = app.add_subcommand("topo", "Inspect topologies: star graphs S_n, families and weighted platforms");
  topo->require_subcommand(0, 1);  // none: main() names the choices
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
        print_json(to_json(rows.front()));
      } else {
        fmt::print("{}", info_text(rows.front()));
      }
      return 0;
    };
  });

  auto* compare = topo->add_subcommand("compare", "A table of size, links, degree, diameter and average distance");
  compare->add_option("SPEC", opts->specs, "Topologies to compare, e.g. star:5 hypercube:7 debruijn:7");
  compare->add_option("--paper", opts->paper,
                      "Instead of SPECs, the networks of a paper's table beside its printed values, with a note where "
                      "they differ: table1 = Table 1 of Oh, Choi, Primeaux (2005), size, degree, diameter")
      ->check(CLI::IsMember({"table1"}));
  compare->add_flag("--json", opts->json,
                    "Print one JSON object {\"topologies\": [...]} with the fields of 'info --json'; with --paper "
                    "{\"rows\": [...], \"notes\": [...], \"verified\": true}, each row with model, spec, size, "
                    "size_paper, degree_min, degree_max, degree_paper, diameter, diameter_paper, links, method, "
                    "average_distance, differences (the fields that differ) and notes");
  compare->footer(SPEC_SYNTAX);
  compare->callback([opts, &action] {
    action = [opts] {
      if (!opts->paper.empty() && !opts->specs.empty()) {
        throw UsageError(fmt::format("--paper {} compares the paper's own networks (expected no SPEC with it, got {})",
                                     opts->paper, fmt::join(opts->specs, " ")));
      }
      if (!opts->paper.empty()) return print_paper_table1(opts->json);
      if (opts->specs.empty()) {
        throw UsageError("topo compare needs at least one SPEC (e.g. star:5 hypercube:7) or --paper table1");
      }
      const auto [rows, failure] = checked_properties(opts->specs);
      if (failure) return verification_failed(*failure);
      if (opts->json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& p : rows) list.push_back(to_json(p));
        print_json({{"topologies", list}});
      } else {
        fmt::print("{}", compare_table(rows));
      }
      return 0;
    };
  });

  auto* exporter = topo->add_subcommand("export", "Write a topology as a GraphViz DOT or GraphML file");
  exporter->add_option("SPEC", opts->spec, "The topology (star:N up to N = 8)")->required();
  exporter->add_option("--format", opts->format,
                       "dot, graphml or simgrid (a SimGrid 4.1 platform to cross-check a study in SimGrid: "
                       "docs/simgrid.md)")
      ->required()
      ->check(CLI::IsMember({"dot", "graphml", "simgrid"}));
  exporter->add_option("-o,--output", opts->output, "Output file, written atomically; - for standard output")
      ->capture_default_str()
      ->check(output_file({}, true));
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

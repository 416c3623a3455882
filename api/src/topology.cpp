#include <starnet/api/topology.hpp>
#include <starnet/api/json.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/algorithms/generic/routed_tree.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/partition.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <numeric>
#include <tuple>
#include <vector>

namespace starnet::api {

TopologyRef::TopologyRef(std::string spec) : spec_(std::move(spec)) {}

TopologyRef TopologyRef::of(std::shared_ptr<const topology::Platform> platform) {
  TopologyRef r;
  r.spec_ = platform->name();
  r.in_memory_ = true;
  r.platform_ = std::move(platform);
  r.topology_ = std::make_shared<const topology::PlatformTopology>(r.platform_);
  return r;
}

std::shared_ptr<const topology::Topology> TopologyRef::topology() const {
  if (!topology_) topology_ = topology::make_topology(spec_);
  return topology_;
}

std::shared_ptr<const topology::Platform> TopologyRef::platform() const {
  if (!platform_) platform_ = std::make_shared<const topology::Platform>(topology::make_platform(spec_));
  return platform_;
}

namespace {

/// Every ordered pair is at some distance or unreachable: Σ h[d] + unreachable = V².
bool self_check(const topology::TopologyProperties& p) {
  const std::uint64_t pairs = std::accumulate(p.distance_histogram.begin(), p.distance_histogram.end(), std::uint64_t{0});
  return pairs + p.unreachable_pairs == p.nodes * p.nodes && (p.nodes == 0 || p.distance_histogram[0] == p.nodes);
}

/// "implicit-star-graph", "implicit-pancake-graph", "implicit-nk-star-graph", or "platform".
std::string model_text(const topology::TopologyProperties& p) {
  if (!p.implicit) return "platform";
  std::string out = "implicit-";  // then the kind, spaces as dashes, "(n,k)" as "nk"
  for (const char c : p.implicit_graph) {
    if (c == ' ' || c == '-') {
      out += '-';
    } else if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      out += c;
    }
  }
  return out;
}

nlohmann::json properties_json(const topology::TopologyProperties& p) {
  const auto diameter = p.diameter();
  nlohmann::json j = {{"name", p.name},
                      {"model", model_text(p)},
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
  put_rational(j, "average_distance", p.average_distance());
  return j;
}

std::string diameter_text(const topology::TopologyProperties& p) {
  const auto d = p.diameter();
  return d ? std::to_string(*d) : "inf";
}

}  // namespace

std::string degree_text(const topology::TopologyProperties& p) {
  return p.degree_min == p.degree_max ? std::to_string(p.degree_max) : fmt::format("{}..{}", p.degree_min, p.degree_max);
}

nlohmann::json TopologyInfo::to_json() const {
  nlohmann::json j = properties_json(properties);
  j["bisection"] = bisection ? nlohmann::json{{"links", bisection->links},
                                              {"exact", bisection->exact},
                                              {"argument", bisection->argument}}
                             : nlohmann::json(nullptr);
  if (hosts) {
    const auto d = hosts->diameter();
    j["hosts"] = {{"processors", hosts->processors},
                  {"diameter", d ? nlohmann::json(*d) : nlohmann::json(nullptr)},
                  {"unreachable_pairs", hosts->unreachable_pairs},
                  {"distance_histogram", hosts->distance_histogram}};
    put_rational(j["hosts"], "average_distance", hosts->average_distance());
  } else {
    j["hosts"] = nullptr;
  }
  j["network_notes"] = network_notes;
  j["verified"] = verified;
  return j;
}

TopologyInfo topology_info(const TopologyRef& t) {
  TopologyInfo info;
  if (t.from_spec()) {
    info.properties = topology::topology_properties(t.spec());
    info.bisection = topology::bisection_width(t.spec());
    info.network_notes = topology::network_notes(topology::parse_spec(t.spec()));
  } else {
    info.properties = topology::platform_properties(*t.platform(), topology::DistanceMethod::ALL_PAIRS_BFS);
  }
  info.verified = self_check(info.properties);
  // Files, families without a formula and platforms built in memory: the partitioner's bound, where
  // the graph is one a platform may be (families.hpp) and within the partitioner's limit.
  if (!info.bisection && info.properties.nodes <= topology::MAX_PARTITION_NODES &&
      info.properties.links <= topology::MAX_PLATFORM_LINKS) {
    info.bisection = topology::partition_bisection(*t.platform());
  }
  if (info.properties.processors < info.properties.nodes) {
    const auto platform = t.platform();
    if (topology::host_distance_work(*platform) <= topology::MAX_ALL_PAIRS_WORK) {
      info.hosts = topology::host_properties(*platform);
    } else {
      info.hosts_note = fmt::format("distances among the {} hosts not measured: {} steps of search exceed the {} "
                                    "measured",
                                    info.properties.processors, topology::host_distance_work(*platform),
                                    topology::MAX_ALL_PAIRS_WORK);
    }
  }
  return info;
}

namespace {

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
void paper_differences(const PaperRow& paper, Table1Row& row) {
  const auto& p = row.measured;
  const auto note = [&](const std::string& text) { row.notes.push_back(fmt::format("{}: {}", paper.model, text)); };
  if (paper.size != p.nodes) {
    row.differences.emplace_back("size");
    note(fmt::format("the paper prints size {}, {} has {} nodes — {}", paper.size, paper.spec, p.nodes,
                     paper.size_erratum != nullptr ? paper.size_erratum : "unexplained"));
  }
  if (paper.degree != p.degree_max) {
    row.differences.emplace_back("degree");
    note(fmt::format("the paper prints degree {}, {} has degrees {}", paper.degree, paper.spec, degree_text(p)));
  } else if (p.degree_min != p.degree_max) {
    note(fmt::format("the paper's degree {} is the maximum; {} has degrees {}", paper.degree, paper.spec, degree_text(p)));
  }
  if (paper.diameter != p.diameter()) {
    row.differences.emplace_back("diameter");
    note(fmt::format("the paper prints diameter {}, {} has {}", paper.diameter, paper.spec, diameter_text(p)));
  }
  if (paper.remark != nullptr) note(paper.remark);
}

}  // namespace

Table1Result topology_table1() {
  Table1Result out;
  out.verified = true;
  for (const PaperRow& paper : PAPER_TABLE1) {
    Table1Row row;
    row.model = paper.model;
    row.spec = paper.spec;
    row.size_paper = paper.size;
    row.degree_paper = paper.degree;
    row.diameter_paper = paper.diameter;
    row.measured = topology::topology_properties(paper.spec);
    out.verified = out.verified && self_check(row.measured);
    paper_differences(paper, row);
    out.notes.insert(out.notes.end(), row.notes.begin(), row.notes.end());
    out.rows.push_back(std::move(row));
  }
  return out;
}

nlohmann::json Table1Result::to_json() const {
  nlohmann::json rows_json = nlohmann::json::array();
  for (const auto& row : rows) {
    const auto& p = row.measured;
    nlohmann::json j = {{"model", row.model},
                        {"spec", row.spec},
                        {"size", p.nodes},
                        {"size_paper", row.size_paper},
                        {"degree_min", p.degree_min},
                        {"degree_max", p.degree_max},
                        {"degree_paper", row.degree_paper},
                        {"diameter", p.diameter() ? nlohmann::json(*p.diameter()) : nlohmann::json(nullptr)},
                        {"diameter_paper", row.diameter_paper},
                        {"links", p.links},
                        {"method", topology::to_string(p.method)},
                        {"differences", row.differences},
                        {"notes", row.notes}};
    put_rational(j, "average_distance", p.average_distance());
    rows_json.push_back(std::move(j));
  }
  return {{"rows", rows_json}, {"notes", notes}, {"verified", verified}};
}

bool links_both_ways(const TopologyRef& t) {
  const StopScope scope;
  const auto g = t.topology();
  // (from, to, cost, latency) of every arc, and of every arc reversed: equal multisets.
  std::vector<std::tuple<topology::NodeId, topology::NodeId, Rational, Rational>> arcs;
  std::vector<std::tuple<topology::NodeId, topology::NodeId, Rational, Rational>> reversed;
  for (topology::NodeId v = 0; v < g->num_nodes(); ++v) {
    throw_if_stopped_every(v);
    for (topology::Port p = 0; p < g->degree(v); ++p) {
      const auto u = g->neighbor(v, p);
      arcs.emplace_back(v, u, g->link_cost(v, p), g->link_latency(v, p));
      reversed.emplace_back(u, v, g->link_cost(v, p), g->link_latency(v, p));
    }
  }
  std::sort(arcs.begin(), arcs.end());
  std::sort(reversed.begin(), reversed.end());
  return arcs == reversed;
}

bool same_topology(const TopologyRef& a, const TopologyRef& b) {
  if (a.from_spec() && b.from_spec() && a.spec() == b.spec()) return true;
  return !topology::difference(*a.platform(), *b.platform());
}

std::uint64_t topology_hash(const TopologyRef& t) {
  const auto view = t.topology();
  std::uint64_t arcs = 0;
  for (topology::NodeId v = 0; v < view->num_nodes(); ++v) arcs += view->degree(v);
  return std::hash<std::uint64_t>{}(view->num_nodes()) * 31 + std::hash<std::uint64_t>{}(arcs);
}

TopologyExport export_topology(const TopologyRef& t, std::string_view format) {
  return export_topology(t, topology::parse_file_format(format, "format"));
}

TopologyRef platform_from_edges(const std::string& name, const std::vector<std::string>& nodes,
                                const std::vector<EdgeSpec>& edges, bool directed) {
  auto p = std::make_shared<topology::Platform>(name, directed);
  std::vector<topology::Platform::vertex_descriptor> at;
  for (const auto& node : nodes) at.push_back(p->add_node({node}));
  for (const auto& e : edges) {
    if (e.u >= at.size() || e.v >= at.size()) {
      throw InputError(fmt::format("topology \"{}\": edge ({}, {}) names a node that is not among the {} nodes", name,
                                   e.u, e.v, nodes.size()));
    }
    topology::LinkProperties link;
    link.cost = parse_number(e.cost, "weight", 0, /*strictly=*/true);
    link.latency = parse_number(e.latency, "latency");
    p->add_link(at[e.u], at[e.v], link);
  }
  p->validate();
  return TopologyRef::of(std::move(p));
}

TopologyExport export_topology(const TopologyRef& t, topology::FileFormat format) {
  const auto platform = t.platform();
  TopologyExport out;
  out.text = topology::write_platform(*platform, format);
  // Self-check: what is written reads back as the same platform.
  if (const auto diff = topology::difference(*platform, topology::parse_platform(out.text, format, "(export)"))) {
    out.problem = fmt::format("topology \"{}\": the exported file reads back differently: {}", t.spec(), *diff);
  } else {
    out.verified = true;
  }
  return out;
}

void refuse_routers(const TopologyRef& t, std::string_view what) {
  const auto routers = algorithms::generic::router_flags(*t.topology());
  const auto count = static_cast<std::uint64_t>(std::count(routers.begin(), routers.end(), true));
  if (count == 0) return;
  throw UsageError(Setting{"topology", t.spec()},
                   fmt::format("has {} routers among its {} nodes, which only forward; {} takes every node as a "
                               "participant (the what-if study runs the collectives among the processors)",
                               count, routers.size(), what));
}

}  // namespace starnet::api

#pragma once
/// @file
/// Topologies as the calls of starnet::api take them — a spec or file path ("star:5",
/// "torus:4x4", "t.dot", a SimGrid platform), or a platform built in memory (the Python module's
/// Topology.from_networkx) — and the `topo` capabilities: properties with their self-check, the
/// paper's Table 1 beside the measured networks, export to DOT, GraphML or SimGrid.

#include <starnet/topology/bisection.hpp>
#include <starnet/topology/files.hpp>
#include <starnet/topology/platform.hpp>
#include <starnet/topology/properties.hpp>
#include <starnet/topology/topology.hpp>

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starnet::api {

/// A topology named by a spec, or built in memory. Cheap to copy (shared).
class TopologyRef {
 public:
  /// @p spec a spec or file (spec.hpp); the topology is made when first asked for.
  TopologyRef(std::string spec);  // NOLINT: a spec is a topology wherever one is asked for
  TopologyRef(const char* spec) : TopologyRef(std::string(spec)) {}  // NOLINT: likewise
  /// A platform built in memory, called @p name.
  static TopologyRef of(std::shared_ptr<const topology::Platform> platform);

  /// The spec, or the in-memory platform's name.
  [[nodiscard]] const std::string& spec() const { return spec_; }
  /// Whether it came from a spec (families and files), so that family knowledge applies.
  [[nodiscard]] bool from_spec() const { return !in_memory_; }
  /// The emulator's view. @throws TopologyError naming the spec when it is not a topology.
  [[nodiscard]] std::shared_ptr<const topology::Topology> topology() const;
  /// The platform (a star graph materialised, up to the sizes topology/families.hpp allows).
  [[nodiscard]] std::shared_ptr<const topology::Platform> platform() const;

 private:
  TopologyRef() = default;
  std::string spec_;
  bool in_memory_ = false;
  mutable std::shared_ptr<const topology::Topology> topology_;
  mutable std::shared_ptr<const topology::Platform> platform_;
};

/// Whether @p a and @p b are the same topology by structure: the same directedness, nodes (names,
/// roles, speeds, labels) and links (ends, costs, latencies, dimensions) — wherever each came from
/// (topology/platform.hpp, difference()). Two equal specs are equal without building anything.
/// Complexity: O((V + E) log V) for each platform built in memory or compared.
[[nodiscard]] bool same_topology(const TopologyRef& a, const TopologyRef& b);
/// Whether every link of @p t goes both ways with the same cost and latency: then it is drawn and
/// handed to networkx as an undirected graph, whatever file or graph it was read from. O(E log E).
[[nodiscard]] bool links_both_ways(const TopologyRef& t);
/// @throws UsageError about "topology" when @p t has routers (a platform's router nodes): @p what
/// (a built-in schedule, an exact search) takes every node as a participant, while routers only
/// forward — the what-if study runs such collectives among the processors. O(V).
void refuse_routers(const TopologyRef& t, std::string_view what);
/// A hash that equal topologies (same_topology) share: of the node and arc counts. O(V).
[[nodiscard]] std::uint64_t topology_hash(const TopologyRef& t);

/// `topo info`: the properties and their self-check (every ordered pair counted once).
struct TopologyInfo {
  topology::TopologyProperties properties;
  /// The bisection width in links, exact or an upper bound: the family's formula or cut where it
  /// has one (topology/bisection.hpp), else a balanced partition's (topology/partition.hpp); none
  /// above MAX_PARTITION_NODES nodes.
  std::optional<topology::Bisection> bisection;
  /// With routers: the distances among the hosts over routes through routers (host_properties()),
  /// none without routers or above MAX_ALL_PAIRS_WORK (then `hosts_note` says so).
  std::optional<topology::TopologyProperties> hosts;
  std::string hosts_note;
  /// What the network offers its hosts (topology::network_notes()), e.g. oversubscribed global links.
  std::vector<std::string> network_notes;
  /// Σ h[d] + unreachable = V² and h[0] = V.
  bool verified = false;
  /// The document of `starnet topo info --json`.
  [[nodiscard]] nlohmann::json to_json() const;
};
[[nodiscard]] TopologyInfo topology_info(const TopologyRef& topology);

/// One network of Table 1 of Oh, Choi, Primeaux (2005) beside its measured properties.
struct Table1Row {
  std::string model;  ///< as the paper prints it, e.g. "MCT4(3)"
  std::string spec;   ///< the network here
  std::uint64_t size_paper = 0;
  std::uint32_t degree_paper = 0;
  std::uint32_t diameter_paper = 0;
  topology::TopologyProperties measured;
  std::vector<std::string> differences;  ///< "size", "degree", "diameter" where the paper differs
  std::vector<std::string> notes;        ///< why, and how the row is read
};
struct Table1Result {
  std::vector<Table1Row> rows;
  std::vector<std::string> notes;
  bool verified = false;  ///< every histogram counts every ordered pair once
  [[nodiscard]] nlohmann::json to_json() const;
};
[[nodiscard]] Table1Result topology_table1();

/// A topology written as a file, and the check that it reads back as the same platform.
struct TopologyExport {
  std::string text;
  bool verified = false;
  std::string problem;  ///< what reads back differently, when not verified
};
/// @p topology written in @p format (dot, graphml, simgrid).
[[nodiscard]] TopologyExport export_topology(const TopologyRef& topology, topology::FileFormat format);
/// As above, the format named ("dot", "graphml", "simgrid"). @throws UsageError about setting "format".
[[nodiscard]] TopologyExport export_topology(const TopologyRef& topology, std::string_view format);

/// Where the warnings about a topology file go (a duplicate link ignored, …; topology/files.hpp):
/// the command line prints each once on stderr.
using topology::set_file_warning_sink;
/// What every topology answers: nodes, ports, links, names (topology/topology.hpp), and its size,
/// degrees and distances (topology/properties.hpp).
using topology::Topology;
using topology::TopologyProperties;

/// A link of a platform built in memory: its ends (indices into the node list), its cost (the
/// time a unit of message takes) and latency, as exact texts ("1/3", "0.25").
struct EdgeSpec {
  std::size_t u = 0;
  std::size_t v = 0;
  std::string cost = "1";
  std::string latency = "0";
};
/// A platform built in memory (a networkx graph: Topology.from_networkx), named @p name, its nodes
/// processors named as given. @throws InputError naming the edge or the setting ("weight",
/// "latency") that is off, TopologyError as Platform::validate (no nodes, a name twice, …).
[[nodiscard]] TopologyRef platform_from_edges(const std::string& name, const std::vector<std::string>& nodes,
                                              const std::vector<EdgeSpec>& edges, bool directed);

/// "1..4" or "4": a degree range as the text outputs print it.
[[nodiscard]] std::string degree_text(const topology::TopologyProperties& p);

}  // namespace starnet::api

#pragma once
/// @file
/// What-if studies as a library call: one collective across topologies, port models, link costs
/// and faults, every run verified on the emulator and set beside its lower bound; a user's schedule
/// file (starnet JSON or MSCCL XML) and the proven optimum as more rows (docs/whatif.md).

#include <starnet/algorithms/collectives/network_model.hpp>
#include <starnet/algorithms/collectives/whatif_row.hpp>
#include <starnet/algorithms/generic/cost_kind.hpp>
#include <starnet/api/setting_table.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/topology.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starnet::api {

using algorithms::collectives::WhatIfRow;
/// The network model of platforms with routers (topology/network.hpp), for both faces.
using algorithms::collectives::NetworkModel;
using topology::parse_forwarding;
using topology::parse_placement;
using topology::parse_routing;

/// Topologies up to this size get the proven optimum beside them (`optimal`).
inline constexpr topology::NodeId MAX_WHATIF_OPTIMAL_NODES = 64;

struct WhatIfRequest {
  Collective collective = Collective::ALLREDUCE;
  /// Specs, files or topologies built in memory; each row names its topology by spec (or name).
  std::vector<TopologyRef> topologies;
  /// Every port model is tried on every topology (default: single-port full duplex).
  std::vector<emulator::PortModel> port_models{emulator::PortModel{}};
  algorithms::generic::CostKind costs = algorithms::generic::CostKind::UNIT;
  /// Units per message (the m of α + m/β) with topology costs: one study per size, the rows of each
  /// carrying it (a sweep).
  std::vector<Rational> message_size{Rational(1)};
  /// Every link's latency α and bandwidth β (none: the topology's own); either makes unit costs
  /// topology costs, the α–β model on every link.
  std::optional<Rational> latency;
  std::optional<Rational> bandwidth;
  std::string fail_links;
  std::string fail_nodes;
  std::vector<double> fail_rates;
  std::uint64_t seed = 1;
  std::string root = std::string(DEFAULT_ROOT);
  /// How platforms with routers carry messages: crossbar switches, cut-through, minimal routes,
  /// linear placement unless told (docs/whatif.md, "The network model").
  algorithms::collectives::NetworkModel network;
  /// Every directed link's load in the rows run on a network of switches (the result's link
  /// report), not only the busiest's.
  bool link_report = false;
  Op op = Op::SUM;
  ValuesKind values = ValuesKind::INDEX;
  /// A schedule file as one more row on every topology it fits.
  std::string schedule;
  /// The proven optimum as one more row (topologies of at most MAX_WHATIF_OPTIMAL_NODES).
  bool optimal = false;
  /// Seconds per optimum (none: DEFAULT_OPTIMAL_SECONDS).
  std::optional<double> optimal_seconds;
  /// Called after each emulated row with its run (the trace kept), e.g. to write `--trace`.
  algorithms::collectives::RunObserver observer;
};

struct WhatIfResult {
  WhatIfRequest request;
  std::vector<WhatIfRow> rows;
  /// Rows that ran (applicable); none: nothing was measured, and nothing is verified.
  std::size_t rows_run = 0;
  /// Some row ran and every row that ran is verified (a collective that did not reach every
  /// alive node is not).
  bool verified = false;
  double wall_seconds = 0;
  /// The document of `starnet whatif --json`.
  [[nodiscard]] nlohmann::json to_json() const;
  /// One row's fields (the document's "rows" entries).
  [[nodiscard]] static nlohmann::json row_json(const WhatIfRow& row);
  /// The rows as CSV, exact rationals as their exact text.
  [[nodiscard]] std::string csv() const;
  /// What each directed link carried, per row run on a network of switches (all links when the
  /// request asked for the link report, the busiest otherwise): row (its index), topology,
  /// algorithm, ports, duplex, link, messages, packets, units (packets × the message size), busy
  /// (the time it was held).
  [[nodiscard]] nlohmann::json link_report_json() const;
  /// The same as CSV, exact rationals as their exact text.
  [[nodiscard]] std::string link_report_csv() const;
};

/// @throws UsageError / TopologyError naming the setting or input at fault (see WhatIfStudy::run).
[[nodiscard]] WhatIfResult run_whatif(const WhatIfRequest& request);

/// A logarithmic axis once the largest value drawn exceeds the smallest by this factor.
inline constexpr double WHATIF_LOG_SCALE_SPREAD = 100;

/// One bar of the what-if figure: a row, measured or not.
struct WhatIfBar {
  std::string algorithm;
  std::optional<double> value;  ///< what the table ranks by (none: the row did not run)
  std::string mark;             ///< "" for a verified row, else "not applicable" or "NOT verified"
};
/// The rows of one topology, port model and fault scenario, and their common lower bound.
struct WhatIfGroup {
  std::string label;  ///< "star:5 1 full", + the faults when there are
  std::optional<double> bound;
  std::vector<WhatIfBar> bars;
};
/// The data of `whatif --plot`: what the table ranks by — steps with unit costs, the makespan
/// (time) with link costs — every row a bar or a mark, on a log scale where the spread asks.
struct WhatIfFigure {
  std::string quantity;  ///< "steps" or "time"
  std::string axis;      ///< the y axis's label, with its unit
  bool log_scale = false;  ///< largest / smallest value drawn > WHATIF_LOG_SCALE_SPREAD
  std::vector<WhatIfGroup> groups;
};
/// The figure of @p result's rows, in their order (consecutive rows of one topology, port model
/// and faults form a group). O(rows).
[[nodiscard]] WhatIfFigure whatif_figure(const WhatIfResult& result);

/// The settings of a what-if study (api/setting_table.hpp): the command line's options and the
/// keywords of Python's `starnet.whatif`, each read and checked here; `ports` and `duplex` make
/// the port models (every k with every mode), and `seed` applies only with something random.
[[nodiscard]] const SettingTable<WhatIfRequest>& whatif_settings();

}  // namespace starnet::api

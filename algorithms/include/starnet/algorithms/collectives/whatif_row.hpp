#pragma once
/// @file
/// One row of a what-if study (whatif.hpp runs the study): an algorithm on one topology, port
/// model and fault scenario, measured and set beside its lower bound; and the observer a caller
/// hands a study to see each row's run.

#include <starnet/algorithms/collectives/builtin_algorithm.hpp>
#include <starnet/core/rational.hpp>
#include <starnet/emulator/config.hpp>
#include <starnet/emulator/run_result.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace starnet::algorithms::collectives {

/// What one directed link of a network of switches carried in a row's run (link_loads.hpp).
struct LinkLoad {
  std::string link;  ///< "a->b"
  std::uint64_t messages = 0;
  Rational packets;  ///< in packets of the message size (a split vector's block is a fraction)
  Rational busy;     ///< time it was held: Σ over its messages of α + packets·u (unit time: steps)
};

struct WhatIfRow {
  std::string topology;  ///< the spec, or the name of a topology built in memory
  Algorithm algorithm = Algorithm::BFS_TREE;
  std::string variant;  ///< e.g. "unidirectional" for ring, "split exchanges" for recursive doubling
  emulator::PortModel ports;
  /// The study's message size (units per packet) and α–β, when given: a row of a sweep keeps its key.
  Rational message_size = 1;
  std::optional<Rational> latency;
  std::optional<Rational> bandwidth;
  std::string faults;  ///< "none", or what failed, e.g. "random p=0.01 (3 links) + nodes 5"
  double fail_rate = 0;
  std::uint64_t failed_links = 0;
  std::uint64_t failed_nodes = 0;
  /// What failed, random draws included, as `--fail-links` and `--fail-nodes` take them ("u-v"
  /// with u < v by index; node names): the scenario reproduced without its seed.
  std::vector<std::string> failed_link_list;
  std::vector<std::string> failed_node_list;
  std::uint64_t total_nodes = 0;  ///< of the intact topology
  std::uint64_t nodes = 0;        ///< nodes the algorithm ran on (what the root reaches)
  std::uint64_t processors = 0;   ///< of those, the participants: all but the routers
  std::uint64_t links = 0;
  std::uint64_t alive_nodes = 0;  ///< nodes that did not fail
  std::uint64_t alive_processors = 0;  ///< processors that did not fail (all nodes without routers)
  bool connected = true;          ///< the root reaches every alive node
  std::string root;               ///< name of the root
  Rational diameter;              ///< hops (of the network the row ran on)
  bool diameter_exact = true;
  bool applicable = true;
  std::string reason;  ///< why not, when !applicable (or, for a row not verified, why not)
  emulator::TimeMode time = emulator::TimeMode::UNIT;
  /// The row ran timed (no steps of its own: its makespan is a time).
  [[nodiscard]] bool timed() const { return time == emulator::TimeMode::TIMED; }
  std::uint64_t steps = 0;          ///< unit time: measured steps
  std::uint64_t planned_steps = 0;  ///< steps of the plan (star: n(n−1)/2)
  Rational makespan;                ///< unit time: c·steps; timed: the exact makespan
  std::uint64_t messages = 0;
  std::uint64_t volume = 0;       ///< packets (words, blocks) sent by the node that sends most
  std::uint64_t lower_bound = 0;  ///< unit time: the step bound
  Rational lower_bound_time;      ///< c·(step bound), or the timed bound
  Rational bound_counting;        ///< the counting term, in the row's units (steps or time)
  Rational bound_distance;        ///< the distance term, likewise
  Rational bound_volume;          ///< packets the busiest node must send (a lower bound on volume)
  /// Timed runs on a network of switches: α + u·(packets across its narrowest bridge), 0 without one.
  Rational bound_cut;
  std::optional<std::uint64_t> bound_status;  ///< all-to-all: the mean status s (the one-packet model's steps)
  /// The measurement meets its bound: makespan = lower_bound_time (the bound ratio is taken from).
  bool bound_reached = false;
  std::optional<double> ratio;    ///< makespan / lower_bound_time; none when the bound is 0 < makespan
  bool verified = false;
  double wall_seconds = 0;
  /// On a network of switches (the collective among the hosts): what its directed links carried,
  /// the busiest first — every link that carried something when the study asks for the link
  /// report, the busiest alone otherwise; empty elsewhere.
  std::vector<LinkLoad> link_loads;
};

/// Called after each emulated row with the row (complete, about to be stored), its run (with its
/// trace) and the network it ran on (names of nodes and links), e.g. to write `--trace`.
using RunObserver =
    std::function<void(const WhatIfRow& row, const emulator::RunResult<Rational>& run, const topology::Topology& net)>;

}  // namespace starnet::algorithms::collectives

#pragma once
/// @file
/// What-if studies: the same collective across topologies, port models, link costs and faults,
/// every run verified and set beside its lower bound (`starnet whatif`, docs/whatif.md).
///
/// For each topology spec, each fault scenario (the explicit failed links and nodes, plus random
/// link faults at each rate) and each port model, the study runs every algorithm the catalogue
/// (catalogue.hpp) has for the collective on that family: the eight collectives of
/// algorithms/collective.hpp. The word collectives (allreduce, reduce, broadcast: one value per
/// node) run as word plans (generic/) and the star all-reduce as algorithms/star has it, numbers
/// as before; the blocked ones (allgather, reducescatter, gather, scatter, alltoall: one packet per
/// pair or block) as chunk schedules (schedule/), each node and chunk checked. A total exchange
/// beyond schedules (more than MAX_UNIFORM_SCHEDULE_NODES nodes) runs as exchange_program(), up to
/// MAX_EXCHANGE_PACKET_HOPS packet-hops. An algorithm that needs a failed link or node is a row
/// "not applicable: link u–v used at step s is down" (s from its schedule: for the star all-reduce
/// the first step s whose level_of_step(s).link() is the link's dimension); one that breaks the
/// port model is "not applicable: breaks the port model: …".
///
/// Link model: a message of k packets takes α + k·u on a link (LinkCosts: unit costs count steps,
/// α = 1, u = 0; topology costs α = latency, u = m/β, every link's or the latency()/bandwidth()
/// given; random costs u = k/4). Equal links: unit time, strict checking — exact step counts, any
/// port-model violation is an error; the makespan is the step-synchronous Σ_t (α + u·(largest
/// message of step t)). Heterogeneous links: timed, arbitrated checking (contending transfers wait
/// their turn), the makespan an exact fraction.
///
/// Bounds (docs/whatif.md "Lower bounds"): a lower bound on the time of any algorithm for the
/// collective with the data as sized, not only of the row's: each node's data (a vector of the
/// word collectives, a block of the blocked ones) is one packet of m units (the message size) that
/// an algorithm may split into parts of one unit (reduce-scatter then all-gather does). L =
/// max(counting, distance) steps (bounds.hpp; rooted collectives: the root's eccentricity); V =
/// the packets some node must send or receive: 2(N − 1)/N for all-reduce (every element needs
/// 2(N − 1) transfers, the one-way gossip bound), 1 for reduce and broadcast, N − 1 for all-gather,
/// reduce-scatter, gather and scatter, the mean status Σ d(u, v) / N for all-to-all (every
/// packet-hop is a send); with k ports a node moves V/k through its busiest port.
/// Step-synchronous: T ≥ α·L + u·max(L·p, V/k) (every step costs α plus its largest message, at
/// least one part p = 1/m of a packet). Timed: T ≥ max(c_p·⌈log_{k+1} N⌉, weighted distance,
/// α_min + u_min·V/k), c_p and distances with the links' time for one part. The one-packet
/// exchange's own model (one packet per message, ⌈s/k⌉ steps) is `bound_status`, not the bound.
///
/// Complexity: per row, one plan (O(V log V + E)) or schedule (O(items)) and one emulation
/// (O(transfers + items)); per topology and scenario one diameter (bounds.hpp). Memory
/// O(V + E + items).
/// Routers (of tiers, fattree, dragonfly, files) take no part: the collective is among the
/// processors. By default (NetworkModel, CUT_THROUGH) switches are crossbars and the processors a
/// complete graph of routes (topology::HostNetwork): every algorithm of complete graphs runs, each
/// message routed over links that carry one message at a time, in arbitrated runs (timed with link
/// costs, so that a message that waits for a link costs its time; unit steps otherwise), and a row
/// is verified when every node's result is right, whatever the waits added to its steps. Faults
/// and the optimum are refused there. In the relay model (STORE_AND_FORWARD) a router forwards
/// each message it receives once, unchanged (no ⊕, no copy), and a rooted collective refuses a
/// router root. The word collectives run as routed trees
/// (generic/routed_tree.hpp: every router hop a transfer, the schedule's relays checked to forward
/// only, every processor's final word checked, the routers' not); the bounds count the processors
/// and their distances (bounds.hpp, "With relays"); the blocked collectives run as the routed
/// trees' transfers carrying blocks (block_collectives.hpp, routed_tree_collective), one block per
/// processor. IMPORTANT: with routers the other algorithms and the optimal search are rows "not
/// applicable" (they take every node as a participant).
///
/// Usage:
/// @code
///   WhatIfStudy study;
///   study.collective(Collective::ALLREDUCE).topologies({"star:5", "hypercube:7"})
///        .port_models({{1, false}, {2, false}}).fault_rates({0, 0.01}).seed(7).run();
///   for (const WhatIfRow& row : study.rows()) { ... row.steps, row.lower_bound ... }
/// @endcode

#include <starnet/algorithms/collectives/catalogue.hpp>
#include <starnet/algorithms/collectives/whatif_row.hpp>
#include <starnet/algorithms/generic/bounds.hpp>
#include <starnet/algorithms/generic/schedule.hpp>
#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/config.hpp>
#include <starnet/algorithms/collectives/network_model.hpp>
#include <starnet/emulator/engine.hpp>

#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starnet::algorithms::collectives {

using generic::CostKind;
using generic::Op;
using topology::NodeId;

/// Most packet-hops N·s of a total exchange run as a node program (S_7: 149 million, about ten
/// seconds; S_8 would be 11 billion).
inline constexpr std::uint64_t MAX_EXCHANGE_PACKET_HOPS = 200'000'000;

/// Most hosts of a network of crossbar switches the study runs among. Their complete graph of
/// routes is read from the network, never copied (subnetwork.hpp), so memory grows with the
/// messages a row sends, not with H²: fattree:28's 5,488 hosts, dragonfly:12:6:6's 5,256.
inline constexpr topology::NodeId MAX_NETWORK_HOSTS = 8192;
/// Most messages a flat algorithm among a network's hosts may send — the ring and the total
/// exchanges H(H − 1), the ring-split 2H(H − 1): fattree:16's 1,024 hosts run them all (2,095,104
/// for the ring-split, about 6 s); at 5,488 hosts they would send 30 and 60 million, where
/// recursive doubling and the hierarchical all-reduce send O(H log H).
inline constexpr std::uint64_t MAX_NETWORK_FLAT_MESSAGES = std::uint64_t{1} << 22;

/// Most hosts among which the hierarchical all-reduce takes its split form (H blocks a host, H² chunks
/// moved in all); beyond, its word form.
inline constexpr topology::NodeId MAX_HIERARCHICAL_SPLIT_HOSTS = 8192;

/// Why @p a does not run among the @p hosts hosts of a network of switches: a ring, ring-split or
/// total exchange whose messages exceed MAX_NETWORK_FLAT_MESSAGES; none otherwise.
[[nodiscard]] std::optional<std::string> network_flat_refusal(Algorithm a, std::uint64_t hosts);

/// The word each node of @p topology starts a word collective with: values.of(v) on a processor,
/// ⊕'s identity on a router (which holds no value and never sends it).
/// O(V).
[[nodiscard]] std::vector<std::uint64_t> word_values(const topology::Topology& topology, const star::Values& values,
                                                     Op op);

/// What one run of a user's algorithm (`whatif --schedule FILE`) gave on one topology.
struct ExtraRun {
  bool applicable = true;
  std::string reason;   ///< why not, when !applicable; what failed, when not verified
  std::string variant;  ///< shown beside the algorithm, e.g. the file name
  std::uint64_t steps = 0;
  std::uint64_t planned_steps = 0;
  std::uint64_t messages = 0;
  std::uint64_t volume = 0;  ///< packets the busiest node sends
  bool verified = false;
  /// Among the hosts of a network (@p topology has a network()): the schedule resolved and not
  /// run, for the study to run it as it runs the built-ins' (timed, links arbitrated and reported).
  std::shared_ptr<const schedule::Schedule> schedule;
};
/// Runs the user's algorithm on @p topology (the intact one @p spec names: a spec, or the name of a
/// topology built in memory; among a network's hosts, complete:H) under @p ports, in unit time with
/// strict checks.
using ExtraAlgorithm =
    std::function<ExtraRun(const topology::Topology& topology, const std::string& spec, const emulator::PortModel& ports)>;

/// A topology of a study: a spec (spec.hpp), made when its rows run, or a topology built in memory
/// under a name, known by its structure alone (the generic algorithms, a K_N's group ones).
struct StudyTopology {
  StudyTopology(std::string spec) : name(std::move(spec)) {}  // NOLINT: a spec is a topology here
  StudyTopology(const char* spec) : name(spec) {}             // NOLINT: likewise
  StudyTopology(std::string called, std::shared_ptr<const topology::Topology> made)
      : name(std::move(called)), built(std::move(made)) {}
  std::string name;
  std::shared_ptr<const topology::Topology> built;  ///< none: made from the spec `name`
};

class WhatIfStudy {
 public:
  WhatIfStudy& collective(Collective c) {
    collective_ = c;
    return *this;
  }
  /// Topology specs (spec.hpp), e.g. "star:5", "torus:11x11", or topologies built in memory.
  WhatIfStudy& topologies(std::vector<StudyTopology> list) {
    specs_ = std::move(list);
    return *this;
  }
  /// A list of specs (a template, so that a braced list picks the overload above).
  template <class Specs>
    requires std::same_as<Specs, std::vector<std::string>>
  WhatIfStudy& topologies(const Specs& specs) {
    return topologies(std::vector<StudyTopology>(specs.begin(), specs.end()));
  }
  /// Port models, each k ≥ 1 (default: single-port full duplex).
  WhatIfStudy& port_models(std::vector<emulator::PortModel> models) {
    models_ = std::move(models);
    return *this;
  }
  /// Link costs: unit, the topology's own, or random (seeded by seed()).
  WhatIfStudy& costs(CostKind costs) {
    costs_ = costs;
    return *this;
  }
  /// Units per message under CostKind::TOPOLOGY: a message takes latency + size·cost (α–β).
  /// @throws UsageError (at run()) unless > 0, and unless 1 with other cost kinds.
  WhatIfStudy& message_size(Rational size) {
    message_size_ = std::move(size);
    return *this;
  }
  /// Every link's latency α (≥ 0) and bandwidth β (> 0) instead of the topology's own: the α–β
  /// model with topology costs (unit costs become topology costs). @throws UsageError (at run())
  /// naming the setting for a negative latency, a bandwidth ≤ 0, or random costs.
  WhatIfStudy& latency(std::optional<Rational> alpha) {
    latency_ = std::move(alpha);
    return *this;
  }
  WhatIfStudy& bandwidth(std::optional<Rational> beta) {
    bandwidth_ = std::move(beta);
    return *this;
  }
  /// `--fail-links` / `--fail-nodes` text (names or indices), applied to every topology.
  WhatIfStudy& failed_links(std::string text) {
    failed_links_ = std::move(text);
    return *this;
  }
  WhatIfStudy& failed_nodes(std::string text) {
    failed_nodes_ = std::move(text);
    return *this;
  }
  /// Random link-fault probabilities, one scenario each (none: one scenario without random faults).
  WhatIfStudy& fault_rates(std::vector<double> rates) {
    rates_ = std::move(rates);
    return *this;
  }
  /// Seed of random faults and random costs.
  WhatIfStudy& seed(std::uint64_t seed) {
    seed_ = seed;
    return *this;
  }
  /// The root of reduce and broadcast, and of the BFS trees: a node name or index (default "0").
  WhatIfStudy& root(std::string root) {
    root_ = std::move(root);
    return *this;
  }
  /// How platforms with routers carry messages (default: crossbars, cut-through, minimal routes).
  WhatIfStudy& network(NetworkModel model) {
    network_ = std::move(model);
    return *this;
  }
  /// Every link's load in each row run on a network of switches (WhatIfRow::link_loads), not
  /// only the busiest's.
  WhatIfStudy& link_report(bool all_links) {
    link_report_ = all_links;
    return *this;
  }
  WhatIfStudy& op(Op op) {
    op_ = op;
    return *this;
  }
  WhatIfStudy& values(star::Values values) {
    values_ = values;
    return *this;
  }
  /// One more row per topology and port model, after the built-ins: a user's algorithm (a
  /// schedule file, Algorithm::SCHEDULE) or the proven optimum (Algorithm::OPTIMAL), run on the
  /// intact topology with unit costs (faulty scenarios and timed costs: "not applicable"), its
  /// bound the study's.
  /// Keeps the trace of every emulated run and shows each run to @p observer.
  WhatIfStudy& observe_runs(RunObserver observer) {
    observer_ = std::move(observer);
    return *this;
  }
  WhatIfStudy& extra(Algorithm kind, ExtraAlgorithm algorithm) {
    extras_.emplace_back(kind, std::move(algorithm));
    return *this;
  }

  /// Runs every row.
  /// @throws UsageError naming the input for no topology, no port model, k < 1, a fault rate
  /// outside [0, 1], a failed link or node or a root that is not in a topology, a failed root, a
  /// router root of a rooted collective, a negative latency, a bandwidth ≤ 0.
  /// @throws TopologyError naming the spec for an unknown or malformed topology.
  /// @throws ModelViolation when a word collective's plan or the star all-reduce breaks the port
  /// model (a bug, never expected); a chunk schedule that breaks it is a row "not applicable:
  /// breaks the port model: …".
  WhatIfStudy& run();

  /// @pre run() was called.
  [[nodiscard]] const std::vector<WhatIfRow>& rows() const { return rows_; }
  /// Every applicable row verified. @pre run() was called.
  [[nodiscard]] bool all_verified() const;
  /// Wall time of run(), seconds.
  [[nodiscard]] double wall_seconds() const { return wall_seconds_; }

 private:
  Collective collective_ = Collective::ALLREDUCE;
  std::vector<StudyTopology> specs_;
  std::vector<emulator::PortModel> models_{emulator::PortModel{}};
  CostKind costs_ = CostKind::UNIT;
  Rational message_size_ = 1;
  std::optional<Rational> latency_;
  std::optional<Rational> bandwidth_;
  std::string failed_links_;
  std::string failed_nodes_;
  std::vector<double> rates_;
  std::uint64_t seed_ = 1;
  std::string root_ = "0";
  NetworkModel network_;
  bool link_report_ = false;
  Op op_ = Op::SUM;
  star::Values values_;
  std::vector<std::pair<Algorithm, ExtraAlgorithm>> extras_;
  RunObserver observer_;
  std::vector<WhatIfRow> rows_;
  double wall_seconds_ = 0;
};

}  // namespace starnet::algorithms::collectives

#include "schedule_moves.hpp"

#include <starnet/algorithms/collectives/block_collectives.hpp>
#include <starnet/algorithms/collectives/hierarchical.hpp>
#include <starnet/algorithms/collectives/link_loads.hpp>
#include <starnet/algorithms/collectives/whatif.hpp>
#include <starnet/algorithms/generic/earliest_completion_tree.hpp>
#include <starnet/algorithms/generic/shortest_path_tree.hpp>
#include <starnet/algorithms/generic/bfs_tree.hpp>
#include <starnet/algorithms/generic/recursive_doubling.hpp>
#include <starnet/algorithms/generic/ring.hpp>
#include <starnet/algorithms/generic/routed_tree.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/network.hpp>
#include <starnet/topology/platform.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_set>
#include <utility>

namespace starnet::algorithms::collectives {

namespace sch = algorithms::schedule;
using emulator::PortModel;
using emulator::TimeMode;
using topology::StarGraph;

bool WhatIfStudy::all_verified() const {
  return std::all_of(rows_.begin(), rows_.end(), [](const WhatIfRow& r) { return !r.applicable || r.verified; });
}

std::vector<std::uint64_t> word_values(const topology::Topology& topology, const star::Values& values, Op op) {
  // ⊕'s identity: a ⊕ identity = a (SUM, MAX and XOR: 0).
  const std::uint64_t identity = op == Op::MIN ? std::numeric_limits<std::uint64_t>::max() : 0;
  const auto routers = generic::router_flags(topology);
  std::vector<std::uint64_t> words(topology.num_nodes());
  for (NodeId v = 0; v < topology.num_nodes(); ++v) words[v] = !routers.empty() && routers[v] ? identity : values.of(v);
  return words;
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

using generic::CostKind;
using generic::Diameter;
using generic::Faults;
using generic::LinkCosts;
using generic::Subnetwork;

/// The failed links and nodes of one scenario, for "is this transfer possible" questions.
class FaultSet {
 public:
  FaultSet(const Faults& faults, NodeId nodes) : nodes_(nodes), dead_(nodes, false) {
    for (const NodeId v : faults.nodes) dead_[v] = true;
    for (const auto& [u, v] : faults.links) cut_.insert(key(u, v));
  }
  [[nodiscard]] bool dead(NodeId v) const { return dead_[v]; }
  [[nodiscard]] bool cut(NodeId u, NodeId v) const { return cut_.contains(key(u, v)); }

 private:
  [[nodiscard]] NodeId key(NodeId u, NodeId v) const { return std::min(u, v) * nodes_ + std::max(u, v); }
  NodeId nodes_;
  std::vector<bool> dead_;
  std::unordered_set<NodeId> cut_;
};

std::string link_text(const topology::Topology& t, NodeId u, NodeId v) { return t.node_name(u) + "–" + t.node_name(v); }

/// Why the star all-reduce cannot run with these faults: the first step that needs a failed part.
std::optional<std::string> star_blocker(const StarGraph& g, const Faults& faults) {
  if (!faults.nodes.empty()) {
    return fmt::format("node {} used at step 0 is down (every node sends at every step)", g.node_name(faults.nodes[0]));
  }
  std::optional<std::pair<std::uint64_t, std::string>> first;
  for (const auto& [u, v] : faults.links) {
    const int k = StarGraph::dimension_of(*g.port_to(u, v));
    std::uint64_t s = 0;
    while (star::level_of_step(s).link() != k) ++s;
    if (!first || s < first->first) first = {s, link_text(g, u, v)};
  }
  if (!first) return std::nullopt;
  return fmt::format("link {} used at step {} is down", first->second, first->first);
}

/// The same for a planned schedule on the intact topology (ids = original ids).
std::optional<std::string> schedule_blocker(const generic::Schedule& s, const topology::Topology& t, const FaultSet& f) {
  for (const auto& tr : s.transfers()) {
    for (const NodeId v : {tr.from, tr.to}) {
      if (f.dead(v)) return fmt::format("node {} used at step {} is down", t.node_name(v), tr.step);
    }
    if (f.cut(tr.from, tr.to)) {
      return fmt::format("link {} used at step {} is down", link_text(t, tr.from, tr.to), tr.step);
    }
  }
  return std::nullopt;
}

/// The same for a chunk schedule on the intact topology: the earliest step that needs a failed part.
std::optional<std::string> chunk_blocker(const sch::Schedule& s, const topology::Topology& t, const FaultSet& f) {
  std::optional<std::pair<std::uint32_t, std::string>> first;
  const auto note = [&first](std::uint32_t step, std::string what) {
    if (!first || step < first->first) first = {step, std::move(what)};
  };
  for (std::uint32_t v = 0; v < s.nodes(); ++v) {
    for (const auto& a : s.actions(v)) {
      if (a.kind != sch::Action::Kind::SEND) continue;
      if (f.dead(v)) note(a.key, fmt::format("node {}", t.node_name(v)));
      if (f.dead(a.peer)) note(a.key, fmt::format("node {}", t.node_name(a.peer)));
      if (f.cut(v, a.peer)) note(a.key, fmt::format("link {}", link_text(t, v, a.peer)));
    }
  }
  if (!first) return std::nullopt;
  return fmt::format("{} used at step {} is down", first->second, first->first);
}

/// α and u of every link of @p net when they are the same everywhere (a message of k packets then
/// takes α + k·u on any link): the one test of "equal links", which run in unit time. Equal sums
/// α + u are not enough: messages of several packets, and the bounds' α·L + u·…, tell them apart.
std::optional<std::pair<Rational, Rational>> equal_links(const Subnetwork& net, const LinkCosts& costs) {
  std::optional<std::pair<Rational, Rational>> model;
  for (NodeId v = 0; v < net.num_nodes(); ++v) {
    for (topology::Port p = 0; p < net.degree(v); ++p) {
      const auto bv = net.original(v);
      const auto bp = net.base_port(v, p);
      std::pair<Rational, Rational> link{costs.alpha(net.base(), bv, bp), costs.per_unit(net.base(), bv, bp)};
      if (!model) {
        model = std::move(link);
      } else if (*model != link) {
        return std::nullopt;
      }
    }
  }
  if (!model) model = std::pair{Rational(1), Rational(0)};  // no link: steps
  return model;
}

}  // namespace

std::optional<std::string> network_flat_refusal(Algorithm a, std::uint64_t hosts) {
  const bool flat = a == Algorithm::RING || a == Algorithm::ONE_PACKET || a == Algorithm::COMBINING;
  if (!flat && a != Algorithm::RING_SPLIT) return std::nullopt;
  const std::uint64_t messages = (flat ? 1 : 2) * hosts * (hosts - 1);
  if (messages <= MAX_NETWORK_FLAT_MESSAGES) return std::nullopt;
  return fmt::format("{} among {} hosts sends {} messages, beyond the {} a row among a network's hosts runs "
                     "(rows of O(H log H) messages run at this size: recursive doubling, hierarchical)",
                     to_string(a), hosts, messages, MAX_NETWORK_FLAT_MESSAGES);
}

namespace {

/// Timed runs of chunk schedules: α + size·u on each link (size: the message's chunks).
class ChunkCosts final : public emulator::CostModel<Rational> {
 public:
  ChunkCosts(const Subnetwork& net, const LinkCosts& costs) : net_(net), costs_(costs) {}
  [[nodiscard]] Rational transfer(NodeId from, topology::Port port, NodeId, const Rational& size) const override {
    const auto bv = net_.original(from);
    const auto bp = net_.base_port(from, port);
    return costs_.alpha(net_.base(), bv, bp) + size * costs_.per_unit(net_.base(), bv, bp);
  }
  [[nodiscard]] Rational compute(NodeId, const Rational&) const override { return 0; }

 private:
  const Subnetwork& net_;
  const LinkCosts& costs_;
};

/// The smallest α and u over the links of @p net (the timed bandwidth term).
std::pair<Rational, Rational> smallest_link_terms(const Subnetwork& net, const LinkCosts& costs) {
  if (net.uniform_by_construction()) return {costs.alpha(net.base(), 0, 0), costs.per_unit(net.base(), 0, 0)};
  std::optional<Rational> alpha;
  std::optional<Rational> unit;
  for (NodeId v = 0; v < net.num_nodes(); ++v) {
    for (topology::Port p = 0; p < net.degree(v); ++p) {
      const auto a = costs.alpha(net.base(), net.original(v), net.base_port(v, p));
      const auto u = costs.per_unit(net.base(), net.original(v), net.base_port(v, p));
      if (!alpha || a < *alpha) alpha = a;
      if (!unit || u < *unit) unit = u;
    }
  }
  return {alpha.value_or(Rational(0)), unit.value_or(Rational(0))};
}

/// Why a built-in row is not verified: the emulator's first problem, else the first count that
/// differs from the plan (a count not checked is passed equal to its plan).
std::string unverified_reason(const std::string& problem, std::uint64_t steps, std::uint64_t planned_steps,
                              std::uint64_t messages, std::uint64_t planned_messages) {
  if (!problem.empty()) return problem;
  if (steps != planned_steps) return fmt::format("ran {} steps, the plan has {}", steps, planned_steps);
  if (messages != planned_messages) return fmt::format("sent {} messages, the plan has {}", messages, planned_messages);
  return "the emulator's report is incomplete";
}

/// One scenario of one topology: the network the generic algorithms run on and its distances.
struct Scenario {
  std::string description;
  double rate = 0;
  Faults faults;
  std::unique_ptr<Subnetwork> owned;  // when faults were applied
  const Subnetwork* net = nullptr;    // what the root reaches (the intact network without faults)
  Diameter hops;                      // hop diameter of net (between processors)
  Rational root_hops;                 // hop eccentricity of the root (to processors)
  std::vector<bool> relays;           // net's routers (empty: none)
  std::uint64_t processors = 0;       // net's nodes that are not routers
  std::uint64_t alive_processors = 0;  // the base's processors that did not fail
  // For timed runs, with the links' time for the smallest part of a packet (piece_costs()).
  Diameter weighted;
  Rational root_weighted;
  Rational min_cost;
  std::pair<Rational, Rational> smallest_terms;  // smallest_link_terms() of net, in timed runs
  std::optional<Rational> status;  // all-to-all: the mean status of net (bounds.hpp)
  std::optional<std::pair<Rational, Rational>> equal;  // α and u when every link of net has them
};

/// What the study was asked for, as one value.
struct Settings {
  Collective collective;
  std::vector<PortModel> models;
  LinkCosts costs;
  std::string failed_links;
  std::string failed_nodes;
  std::vector<double> rates;
  std::uint64_t seed;
  std::string root;
  Op op;
  star::Values values;
  std::vector<std::pair<Algorithm, ExtraAlgorithm>> extras;
  RunObserver observer;
  NetworkModel network;
  bool link_report = false;
};

class Runner {
 public:
  Runner(Settings settings, std::vector<WhatIfRow>& rows) : s_(std::move(settings)), rows_(rows) {}

  /// Appends the rows of one topology.
  void topology(const StudyTopology& given) {
    const std::string& spec_text = given.name;
    auto base = given.built ? given.built : std::shared_ptr<const topology::Topology>(topology::make_topology(spec_text));
    spec_ = spec_text;
    family_spec_ = spec_text;
    platform_nodes_ = 0;
    platform_links_ = 0;
    std::shared_ptr<const topology::Topology> platform;  // the network's own nodes, when routed
    const topology::HostNetwork* host_network = nullptr;
    if (auto hosts = host_view(*base)) {
      // A router named as the root is refused as in the relay model, before the hosts hide it.
      const auto named = generic::find_node(*base, s_.root);
      const auto routers = generic::router_flags(*base);
      if (named && routers[*named] && is_rooted(s_.collective)) {
        throw UsageError(Setting{"root", s_.root}, fmt::format("node {} of {} is a router, which holds no value "
                                                               "(choose a processor)",
                                                               base->node_name(*named), spec_text));
      }
      platform_nodes_ = hosts->platform().num_nodes();
      platform_links_ = hosts->platform().num_links();
      // The hosts are K_N in rank order: the complete graph's algorithms, each message routed.
      family_spec_ = fmt::format("complete:{}", hosts->num_nodes());
      platform = base;
      host_network = hosts.get();
      base = std::move(hosts);
    }
    base_ = base.get();
    refusal_ = network_refusal(*base);
    Faults fixed;
    if (!s_.failed_links.empty()) fixed.links = generic::parse_failed_links(s_.failed_links, *base, "failed links");
    if (!s_.failed_nodes.empty()) fixed.nodes = generic::parse_failed_nodes(s_.failed_nodes, *base, "failed nodes");
    const auto root = generic::find_node(*base, s_.root);
    if (!root) {
      throw UsageError(Setting{"root", s_.root}, fmt::format("not a node of {} (expected a node name or an index 0..{})",
                                                             spec_text, base->num_nodes() - 1));
    }
    if (std::find(fixed.nodes.begin(), fixed.nodes.end(), *root) != fixed.nodes.end()) {
      throw UsageError(Setting{"root", s_.root}, fmt::format("node {} of {} is among the failed nodes (choose another root)",
                                                             base->node_name(*root), spec_text));
    }
    root_ = *root;
    if (host_network != nullptr) network_cuts(*platform, *host_network, host_network->host(root_));
    words_ = word_values(*base, s_.values, s_.op);
    routers_ = generic::router_flags(*base);
    if (is_rooted(s_.collective) && is_router(root_)) {
      throw UsageError(Setting{"root", s_.root}, fmt::format("node {} of {} is a router, which holds no value (choose a "
                                                             "processor)",
                                                             base->node_name(root_), spec_text));
    }
    std::optional<Subnetwork> intact;
    if (base->num_nodes() <= generic::MAX_SUBNETWORK_NODES) {
      intact.emplace(*base, Faults{}, root_, s_.costs);
      too_big_.clear();
    } else {
      too_big_ = fmt::format("{} nodes exceed the {} nodes the generic collectives handle", base->num_nodes(),
                             generic::MAX_SUBNETWORK_NODES);
    }
    intact_ = intact ? &*intact : nullptr;
    // The hosts of a network are K_N as a graph (their contention is the emulator's, not the graph's).
    vertex_transitive_ = routed() || (!given.built && topology::is_vertex_transitive(spec_text));
    shape_ = shape_of(*base, family_spec_, !given.built || platform_nodes_ != 0);
    auto algorithms = algorithms_for(s_.collective, shape_);
    host_network_ = host_network;
    if (hierarchical_applies()) algorithms.push_back(Algorithm::HIERARCHICAL);

    std::vector<std::optional<double>> scenarios(s_.rates.begin(), s_.rates.end());
    if (scenarios.empty()) scenarios.emplace_back();
    for (const auto& rate : scenarios) {
      const Scenario sc = make_scenario(fixed, rate);
      const std::size_t first = rows_.size();
      for (const PortModel& model : s_.models) {
        for (const Algorithm a : algorithms) builtin_row(sc, model, a);
        for (const auto& [kind, algorithm] : s_.extras) extra_row(sc, model, kind, algorithm);
      }
      for (std::size_t i = first; i < rows_.size(); ++i) unreached(rows_[i], sc);
    }
    base_ = nullptr;
    intact_ = nullptr;
    host_network_ = nullptr;
  }

 private:
  /// The hosts of @p base as a network of crossbar switches (network.hpp), when it has routers and
  /// the study's network model forwards cut-through; null otherwise.
  [[nodiscard]] std::shared_ptr<const topology::HostNetwork> host_view(const topology::Topology& base) const {
    if (s_.network.forwarding != topology::Forwarding::CUT_THROUGH) return nullptr;
    const auto* p = dynamic_cast<const topology::PlatformTopology*>(&base);
    if (p == nullptr || generic::router_flags(base).empty()) return nullptr;
    if (!network_refusal(base).empty()) return nullptr;
    return std::make_shared<const topology::HostNetwork>(std::make_shared<const topology::Platform>(p->platform()),
                                                         s_.network.options);
  }

  /// The bridges of @p platform that split its hosts (the cut term of the bounds, bounds.hpp) and
  /// the most links a host has (a host sends through its links: k ports count as min(k, links)).
  void network_cuts(const topology::Topology& platform, const topology::HostNetwork& hosts, NodeId root) {
    const auto routers = generic::router_flags(platform);
    cuts_ = hosts.platform().directed() ? std::vector<generic::BridgeCut>{}
                                        : generic::bridge_cuts(platform, routers, root);
    host_links_ = 0;
    for (NodeId v = 0; v < platform.num_nodes(); ++v) {
      if (!routers[v]) host_links_ = std::max<unsigned>(host_links_, platform.degree(v));
    }
  }

  /// Why no row of @p base runs: faults on a network of crossbars, whose routes do not avoid failed
  /// parts (the relay model's do); empty otherwise.
  [[nodiscard]] std::string network_refusal(const topology::Topology& base) const {
    const auto routers = generic::router_flags(base);
    if (s_.network.forwarding != topology::Forwarding::CUT_THROUGH || routers.empty()) return {};
    if (!s_.failed_links.empty() || !s_.failed_nodes.empty() || !s_.rates.empty()) {
      return "faults on a network of crossbar switches are not modelled (its routes do not avoid failed parts): the "
             "relay model (store-and-forward forwarding) runs them, its routes avoiding them";
    }
    const auto hosts = static_cast<std::uint64_t>(std::count(routers.begin(), routers.end(), false));
    if (hosts > MAX_NETWORK_HOSTS) {
      return fmt::format("{} hosts exceed the {} a network of crossbar switches runs among (the hosts are a complete "
                         "graph of routes, held whole); the relay model (store-and-forward forwarding) runs them",
                         hosts, MAX_NETWORK_HOSTS);
    }
    return {};
  }

  /// Whether the rows run among the hosts of a network of switches (host_view()).
  [[nodiscard]] bool routed() const { return platform_nodes_ != 0; }

  /// Whether the hierarchical all-reduce (hierarchical.hpp) has a row: an all-reduce among the
  /// hosts of a network with two levels of more than one member.
  [[nodiscard]] bool hierarchical_applies() const {
    if (host_network_ == nullptr || s_.collective != Collective::ALLREDUCE) return false;
    const auto levels = host_network_->hierarchy();
    return std::count_if(levels.begin(), levels.end(), [](NodeId size) { return size > 1; }) >= 2;
  }
  /// Whether a vector of the study's message size splits into a block a node (the bounds take a
  /// unit as indivisible, docs/whatif.md: unit costs, one unit a message, never split).
  [[nodiscard]] bool splits() const {
    return s_.costs.message_size >= Rational(static_cast<std::int64_t>(base_->num_nodes()));
  }

  /// equal_links(), but none on a network of switches with link costs: its runs are timed, so that
  /// a message that waits for a link costs its time.
  [[nodiscard]] std::optional<std::pair<Rational, Rational>> equal_here(const Subnetwork& net) const {
    if (routed() && s_.costs.kind != CostKind::UNIT) return std::nullopt;
    return equal_links(net, s_.costs);
  }
  /// The checking of a planned run: strict in unit time, arbitrated when timed or routed (links wait).
  [[nodiscard]] emulator::Checking checking(TimeMode time) const {
    return routed() ? emulator::Checking::ARBITRATED : emulator::default_checking(/*stepped=*/true, time);
  }

  /// What each link of the network carried when the row's messages, (from, to, packets) as
  /// @p each lists them, took their routes (link_loads.hpp): all links with the link report, the
  /// busiest otherwise. Nothing off a network of switches.
  template <class EachMessage>
  void tally_links(WhatIfRow& r, const Subnetwork& net, TimeMode time, EachMessage&& each) const {
    if (net.network() == nullptr) return;
    LinkTally tally(net);
    each([&](NodeId from, NodeId to, const Rational& packets) {
      const auto port = net.find_port(from, to);
      const Rational busy = time == TimeMode::UNIT ? Rational(1)
                                                   : s_.costs.alpha(net.base(), from, port) +
                                                         packets * s_.costs.per_unit(net.base(), from, port);
      tally.add(from, to, packets, busy);
    });
    r.link_loads = tally.loads(s_.link_report ? std::numeric_limits<std::size_t>::max() : 1);
  }

  /// Whether @p v of the base only forwards (a router of a platform).
  [[nodiscard]] bool is_router(NodeId v) const { return !routers_.empty() && routers_[v]; }

  /// The routers among @p net's nodes (empty when the base has none), and its processors.
  void routers_on(const Subnetwork& net, Scenario& sc) const {
    sc.processors = net.num_nodes();
    sc.alive_processors = net.alive_nodes();
    if (routers_.empty()) return;
    sc.relays.assign(net.num_nodes(), false);
    for (NodeId v = 0; v < net.num_nodes(); ++v) sc.relays[v] = routers_[net.original(v)];
    sc.processors = static_cast<std::uint64_t>(std::count(sc.relays.begin(), sc.relays.end(), false));
    sc.alive_processors = static_cast<std::uint64_t>(std::count(routers_.begin(), routers_.end(), false));
    for (const NodeId v : sc.faults.nodes) sc.alive_processors -= is_router(v) ? 0 : 1;
  }

  Scenario make_scenario(const Faults& fixed, std::optional<double> rate) const {
    Scenario sc;
    // One entry per undirected link, whichever way it was named, and per node, however often.
    const auto normalise = [](std::vector<std::pair<NodeId, NodeId>>& links) {
      for (auto& [u, v] : links) {
        if (v < u) std::swap(u, v);
      }
      std::sort(links.begin(), links.end());
      links.erase(std::unique(links.begin(), links.end()), links.end());
    };
    sc.faults = fixed;
    normalise(sc.faults.links);
    std::sort(sc.faults.nodes.begin(), sc.faults.nodes.end());
    sc.faults.nodes.erase(std::unique(sc.faults.nodes.begin(), sc.faults.nodes.end()), sc.faults.nodes.end());
    const auto count = [](std::size_t n, const char* what) { return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s"); };
    std::vector<std::string> parts;
    if (!sc.faults.links.empty()) parts.push_back(count(sc.faults.links.size(), "link"));
    if (!sc.faults.nodes.empty()) parts.push_back(count(sc.faults.nodes.size(), "node"));
    if (rate) {
      sc.rate = *rate;
      auto random = generic::random_failed_links(*base_, *rate, s_.seed);
      normalise(random);
      // The random draw beyond the links named: the parts add up to the links that failed.
      std::vector<std::pair<NodeId, NodeId>> more;
      std::set_difference(random.begin(), random.end(), sc.faults.links.begin(), sc.faults.links.end(),
                          std::back_inserter(more));
      parts.push_back(fmt::format("p={} ({})", *rate, count(more.size(), "link")));
      sc.faults.links.insert(sc.faults.links.end(), more.begin(), more.end());
      std::sort(sc.faults.links.begin(), sc.faults.links.end());
    }
    sc.description = parts.empty() ? "none" : fmt::format("{}", fmt::join(parts, " + "));
    if (intact_ == nullptr) {
      // Too large for a Subnetwork: only an intact star graph gets here (its all-reduce runs on the
      // implicit S_n), whose diameter is known.
      if (const auto* g = dynamic_cast<const StarGraph*>(base_); g != nullptr && sc.faults.empty()) {
        sc.hops = {Rational(g->diameter()), true};
        sc.root_hops = sc.hops.value;
        // A family: its links are alike, unless their costs are drawn at random.
        if (s_.costs.kind != CostKind::RANDOM) sc.equal = std::pair{s_.costs.alpha(*g, 0, 0), s_.costs.per_unit(*g, 0, 0)};
      }
      return sc;
    }
    if (sc.faults.empty()) {
      sc.net = intact_;
    } else {
      sc.owned = std::make_unique<Subnetwork>(*base_, sc.faults, root_, s_.costs);
      sc.net = sc.owned.get();
    }
    routers_on(*sc.net, sc);
    const bool transitive = vertex_transitive_ && sc.faults.empty();
    sc.hops = generic::diameter(*sc.net, false, transitive, sc.relays);
    sc.root_hops = generic::eccentricity(*sc.net, sc.net->root(), false, sc.relays);
    sc.equal = equal_here(*sc.net);
    if (!sc.equal) {
      // The distance and counting terms follow the smallest part of a packet a transfer can carry.
      std::optional<Subnetwork> pieces;
      if (piece_costs().message_size != s_.costs.message_size) pieces.emplace(*base_, sc.faults, root_, piece_costs());
      const Subnetwork& net = pieces ? *pieces : *sc.net;
      sc.min_cost = net.min_cost();
      if (net.uniform_by_construction()) {
        // Links that cost alike: a weighted distance is the hop distance times that cost.
        sc.weighted = {sc.hops.value * sc.min_cost, sc.hops.exact};
        sc.root_weighted = sc.root_hops * sc.min_cost;
      } else {
        sc.weighted = generic::diameter(net, true, false, sc.relays);
        sc.root_weighted = generic::eccentricity(net, net.root(), true, sc.relays);
      }
      sc.smallest_terms = smallest_link_terms(*sc.net, s_.costs);
    }
    // With routers the mean status would count router pairs, which exchange nothing: the volume
    // term falls back on the P − 1 packets every processor sends.
    if (s_.collective == Collective::ALLTOALL && sc.relays.empty()) {
      sc.status = generic::mean_status(*sc.net, transitive);
    }
    return sc;
  }

  WhatIfRow base_row(const Scenario& sc, const PortModel& model, Algorithm a) const {
    WhatIfRow r;
    r.topology = spec_;
    r.algorithm = a;
    r.ports = model;
    r.faults = sc.description;
    r.fail_rate = sc.rate;
    r.failed_links = sc.faults.links.size();
    r.failed_nodes = sc.faults.nodes.size();
    for (const auto& [u, v] : sc.faults.links) r.failed_link_list.push_back(base_->node_name(u) + "-" + base_->node_name(v));
    for (const NodeId v : sc.faults.nodes) r.failed_node_list.push_back(base_->node_name(v));
    r.total_nodes = base_->num_nodes();
    r.root = base_->node_name(root_);
    if (sc.net != nullptr) {
      r.nodes = sc.net->num_nodes();
      r.processors = sc.processors;
      r.alive_processors = sc.alive_processors;
      r.links = sc.net->num_links();
      r.alive_nodes = sc.net->alive_nodes();
      r.connected = sc.net->connected();
      r.diameter = sc.hops.value;
      r.diameter_exact = sc.hops.exact;
      if (routed()) {
        r.total_nodes = r.nodes = r.alive_nodes = platform_nodes_;
        r.links = platform_links_;
      }
    } else {
      r.nodes = r.alive_nodes = r.processors = r.alive_processors = base_->num_nodes();
      for (NodeId v = 0; v < base_->num_nodes(); ++v) r.links += base_->degree(v);
      r.links /= 2;  // only intact star graphs are too large for a Subnetwork: undirected
      r.diameter = sc.hops.value;
    }
    return r;
  }

  void extra_row(const Scenario& sc, const PortModel& model, Algorithm kind, const ExtraAlgorithm& algorithm) {
    WhatIfRow r = base_row(sc, model, kind);
    if (!refusal_.empty()) return not_applicable(std::move(r), refusal_);
    if (!sc.faults.empty()) return not_applicable(std::move(r), "it runs on the intact topology only");
    // Among a network's hosts a schedule runs as the built-ins' do (run_chunks()), timed or not.
    const bool as_builtin = routed() && kind == Algorithm::SCHEDULE;
    if (s_.costs.kind != CostKind::UNIT && !as_builtin) return not_applicable(std::move(r), "it runs with unit costs only");
    if (kind == Algorithm::OPTIMAL && routed()) {
      return not_applicable(std::move(r), "the search does not model the network's links, which its messages share");
    }
    if (kind == Algorithm::OPTIMAL && !routers_.empty()) {
      return not_applicable(std::move(r), "the search takes every node as a participant, and routers only forward");
    }
    const auto start = Clock::now();
    const ExtraRun x = algorithm(*base_, routed() ? family_spec_ : spec_, model);
    r.variant = x.variant;
    if (!x.applicable) return not_applicable(std::move(r), x.reason);
    if (as_builtin && x.schedule) {
      if (intact_ == nullptr) return not_applicable(std::move(r), too_big_);
      if (!run_chunks(r, sc, *intact_, *x.schedule, model)) return;
      r.wall_seconds = seconds_since(start);
      rows_.push_back(std::move(r));
      return;
    }
    r.time = TimeMode::UNIT;
    r.steps = x.steps;
    r.planned_steps = x.planned_steps;
    r.makespan = Rational(static_cast<std::int64_t>(x.steps));
    r.messages = x.messages;
    r.volume = x.volume;
    r.verified = x.verified;
    if (!x.verified) r.reason = x.reason;  // why not: a row that is not verified says so
    bound(r, sc, s_.collective, model);
    r.wall_seconds = seconds_since(start);
    rows_.push_back(std::move(r));
  }

  /// A collective over the alive nodes that ran on fewer of them is not verified, whatever its
  /// own nodes ended with: the row says what it reached and why.
  void unreached(WhatIfRow& r, const Scenario& sc) const {
    // Among the participants: a router cut off takes no part anyway.
    if (!r.applicable || r.processors >= r.alive_processors) return;
    const auto cut = r.alive_processors - r.processors;
    const std::string why =
        sc.faults.empty()
            ? fmt::format("the topology is disconnected: no path leads from root {} to the other {}", r.root, cut)
            : fmt::format("the faults ({}) cut root {} off from the other {}", sc.description, r.root, cut);
    r.verified = false;
    r.reason = fmt::format("reached {} of the {} alive {}: {}", r.processors, r.alive_processors,
                           routers_.empty() ? "nodes" : "processors", why);
  }

  void not_applicable(WhatIfRow r, std::string reason) {
    r.applicable = false;
    r.reason = std::move(reason);
    rows_.push_back(std::move(r));
  }

  /// Smallest part of a packet a transfer can carry, as a fraction of the packet: one unit of the
  /// m a packet holds (a vector's element, a block's byte), the whole packet when m ≤ 1.
  [[nodiscard]] Rational piece() const {
    const Rational& m = s_.costs.message_size;
    return m > 1 ? Rational(1) / m : Rational(1);
  }
  /// The link costs of one piece() (the same as the study's when a packet is one piece).
  [[nodiscard]] LinkCosts piece_costs() const {
    LinkCosts costs = s_.costs;
    costs.message_size = s_.costs.message_size * piece();
    return costs;
  }

  /// Lower bounds on the packets (a fraction: a packet may travel in parts) some node must send,
  /// and some node must receive, in any algorithm for @p c among @p nodes (whatif.hpp, docs/whatif.md).
  struct VolumeBound {
    Rational sent;
    Rational received;
  };
  static VolumeBound volume_bound(Collective c, std::uint64_t nodes, const Scenario& sc) {
    if (nodes < 2) return {Rational(0), Rational(0)};
    const Rational others(static_cast<std::int64_t>(nodes - 1));
    switch (c) {
      case Collective::ALLREDUCE: {
        // Every element needs 2(N − 1) transfers (one-way gossip), shared by N senders.
        const Rational mean = Rational(2) * others / Rational(static_cast<std::int64_t>(nodes));
        return {mean, mean};
      }
      case Collective::REDUCE:
      case Collective::BROADCAST: return {Rational(1), Rational(1)};
      case Collective::ALLGATHER:
      case Collective::REDUCESCATTER: return {others, others};
      case Collective::GATHER: return {Rational(1), others};
      case Collective::SCATTER: return {others, Rational(1)};
      case Collective::ALLTOALL: {
        const Rational s = sc.status.value_or(others);
        return {s, s};
      }
    }
    return {Rational(0), Rational(0)};
  }

  /// equal_links() of @p net, the network a row runs on (sc.net's is computed once).
  std::optional<std::pair<Rational, Rational>> equal_on(const Scenario& sc, const Subnetwork& net) const {
    return &net == sc.net ? sc.equal : equal_here(net);
  }

  /// Sets the bound of @p r (for @p c, on the network @p sc.net) and the ratio: a lower bound on
  /// the time of any algorithm for @p c with the data as sized (whatif.hpp), the same for every
  /// row of a topology, port model and scenario.
  void bound(WhatIfRow& r, const Scenario& sc, Collective c, const PortModel& model) const {
    const bool rooted = is_rooted(c);
    const VolumeBound volume = volume_bound(c, r.processors, sc);
    r.bound_volume = volume.sent;
    if (c == Collective::ALLTOALL && sc.status) r.bound_status = static_cast<std::uint64_t>(sc.status->ceil());
    // Packets through the busiest node's busiest port; a host of a network sends through its links.
    const unsigned ports = routed() ? std::min(model.ports, std::max(host_links_, 1U)) : model.ports;
    const Rational per_port = std::max(volume.sent, volume.received) / Rational(static_cast<std::int64_t>(ports));
    // Packets across the narrowest bridge of a network (bounds.hpp, "Cut bound").
    Rational across = 0;
    if (routed()) {
      for (const auto& cut : cuts_) across = std::max(across, generic::cut_packets(c, cut));
    }
    if (r.time == TimeMode::UNIT) {
      // Step-synchronous: every step costs α plus its largest message, of at least one piece.
      const auto [alpha, unit] = sc.equal.value_or(std::pair{Rational(1), Rational(0)});
      const Rational hops = rooted ? sc.root_hops : sc.hops.value;
      const auto participants = std::max<std::uint64_t>(r.processors, 1);
      const auto distance = static_cast<std::uint64_t>(hops.num());
      const generic::StepBound b = generic::step_lower_bound(c, model, participants, distance, !sc.relays.empty());
      const Rational steps(static_cast<std::int64_t>(b.value()));
      r.lower_bound_time = alpha * steps + unit * std::max({steps * piece(), per_port, across});
      r.lower_bound = b.value();
      r.bound_counting = static_cast<std::int64_t>(b.counting);
      r.bound_distance = static_cast<std::int64_t>(b.distance);
    } else {
      const auto b = generic::time_lower_bound(model, std::max<std::uint64_t>(r.processors, 1), sc.min_cost,
                                               rooted ? sc.root_weighted : sc.weighted.value);
      const auto& [alpha, unit] = sc.smallest_terms;
      const Rational bandwidth = per_port > 0 ? alpha + unit * per_port : Rational(0);
      const Rational cut = across > 0 ? alpha + unit * across : Rational(0);
      r.lower_bound_time = std::max({b.value(), bandwidth, cut});
      r.bound_cut = cut;
      r.bound_counting = b.counting;
      r.bound_distance = b.distance;
    }
    r.bound_reached = r.makespan == r.lower_bound_time;
    if (r.lower_bound_time > 0) {
      r.ratio = (r.makespan / r.lower_bound_time).to_double();
    } else if (r.makespan == 0) {
      r.ratio = 1.0;
    }
  }

  /// One row of a built-in algorithm: the word collectives as before (word plans, the star
  /// all-reduce), the blocked ones as chunk schedules.
  void builtin_row(const Scenario& sc, const PortModel& model, Algorithm a) {
    if (!refusal_.empty()) return not_applicable(base_row(sc, model, a), refusal_);
    const bool split = a == Algorithm::RING_SPLIT || a == Algorithm::RABENSEIFNER;
    if (split && !splits()) return;
    if (auto why = router_blocker(a)) return not_applicable(base_row(sc, model, a), std::move(*why));
    if (auto why = routed() ? network_flat_refusal(a, base_->num_nodes()) : std::nullopt) {
      return not_applicable(base_row(sc, model, a), std::move(*why));
    }
    const bool chunked = a == Algorithm::DIMENSION_ORDERED || a == Algorithm::HIERARCHICAL || split;
    if (!is_blocked(s_.collective) && !chunked) {
      if (a == Algorithm::STAR) return star_row(sc, model);
      if (a == Algorithm::RECURSIVE_DOUBLING || a == Algorithm::RING) return planned_row(sc, model, a);
      tree_row(sc, model);
      return weighted_tree_row(sc, model);
    }
    const bool exchange = a == Algorithm::ONE_PACKET || a == Algorithm::COMBINING;
    if (exchange && base_->num_nodes() > optimal::MAX_UNIFORM_SCHEDULE_NODES) return exchange_row(sc, model, a);
    chunk_row(sc, model, a);
  }

  /// Why @p a does not run among the processors of a topology with routers: only the routed
  /// trees keep routers to forwarding (generic/routed_tree.hpp, routed_tree_collective()).
  [[nodiscard]] std::optional<std::string> router_blocker(Algorithm a) const {
    if (routers_.empty()) return std::nullopt;
    if (a == Algorithm::BFS_TREE) return std::nullopt;
    return fmt::format("{} takes every node as a participant, and routers only forward", to_string(a));
  }

  void chunk_row(const Scenario& sc, const PortModel& model, Algorithm a) {
    WhatIfRow r = base_row(sc, model, a);
    if (sc.net == nullptr) return not_applicable(std::move(r), too_big_);
    const bool tree = a == Algorithm::BFS_TREE;
    if (const auto arc = sc.net->asymmetric_arc(); tree && arc) {
      return not_applicable(std::move(r), fmt::format("link {}->{} has no reverse (a tree needs two-way links)",
                                                      base_->node_name(arc->first), base_->node_name(arc->second)));
    }
    const auto start = Clock::now();
    // The tree runs on what the root reaches; the others need the intact topology.
    const Subnetwork& net = tree ? *sc.net : *intact_;
    std::optional<Built> built;
    try {
      if (tree && !sc.relays.empty()) {
        if (net.num_nodes() > MAX_BLOCK_NODES) {  // the limit build() sets for every blocked schedule
          throw ScheduleError(fmt::format("bfs-tree {} on {}: {} nodes; blocked collectives are built as schedules up "
                                          "to {} nodes",
                                          to_string(s_.collective), spec_, net.num_nodes(), MAX_BLOCK_NODES));
        }
        std::string variant;
        auto s = routed_tree_collective(net, sc.net->root(), s_.collective, model, sc.relays, &variant);
        built = Built{std::move(s), std::move(variant)};
      } else if (a == Algorithm::HIERARCHICAL) {
        // Its blocks are chunks of a schedule, H² in all: the split form up to
        // MAX_HIERARCHICAL_SPLIT_HOSTS hosts, the word form beyond.
        built = hierarchical_allreduce(*host_network_, splits() && net.num_nodes() <= MAX_HIERARCHICAL_SPLIT_HOSTS,
                                       model);
      } else {
        built = build(a, s_.collective, net, family_spec_, tree ? sc.net->root() : root_, model);
      }
    } catch (const ScheduleError& e) {
      return not_applicable(std::move(r), e.what());
    }
    r.variant = built->variant;
    if (!tree && !sc.faults.empty()) {
      if (auto blocker = chunk_blocker(built->schedule, *base_, FaultSet(sc.faults, base_->num_nodes()))) {
        return not_applicable(std::move(r), std::move(*blocker));
      }
    }
    if (!run_chunks(r, sc, net, built->schedule, model)) return;
    r.wall_seconds = seconds_since(start);
    rows_.push_back(std::move(r));
  }

  /// Runs a chunk schedule on @p net (unit time and strict checks for equal links, timed and
  /// arbitrated otherwise) and fills in the measurements, the verdict and the bound. False (and a
  /// row "not applicable") when it breaks the port model.
  bool run_chunks(WhatIfRow& r, const Scenario& sc, const Subnetwork& net, const sch::Schedule& s,
                  const PortModel& model) {
    const auto equal = equal_on(sc, net);
    // A word collective's vector split into C chunks (split_allreduce.hpp): each chunk is 1/C of it.
    const Rational share = is_blocked(s_.collective) ? Rational(1) : Rational(1, s.rules().chunks());
    sch::ScheduleRunSettings settings;
    settings.config.ports = model;
    settings.config.time = equal ? TimeMode::UNIT : TimeMode::TIMED;
    settings.config.checking = checking(settings.config.time);
    settings.config.trace = static_cast<bool>(s_.observer);
    settings.chunks.time = settings.config.time;
    settings.op = s_.op;
    settings.values = s_.values;
    settings.chunks.chunk_size = share;
    const ChunkCosts timed(net, s_.costs);
    if (!equal) settings.costs = &timed;
    sch::ScheduleRun run;
    try {
      run = sch::run_schedule(s, net, settings);
    } catch (const ModelViolation& e) {
      not_applicable(std::move(r), fmt::format("breaks the port model: {}", e.what()));
      return false;
    }
    const auto vol = sch::volume(s);
    r.time = settings.config.time;
    r.planned_steps = s.steps();
    r.messages = run.run.counters.messages;
    r.volume = vol.sent_max;
    tally_links(r, net, settings.config.time, [&](const auto& add) {
      for (const auto& m : moves_of(s)) {
        if (m.from != m.to) add(m.from, m.to, share * static_cast<std::int64_t>(m.items.size()));
      }
    });
    if (equal) {
      r.steps = static_cast<std::uint64_t>(run.run.makespan.num());
      r.makespan = Rational(0);
      for (const auto largest : vol.largest) {
        r.makespan += equal->first + equal->second * static_cast<std::int64_t>(largest) * share;
      }
      // Among a network's hosts with unit costs (u = 0): the steps measured, waits for links included.
      if (routed()) r.makespan = equal->first * run.run.makespan;
      r.verified = run.verified && (routed() || r.steps == s.steps());
    } else {
      r.makespan = run.run.makespan;
      r.verified = run.verified;
    }
    if (!r.verified) {
      r.reason = unverified_reason(run.verified ? "" : run.report.first_problem(), r.steps, equal ? s.steps() : r.steps,
                                   0, 0);
    }
    bound(r, sc, s_.collective, model);
    if (s_.observer) s_.observer(r, run.run, net);
    return true;
  }

  /// A total exchange beyond schedules (MAX_UNIFORM_SCHEDULE_NODES nodes) as exchange_program().
  void exchange_row(const Scenario& sc, const PortModel& model, Algorithm a) {
    WhatIfRow r = base_row(sc, model, a);
    if (!sc.faults.empty()) return not_applicable(std::move(r), "it runs on the intact topology only here");
    if (model.half_duplex && model.ports < 2) {
      return not_applicable(std::move(r), "every node sends and receives at every step, which single-port half "
                                          "duplex forbids");
    }
    if (sc.net == nullptr) return not_applicable(std::move(r), too_big_);
    if (!sc.equal) {
      return not_applicable(std::move(r), "the exchange program is step-synchronous: it needs equal link costs");
    }
    const auto start = Clock::now();
    const auto g = CayleyGroup::of(shape_.cayley);
    const auto plan = exchange_plan(a, g);
    if (plan.volume > MAX_EXCHANGE_PACKET_HOPS / g.order()) {
      return not_applicable(std::move(r), fmt::format("{} packet-hops (N·volume) exceed the {} run here",
                                                      plan.volume * g.order(), MAX_EXCHANGE_PACKET_HOPS));
    }
    const auto check = check_exchange(g, plan);
    r.variant = a == Algorithm::ONE_PACKET ? fmt::format("status {}", plan.status) : fmt::format("volume {}", plan.volume);
    r.time = TimeMode::UNIT;
    r.steps = check.steps;
    r.planned_steps = plan.steps();
    r.messages = check.messages;
    r.volume = plan.volume;
    r.makespan = Rational(0);
    for (const auto packets : plan.packets) r.makespan += sc.equal->first + sc.equal->second * static_cast<std::int64_t>(packets);
    r.verified = check.verified;
    if (!check.verified) r.reason = check.problem;
    bound(r, sc, s_.collective, model);
    r.wall_seconds = seconds_since(start);
    rows_.push_back(std::move(r));
  }

  void star_row(const Scenario& sc, const PortModel& model) {
    WhatIfRow r = base_row(sc, model, Algorithm::STAR);
    const auto& g = dynamic_cast<const StarGraph&>(*base_);
    if (auto blocker = star_blocker(g, sc.faults)) return not_applicable(std::move(r), std::move(*blocker));
    if (model.half_duplex && model.ports < 2) {
      return not_applicable(std::move(r),
                            "every node sends and receives at every step, which single-port half "
                            "duplex forbids");
    }
    if (!sc.equal) {
      return not_applicable(std::move(r), "the star all-reduce is step-synchronous: it needs equal link costs");
    }
    const auto start = Clock::now();
    const auto expected = star::reduce_sequentially(g, s_.op, s_.values);
    emulator::RunConfig config;
    config.ports = model;
    config.trace = static_cast<bool>(s_.observer);
    const emulator::UnitCosts<Rational> unit;
    const auto run = engine_.run(
        g, unit,
        [&](emulator::NodeRange range) { return star::make_allreduce_program(g, s_.op, s_.values, expected, range); },
        config);
    star::StarReport report;
    for (const auto& text : run.reports) report.merge(star::StarReport::parse(text));
    r.planned_steps = star::allreduce_steps(g.n());
    r.steps = static_cast<std::uint64_t>(run.makespan.num());
    r.makespan = (sc.equal->first + sc.equal->second) * run.makespan;
    r.messages = run.counters.messages;
    r.volume = r.planned_steps;  // one word per step
    r.verified = report.nodes_checked == g.size() && report.nodes_correct == g.size() && r.steps == r.planned_steps;
    if (!r.verified) {
      r.reason = unverified_reason(report.nodes_correct == report.nodes_checked
                                       ? ""
                                       : fmt::format("{} of {} nodes end with a wrong result",
                                                     report.nodes_checked - report.nodes_correct, report.nodes_checked),
                                   r.steps, r.planned_steps, 0, 0);
    }
    r.variant = "Oh-Choi-Primeaux";
    bound(r, sc, Collective::ALLREDUCE, model);
    r.wall_seconds = seconds_since(start);
    if (s_.observer) s_.observer(r, run, g);
    rows_.push_back(std::move(r));
  }

  void planned_row(const Scenario& sc, const PortModel& model, Algorithm a) {
    WhatIfRow r = base_row(sc, model, a);
    if (intact_ == nullptr) return not_applicable(std::move(r), too_big_);
    STARNET_ASSERT(intact_->num_nodes() == base_->num_nodes());  // hypercubes, rings and tori are connected
    const auto start = Clock::now();
    generic::Schedule plan;
    if (a == Algorithm::RECURSIVE_DOUBLING) {
      // Complete graphs of other sizes fold the extra nodes in first (recursive_doubling.hpp).
      plan = generic::recursive_doubling_folded_schedule(*intact_, model);
      r.variant = std::string(std::has_single_bit(intact_->num_nodes()) ? "" : "folded, ") +
                  (model.half_duplex && model.ports < 2 ? "split exchanges" : "exchanges");
    } else {
      plan = generic::ring_schedule(*intact_, shape_rings(shape_), model);
      r.variant = generic::to_string(generic::ring_variant(model));
    }
    if (auto blocker = schedule_blocker(plan, *base_, FaultSet(sc.faults, base_->num_nodes()))) {
      return not_applicable(std::move(r), std::move(*blocker));
    }
    execute(r, sc, *intact_, plan, Collective::ALLREDUCE, model);
    r.wall_seconds = seconds_since(start);
    rows_.push_back(std::move(r));
  }

  void tree_row(const Scenario& sc, const PortModel& model) {
    WhatIfRow r = base_row(sc, model, Algorithm::BFS_TREE);
    if (sc.net == nullptr) return not_applicable(std::move(r), too_big_);
    if (const auto arc = sc.net->asymmetric_arc()) {
      return not_applicable(std::move(r), fmt::format("link {}->{} has no reverse (a tree needs two-way links)",
                                                      base_->node_name(arc->first), base_->node_name(arc->second)));
    }
    const auto start = Clock::now();
    if (!sc.relays.empty()) {
      const auto plan = generic::routed_tree_schedule(*sc.net, sc.net->root(), sc.relays, s_.collective, model);
      r.variant = plan.variant;
      execute(r, sc, *sc.net, plan.schedule, s_.collective, model);
    } else {
      const auto plan = generic::bfs_tree_schedule(*sc.net, sc.net->root(), s_.collective, model.ports);
      r.variant = generic::to_string(plan.rule);
      execute(r, sc, *sc.net, plan.schedule, s_.collective, model);
    }
    r.wall_seconds = seconds_since(start);
    rows_.push_back(std::move(r));
  }

  /// The word collective on a tree that weighs link costs, in timed runs only (with equal links it
  /// is a BFS tree, the row before): the shortest-path tree (generic/shortest_path_tree.hpp) and
  /// the earliest-completion tree, which weighs the port model too
  /// (generic/earliest_completion_tree.hpp), both run; the faster stays (ties: shortest paths).
  void weighted_tree_row(const Scenario& sc, const PortModel& model) {
    if (sc.net == nullptr || sc.net->asymmetric_arc() || equal_on(sc, *sc.net)) return;
    std::optional<WhatIfRow> best;
    emulator::RunResult<Rational> best_run;  // the observer sees the kept tree's run only
    const auto start = Clock::now();         // the row's wall time: both trees
    for (const bool ports_too : {false, true}) {
      WhatIfRow r = base_row(sc, model, Algorithm::WEIGHTED_TREE);
      const auto tree = ports_too ? generic::earliest_completion_tree(*sc.net, sc.net->root(), model.ports,
                                                                      sc.net->uniform_by_construction())
                                  : generic::shortest_path_tree(*sc.net, sc.net->root());
      const std::string name = ports_too ? "earliest completion" : "shortest paths";
      emulator::RunResult<Rational> run;
      if (!sc.relays.empty()) {
        const auto plan = generic::routed_tree_schedule(*sc.net, tree, sc.relays, s_.collective, model);
        r.variant = name + ", " + plan.variant;
        run = execute(r, sc, *sc.net, plan.schedule, s_.collective, model, /*observe=*/false);
      } else {
        r.variant = name;
        run = execute(r, sc, *sc.net, generic::tree_schedule(tree, s_.collective, model.ports), s_.collective, model,
                      /*observe=*/false);
      }
      if (!best || (r.verified && (!best->verified || r.makespan < best->makespan))) {
        best = std::move(r);
        best_run = std::move(run);
      }
    }
    best->wall_seconds = seconds_since(start);
    if (s_.observer) s_.observer(*best, best_run, *sc.net);
    rows_.push_back(std::move(*best));
  }

  /// Runs @p plan on @p net (unit time and strict checks for equal costs, timed and arbitrated
  /// otherwise) and fills in the measurements, the verdict and the bound. The run goes to the
  /// observer unless @p observe is false: a row that runs several plans and keeps one shows only
  /// the run it kept, which it is returned for.
  emulator::RunResult<Rational> execute(WhatIfRow& r, const Scenario& sc, const Subnetwork& net,
                                        const generic::Schedule& plan, Collective c, const PortModel& model,
                                        bool observe = true) {
    std::vector<std::uint64_t> initial(net.num_nodes());
    std::vector<bool> relays;  // the plan's, that the expectation leaves out
    for (NodeId v = 0; v < net.num_nodes(); ++v) initial[v] = words_[net.original(v)];
    if (plan.has_relays()) {
      relays.resize(net.num_nodes());
      for (NodeId v = 0; v < net.num_nodes(); ++v) relays[v] = plan.relay(v);
    }
    const auto expectation = generic::expected_result(c, s_.op, initial, net.root(), relays);
    const auto equal = equal_on(sc, net);
    emulator::RunConfig config;
    config.ports = model;
    config.time = equal ? TimeMode::UNIT : TimeMode::TIMED;
    config.checking = checking(config.time);
    config.trace = static_cast<bool>(s_.observer);
    const emulator::UnitCosts<Rational> unit;
    const emulator::TopologyCosts<Rational> timed(net);
    const emulator::CostModel<Rational>& costs = equal ? static_cast<const emulator::CostModel<Rational>&>(unit) : timed;
    auto run = engine_.run(
        net, costs,
        [&](emulator::NodeRange range) {
          // On a network a transfer may wait for a link: the plan runs as its data arrive, not by steps.
          return generic::make_schedule_program(plan, initial, s_.op, expectation,
                                                routed() ? TimeMode::TIMED : config.time, range);
        },
        config);
    generic::ScheduleReport report;
    for (const auto& text : run.reports) report.merge(generic::ScheduleReport::parse(text));
    r.time = config.time;
    r.planned_steps = plan.steps();
    r.messages = run.counters.messages;
    std::vector<std::uint64_t> sends(net.num_nodes(), 0);
    for (const auto& tr : plan.transfers()) ++sends[tr.from];
    r.volume = sends.empty() ? 0 : *std::max_element(sends.begin(), sends.end());
    tally_links(r, net, config.time, [&](const auto& add) {
      for (const auto& tr : plan.transfers()) add(tr.from, tr.to, Rational(1));
    });
    if (equal) {
      r.steps = static_cast<std::uint64_t>(run.makespan.num());
      r.makespan = (equal->first + equal->second) * run.makespan;  // one packet per message
      r.verified = report.ok() && (routed() || r.steps == plan.steps()) && r.messages == plan.transfers().size();
    } else {
      r.makespan = run.makespan;
      r.verified = report.ok() && r.messages == plan.transfers().size();
    }
    if (!r.verified) {
      r.reason = unverified_reason(report.ok() ? "" : fmt::format("{} of {} nodes end with a wrong result, {} plan errors",
                                                                 report.nodes_checked - report.nodes_correct,
                                                                 report.nodes_checked, report.plan_errors),
                                   equal ? r.steps : plan.steps(), plan.steps(), r.messages, plan.transfers().size());
    }
    bound(r, sc, c, model);
    if (observe && s_.observer) s_.observer(r, run, net);
    return run;
  }

  Settings s_;
  std::vector<WhatIfRow>& rows_;
  emulator::LocalEngine<Rational> engine_;
  // The topology being studied.
  std::string spec_;
  const topology::HostNetwork* host_network_ = nullptr;  // the hosts' network when routed (host_view())
  std::string family_spec_;  // spec_, or complete:N for the hosts of a network (host_view())
  std::uint64_t platform_nodes_ = 0;  // a network's nodes and links, switches included (0: not routed)
  std::uint64_t platform_links_ = 0;
  std::vector<generic::BridgeCut> cuts_;  // a network's bridges that split its hosts
  std::string refusal_;                   // network_refusal() of the topology being studied
  unsigned host_links_ = 0;               // the most links a host of the network has
  const topology::Topology* base_ = nullptr;
  std::vector<std::uint64_t> words_;  // word_values() of base_
  std::vector<bool> routers_;         // generic::router_flags() of base_
  const Subnetwork* intact_ = nullptr;
  NodeId root_ = 0;
  bool vertex_transitive_ = false;
  Shape shape_;
  std::string too_big_;  // why the generic algorithms cannot run, when intact_ is null
};

}  // namespace

WhatIfStudy& WhatIfStudy::run() {
  if (specs_.empty()) throw UsageError(Setting{"topologies", ""}, "no topology given (expected e.g. star:5,hypercube:7)");
  if (models_.empty()) {
    throw UsageError(Setting{"port models", ""}, "no port model given (expected at least one, e.g. single-port full duplex)");
  }
  for (const auto& m : models_) {
    if (m.ports < 1) {
      throw UsageError(Setting{"ports", std::to_string(m.ports)}, "a node needs at least one port (expected k ≥ 1)");
    }
  }
  for (const double p : rates_) {
    if (!(p >= 0 && p <= 1)) {
      throw UsageError(Setting{"failure probability", fmt::format("{}", p)}, "not a probability (expected 0 ≤ P ≤ 1)");
    }
  }
  generic::check_alpha_beta(latency_, bandwidth_);
  CostKind costs = costs_;
  if (latency_ || bandwidth_) {
    const Setting given = latency_ ? Setting{"latency", latency_->to_string()} : Setting{"bandwidth", bandwidth_->to_string()};
    if (costs == CostKind::RANDOM) {
      throw UsageError(given, "sets every link's α–β time: it applies with «costs» unit or topology, not random");
    }
    costs = CostKind::TOPOLOGY;  // every link's α and β: the α–β model
  }
  if (!(message_size_ > 0)) {
    throw UsageError(Setting{"message size", message_size_.to_string()}, "not a size (expected a number > 0)");
  }
  if (costs != CostKind::TOPOLOGY && message_size_ != 1) {
    throw UsageError(Setting{"message size", message_size_.to_string()},
                     fmt::format("sizes count with topology costs only (the α–β times of the links), not with {} costs",
                                 to_string(costs_)));
  }
  const generic::LinkCosts link_costs{costs, seed_, message_size_, latency_, bandwidth_};
  if (network_.switch_ports) {
    const unsigned k = *network_.switch_ports;
    if (network_.forwarding != topology::Forwarding::STORE_AND_FORWARD) {
      throw UsageError(Setting{"switch_ports", std::to_string(k)},
                       "a switch of K ports is a relay, which forwards store-and-forward (expected «forwarding» "
                       "store-and-forward; without «switch_ports» switches are non-blocking crossbars)");
    }
    for (const auto& m : models_) {
      if (m.ports != k) {
        throw UsageError(Setting{"switch_ports", std::to_string(k)},
                         fmt::format("relays take the processors' port model here: {} ports with «ports» {} (expected "
                                     "«switch_ports» equal to «ports»)",
                                     k, m.ports));
      }
    }
  }
  const Rational& switching = network_.options.switch_latency;
  if (switching < 0) throw UsageError(Setting{"switch_latency", switching.to_string()}, "expected a time ≥ 0");
  if (switching > 0 && costs != CostKind::TOPOLOGY) {
    throw UsageError(Setting{"switch_latency", switching.to_string()},
                     "is a time, which runs with link costs only (expected «latency» and «bandwidth», or «costs» "
                     "topology)");
  }
  if (switching > 0 && network_.forwarding != topology::Forwarding::CUT_THROUGH) {
    throw UsageError(Setting{"switch_latency", switching.to_string()},
                     "is the crossbar's, with «forwarding» cut-through (relays take a link's time at every hop)");
  }
  const auto start = Clock::now();
  rows_.clear();
  Runner runner(
      {collective_, models_, link_costs, failed_links_, failed_nodes_, rates_, seed_, root_, op_, values_, extras_,
       observer_, network_, link_report_},
      rows_);
  for (const auto& t : specs_) runner.topology(t);
  wall_seconds_ = seconds_since(start);
  return *this;
}

}  // namespace starnet::algorithms::collectives

#include <starnet/algorithms/generic/bfs_tree.hpp>
#include <starnet/algorithms/generic/recursive_doubling.hpp>
#include <starnet/algorithms/generic/ring.hpp>
#include <starnet/algorithms/generic/whatif.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <unordered_set>

namespace starnet::algorithms::generic {

using emulator::PortModel;
using emulator::TimeMode;
using topology::StarGraph;

std::string to_string(Algorithm a) {
  switch (a) {
    case Algorithm::STAR: return "star";
    case Algorithm::RECURSIVE_DOUBLING: return "recursive-doubling";
    case Algorithm::RING: return "ring";
    case Algorithm::BFS_TREE: return "bfs-tree";
    case Algorithm::SCHEDULE: return "schedule";
    case Algorithm::OPTIMAL: return "optimal";
  }
  return "?";
}

bool WhatIfStudy::all_verified() const {
  return std::all_of(rows_.begin(), rows_.end(), [](const WhatIfRow& r) { return !r.applicable || r.verified; });
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

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
std::optional<std::string> schedule_blocker(const Schedule& s, const topology::Topology& t, const FaultSet& f) {
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

/// One scenario of one topology: the network the generic algorithms run on and its distances.
struct Scenario {
  std::string description;
  double rate = 0;
  Faults faults;
  std::unique_ptr<Subnetwork> owned;  // when faults were applied
  const Subnetwork* net = nullptr;    // what the root reaches (the intact network without faults)
  Diameter hops;                      // hop diameter of net
  Rational root_hops;                 // hop eccentricity of the root
  Diameter weighted;                  // for timed runs
  Rational root_weighted;
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
};

class Runner {
 public:
  Runner(Settings settings, std::vector<WhatIfRow>& rows) : s_(std::move(settings)), rows_(rows) {}

  /// Appends the rows of one topology spec.
  void topology(const std::string& spec_text) {
    const topology::Spec spec = topology::parse_spec(spec_text);
    const auto base = topology::make_topology(spec_text);
    spec_ = spec_text;
    base_ = base.get();
    Faults fixed;
    if (!s_.failed_links.empty()) fixed.links = parse_failed_links(s_.failed_links, *base, "failed links");
    if (!s_.failed_nodes.empty()) fixed.nodes = parse_failed_nodes(s_.failed_nodes, *base, "failed nodes");
    const auto root = find_node(*base, s_.root);
    if (!root) {
      throw UsageError(Setting{"root", s_.root}, fmt::format("not a node of {} (expected a node name or an index 0..{})",
                                                             spec_text, base->num_nodes() - 1));
    }
    if (std::find(fixed.nodes.begin(), fixed.nodes.end(), *root) != fixed.nodes.end()) {
      throw UsageError(Setting{"root", s_.root}, fmt::format("node {} of {} is among the failed nodes (choose another root)",
                                                             base->node_name(*root), spec_text));
    }
    root_ = *root;
    std::optional<Subnetwork> intact;
    if (base->num_nodes() <= MAX_SUBNETWORK_NODES) {
      intact.emplace(*base, Faults{}, root_, s_.costs);
      too_big_.clear();
    } else {
      too_big_ = fmt::format("{} nodes exceed the {} nodes the generic collectives handle", base->num_nodes(),
                             MAX_SUBNETWORK_NODES);
    }
    intact_ = intact ? &*intact : nullptr;
    vertex_transitive_ = topology::is_vertex_transitive(spec_text);
    const bool all = s_.collective == Collective::ALLREDUCE;

    std::vector<std::optional<double>> scenarios(s_.rates.begin(), s_.rates.end());
    if (scenarios.empty()) scenarios.emplace_back();
    for (const auto& rate : scenarios) {
      const Scenario sc = make_scenario(fixed, rate);
      for (const PortModel& model : s_.models) {
        if (all && spec.family == "star") star_row(sc, model);
        if (all && spec.family == "hypercube") planned_row(sc, model, Algorithm::RECURSIVE_DOUBLING);
        if (all && (spec.family == "ring" || spec.family == "torus")) planned_row(sc, model, Algorithm::RING);
        tree_row(sc, model);
        for (const auto& [kind, algorithm] : s_.extras) extra_row(sc, model, kind, algorithm);
      }
    }
    base_ = nullptr;
    intact_ = nullptr;
  }

 private:
  Scenario make_scenario(const Faults& fixed, std::optional<double> rate) const {
    Scenario sc;
    sc.faults = fixed;
    std::vector<std::string> parts;
    if (!fixed.links.empty())
      parts.push_back(fmt::format("{} link{}", fixed.links.size(), fixed.links.size() == 1 ? "" : "s"));
    if (!fixed.nodes.empty())
      parts.push_back(fmt::format("{} node{}", fixed.nodes.size(), fixed.nodes.size() == 1 ? "" : "s"));
    if (rate) {
      sc.rate = *rate;
      const auto random = random_failed_links(*base_, *rate, s_.seed);
      parts.push_back(fmt::format("p={} ({} link{})", *rate, random.size(), random.size() == 1 ? "" : "s"));
      sc.faults.links.insert(sc.faults.links.end(), random.begin(), random.end());
    }
    // One entry per undirected link, whichever way it was named.
    for (auto& [u, v] : sc.faults.links) {
      if (v < u) std::swap(u, v);
    }
    std::sort(sc.faults.links.begin(), sc.faults.links.end());
    sc.faults.links.erase(std::unique(sc.faults.links.begin(), sc.faults.links.end()), sc.faults.links.end());
    std::sort(sc.faults.nodes.begin(), sc.faults.nodes.end());
    sc.faults.nodes.erase(std::unique(sc.faults.nodes.begin(), sc.faults.nodes.end()), sc.faults.nodes.end());
    sc.description = parts.empty() ? "none" : fmt::format("{}", fmt::join(parts, " + "));
    if (intact_ == nullptr) {
      // Too large for a Subnetwork: only an intact star graph gets here (its all-reduce runs on the
      // implicit S_n), and S_n has diameter ⌊3(n−1)/2⌋ (Akers, Harel, Krishnamurthy 1987).
      if (const auto* g = dynamic_cast<const StarGraph*>(base_); g != nullptr && sc.faults.empty()) {
        sc.hops = {Rational(3 * (g->n() - 1) / 2), true};
        sc.root_hops = sc.hops.value;
      }
      return sc;
    }
    if (sc.faults.empty()) {
      sc.net = intact_;
    } else {
      sc.owned = std::make_unique<Subnetwork>(*base_, sc.faults, root_, s_.costs);
      sc.net = sc.owned.get();
    }
    const bool transitive = vertex_transitive_ && sc.faults.empty();
    sc.hops = diameter(*sc.net, false, transitive);
    sc.root_hops = eccentricity(*sc.net, sc.net->root(), false);
    if (!sc.net->uniform_cost()) {
      sc.weighted = diameter(*sc.net, true, false);
      sc.root_weighted = eccentricity(*sc.net, sc.net->root(), true);
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
    r.total_nodes = base_->num_nodes();
    r.root = base_->node_name(root_);
    if (sc.net != nullptr) {
      r.nodes = sc.net->num_nodes();
      r.links = sc.net->num_links();
      r.alive_nodes = sc.net->alive_nodes();
      r.connected = sc.net->connected();
      r.diameter = sc.hops.value;
      r.diameter_exact = sc.hops.exact;
    } else {
      r.nodes = r.alive_nodes = base_->num_nodes();
      for (NodeId v = 0; v < base_->num_nodes(); ++v) r.links += base_->degree(v);
      r.links /= 2;  // only intact star graphs are too large for a Subnetwork: undirected
      r.diameter = sc.hops.value;
    }
    return r;
  }

  void extra_row(const Scenario& sc, const PortModel& model, Algorithm kind, const ExtraAlgorithm& algorithm) {
    WhatIfRow r = base_row(sc, model, kind);
    if (!sc.faults.empty()) return not_applicable(std::move(r), "it runs on the intact topology only");
    if (s_.costs.kind != CostKind::UNIT) return not_applicable(std::move(r), "it runs with unit costs only");
    const auto start = Clock::now();
    const ExtraRun x = algorithm(*base_, spec_, model);
    r.variant = x.variant;
    if (!x.applicable) return not_applicable(std::move(r), x.reason);
    r.time = TimeMode::UNIT;
    r.steps = x.steps;
    r.planned_steps = x.planned_steps;
    r.makespan = Rational(static_cast<std::int64_t>(x.steps));
    r.messages = x.messages;
    r.verified = x.verified;
    if (!x.verified) r.reason = x.reason;  // why not: a row that is not verified says so
    bound(r, sc, s_.collective, model);
    r.wall_seconds = seconds_since(start);
    rows_.push_back(std::move(r));
  }

  void not_applicable(WhatIfRow r, std::string reason) {
    r.applicable = false;
    r.reason = std::move(reason);
    rows_.push_back(std::move(r));
  }

  /// Sets the bound of @p r (for @p c, on the network @p sc.net) and the ratio.
  void bound(WhatIfRow& r, const Scenario& sc, Collective c, const PortModel& model) const {
    const bool all = c == Collective::ALLREDUCE;
    if (r.time == TimeMode::UNIT) {
      const Rational cost = sc.net != nullptr ? *sc.net->uniform_cost() : Rational(1);
      const Rational hops = all ? sc.hops.value : sc.root_hops;
      const StepBound b = step_lower_bound(c, model, r.nodes, static_cast<std::uint64_t>(hops.num()));
      r.lower_bound = b.value();
      r.lower_bound_time = cost * static_cast<std::int64_t>(b.value());
      r.bound_counting = static_cast<std::int64_t>(b.counting);
      r.bound_distance = static_cast<std::int64_t>(b.distance);
    } else {
      const TimeBound b =
          time_lower_bound(model, r.nodes, sc.net->min_cost(), all ? sc.weighted.value : sc.root_weighted);
      r.lower_bound_time = b.value();
      r.bound_counting = b.counting;
      r.bound_distance = b.distance;
    }
    if (r.lower_bound_time > 0) {
      r.ratio = (r.makespan / r.lower_bound_time).to_double();
    } else if (r.makespan == 0) {
      r.ratio = 1.0;
    }
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
    if (s_.costs.kind == CostKind::RANDOM) {
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
    r.makespan = run.makespan;
    r.messages = run.counters.messages;
    r.verified = report.nodes_checked == g.size() && report.nodes_correct == g.size() && r.steps == r.planned_steps;
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
    Schedule plan;
    if (a == Algorithm::RECURSIVE_DOUBLING) {
      plan = recursive_doubling_schedule(*intact_, model);
      r.variant = model.half_duplex && model.ports < 2 ? "split exchanges" : "exchanges";
    } else {
      plan = ring_schedule(*intact_, spec_rings(spec_), model);
      r.variant = to_string(ring_variant(model));
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
    const TreeSchedule plan = bfs_tree_schedule(*sc.net, sc.net->root(), s_.collective, model.ports);
    r.variant = to_string(plan.rule);
    execute(r, sc, *sc.net, plan.schedule, s_.collective, model);
    r.wall_seconds = seconds_since(start);
    rows_.push_back(std::move(r));
  }

  /// Runs @p plan on @p net (unit time and strict checks for equal costs, timed and arbitrated
  /// otherwise) and fills in the measurements, the verdict and the bound.
  void execute(WhatIfRow& r, const Scenario& sc, const Subnetwork& net, const Schedule& plan, Collective c,
               const PortModel& model) {
    std::vector<std::uint64_t> initial(net.num_nodes());
    for (NodeId v = 0; v < net.num_nodes(); ++v) initial[v] = s_.values.of(net.original(v));
    const Expectation expectation = expected_result(c, s_.op, initial, net.root());
    const auto cost = net.uniform_cost();
    emulator::RunConfig config;
    config.ports = model;
    config.time = cost ? TimeMode::UNIT : TimeMode::TIMED;
    config.checking = emulator::default_checking(/*stepped=*/true, config.time);
    config.trace = static_cast<bool>(s_.observer);
    const emulator::UnitCosts<Rational> unit;
    const emulator::TopologyCosts<Rational> timed(net);
    const emulator::CostModel<Rational>& costs = cost ? static_cast<const emulator::CostModel<Rational>&>(unit) : timed;
    const auto run = engine_.run(
        net, costs,
        [&](emulator::NodeRange range) {
          return make_schedule_program(plan, initial, s_.op, expectation, config.time, range);
        },
        config);
    ScheduleReport report;
    for (const auto& text : run.reports) report.merge(ScheduleReport::parse(text));
    r.time = config.time;
    r.planned_steps = plan.steps();
    r.messages = run.counters.messages;
    if (cost) {
      r.steps = static_cast<std::uint64_t>(run.makespan.num());
      r.makespan = *cost * run.makespan;
      r.verified = report.ok() && r.steps == plan.steps() && r.messages == plan.transfers().size();
    } else {
      r.makespan = run.makespan;
      r.verified = report.ok() && r.messages == plan.transfers().size();
    }
    bound(r, sc, c, model);
    if (s_.observer) s_.observer(r, run, net);
  }

  Settings s_;
  std::vector<WhatIfRow>& rows_;
  emulator::LocalEngine<Rational> engine_;
  // The topology being studied.
  std::string spec_;
  const topology::Topology* base_ = nullptr;
  const Subnetwork* intact_ = nullptr;
  NodeId root_ = 0;
  bool vertex_transitive_ = false;
  std::string too_big_;  // why the generic algorithms cannot run, when intact_ is null
};

}  // namespace

WhatIfStudy& WhatIfStudy::run() {
  if (collective_ != Collective::ALLREDUCE && collective_ != Collective::REDUCE && collective_ != Collective::BROADCAST) {
    throw UsageError(Setting{"collective", to_string(collective_)}, "what-if studies run allreduce, reduce or broadcast");
  }
  if (specs_.empty()) throw UsageError(Setting{"topologies", ""}, "no topology given (expected e.g. star:5,hypercube:7)");
  if (models_.empty()) throw UsageError(Setting{"port models", ""}, "no port model given");
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
  if (!(message_size_ > 0)) {
    throw UsageError(Setting{"message size", message_size_.to_string()}, "not a size (expected a number > 0)");
  }
  if (costs_ != CostKind::TOPOLOGY && message_size_ != 1) {
    throw UsageError(Setting{"message size", message_size_.to_string()},
                     fmt::format("sizes count with topology costs only (the α–β times of the links), not with {} costs",
                                 to_string(costs_)));
  }
  const auto start = Clock::now();
  rows_.clear();
  Runner runner(
      {collective_, models_, {costs_, seed_, message_size_}, failed_links_, failed_nodes_, rates_, seed_, root_, op_, values_, extras_, observer_}, rows_);
  for (const auto& spec : specs_) runner.topology(spec);
  wall_seconds_ = seconds_since(start);
  return *this;
}

}  // namespace starnet::algorithms::generic

#include <starnet/api/whatif.hpp>
#include <starnet/algorithms/collectives/whatif.hpp>
#include <starnet/algorithms/optimal/step_bounds.hpp>
#include <starnet/api/json.hpp>
#include <starnet/api/link_report.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/optimal.hpp>
#include <starnet/api/schedule.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/topology/input.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <memory>

namespace starnet::api {
namespace {

namespace generic = algorithms::generic;
namespace coll = algorithms::collectives;
namespace sch = algorithms::schedule;

/// `optimal` as one more row: the proven optimum (SAT) of the study's collective, or the bracket
/// the time limit leaves. All-reduce: gossip (messages of several values); broadcast: from the root;
/// reduce: the broadcast reversed (every link has its reverse in the families what-if runs).
/// The study's topologies by the name its rows carry.
using Named = std::shared_ptr<const std::map<std::string, TopologyRef>>;

coll::ExtraAlgorithm optimal_rows(Collective collective, const std::string& root, std::optional<double> seconds,
                                  Named named) {
  return [collective, root, seconds, named](const topology::Topology& t, const std::string& spec,
                                            const emulator::PortModel& ports) {
    coll::ExtraRun x;
    if (collective != Collective::ALLREDUCE && collective != Collective::ALLGATHER &&
        collective != Collective::REDUCE && collective != Collective::BROADCAST) {
      x.applicable = false;
      x.reason = "the exact search covers allreduce, allgather, reduce and broadcast";
      return x;
    }
    if (t.num_nodes() > MAX_WHATIF_OPTIMAL_NODES) {
      x.applicable = false;
      x.reason = fmt::format("exact search is run on topologies of at most {} nodes here", MAX_WHATIF_OPTIMAL_NODES);
      return x;
    }
    OptimalRequest request;
    request.topology = named->at(spec);
    // A reduce is searched as the broadcast it reverses (every link goes both ways here).
    request.collective = algorithms::optimal::goal_of(collective) == algorithms::optimal::Goal::GOSSIP
                             ? collective
                             : Collective::BROADCAST;
    request.root = root;
    request.ports = ports;
    request.time_limit = seconds;
    const auto o = find_optimal(request);
    const auto& r = *o.sat;
    if (!r.optimum) {
      x.applicable = false;
      x.reason = fmt::format("time limit: the optimum lies in [{}, {}]", r.lower_bound,
                             r.upper_bound ? std::to_string(*r.upper_bound) : "?");
      return x;
    }
    x.variant = collective == Collective::ALLREDUCE ? "SAT, messages of several values" : "SAT";
    x.steps = x.planned_steps = *r.optimum;
    x.messages = o.schedule ? o.schedule->schedule->transfers() : 0;
    x.volume = o.schedule ? sch::volume(*o.schedule->schedule).sent_max : 0;
    x.verified = o.verified;
    return x;
  };
}

/// A schedule file (starnet JSON or MSCCL XML) as one more row: read once, resolved against each
/// topology.
coll::ExtraAlgorithm schedule_rows(const std::string& path, Collective collective, Named named) {
  const std::string where = fmt::format("schedule file \"{}\"", path);
  const auto text = std::make_shared<const std::string>(
      read_input(path, where, "a starnet schedule (JSON) or MSCCL algorithm (XML) file"));
  const std::string folder = std::filesystem::path(path).parent_path().string();
  const std::string name = std::filesystem::path(path).filename().string();
  // Read once up front, so that a malformed file fails before the study; on its own topology too
  // where it names one, so that a node name it lacks does.
  const ScheduleHeader header = read_schedule_header(*text, where);
  if (!header.topology.empty()) (void)parse_schedule(*text, where, std::nullopt, folder);
  return [text, where, folder, name, collective, header, named](const topology::Topology& t, const std::string& spec,
                                                               const emulator::PortModel& ports) {
    coll::ExtraRun x;
    x.variant = name;
    if (header.collective != collective) {
      x.applicable = false;
      x.reason = fmt::format("{} computes {}, the study {}", name, to_string(header.collective), to_string(collective));
      return x;
    }
    if (header.nodes && *header.nodes != t.num_nodes()) {
      x.applicable = false;
      x.reason = fmt::format("{} is for {} nodes", name, *header.nodes);
      return x;
    }
    try {
      // Among a network's hosts, spec is complete:H, which no topology of the study is called.
      const auto it = named->find(spec);
      const auto l = parse_schedule(*text, where, it != named->end() ? it->second : TopologyRef(spec), folder);
      if (t.network() != nullptr) {
        x.schedule = l.schedule;  // the study runs it among the hosts (ExtraRun::schedule)
        return x;
      }
      sch::ScheduleRunSettings settings;
      settings.config.ports = ports;
      settings.config.checking = default_checking(*l.schedule, false);
      const auto r = sch::run_schedule(*l.schedule, t, settings);
      x.steps = static_cast<std::uint64_t>(r.run.makespan.num());
      x.planned_steps = l.schedule->steps();
      x.messages = r.run.counters.messages;
      x.volume = sch::volume(*l.schedule).sent_max;
      x.verified = r.verified;
      if (!r.verified) x.reason = r.report.first_problem();
    } catch (const ScheduleError& e) {
      x.applicable = false;
      x.reason = e.what();
    } catch (const ModelViolation& e) {
      x.applicable = false;
      x.reason = fmt::format("breaks the port model: {}", e.what());
    }
    return x;
  };
}

}  // namespace

namespace {

/// The distinct items of @p items, in their first order.
template <class T>
std::vector<T> distinct(const std::vector<T>& items) {
  std::vector<T> out;
  for (const auto& x : items) {
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  }
  return out;
}

/// Every k of @p ports with every mode of @p modes ("full", "half"), in that order.
std::vector<emulator::PortModel> every_port_model(const std::vector<long>& ports, const std::vector<std::string>& modes) {
  std::vector<emulator::PortModel> models;
  for (const long k : ports) {
    for (const auto& mode : modes) models.push_back(port_model(k, mode));
  }
  return models;
}

std::vector<long> counts_of(const std::vector<emulator::PortModel>& models) {
  std::vector<long> ks;
  for (const auto& m : models) ks.push_back(static_cast<long>(m.ports));
  return distinct(ks);
}

std::vector<std::string> modes_of(const std::vector<emulator::PortModel>& models) {
  std::vector<std::string> modes;
  for (const auto& m : models) modes.push_back(duplex_name(m));
  return distinct(modes);
}

/// `ports` and `duplex` each keep the other's part of the port models: read in either order,
/// they give every k with every mode.
void set_ports(WhatIfRequest& r, const std::vector<long>& ports) {
  if (ports.empty()) throw UsageError(Setting{"ports", ""}, "no port count given (expected e.g. 1,2)");
  r.port_models = every_port_model(ports, modes_of(r.port_models));
}
void set_duplex(WhatIfRequest& r, const std::vector<std::string>& modes) {
  if (modes.empty()) throw UsageError(Setting{"duplex", ""}, "no duplex mode given (expected full, half or full,half)");
  r.port_models = every_port_model(counts_of(r.port_models), modes);
}

void check_whatif(const WhatIfRequest& r, const GivenSettings& given) {
  given.applies_only("seed",
                     !r.fail_rates.empty() || r.costs == generic::CostKind::RANDOM || r.values == ValuesKind::RANDOM ||
                         r.network.options.routing != topology::Routing::MINIMAL,
                     "«fail_random», «costs» random, «values» random or «routing» ecmp or valiant");
}

/// @p model with the study's seed, which ECMP's hash and Valiant's intermediates draw from.
NetworkModel seeded(NetworkModel model, std::uint64_t seed) {
  model.options.seed = seed;
  return model;
}

}  // namespace

const SettingTable<WhatIfRequest>& whatif_settings() {
  using R = WhatIfRequest;
  using T = SettingType;
  static const std::vector<std::string> OPS(OP_NAMES.begin(), OP_NAMES.end());
  static const std::vector<std::string> VALUES(VALUES_NAMES.begin(), VALUES_NAMES.end());
  // clang-format off
  static const SettingTable<R> table("whatif", {
      {{"collective", T::TEXT, "allreduce", collective_choices() + " (the rooted ones from «root»)"},
       into(&R::collective, [](std::string_view t) { return parse_collective(t); })},
      {{"topologies", T::TOPOLOGY, std::nullopt,
        "Comma-separated topology specs, any SPEC below: e.g. star:N, hypercube:D, torus:AxBxC… and mesh:AxBxC… of any "
        "dimension, fattree:K, dragonfly:A:P:H, tiers:SEED, a .dot/.graphml or SimGrid file (with routers the "
        "collective is among the processors)", {.list = true}},
       into(&R::topologies)},
      {{"ports", T::WHOLE, "1", "Comma-separated numbers of ports k ≥ 1 (k-port model)",
        {.list = true, .min = 1, .max = MAX_PORTS}},
       by<R, std::vector<long>>(set_ports)},
      {{"duplex", T::CHOICE, "full", "full, half or full,half: may a port send and receive at once",
        {.list = true, .choices = {"full", "half"}}},
       by<R, std::vector<std::string>>(set_duplex)},
      {{"costs", T::CHOICE, "unit",
        "Link costs: unit; topology (the platform's own, e.g. from a file or tiers); random (k/4, k in 2..8, seeded by "
        "«seed»). Heterogeneous costs run in timed mode with exact makespans", {.choices = {"unit", "topology", "random"}}},
       into(&R::costs, [](std::string_view t) { return generic::parse_cost_kind(t, "costs"); })},
      {{"message_size", T::EXACT, "1",
        "Units per message with «costs» topology: a message takes latency + size·cost on a link (α + m/β; a file's "
        "latency and bandwidth, docs/topology.md). Exact numbers, e.g. 1024 or 1/2; a comma-separated list runs the "
        "study once per size", {.list = true, .min = 0, .strictly = true}},
       into(&R::message_size)},
      {{"latency", T::EXACT, std::nullopt,
        "Every link's latency α (≥ 0, an exact number such as 1e-6 or 1/1000000): the α–β model on every link (unit "
        "costs become topology costs)", {.min = 0}},
       into(&R::latency)},
      {{"bandwidth", T::EXACT, std::nullopt,
        "Every link's bandwidth β (> 0, units of «message_size» per unit of time, e.g. 1e10): a message of k packets "
        "takes α + k·m/β", {.min = 0, .strictly = true}},
       into(&R::bandwidth)},
      {{"seed", T::WHOLE, "1", "Seed of «fail_random», «costs» random and «values» random"}, into(&R::seed)},
      {{"fail_links", T::TEXT, std::nullopt,
        "Failed links u-v, comma-separated; nodes by name or index, e.g. 3-17 or (0,1)-(0,2)", {.list = true}},
       into(&R::fail_links)},
      {{"fail_nodes", T::NODE, std::nullopt, "Failed nodes, comma-separated, by name or index", {.list = true}},
       into(&R::fail_nodes)},
      {{"fail_random", T::REAL, std::nullopt,
        "Comma-separated probabilities P: one fault scenario each, where every link fails independently with "
        "probability P (seeded; the failures at P are a subset of those at a larger P)", {.list = true}},
       into(&R::fail_rates)},
      {{"root", T::NODE, std::string(DEFAULT_ROOT), "Root of reduce and broadcast and of the BFS trees: node name or index"},
       into(&R::root)},
      {{"forwarding", T::CHOICE, "cut-through",
        "With routers: cut-through (switches are non-blocking crossbars, the collective runs among the hosts over routes "
        "whose links carry one message at a time) or store-and-forward (switches relay every message hop by hop under "
        "the port model: routed trees)", {.choices = {"cut-through", "store-and-forward"}}},
       by<R, std::string>([](R& r, const std::string& t) { r.network.forwarding = parse_forwarding(t); })},
      {{"switch_ports", T::WHOLE, std::nullopt,
        "Ports of a switch with «forwarding» store-and-forward (equal to «ports»; a crossbar has no limit)",
        {.min = 1, .max = MAX_PORTS}},
       by<R, std::optional<std::uint64_t>>([](R& r, std::optional<std::uint64_t> k) {
         if (k) r.network.switch_ports = static_cast<unsigned>(*k);
       })},
      {{"routing", T::CHOICE, "minimal",
        "With routers: minimal (fat-tree up/down D-mod-K, dragonfly local-global-local, else shortest paths), ecmp (a "
        "hash of each flow, seeded by «seed», among equal-cost paths) or valiant (through a core switch or a third group "
        "drawn by that hash)", {.choices = {"minimal", "ecmp", "valiant"}}},
       by<R, std::string>([](R& r, const std::string& t) { r.network.options.routing = parse_routing(t); })},
      {{"switch_latency", T::EXACT, "0",
        "With routers and «forwarding» cut-through: the time a message spends crossing each switch (≥ 0, an exact "
        "number such as 1e-7), on top of its sender's α; it needs link costs («latency» or «costs» topology)",
        {.min = 0}},
       by<R, Rational>([](R& r, const Rational& t) { r.network.options.switch_latency = t; })},
      {{"placement", T::TEXT, "linear", "With routers: rank i on host i (linear) or on a seeded permutation (random:SEED)"},
       by<R, std::string>([](R& r, const std::string& t) { r.network.options.placement = parse_placement(t); })},
      {{"op", T::CHOICE, "sum", "Operator: sum (mod 2^64), min, max or xor", {.choices = OPS}},
       into(&R::op, [](std::string_view t) { return parse_op(t); })},
      {{"values", T::CHOICE, "index", "Node values: index (node i holds i + 1; rank is the same) or random (seeded by «seed»)",
        {.choices = VALUES}},
       into(&R::values, parse_values)},
      {{"schedule", T::PATH, std::nullopt,
        "A schedule file (docs/schedules.md) as one more row beside the built-in algorithms, on every topology it fits"},
       into(&R::schedule)},
      {{"optimal", T::FLAG, "false",
        fmt::format("Add the proven optimum (exact SAT search, docs/optimal.md) beside each topology of at most {} nodes",
                    MAX_WHATIF_OPTIMAL_NODES)},
       into(&R::optimal)},
      {{"optimal_time_limit", T::REAL, fmt::format("{}", DEFAULT_OPTIMAL_SECONDS),
        "Seconds per optimum of «optimal» (then: the bracket)", {.min = 0, .unit = "seconds", .needs = "optimal"}},
       into(&R::optimal_seconds)},
  }, check_whatif);
  // clang-format on
  return table;
}

WhatIfResult run_whatif(const WhatIfRequest& request) {
  const StopScope scope;
  check_seconds(request.optimal_seconds, "optimal_time_limit");
  if (request.topologies.empty()) {
    throw UsageError(Setting{"topologies", ""}, "no topology given (expected e.g. star:5,hypercube:7)");
  }
  // A list entry given twice is one scenario: rows are not repeated.
  const auto once = [](auto items, auto same) {
    decltype(items) kept;
    for (auto& item : items) {
      if (std::none_of(kept.begin(), kept.end(), [&](const auto& k) { return same(k, item); })) kept.push_back(item);
    }
    return kept;
  };
  const auto equal = [](const auto& a, const auto& b) { return a == b; };
  const auto topologies = once(request.topologies, [](const TopologyRef& a, const TopologyRef& b) {
    return a.spec() == b.spec() && a.from_spec() == b.from_spec() && (a.from_spec() || same_topology(a, b));
  });
  // Rows name their topology: two different ones under one name could not be told apart.
  auto named = std::make_shared<std::map<std::string, TopologyRef>>();
  std::vector<coll::StudyTopology> study_topologies;
  for (const auto& t : topologies) {
    if (!named->emplace(t.spec(), t).second) {
      throw UsageError(Setting{"topologies", t.spec()},
                       "two different topologies go by this name (expected one name a topology)");
    }
    study_topologies.push_back(t.from_spec() ? coll::StudyTopology(t.spec()) : coll::StudyTopology(t.spec(), t.topology()));
  }
  const auto models = once(request.port_models, [](const emulator::PortModel& a, const emulator::PortModel& b) {
    return a.ports == b.ports && a.half_duplex == b.half_duplex;
  });
  const auto rates = once(request.fail_rates, equal);
  const auto sizes = once(request.message_size, equal);
  if (sizes.empty()) throw UsageError(Setting{"message_size", ""}, "no size given (expected e.g. 8,65536)");
  coll::WhatIfStudy study;
  study.collective(request.collective)
      .topologies(study_topologies)
      .port_models(models)
      .costs(request.costs)
      .latency(request.latency)
      .bandwidth(request.bandwidth)
      .failed_links(request.fail_links)
      .failed_nodes(request.fail_nodes)
      .fault_rates(rates)
      .seed(request.seed)
      .root(request.root)
      .network(seeded(request.network, request.seed))
      .link_report(request.link_report)
      .op(request.op)
      .values(make_values(request.values, request.seed));
  if (!request.schedule.empty()) {
    study.extra(coll::Algorithm::SCHEDULE, schedule_rows(request.schedule, request.collective, named));
  }
  if (request.optimal) {
    study.extra(coll::Algorithm::OPTIMAL,
                optimal_rows(request.collective, request.root, request.optimal_seconds, named));
  }
  if (request.observer) study.observe_runs(request.observer);
  WhatIfResult out;
  out.request = request;
  bool all_verified = true;
  for (const Rational& size : sizes) {
    study.message_size(size).run();
    for (auto r : study.rows()) {
      r.message_size = size;
      r.latency = request.latency;
      r.bandwidth = request.bandwidth;
      out.rows.push_back(std::move(r));
    }
    all_verified = all_verified && study.all_verified();
    out.wall_seconds += study.wall_seconds();
  }
  out.rows_run = static_cast<std::size_t>(
      std::count_if(out.rows.begin(), out.rows.end(), [](const WhatIfRow& r) { return r.applicable; }));
  out.verified = out.rows_run > 0 && all_verified;
  return out;
}

WhatIfFigure whatif_figure(const WhatIfResult& result) {
  const auto& q = result.request;
  WhatIfFigure f;
  const bool times = q.costs != generic::CostKind::UNIT || q.latency || q.bandwidth;
  f.quantity = times ? "time" : "steps";
  if (!times) {
    f.axis = "steps (unit time)";
  } else if (q.costs == generic::CostKind::RANDOM) {
    f.axis = "time (random link costs k/4 per packet)";
  } else if (q.latency || q.bandwidth) {
    f.axis = "time (α + m/β, in the unit α and 1/β are given in, e.g. seconds)";
  } else {
    f.axis = "time (in the unit of the platform's latencies and 1/bandwidths)";
  }
  std::optional<double> smallest;
  std::optional<double> largest;
  const auto seen = [&](double v) {
    if (!(v > 0)) return;
    smallest = smallest ? std::min(*smallest, v) : v;
    largest = largest ? std::max(*largest, v) : v;
  };
  const auto group_of = [&result](const WhatIfRow& r) {
    const std::string sized = result.request.message_size.size() > 1 ? fmt::format(" m={}", r.message_size.to_string()) : "";
    const std::string label = fmt::format("{}{} {} {}", r.topology, sized, r.ports.ports, duplex_name(r.ports));
    return r.faults == "none" ? label : fmt::format("{} {}", label, r.faults);
  };
  for (const auto& r : result.rows) {
    const auto label = group_of(r);
    if (f.groups.empty() || f.groups.back().label != label) f.groups.push_back({label, std::nullopt, {}});
    auto& g = f.groups.back();
    WhatIfBar bar{to_string(r.algorithm), std::nullopt, ""};
    if (!r.applicable) {
      bar.mark = "not applicable";
    } else {
      // With unit costs the makespan is the step count: one quantity either way.
      bar.value = r.makespan.to_double();
      seen(*bar.value);
      if (!r.verified) bar.mark = "NOT verified";
      g.bound = r.lower_bound_time.to_double();
      seen(*g.bound);
    }
    g.bars.push_back(std::move(bar));
  }
  f.log_scale = smallest && *largest > WHATIF_LOG_SCALE_SPREAD * *smallest;
  return f;
}

nlohmann::json WhatIfResult::row_json(const WhatIfRow& r) {
  nlohmann::json j = {{"topology", r.topology},
                      {"algorithm", to_string(r.algorithm)},
                      {"variant", r.variant},
                      {"ports", r.ports.ports},
                      {"duplex", duplex_name(r.ports)},
                      {"latency", nullptr},
                      {"bandwidth", nullptr},
                      {"faults", r.faults},
                      {"fail_rate", r.fail_rate},
                      {"failed_links", r.failed_links},
                      {"failed_nodes", r.failed_nodes},
                      {"failed_link_list", r.failed_link_list},
                      {"failed_node_list", r.failed_node_list},
                      {"total_nodes", r.total_nodes},
                      {"nodes", r.nodes},
                      {"processors", r.processors},
                      {"links", r.links},
                      {"alive_nodes", r.alive_nodes},
                      {"alive_processors", r.alive_processors},
                      {"connected", r.connected},
                      {"root", r.root},
                      {"diameter", r.diameter.num()},
                      {"exact_diameter", r.diameter_exact},
                      {"applicable", r.applicable}};
  put_exact(j, "message_size", r.message_size);
  if (r.latency) put_exact(j, "latency", *r.latency);
  if (r.bandwidth) put_exact(j, "bandwidth", *r.bandwidth);
  if (!r.applicable) {
    j["reason"] = "not applicable: " + r.reason;
    for (const char* key : {"time_mode", "steps", "planned_steps", "makespan", "messages", "volume", "lower_bound",
                            "lower_bound_time", "bound_counting", "bound_distance", "bound_volume", "bound_status",
                            "bound_reached", "ratio", "verified", "bound_cut", "max_link_load", "busiest_link"}) {
      j[key] = nullptr;
    }
    return j;
  }
  j["time_mode"] = r.timed() ? "timed" : "unit";
  j["steps"] = r.timed() ? nlohmann::json(nullptr) : nlohmann::json(r.steps);
  j["planned_steps"] = r.planned_steps;
  put_exact(j, "makespan", r.makespan);
  j["messages"] = r.messages;
  j["volume"] = r.volume;
  j["lower_bound"] = r.timed() ? nlohmann::json(nullptr) : nlohmann::json(r.lower_bound);
  put_exact(j, "lower_bound_time", r.lower_bound_time);
  put_exact(j, "bound_counting", r.bound_counting);
  put_exact(j, "bound_distance", r.bound_distance);
  put_exact(j, "bound_volume", r.bound_volume);
  j["bound_status"] = r.bound_status ? nlohmann::json(*r.bound_status) : nlohmann::json(nullptr);
  j["bound_reached"] = r.bound_reached;
  // The ratio of two exact times is exact: makespan / lower_bound_time.
  if (r.ratio && r.lower_bound_time > 0) {
    put_exact(j, "ratio", r.makespan / r.lower_bound_time);
  } else {
    j["ratio"] = r.ratio ? nlohmann::json(*r.ratio) : nlohmann::json(nullptr);
  }
  j["verified"] = r.verified;
  if (!r.verified && !r.reason.empty()) j["reason"] = r.reason;
  j["wall_seconds"] = r.wall_seconds;
  // On a network of switches: the packets its busiest directed link carried, and which.
  j["bound_cut"] = nullptr;
  j["max_link_load"] = nullptr;
  j["busiest_link"] = nullptr;
  if (!r.link_loads.empty()) {
    put_exact(j, "bound_cut", r.bound_cut);
    put_exact(j, "max_link_load", r.link_loads.front().packets);
    j["busiest_link"] = r.link_loads.front().link;
  }
  return j;
}

nlohmann::json WhatIfResult::link_report_json() const {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    add_link_report(out, {i, r.topology, to_string(r.algorithm), r.ports, r.message_size}, r.link_loads);
  }
  return out;
}

nlohmann::json WhatIfResult::to_json() const {
  nlohmann::json rows_json = nlohmann::json::array();
  for (const auto& r : rows) rows_json.push_back(row_json(r));
  nlohmann::json doc = {{"collective", to_string(request.collective)},
                        // Latency or bandwidth make unit costs the α–β model: the costs that ran.
                        {"costs", generic::to_string(request.latency || request.bandwidth ? generic::CostKind::TOPOLOGY
                                                                                          : request.costs)},
                        {"seed", request.seed},
                        {"rows", rows_json},
                        {"rows_run", rows_run},
                        {"verified", verified},
                        {"wall_seconds", wall_seconds}};
  // One size: the size; a sweep: the list (each row carries its own).
  if (request.message_size.size() == 1) {
    put_exact(doc, "message_size", request.message_size.front());
  } else {
    nlohmann::json sizes = nlohmann::json::array();
    for (const auto& m : request.message_size) sizes.push_back(m.to_string());
    doc["message_size"] = sizes;
  }
  if (request.link_report) doc["link_report"] = link_report_json();
  // How platforms with routers carried the messages (docs/whatif.md, "The network model").
  const auto& net = request.network;
  doc["network"] = {{"forwarding", topology::to_string(net.forwarding)},
                    {"switch_ports", net.switch_ports ? nlohmann::json(*net.switch_ports) : nlohmann::json(nullptr)},
                    {"routing", topology::to_string(net.options.routing)},
                    {"placement", net.options.placement.to_string()}};
  put_exact(doc["network"], "switch_latency", net.options.switch_latency);
  doc["latency"] = nullptr;
  doc["bandwidth"] = nullptr;
  if (request.latency) put_exact(doc, "latency", *request.latency);
  if (request.bandwidth) put_exact(doc, "bandwidth", *request.bandwidth);
  return doc;
}

namespace {

/// The rows' columns in the CSV; an exact one (EXACT_COLUMNS) is a number with its exact text beside
/// it, KEY_exact, as in the JSON (docs/json.md), so that every time column reads as a number.
constexpr const char* CSV_COLUMNS[] = {"topology", "algorithm", "variant", "ports", "duplex", "message_size", "latency",
                                       "bandwidth", "faults", "fail_rate", "failed_links", "failed_nodes",
                                       "failed_link_list", "failed_node_list", "total_nodes", "nodes", "processors",
                                       "links", "alive_nodes", "alive_processors", "connected", "root", "diameter",
                                       "exact_diameter", "applicable", "reason", "time_mode", "steps",
                                       "planned_steps", "makespan", "messages", "volume", "lower_bound",
                                       "lower_bound_time", "bound_counting", "bound_distance", "bound_volume",
                                       "bound_status", "bound_cut", "bound_reached", "ratio", "max_link_load",
                                       "busiest_link", "verified", "wall_seconds"};
constexpr std::array<std::string_view, 11> EXACT_COLUMNS = {
    "message_size", "latency",     "bandwidth",   "makespan", "lower_bound_time", "bound_counting",
    "bound_distance", "bound_volume", "bound_cut", "ratio",    "max_link_load"};
[[nodiscard]] bool exact_column(std::string_view c) {
  return std::find(EXACT_COLUMNS.begin(), EXACT_COLUMNS.end(), c) != EXACT_COLUMNS.end();
}

}  // namespace

std::string WhatIfResult::csv() const {
  std::string out;
  for (const char* c : CSV_COLUMNS) {
    out += std::string(out.empty() ? "" : ",") + c;
    if (exact_column(c)) out += std::string(",") + c + "_exact";
  }
  out += "\n";
  for (const auto& r : rows) {
    const auto j = row_json(r);
    std::string line;
    for (const char* c : CSV_COLUMNS) {
      const auto cell = [&j](const std::string& key) { return j.contains(key) ? csv_cell(j[key]) : std::string(); };
      line += std::string(c == CSV_COLUMNS[0] ? "" : ",") + cell(c);
      // The exact text beside the number: KEY_exact where the JSON has one, else the number itself.
      if (exact_column(c)) line += "," + (j.contains(std::string(c) + "_exact") ? cell(std::string(c) + "_exact") : cell(c));
    }
    out += line + "\n";
  }
  return out;
}

std::string WhatIfResult::link_report_csv() const { return api::link_report_csv(link_report_json()); }

}  // namespace starnet::api

// The shortest schedule found within a class — uniform (every node uses the same generator each
// step) on Cayley graphs, coset (the dimension depends on the node's last symbol) on S_3..S_6 —
// written as a schedule and verified on the emulator (docs/beyond.md).
#include "optimal_class.hpp"

#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/algorithms/optimal/coset_search.hpp>
#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace starnet::api {
namespace {

namespace opt = algorithms::optimal;
namespace sch = algorithms::schedule;

/// Widest beam of `anytime`.
constexpr std::size_t ANYTIME_MAX_WIDTH = std::size_t{1} << 16;

ClassFound search_uniform(const opt::CayleyGroup& g, const OptimalRequest& o, int limit, double seconds) {
  ClassFound f;
  f.klass = "uniform";
  opt::UniformResult r;
  if (o.anytime) {
    if (seconds <= 0) throw UsageError(Setting{"anytime", ""}, "needs a «time_limit» (seconds > 0)");
    if (o.beam_width) throw UsageError(Setting{"anytime", ""}, "widens its own beam; drop «beam_width»");
    f.method = "anytime";
    r = opt::uniform_anytime(g, limit, seconds, ANYTIME_MAX_WIDTH, [](const opt::UniformResult& b, std::size_t w) {
      progress_detail(fmt::format("beam width {}: {} steps so far", w, b.dimensions.size()));
    });
  } else if (o.beam_width) {
    f.method = "beam";
    r = opt::uniform_beam(g, static_cast<std::size_t>(*o.beam_width), limit, seconds);
  } else {
    f.method = "exhaustive";
    r = opt::uniform_exhaustive(g, limit, seconds);
  }
  f.dimensions = r.dimensions;
  f.sizes = r.sizes;
  for (const int k : r.dimensions) f.steps.push_back(g.generator_name(k));
  f.proved_minimal = f.method == "exhaustive" && r.complete;
  f.explored = r.explored;
  f.seconds = r.seconds;
  f.timed_out = r.timed_out;
  return f;
}

/// What a search found, and its schedule when it has one.
struct Searched {
  ClassFound found;
  std::optional<sch::Schedule> schedule;
};

Searched search_coset(int n, const OptimalRequest& o, int limit, double seconds) {
  if (o.anytime) throw UsageError(Setting{"anytime", ""}, "applies only with «method» uniform");
  Searched out;
  ClassFound& f = out.found;
  f.klass = "coset";
  f.method = o.beam_width ? "coset-beam" : "coset-exhaustive";
  const auto r = opt::coset_search(n, o.beam_width ? static_cast<std::size_t>(*o.beam_width) : 0, limit, seconds);
  for (const auto& step : r.steps) {
    std::vector<std::string> parts;
    for (std::size_t s = 0; s < step.size(); ++s) parts.push_back(fmt::format("{}→{}", s + 1, step[s]));
    f.steps.push_back(fmt::format("{}", fmt::join(parts, " ")));
  }
  f.proved_minimal = r.proved_minimal;
  f.explored = r.explored;
  f.seconds = r.seconds;
  f.timed_out = r.timed_out || r.too_many_states;
  if (!r.steps.empty()) out.schedule = opt::coset_schedule(n, r.steps);
  return out;
}

}  // namespace

bool verify_uniform_gossip(const opt::CayleyGroup& g, const std::vector<int>& dimensions) {
  if (g.order() <= opt::MAX_UNIFORM_SCHEDULE_NODES) {
    const auto t = topology::make_topology(g.spec());
    const auto run = sch::run_schedule(opt::uniform_schedule(g, dimensions), *t, {});
    return run.verified && run.run.makespan == Rational(static_cast<std::int64_t>(dimensions.size()));
  }
  const auto items = opt::uniform_items(opt::uniform_sizes(g, dimensions));
  // The star on its implicit graph (up to S_10); every other group on its built topology, which
  // must exist to run on (pancake:9 and the like do not: not verified).
  std::unique_ptr<topology::Topology> t;
  if (g.family() == "star") {
    t = std::make_unique<topology::StarGraph>(g.n());
  } else {
    try {
      t = topology::make_topology(g.spec());
    } catch (const TopologyError&) {
      return false;
    }
  }
  const auto* star = dynamic_cast<const topology::StarGraph*>(t.get());
  const emulator::ProgramFactory programs = [&](emulator::NodeRange range) {
    return star != nullptr ? opt::uniform_gossip_program(*star, dimensions, items, range)
                           : opt::uniform_gossip_program(g, dimensions, items, range);
  };
  const auto run = emulator::LocalEngine<Rational>().run(*t, emulator::UnitCosts<Rational>(), programs, {});
  opt::UniformReport total;
  for (const auto& text : run.reports) {
    const auto part = opt::UniformReport::parse(text);
    total.complete += part.complete, total.wrong += part.wrong;
  }
  return total.complete == g.order() && total.wrong == 0 &&
         run.makespan == Rational(static_cast<std::int64_t>(dimensions.size()));
}

OptimalOutcome find_in_class(const OptimalRequest& o, bool coset, OptimalOutcome out) {
  if (o.collective == Collective::ALLTOALL) return find_exchange_front(o, std::move(out));
  const auto g = opt::CayleyGroup::of(o.topology.spec());
  check_class_request(o, coset, g);
  const auto t = o.topology.topology();
  const bool broadcast = o.collective == Collective::BROADCAST;
  std::uint32_t root = 0;
  if (broadcast) {
    const auto r = algorithms::generic::find_node(*t, o.root);
    if (!r) throw UsageError(Setting{"root", o.root}, fmt::format("not a node of {}", o.topology.spec()));
    root = static_cast<std::uint32_t>(*r);
  }
  const int paper = g.family() == "star" ? static_cast<int>(algorithms::star::allreduce_steps(g.n())) : 0;
  const int limit = o.max_steps ? static_cast<int>(*o.max_steps) : paper > 0 ? paper : static_cast<int>(g.order() - 1);
  const double seconds = o.time_limit.value_or(DEFAULT_OPTIMAL_SECONDS);
  Searched searched;
  if (coset) {
    searched = search_coset(g.n(), o, limit, seconds);
  } else {
    searched.found = search_uniform(g, o, limit, seconds);
    const auto& d = searched.found.dimensions;
    if (!d.empty() && g.order() <= opt::MAX_UNIFORM_SCHEDULE_NODES) {
      searched.schedule = broadcast ? opt::uniform_broadcast_schedule(g, d, root) : opt::uniform_schedule(g, d);
    }
  }
  ClassFound& f = searched.found;
  f.paper_steps = paper;
  const auto steps = static_cast<std::int64_t>(f.steps.size());
  bool verified = false;
  if (searched.schedule) {
    const auto& s = *searched.schedule;
    const auto run = sch::run_schedule(s, *t, {});
    const auto vol = sch::volume(s);
    f.largest_per_step = vol.largest;
    f.items_received = vol.received_max;
    // No duplicates: each node receives each item it lacked exactly once.
    const std::uint64_t n = g.order();
    const bool nodup = broadcast ? s.chunks_moved() == n - 1 : s.chunks_moved() == n * (n - 1);
    verified = run.verified && nodup && run.run.makespan == Rational(steps);
    out.schedule = as_requested(s, o, t, fmt::format("{} {}", f.klass, f.method));
    if (out.schedule && run_problem(*out.schedule, static_cast<std::uint64_t>(steps), o.ports)) verified = false;
  } else if (!f.dimensions.empty()) {
    f.meta = true;
    verified = verify_uniform_gossip(g, f.dimensions);
    f.largest_per_step = opt::uniform_items(f.sizes);
    f.items_received = f.sizes.back() - 1;
  }
  if (!out.schedule) {
    out.schedule_note =
        f.steps.empty() ? fmt::format("the {} search found no schedule", f.klass)
        : f.meta        ? fmt::format("schedules are written up to {} nodes; this {} one was verified with meta "
                                      "messages instead",
                                      opt::MAX_UNIFORM_SCHEDULE_NODES, f.klass)
                        : fmt::format("the {} schedule does not compute the collective {}", f.klass,
                                      to_string(o.collective));
  }
  out.schedule_proved = f.proved_minimal;
  out.verified = verified;
  out.found = std::move(f);
  return out;
}

nlohmann::json class_json(const ClassFound& f) {
  std::uint64_t total = 0;
  for (const auto x : f.largest_per_step) total += x;
  nlohmann::json j = {{"class", f.klass},
          {"method", f.method},
          {"steps", f.steps.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.steps.size())},
          {"paper_steps", f.paper_steps > 0 ? nlohmann::json(f.paper_steps) : nlohmann::json(nullptr)},
          {"moves", f.steps},
          {"dimensions", f.dimensions},
          {f.klass == "coset" ? "coset_proved_minimal" : "uniform_proved_minimal", f.proved_minimal},
          {"largest_message_items_per_step", f.largest_per_step},
          {"largest_message_items",
           f.largest_per_step.empty() ? 0 : *std::max_element(f.largest_per_step.begin(), f.largest_per_step.end())},
          {"items_received_per_node", f.items_received},
          {"sum_of_largest_messages", total},
          {"verified_with_meta_messages", f.meta},
          {"explored", f.explored},
          {"timed_out", f.timed_out},
          {"seconds", f.seconds}};
  if (f.status > 0) j.update(exchange_json(f));
  return j;
}

}  // namespace starnet::api

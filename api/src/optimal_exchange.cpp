// The total exchange's Pareto front (`optimal --collective alltoall --method uniform`): for each
// step count the least volume of a uniform combining exchange, every point verified on the
// emulator (collectives/exchange_search.hpp; docs/collectives.md).
#include "optimal_class.hpp"

#include <starnet/algorithms/collectives/exchange_search.hpp>
#include <starnet/api/json.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

namespace starnet::api {

namespace coll = algorithms::collectives;
namespace opt = algorithms::optimal;

std::optional<Rational> ExchangePoint::crossover(std::uint64_t status) const {
  if (volume <= status) return std::nullopt;
  const auto steps = static_cast<std::int64_t>(dimensions.size());
  return Rational(static_cast<std::int64_t>(status) - steps) / Rational(static_cast<std::int64_t>(volume - status));
}

OptimalOutcome find_exchange_front(const OptimalRequest& o, OptimalOutcome out) {
  const auto g = opt::CayleyGroup::of(o.topology.spec());
  check_class_request(o, /*coset=*/false, g);
  if (o.anytime) throw UsageError(Setting{"anytime", ""}, "applies to gossip and broadcast, not alltoall");
  coll::ParetoOptions options;
  options.seconds = o.time_limit.value_or(DEFAULT_OPTIMAL_SECONDS);
  if (o.beam_width) {
    options.max_states = 0;  // a beam from the first step
    options.beam_width = static_cast<std::size_t>(*o.beam_width);
  }
  if (o.max_steps) options.max_steps = static_cast<std::uint64_t>(*o.max_steps);
  const auto front = coll::exchange_pareto(g, options);
  ClassFound f;
  f.klass = "uniform";
  f.method = o.beam_width ? "beam" : "exhaustive, then beam";
  f.status = front.status;
  f.pareto_complete = front.reached_status;
  f.explored = front.explored;
  f.seconds = front.seconds;
  f.timed_out = front.timed_out;
  bool all_verified = !front.points.empty();
  for (const auto& p : front.points) {
    const auto plan = coll::combining_exchange(g, p.generators);
    const auto check = coll::check_exchange(g, plan);
    ExchangePoint e;
    e.dimensions = p.generators;
    for (const int k : p.generators) e.moves.push_back(g.generator_name(k));
    e.volume = plan.volume;
    e.packets = plan.packets;
    e.exhaustive = p.exhaustive;
    e.verified = check.verified && plan.volume == p.volume;
    f.meta = f.meta || !check.as_schedule;
    all_verified = all_verified && e.verified;
    f.pareto.push_back(std::move(e));
  }
  if (!f.pareto.empty()) {
    // The class fields describe the first point: the fewest steps.
    const auto& first = f.pareto.front();
    f.steps = first.moves;
    f.dimensions = first.dimensions;
    f.proved_minimal = first.exhaustive;
    f.largest_per_step = first.packets;
    f.items_received = first.volume;
    if (g.order() <= opt::MAX_UNIFORM_SCHEDULE_NODES) {
      out.found = f;
      auto l = std::make_shared<LoadedSchedule>(exchange_point_schedule(out, 0));
      out.schedule = std::move(l);
    }
  }
  out.schedule_proved = f.proved_minimal;
  out.verified = all_verified;
  out.found = std::move(f);
  return out;
}

LoadedSchedule exchange_point_schedule(const OptimalOutcome& outcome, std::size_t index) {
  const std::size_t points = outcome.found ? outcome.found->pareto.size() : 0;
  if (index >= points) {
    throw UsageError(Setting{"output", ""},
                     points == 0 ? fmt::format("no Pareto point {} to write (the front has no point)", index)
                                 : fmt::format("no Pareto point {} to write (the front has {} point{}: 0..{})", index,
                                               points, points == 1 ? "" : "s", points - 1));
  }
  const auto& spec = outcome.request.topology.spec();
  const auto g = opt::CayleyGroup::of(spec);
  const auto& p = outcome.found->pareto[index];
  LoadedSchedule l;
  l.spec = spec;
  l.topology = outcome.request.topology.topology();
  l.schedule = std::make_shared<const algorithms::schedule::Schedule>(
      coll::exchange_schedule(g, coll::combining_exchange(g, p.dimensions)));
  l.format = "starnet";
  l.source = fmt::format("uniform combining exchange, {} steps, volume {}", p.dimensions.size(), p.volume);
  return l;
}

nlohmann::json exchange_json(const ClassFound& f) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : f.pareto) {
    nlohmann::json j = {{"steps", p.dimensions.size()}, {"volume", p.volume},     {"dimensions", p.dimensions},
                        {"moves", p.moves},             {"packets", p.packets},   {"exhaustive", p.exhaustive},
                        {"verified", p.verified}};
    if (const auto c = p.crossover(f.status)) {
      put_exact(j, "crossover", *c);
    } else {
      j["crossover"] = nullptr;
    }
    points.push_back(std::move(j));
  }
  return {{"pareto", points},
          {"status", f.status},
          {"pareto_complete", f.pareto_complete},
          {"one_packet", {{"steps", f.status}, {"volume", f.status}}}};
}

}  // namespace starnet::api

// What the optimal searches share (optimal_common.hpp): the schedule found, as the collective
// asked for; its check on the emulator; the settings a class search takes. Kept apart so that
// optimal.cpp, optimal_class.cpp and optimal_exchange.cpp each call it and none calls back.
#include "optimal_common.hpp"

#include <starnet/algorithms/optimal/coset_search.hpp>
#include <starnet/algorithms/optimal/optimal_search.hpp>
#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/algorithms/schedule/gossip_allreduce.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

namespace starnet::api {

namespace opt = algorithms::optimal;
namespace sch = algorithms::schedule;

std::shared_ptr<const LoadedSchedule> as_requested(const sch::Schedule& s, const OptimalRequest& request,
                                                   const std::shared_ptr<const topology::Topology>& t,
                                                   const std::string& source) {
  std::optional<sch::Schedule> converted;
  if (request.collective == Collective::ALLREDUCE && s.rules().kind() == Collective::ALLGATHER) {
    converted = sch::gossip_as_allreduce(s);
  } else if (s.rules().kind() != request.collective) {
    return nullptr;  // an all-reduce word plan is not a gossip: nothing to give for an all-gather
  }
  auto l = std::make_shared<LoadedSchedule>();
  l->topology = t;
  l->spec = request.topology.spec();
  if (!request.topology.from_spec()) l->in_memory = request.topology.platform();
  l->schedule = std::make_shared<const sch::Schedule>(converted ? std::move(*converted) : s);
  l->format = "starnet";
  l->source = source;
  return l;
}

std::optional<std::string> run_problem(const LoadedSchedule& l, std::uint64_t steps, const emulator::PortModel& ports) {
  sch::ScheduleRunSettings settings;
  settings.config.ports = ports;
  return opt::steps_problem(sch::run_schedule(*l.schedule, *l.topology, settings), steps);
}

void check_class_request(const OptimalRequest& o, bool coset, const opt::CayleyGroup& g) {
  if (o.ports.ports != 1 || o.ports.half_duplex) {
    throw UsageError(Setting{"method", coset ? "coset" : "uniform"}, "single-port full duplex only");
  }
  if (o.beam_width && *o.beam_width < 1) {
    throw UsageError(Setting{"beam_width", std::to_string(*o.beam_width)}, "expected a width ≥ 1");
  }
  if (o.max_steps && *o.max_steps < 1) {
    throw UsageError(Setting{"max_steps", std::to_string(*o.max_steps)}, "expected T ≥ 1");
  }
  if (!o.proof_dir.empty()) {
    throw UsageError(Setting{"proof", o.proof_dir},
                     fmt::format("DRAT proofs come from «method» sat, not {}", coset ? "coset" : "uniform"));
  }
  const bool broadcast = o.collective == Collective::BROADCAST;
  if (coset && (g.family() != "star" || broadcast)) {
    throw UsageError(Setting{"method", "coset"}, fmt::format("coset schedules are gossips on star:3..star:{} ({} given)",
                                                             opt::MAX_COSET_N, o.topology.spec()));
  }
  if (broadcast && g.order() > opt::MAX_UNIFORM_SCHEDULE_NODES) {
    throw UsageError(Setting{"collective", "broadcast"},
                     fmt::format("with «method» uniform: verified as a schedule up to {} nodes; {} has {} (a uniform "
                                 "broadcast ends with the uniform gossip: search that)",
                                 opt::MAX_UNIFORM_SCHEDULE_NODES, o.topology.spec(), g.order()));
  }
}

}  // namespace starnet::api

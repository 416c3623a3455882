#include <starnet/api/broadcast_beside.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace starnet::api {

namespace sch = algorithms::schedule;

BroadcastBeside broadcast_beside_schedule(const StarRequest& paper, const std::string& file) {
  const std::string star = fmt::format("star:{}", paper.n);
  ScheduleRunRequest run;
  run.schedule = load_schedule(file, star);
  const auto& s = *run.schedule.schedule;
  if (s.rules().kind() != Collective::ALLGATHER || s.form() != sch::Form::STEPPED) {
    throw UsageError(Setting{"schedule", file},
                     fmt::format("expected a stepped all-gather (an all-to-all broadcast); it is a{} {}",
                                 s.form() == sch::Form::STEPPED ? "" : " programmed", to_string(s.rules().kind())));
  }
  BroadcastBeside out;
  out.file = file;
  out.paper = run_star(paper);
  out.schedule = run_schedule(run);
  const auto vol = sch::volume(s);
  const auto nodes = topology::StarGraph::factorial(paper.n);
  out.transfers = s.transfers();
  out.largest_message_items = vol.largest.empty() ? 0 : *std::max_element(vol.largest.begin(), vol.largest.end());
  out.items_received_per_node = vol.received_max;
  out.no_duplicates = vol.received_min == nodes - 1 && vol.received_max == nodes - 1;
  return out;
}

nlohmann::json BroadcastBeside::to_json() const {
  return {{"topology", fmt::format("star:{}", paper.request.n)},
          {"paper", paper.to_json()},
          {"schedule",
           {{"file", file},
            {"steps", schedule.run.run.makespan.num()},
            {"transfers", transfers},
            {"largest_message_items", largest_message_items},
            {"items_received_per_node", items_received_per_node},
            {"no_duplicates", no_duplicates},
            {"verified", schedule.verified}}},
          {"verified", verified()}};
}

}  // namespace starnet::api

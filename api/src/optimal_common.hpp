#pragma once
// Internal to starnet::api: what the SAT path (optimal.cpp) and the class searches
// (optimal_class.cpp, optimal_exchange.cpp) share, defined in optimal_common.cpp.
#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/api/optimal.hpp>

#include <memory>
#include <optional>
#include <string>

namespace starnet::api {

/// @p s as the collective @p request asks for (a gossip becomes an all-reduce with messages of
/// several values), on @p t; null when it cannot be (an all-reduce word plan asked as a gossip).
[[nodiscard]] std::shared_ptr<const LoadedSchedule> as_requested(const algorithms::schedule::Schedule& s,
                                                                 const OptimalRequest& request,
                                                                 const std::shared_ptr<const topology::Topology>& t,
                                                                 const std::string& source);
/// Why @p l does not run verified in exactly @p steps steps under @p ports (strict); none when it does.
[[nodiscard]] std::optional<std::string> run_problem(const LoadedSchedule& l, std::uint64_t steps,
                                                     const emulator::PortModel& ports);

/// Refuses the settings a class search (uniform, or with @p coset the coset one) does not take on @p g:
/// ports, beam, steps, proofs; the total exchange's search checks with it too.
void check_class_request(const OptimalRequest& o, bool coset, const algorithms::optimal::CayleyGroup& g);

}  // namespace starnet::api

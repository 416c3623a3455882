#pragma once
// Internal to starnet::api: the searches within a class of schedules (uniform, coset) behind
// find_optimal(), and what the SAT path and they share (optimal.cpp, optimal_class.cpp).

#include <starnet/api/optimal.hpp>

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

/// The uniform (or, with @p coset, the coset) search of @p request, its schedule verified.
[[nodiscard]] OptimalOutcome find_in_class(const OptimalRequest& request, bool coset, OptimalOutcome out);
/// The fields of `optimal --method uniform|coset --json` for @p f.
[[nodiscard]] nlohmann::json class_json(const ClassFound& f);

/// check_class_request() of find_in_class(), for the total exchange's search too.
void check_class_request(const OptimalRequest& o, bool coset, const algorithms::optimal::CayleyGroup& g);

/// The Pareto front of the total exchange (`--collective alltoall --method uniform`), every point
/// verified on the emulator (optimal_exchange.cpp).
[[nodiscard]] OptimalOutcome find_exchange_front(const OptimalRequest& request, OptimalOutcome out);
/// The front's fields of the JSON document: `pareto`, `status`, `pareto_complete`, `one_packet`.
[[nodiscard]] nlohmann::json exchange_json(const ClassFound& f);

}  // namespace starnet::api

#pragma once
// Internal to starnet::api: the searches within a class of schedules (uniform, coset) behind
// find_optimal() (optimal_class.cpp) and the total exchange's front (optimal_exchange.cpp).

#include "optimal_common.hpp"

#include <vector>

namespace starnet::api {

/// Runs the uniform gossip along @p dimensions on the emulator (strict): as a schedule up to
/// MAX_UNIFORM_SCHEDULE_NODES, with meta messages beyond (the star on its implicit graph, every
/// other group on make_topology(g.spec())). Whether it verified: false too where that topology
/// is too large to build (a platform of pancake:9).
[[nodiscard]] bool verify_uniform_gossip(const algorithms::optimal::CayleyGroup& g, const std::vector<int>& dimensions);

/// The uniform (or, with @p coset, the coset) search of @p request, its schedule verified.
[[nodiscard]] OptimalOutcome find_in_class(const OptimalRequest& request, bool coset, OptimalOutcome out);
/// The fields of `optimal --method uniform|coset --json` for @p f.
[[nodiscard]] nlohmann::json class_json(const ClassFound& f);

/// The Pareto front of the total exchange (`--collective alltoall --method uniform`), every point
/// verified on the emulator (optimal_exchange.cpp).
[[nodiscard]] OptimalOutcome find_exchange_front(const OptimalRequest& request, OptimalOutcome out);
/// The front's fields of the JSON document: `pareto`, `status`, `pareto_complete`, `one_packet`.
[[nodiscard]] nlohmann::json exchange_json(const ClassFound& f);

}  // namespace starnet::api

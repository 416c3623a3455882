#pragma once
// `starnet optimal --method uniform|coset`: searches within a class of schedules (issue 25;
// docs/beyond.md). Shared by optimal_command.cpp and optimal_uniform.cpp.
#include <string>
#include <vector>

namespace starnet::algorithms::optimal {
class CayleyGroup;
}

namespace starnet::tools {

struct OptimalOptions {
  std::string collective = "gossip";
  std::string topology;
  std::string root;
  int ports = 1;
  std::string duplex = "full";
  double time_limit = 0;
  bool json = false;
  std::string output;
  std::string proof;
  std::string study;
  std::string csv;
  std::string method = "sat";
  int beam_width = -1;  // not given: exhaustive
  int max_steps = -1;   // not given: the paper's n(n−1)/2 on star:N, |G| − 1 elsewhere
  bool anytime = false;
};

/// `--method uniform` (any Cayley family; gossip or broadcast) and `--method coset` (star:3..6):
/// the search, the schedule verified on the emulator, the report. Returns the exit code.
int optimal_in_class(const OptimalOptions& o);

/// Runs the uniform gossip along @p dimensions on the emulator (strict): as a schedule up to
/// 1,024 nodes, with meta messages on larger star graphs (uniform_search.hpp). Whether it verified.
bool verify_uniform_gossip(const algorithms::optimal::CayleyGroup& g, const std::vector<int>& dimensions);

}  // namespace starnet::tools

#pragma once
// SimGrid's example platforms (two_hosts.xml, small_platform.xml, cluster_backbone.xml), kept in
// the shared data folder beside the repository and never copied into it. Tests that read them
// skip, saying why, where that folder is absent (a user's fresh clone).

#include "starnet_test_paths.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace starnet::testing {

inline const std::filesystem::path SIMGRID_EXAMPLES = STARNET_SOURCE_DIR "/../shared/data/simgrid";

/// The path of SimGrid's example platform @p name (e.g. "small_platform.xml").
inline std::string simgrid_example(const std::string& name) { return (SIMGRID_EXAMPLES / name).string(); }

}  // namespace starnet::testing

/// Skips the current test when SimGrid's example platforms are not beside the repository.
#define SKIP_WITHOUT_SIMGRID_EXAMPLES()                                                          \
  do {                                                                                           \
    if (!std::filesystem::is_directory(::starnet::testing::SIMGRID_EXAMPLES)) {                  \
      GTEST_SKIP() << "SimGrid's example platforms are not in " << ::starnet::testing::SIMGRID_EXAMPLES; \
    }                                                                                            \
  } while (false)

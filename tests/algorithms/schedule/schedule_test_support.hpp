#pragma once
// Shared by the schedule tests: read a schedule text, run it, read the docs' example files.

#include "starnet_test_paths.hpp"

#include <starnet/algorithms/schedule/schedule_json.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/topology/families.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace starnet::algorithms::schedule::testing {

inline Schedule parse_schedule(const std::string& text, const topology::Topology& t) {
  std::istringstream in(text);
  return ScheduleFile::read(in, "test schedule").resolve(t);
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::filesystem::path examples_dir() {
  return std::filesystem::path(STARNET_SOURCE_DIR) / "docs/examples/schedules";
}

/// Runs @p text (a starnet schedule naming its topology) in unit time, strict for steps.
inline ScheduleRun run_text(const std::string& text, unsigned zmq_workers = 0, bool trace = false) {
  const auto doc = nlohmann::json::parse(text);
  const auto t = topology::make_topology(doc.at("topology").get<std::string>());
  const Schedule s = parse_schedule(text, *t);
  ScheduleRunSettings settings;
  settings.config.checking = s.form() == Form::STEPPED ? emulator::Checking::STRICT : emulator::Checking::ARBITRATED;
  settings.config.trace = trace;
  settings.zmq_workers = zmq_workers;
  return run_schedule(s, *t, settings);
}

}  // namespace starnet::algorithms::schedule::testing

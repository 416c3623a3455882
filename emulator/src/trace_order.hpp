#pragma once
// The one order of a run's trace (TraceEvent::key()), whatever engine, path, lanes or workers made
// it: every engine sorts its merged events here. Private to the emulator library.

#include <starnet/emulator/trace.hpp>

#include <algorithm>
#include <vector>

namespace starnet::emulator {

template <class Time>
void sort_trace(std::vector<TraceEvent<Time>>& trace) {
  std::sort(trace.begin(), trace.end(), [](const auto& a, const auto& b) { return a.key() < b.key(); });
}

}  // namespace starnet::emulator

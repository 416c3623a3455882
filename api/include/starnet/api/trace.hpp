#pragma once
/// @file
/// A run's trace as the api hands it to both faces: its events (emulator/trace.hpp) and their
/// pairing into transfers and computations (emulator/trace_intervals.hpp), which the command
/// line writes as files and charts and the Python module as numpy columns.

#include <starnet/emulator/trace.hpp>
#include <starnet/emulator/trace_intervals.hpp>

namespace starnet::api {

using emulator::EventKind;
using emulator::TraceEvent;
using emulator::trace_intervals;
using emulator::TraceIntervals;
using emulator::TransferInterval;
using emulator::ComputeInterval;
using emulator::describe_event;
using emulator::NodeId;
using emulator::time_text;
using emulator::TimeText;
using emulator::to_json_line;

}  // namespace starnet::api

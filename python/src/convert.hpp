#pragma once
// Between starnet::api and Python: JSON documents as dicts, traces as numpy columns, errors as the
// module's exceptions with the keyword named, long calls run interruptibly (docs/python.md).

#include <starnet/api/core.hpp>
#include <starnet/api/gantt.hpp>
#include <starnet/api/markup.hpp>
#include <starnet/api/setting_table.hpp>
#include <starnet/api/trace.hpp>

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::python {

namespace py = pybind11;

/// @p j as Python objects: objects as dicts (key order kept), arrays as lists, numbers as int or
/// float, null as None.
[[nodiscard]] py::object to_python(const nlohmann::json& j);
[[nodiscard]] py::object to_python(const nlohmann::ordered_json& j);

/// The document of a result as Python sees it: "version" first, every exact rational with its
/// KEY_exact text (api::ExactAlways), so that the module makes it a Fraction.
template <class F>
py::object document(F&& to_json);

/// A trace as numpy columns, each of the narrowest dtype that holds it (docs/python.md, "Traces"):
/// step, round, time (integers when every time is; otherwise float64 with time_num and time_den,
/// int64, exact; NAME_exact Fractions beyond 64 bits; float64 for a trace in floating-point time),
/// event (int8 codes of EVENT_NAMES), node, peer, port, tag, size (as time), bytes.
template <class Time>
[[nodiscard]] py::dict trace_columns(const std::vector<api::TraceEvent<Time>>& trace);
/// The transfers and computations of a trace (emulator/trace_intervals.hpp) as columns:
/// {"transfers": {from, to, port, tag, start, end, finished}, "computations": {node, tag, start,
/// end, finished}}, times as in trace_columns(); and "gantt", the run's Gantt chart (api/gantt.hpp,
/// titled @p title, or the api's title when empty) as {title, rows, bars: {row, lane, start, end,
/// peer, port, finished, label, slot}, row_slots, flows: {send, receive}, makespan, makespan_text},
/// or None beyond api::MAX_GANTT_ROWS nodes;
/// "trace_text", a function of a format ("jsonl", "chrome") giving the trace file (api/trace.hpp);
/// "swimlane", a function giving the run's space-time diagram (api/swimlane.hpp) as SVG text, each
/// message labelled by @p payload_text (none: api::payload_text), called with the GIL held.
template <class Time>
[[nodiscard]] py::dict interval_columns(const std::vector<api::TraceEvent<Time>>& trace,
                                        const std::shared_ptr<const api::Topology>& topology,
                                        const std::string& title = "", api::PayloadText payload_text = {});
/// A Python program's trace made to say what its messages weigh: a Python payload travels by
/// reference, as an 8-byte index (programs.cpp), so its events' `bytes` become the `size` the
/// program gave (rounded up to a whole number), what the cost model charges; events without a
/// payload keep 0. O(events).
void bytes_from_sizes(std::vector<api::TraceEvent<Rational>>& trace);
/// The event names, in the order of their codes.
[[nodiscard]] std::vector<std::string> event_names();

/// Python values as the api's typed settings. Each raises a UsageError naming @p keyword and what
/// it expects for a value of the wrong kind (never pybind11's TypeError); the api then checks the
/// value's range, once for both faces.
/// A whole number ≥ 0 of at most 64 bits: an int, a numpy integer, anything with __index__; no bool.
[[nodiscard]] std::uint64_t whole(const py::handle& value, const char* keyword);
/// Any integer that a long long holds (the api checks the range and names it).
[[nodiscard]] long long integer(const py::handle& value, const char* keyword);
/// As whole(), None giving nullopt.
[[nodiscard]] std::optional<std::uint64_t> maybe_whole(const py::handle& value, const char* keyword);
/// A number of ports: whole(), the api's port_model() then checks its range.
[[nodiscard]] long port_count(const py::handle& value);
/// A finite real number: an int or a float (numpy's too); no bool.
[[nodiscard]] double real(const py::handle& value, const char* keyword);
/// As real(), None giving nullopt.
[[nodiscard]] std::optional<double> maybe_real(const py::handle& value, const char* keyword);
/// True or False (numpy's bool too), nothing else.
[[nodiscard]] bool flag(const py::handle& value, const char* keyword);
/// A str.
[[nodiscard]] std::string text(const py::handle& value, const char* keyword);
/// A file path: a str or an os.PathLike (pathlib.Path).
[[nodiscard]] std::string file_path(const py::handle& value, const char* keyword);
/// An exact number: an int, a Fraction, a float read as the decimal it prints as, or a text such
/// as "7/2"; > 0 when @p strictly, else ≥ 0.
[[nodiscard]] Rational exact(const py::handle& value, const char* keyword, bool strictly);

/// The keywords a call was given (@p given: keyword → object) as the api's table @p rows reads
/// them: each object checked for its row's type and written as the command line spells it — an
/// int as its digits, a float as the decimal it prints as, a Fraction as "7/2", True as "true", a
/// list (or one item) comma-separated; a Topology (or a spec) of a TOPOLOGY row as itself. A
/// keyword the table lacks goes on as given, for the api to refuse naming the nearest.
/// @throws UsageError naming the keyword for an object of another kind.
[[nodiscard]] api::SettingValues setting_values(const std::vector<api::SettingInfo>& rows, const py::dict& given);
/// @p rows as the module declares its calls from them (python/starnet/_settings.py): a dict per row,
/// {name, type, list, default (a Python object: None where there is none), choices, min, strictly,
/// max, unit, needs, required, help}.
[[nodiscard]] py::list setting_rows(const std::vector<api::SettingInfo>& rows);

/// @p text as a Python str. An ASCII text (every JSON and XML file starnet writes, unless a name is
/// not) is copied into a new str with the GIL released: a schedule of star:8 is 68 MB, whose copy,
/// faulting in fresh memory, held the GIL for a third of a second.
[[nodiscard]] py::str large_text(const std::string& text);

/// An error as the module says it: an error about a setting names the keyword, `workers=0: …`,
/// and settings named inside a message between «» become `keyword=` too.
[[nodiscard]] std::string python_message(const Error& e);

/// Registers starnet.InputError (a ValueError), starnet.RuntimeFailure (a RuntimeError) and
/// starnet.VerificationFailure (a RuntimeFailure) in @p module, and the translation of starnet's
/// errors into them (Interrupted becomes KeyboardInterrupt).
void register_errors(py::module_& module);

/// Runs @p work on a thread of its own while this thread waits with the GIL released, so that
/// other Python threads run; every POLL it checks for Ctrl-C (then asks the work to stop, waits for
/// it and raises KeyboardInterrupt) and, once the work has taken a second, calls @p progress
/// (done, total, unit, detail) unless it is None.
template <class R>
R run_interruptibly(std::function<R()> work, const py::object& progress);

}  // namespace starnet::python

#include "convert_impl.hpp"

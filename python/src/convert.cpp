#include "convert.hpp"

#include <starnet/api/settings.hpp>
#include <starnet/api/swimlane.hpp>
#include <starnet/api/trace.hpp>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <limits>

namespace starnet::python {
namespace {

/// numpy's bool and floating types, which are not Python's bool and float (kept for the process:
/// nothing to release after the interpreter has ended).
py::handle numpy_bool() {
  static const auto* type = new py::object(py::module_::import("numpy").attr("bool_"));
  return *type;
}
py::handle numpy_floating() {
  static const auto* type = new py::object(py::module_::import("numpy").attr("floating"));
  return *type;
}


template <class Json>
py::object convert(const Json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(j.template get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.template get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.template get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.template get<double>());
    case nlohmann::json::value_t::string: return py::str(j.template get_ref<const std::string&>());
    case nlohmann::json::value_t::binary: return py::none();
    case nlohmann::json::value_t::array: {
      py::list list;
      for (const auto& item : j) list.append(convert(item));
      return list;
    }
    case nlohmann::json::value_t::object: {
      py::dict dict;
      for (const auto& [key, value] : j.items()) dict[py::str(key)] = convert(value);
      return dict;
    }
  }
  return py::none();
}

/// A column of @p n values of the narrowest unsigned dtype that holds their maximum.
template <class Get>
py::array unsigned_column(std::size_t n, Get get) {
  std::uint64_t largest = 0;
  for (std::size_t i = 0; i < n; ++i) largest = std::max<std::uint64_t>(largest, get(i));
  const auto fill = [&](auto zero) {
    using T = decltype(zero);
    py::array_t<T> column(static_cast<py::ssize_t>(n));
    auto out = column.template mutable_unchecked<1>();
    for (std::size_t i = 0; i < n; ++i) out(static_cast<py::ssize_t>(i)) = static_cast<T>(get(i));
    return py::array(std::move(column));
  };
  if (largest <= std::numeric_limits<std::uint8_t>::max()) return fill(std::uint8_t{0});
  if (largest <= std::numeric_limits<std::uint16_t>::max()) return fill(std::uint16_t{0});
  if (largest <= std::numeric_limits<std::uint32_t>::max()) return fill(std::uint32_t{0});
  return fill(std::uint64_t{0});
}

/// An exact column: the narrowest unsigned integers when every value is a whole number ≥ 0 of 64
/// bits, otherwise float64 beside its exact numerators and denominators (NAME_num, NAME_den,
/// int64) — or, when a value is beyond 64 bits (rational.hpp), beside NAME_exact, a column of
/// Fractions: the one case of a Python object per event, on platforms whose times need it.
template <class Get>
void time_column(py::dict& columns, const char* name, std::size_t n, Get get) {
  bool whole = true;
  bool small = true;
  for (std::size_t i = 0; i < n && small; ++i) {
    const Rational& x = get(i);
    small = x.is_small();
    whole = whole && small && x.is_integer() && x >= 0;
  }
  if (whole) {
    columns[name] = unsigned_column(n, [&](std::size_t i) { return static_cast<std::uint64_t>(get(i).num()); });
    return;
  }
  py::array_t<double> value(static_cast<py::ssize_t>(n));
  auto v = value.mutable_unchecked<1>();
  for (std::size_t i = 0; i < n; ++i) v(static_cast<py::ssize_t>(i)) = get(i).to_double();
  columns[name] = value;
  if (!small) {
    const py::object fraction = py::module_::import("fractions").attr("Fraction");
    py::list exact(static_cast<py::ssize_t>(n));
    for (std::size_t i = 0; i < n; ++i) exact[static_cast<py::ssize_t>(i)] = fraction(get(i).to_string());
    columns[(std::string(name) + "_exact").c_str()] = py::module_::import("numpy").attr("array")(exact, "object");
    return;
  }
  py::array_t<std::int64_t> num(static_cast<py::ssize_t>(n));
  py::array_t<std::int64_t> den(static_cast<py::ssize_t>(n));
  auto a = num.mutable_unchecked<1>();
  auto b = den.mutable_unchecked<1>();
  for (std::size_t i = 0; i < n; ++i) {
    a(static_cast<py::ssize_t>(i)) = get(i).num();
    b(static_cast<py::ssize_t>(i)) = get(i).den();
  }
  columns[(std::string(name) + "_num").c_str()] = num;
  columns[(std::string(name) + "_den").c_str()] = den;
}

/// The same for a trace in floating-point time (the Monte-Carlo's): float64.
template <class Get>
void float_column(py::dict& columns, const char* name, std::size_t n, Get get) {
  py::array_t<double> value(static_cast<py::ssize_t>(n));
  auto v = value.mutable_unchecked<1>();
  for (std::size_t i = 0; i < n; ++i) v(static_cast<py::ssize_t>(i)) = get(i);
  columns[name] = value;
}

template <class Time, class Get>
void column_of(py::dict& columns, const char* name, std::size_t n, Get get) {
  if constexpr (std::is_same_v<Time, Rational>) {
    time_column(columns, name, n, get);
  } else {
    float_column(columns, name, n, get);
  }
}

double to_double(const Rational& x) { return x.to_double(); }
double to_double(double x) { return x; }

constexpr api::EventKind ALL_EVENTS[] = {api::EventKind::REQUEST,  api::EventKind::SEND,
                                               api::EventKind::RECEIVE,  api::EventKind::SEND_END,
                                               api::EventKind::COMPUTE,  api::EventKind::COMPUTE_END,
                                               api::EventKind::TIMER,    api::EventKind::LOST,
                                               api::EventKind::CRASH,    api::EventKind::LINK_DOWN};

/// A message with every «setting» written as the keyword `setting=`.
std::string keywords(std::string_view text) {
  return api::name_settings(text, [](std::string_view setting) { return std::string(setting) + "="; });
}

}  // namespace

py::object to_python(const nlohmann::json& j) { return convert(j); }
py::object to_python(const nlohmann::ordered_json& j) { return convert(j); }

std::vector<std::string> event_names() {
  std::vector<std::string> names;
  for (const auto e : ALL_EVENTS) names.push_back(to_string(e));  // emulator::to_string, found by its argument
  return names;
}

template <class Time>
py::dict trace_columns(const std::vector<api::TraceEvent<Time>>& trace) {
  const std::size_t n = trace.size();
  py::dict c;
  c["step"] = unsigned_column(n, [&](std::size_t i) { return trace[i].step; });
  c["round"] = unsigned_column(n, [&](std::size_t i) { return trace[i].round; });
  column_of<Time>(c, "time", n, [&](std::size_t i) -> const Time& { return trace[i].time; });
  py::array_t<std::int8_t> event(static_cast<py::ssize_t>(n));
  auto e = event.mutable_unchecked<1>();
  for (std::size_t i = 0; i < n; ++i) {
    const auto at = std::find(std::begin(ALL_EVENTS), std::end(ALL_EVENTS), trace[i].kind) - std::begin(ALL_EVENTS);
    e(static_cast<py::ssize_t>(i)) = static_cast<std::int8_t>(at);
  }
  c["event"] = event;
  c["node"] = unsigned_column(n, [&](std::size_t i) { return trace[i].node; });
  c["peer"] = unsigned_column(n, [&](std::size_t i) { return trace[i].peer; });
  c["port"] = unsigned_column(n, [&](std::size_t i) { return trace[i].port; });
  c["tag"] = unsigned_column(n, [&](std::size_t i) { return trace[i].tag; });
  time_column(c, "size", n, [&](std::size_t i) -> const Rational& { return trace[i].size; });
  c["bytes"] = unsigned_column(n, [&](std::size_t i) { return trace[i].bytes; });
  return c;
}

template <class Get>
py::array bool_column(std::size_t n, Get get) {
  py::array_t<bool> column(static_cast<py::ssize_t>(n));
  for (std::size_t i = 0; i < n; ++i) column.mutable_at(static_cast<py::ssize_t>(i)) = get(i);
  return column;
}

/// The chart of api/gantt.hpp as columns the module's matplotlib drawing reads: a bar a row.
py::dict gantt_columns(const api::GanttChart& chart) {
  const auto& b = chart.bars;
  py::dict bars;
  bars["row"] = unsigned_column(b.size(), [&](std::size_t i) { return b[i].row; });
  bars["lane"] = unsigned_column(b.size(), [&](std::size_t i) { return static_cast<std::uint64_t>(b[i].lane); });
  float_column(bars, "start", b.size(), [&](std::size_t i) { return b[i].start; });
  float_column(bars, "end", b.size(), [&](std::size_t i) { return b[i].end; });
  bars["peer"] = unsigned_column(b.size(), [&](std::size_t i) { return b[i].peer; });
  bars["port"] = unsigned_column(b.size(), [&](std::size_t i) { return b[i].port; });
  bars["finished"] = bool_column(b.size(), [&](std::size_t i) { return b[i].finished; });
  bars["slot"] = unsigned_column(b.size(), [&](std::size_t i) { return b[i].slot; });
  py::list labels;
  for (const auto& bar : b) labels.append(bar.label);
  bars["label"] = labels;
  py::dict out;
  out["title"] = chart.title;
  out["rows"] = chart.rows;
  out["bars"] = bars;
  out["row_slots"] = unsigned_column(chart.row_slots.size(), [&](std::size_t v) { return chart.row_slots[v]; });
  const auto& f = chart.flows;
  py::dict flows;
  flows["send"] = unsigned_column(f.size(), [&](std::size_t i) { return f[i].send; });
  flows["receive"] = unsigned_column(f.size(), [&](std::size_t i) { return f[i].receive; });
  out["flows"] = flows;
  out["makespan"] = chart.makespan;
  out["makespan_text"] = chart.makespan_text;
  return out;
}

template <class Time>
py::dict interval_columns(const std::vector<api::TraceEvent<Time>>& trace,
                          const std::shared_ptr<const api::Topology>& on, const std::string& title,
                          api::PayloadText payload_text) {
  const api::Topology& topology = *on;
  const auto intervals = api::trace_intervals(trace);
  const auto& t = intervals.transfers;
  py::dict transfers;
  transfers["from"] = unsigned_column(t.size(), [&](std::size_t i) { return t[i].from; });
  transfers["to"] = unsigned_column(t.size(), [&](std::size_t i) { return t[i].to; });
  transfers["port"] = unsigned_column(t.size(), [&](std::size_t i) { return t[i].port; });
  transfers["tag"] = unsigned_column(t.size(), [&](std::size_t i) { return t[i].tag; });
  column_of<Time>(transfers, "start", t.size(), [&](std::size_t i) -> const Time& { return t[i].start; });
  column_of<Time>(transfers, "end", t.size(), [&](std::size_t i) -> const Time& { return t[i].end; });
  transfers["finished"] = bool_column(t.size(), [&](std::size_t i) { return t[i].finished; });
  transfers["lost"] = bool_column(t.size(), [&](std::size_t i) { return t[i].lost; });
  const auto& c = intervals.computations;
  py::dict computations;
  computations["node"] = unsigned_column(c.size(), [&](std::size_t i) { return c[i].node; });
  computations["tag"] = unsigned_column(c.size(), [&](std::size_t i) { return c[i].tag; });
  column_of<Time>(computations, "start", c.size(), [&](std::size_t i) -> const Time& { return c[i].start; });
  column_of<Time>(computations, "end", c.size(), [&](std::size_t i) -> const Time& { return c[i].end; });
  computations["finished"] = bool_column(c.size(), [&](std::size_t i) { return c[i].finished; });
  py::dict out;
  out["transfers"] = transfers;
  out["computations"] = computations;
  out["makespan"] = to_double(intervals.makespan);
  // The Gantt chart when the topology has rows enough for one (none: gantt() says why, from these).
  out["nodes"] = topology.num_nodes();
  out["topology_name"] = topology.name();
  out["gantt"] = topology.num_nodes() <= api::MAX_GANTT_ROWS ? py::object(gantt_columns(api::gantt_chart(trace, topology, title)))
                                                             : py::object(py::none());
  // The trace file of the command line's --trace, written when asked for (from a copy of the events).
  auto kept = std::make_shared<const std::vector<api::TraceEvent<Time>>>(trace);
  out["trace_text"] = py::cpp_function([kept, on](const std::string& format) {
    const auto f = api::parse_trace_format(format, "format");
    const py::gil_scoped_release released;
    return api::trace_text(*kept, *on, f);
  });
  out["swimlane"] = py::cpp_function([kept, on, title, text = std::move(payload_text)] {
    return api::swimlane_svg(api::swimlane_diagram(*kept, *on, title, text));
  });
  return out;
}

void bytes_from_sizes(std::vector<api::TraceEvent<Rational>>& trace) {
  for (auto& e : trace) {
    if (e.bytes != 0) e.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(e.size.ceil(), 0));
  }
}

template py::dict trace_columns(const std::vector<api::TraceEvent<Rational>>&);
template py::dict trace_columns(const std::vector<api::TraceEvent<double>>&);
template py::dict interval_columns(const std::vector<api::TraceEvent<Rational>>&,
                                   const std::shared_ptr<const api::Topology>&, const std::string&, api::PayloadText);
template py::dict interval_columns(const std::vector<api::TraceEvent<double>>&,
                                   const std::shared_ptr<const api::Topology>&, const std::string&, api::PayloadText);

std::uint64_t whole(const py::handle& value, const char* keyword) {
  if (!PyIndex_Check(value.ptr()) || PyBool_Check(value.ptr()) || py::isinstance(value, numpy_bool())) {
    throw UsageError(Setting{keyword, py::repr(value)}, "expected a whole number");
  }
  const auto i = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!i) throw py::error_already_set();
  if (PyObject_RichCompareBool(i.ptr(), py::int_(0).ptr(), Py_LT) == 1) {
    throw UsageError(Setting{keyword, py::repr(value)}, "expected a whole number ≥ 0");
  }
  const auto v = PyLong_AsUnsignedLongLong(i.ptr());
  if (PyErr_Occurred() != nullptr) {
    PyErr_Clear();
    throw UsageError(Setting{keyword, py::repr(value)}, "expected a whole number of at most 64 bits");
  }
  return v;
}

long long integer(const py::handle& value, const char* keyword) {
  if (!PyIndex_Check(value.ptr()) || PyBool_Check(value.ptr()) || py::isinstance(value, numpy_bool())) {
    throw UsageError(Setting{keyword, py::repr(value)}, "expected a whole number");
  }
  const auto i = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!i) throw py::error_already_set();
  const auto v = PyLong_AsLongLong(i.ptr());
  if (PyErr_Occurred() != nullptr) {
    PyErr_Clear();
    throw UsageError(Setting{keyword, py::repr(value)}, "expected a whole number of at most 64 bits");
  }
  return v;
}

std::optional<std::uint64_t> maybe_whole(const py::handle& value, const char* keyword) {
  return value.is_none() ? std::nullopt : std::optional(whole(value, keyword));
}

long port_count(const py::handle& value) {
  // Beyond MAX_PORTS + 1 every count is refused alike by port_model().
  return static_cast<long>(std::min<std::uint64_t>(whole(value, "ports"), std::numeric_limits<long>::max()));
}

double real(const py::handle& value, const char* keyword) {
  const bool number = (PyLong_Check(value.ptr()) || PyFloat_Check(value.ptr()) || PyIndex_Check(value.ptr()) ||
                       py::isinstance(value, numpy_floating())) &&
                      !PyBool_Check(value.ptr()) && !py::isinstance(value, numpy_bool());
  if (!number) throw UsageError(Setting{keyword, py::repr(value)}, "expected a number");
  const double x = PyFloat_AsDouble(value.ptr());
  if (PyErr_Occurred() != nullptr) {
    PyErr_Clear();
    throw UsageError(Setting{keyword, py::repr(value)}, "expected a number that a double holds");
  }
  if (!std::isfinite(x)) throw UsageError(Setting{keyword, py::repr(value)}, "expected a finite number");
  return x;
}

std::optional<double> maybe_real(const py::handle& value, const char* keyword) {
  return value.is_none() ? std::nullopt : std::optional(real(value, keyword));
}

bool flag(const py::handle& value, const char* keyword) {
  if (PyBool_Check(value.ptr()) || py::isinstance(value, numpy_bool())) return PyObject_IsTrue(value.ptr()) == 1;
  throw UsageError(Setting{keyword, py::repr(value)}, "expected True or False");
}

std::string text(const py::handle& value, const char* keyword) {
  if (!py::isinstance<py::str>(value)) throw UsageError(Setting{keyword, py::repr(value)}, "expected a string");
  return value.cast<std::string>();
}

std::string file_path(const py::handle& value, const char* keyword) {
  if (!py::isinstance<py::str>(value) && !py::hasattr(value, "__fspath__")) {
    throw UsageError(Setting{keyword, py::repr(value)}, "expected a file path (a str or a pathlib.Path)");
  }
  const py::object path = py::module_::import("os").attr("fspath")(value);
  if (!py::isinstance<py::str>(path)) throw UsageError(Setting{keyword, py::repr(value)}, "expected a path as text");
  return path.cast<std::string>();
}

Rational exact(const py::handle& value, const char* keyword, bool strictly) {
  if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) {
    const auto v = PyLong_AsLongLong(value.ptr());
    if (!(v == -1 && PyErr_Occurred() != nullptr) && (strictly ? v > 0 : v >= 0)) return Rational(v);
    PyErr_Clear();
  }
  const bool number = py::isinstance<py::str>(value) || py::isinstance<py::float_>(value) ||
                      py::hasattr(value, "numerator");
  if (!number || PyBool_Check(value.ptr())) throw UsageError(Setting{keyword, py::repr(value)}, "expected a number");
  std::string s = py::isinstance<py::float_>(value) ? std::string(py::repr(value)) : std::string(py::str(value));
  return api::parse_number(s, keyword, 0, strictly);
}

namespace {

using api::SettingType;

bool is_bool(const py::handle& value) { return PyBool_Check(value.ptr()) || py::isinstance(value, numpy_bool()); }

UsageError wrong_kind(const api::SettingInfo& row, const py::handle& value, const std::string& expected) {
  return UsageError(Setting{row.name, py::repr(value)}, "expected " + expected);
}

/// An integer as its digits (the api checks its range).
std::string integer_text(const api::SettingInfo& row, const py::handle& value) {
  if (!PyIndex_Check(value.ptr()) || is_bool(value)) throw wrong_kind(row, value, "a whole number");
  const auto i = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!i) throw py::error_already_set();
  return py::str(i);
}

/// One item of @p row's value, as the command line spells it.
std::string item_text(const api::SettingInfo& row, const py::handle& value) {
  switch (row.type) {
    case SettingType::WHOLE: return integer_text(row, value);
    case SettingType::REAL: {
      if (PyIndex_Check(value.ptr()) && !is_bool(value)) return integer_text(row, value);
      if (is_bool(value) || !(PyFloat_Check(value.ptr()) || py::isinstance(value, numpy_floating()))) {
        throw wrong_kind(row, value, "a number");
      }
      return py::repr(py::float_(py::reinterpret_borrow<py::object>(value)));
    }
    case SettingType::EXACT: {
      if (is_bool(value)) throw wrong_kind(row, value, "a number");
      if (PyLong_Check(value.ptr()) || py::isinstance<py::str>(value)) return py::str(value);
      // A float is read as the decimal it prints as (0.1 means 1/10), never as its binary expansion.
      if (PyFloat_Check(value.ptr())) return py::repr(value);
      if (py::hasattr(value, "numerator") && py::hasattr(value, "denominator")) {
        return fmt::format("{}/{}", std::string(py::str(value.attr("numerator"))),
                           std::string(py::str(value.attr("denominator"))));
      }
      throw wrong_kind(row, value, "a number");
    }
    case SettingType::FLAG: return flag(value, row.name.c_str()) ? "true" : "false";
    case SettingType::PATH: return file_path(value, row.name.c_str());
    case SettingType::NODE:
      if (PyIndex_Check(value.ptr()) && !is_bool(value)) return integer_text(row, value);
      if (!py::isinstance<py::str>(value)) throw wrong_kind(row, value, "a node name or index");
      return value.cast<std::string>();
    default: return text(value, row.name.c_str());
  }
}

/// A topology item: a Topology (its handle), a handle, or a spec or file (a str, comma-separated
/// specs being several).
void add_topologies(const api::SettingInfo& row, const py::handle& value, std::vector<api::TopologyRef>& out) {
  if (py::isinstance<api::TopologyRef>(value)) {
    out.push_back(value.cast<api::TopologyRef>());
  } else if (py::hasattr(value, "_ref") && py::isinstance<api::TopologyRef>(value.attr("_ref"))) {
    out.push_back(value.attr("_ref").cast<api::TopologyRef>());
  } else if (py::isinstance<py::str>(value) || py::hasattr(value, "__fspath__")) {
    const std::string spec = file_path(value, row.name.c_str());
    if (!row.limits.list) {
      out.emplace_back(spec);
      return;
    }
    for (auto& item : api::split_list(spec)) out.emplace_back(std::move(item));
  } else {
    throw wrong_kind(row, value, "a Topology or a spec such as 'star:5'");
  }
}

/// The items of a list keyword: a str is one (comma-separated) text; any other iterable its items.
std::vector<py::object> items_of(const api::SettingInfo& row, const py::handle& value) {
  if (!row.limits.list || py::isinstance<py::str>(value) || !py::isinstance<py::iterable>(value) ||
      py::hasattr(value, "__fspath__")) {
    return {py::reinterpret_borrow<py::object>(value)};
  }
  std::vector<py::object> items;
  for (const py::handle item : py::reinterpret_borrow<py::iterable>(value)) {
    items.push_back(py::reinterpret_borrow<py::object>(item));
  }
  return items;
}

api::SettingValue setting_value(const api::SettingInfo& row, const py::handle& value) {
  api::SettingValue out;
  const auto items = items_of(row, value);
  if (row.type == SettingType::TOPOLOGY) {
    for (const auto& item : items) add_topologies(row, item, out.topologies);
    for (const auto& t : out.topologies) out.text += (out.text.empty() ? "" : ",") + t.spec();
    return out;
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    // A list's item given as text is taken as the command line's (the api reads it).
    const bool spelt = row.limits.list && py::isinstance<py::str>(items[i]);
    out.text += (i == 0 ? "" : ",") + (spelt ? items[i].cast<std::string>() : item_text(row, items[i]));
  }
  return out;
}

/// A row's default as the Python object a caller would give.
py::object python_default(const api::SettingInfo& row) {
  if (!row.fallback) return py::none();
  const std::string& t = *row.fallback;
  const auto all_digits = !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
  switch (row.type) {
    case SettingType::WHOLE: return py::int_(py::str(t));
    case SettingType::REAL: return py::float_(std::stod(t));
    case SettingType::EXACT:
      return all_digits ? py::object(py::int_(py::str(t))) : py::module_::import("fractions").attr("Fraction")(t);
    case SettingType::FLAG: return py::bool_(t == "true");
    case SettingType::NODE: return all_digits ? py::object(py::int_(py::str(t))) : py::object(py::str(t));
    default: return py::str(t);
  }
}

}  // namespace

api::SettingValues setting_values(const std::vector<api::SettingInfo>& rows, const py::dict& given) {
  api::SettingValues out;
  for (const auto& [key, value] : given) {
    const std::string name = py::str(key);
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const api::SettingInfo& r) { return r.name == name; });
    // None is the default of a setting that has none: as if not given.
    if (row != rows.end() && value.is_none() && !row->fallback) continue;
    if (row != rows.end() && value.is_none() && row->limits.unset) {
      out.emplace_back(name, api::SettingValue{});
      continue;
    }
    out.emplace_back(name, row == rows.end() ? api::SettingValue{py::repr(value), {}} : setting_value(*row, value));
  }
  return out;
}

py::list setting_rows(const std::vector<api::SettingInfo>& rows) {
  py::list out;
  for (const auto& r : rows) {
    py::dict d;
    d["name"] = r.name;
    d["type"] = std::string(api::to_string(r.type));
    d["list"] = r.limits.list;
    d["default"] = python_default(r);
    d["choices"] = r.limits.choices;
    d["min"] = r.limits.min ? py::object(py::int_(*r.limits.min)) : py::object(py::none());
    d["strictly"] = r.limits.strictly;
    d["max"] = r.limits.max ? py::object(py::int_(*r.limits.max)) : py::object(py::none());
    d["unit"] = r.limits.unit;
    d["needs"] = r.limits.needs;
    d["required"] = r.limits.required;
    d["help"] = r.help;
    out.append(d);
  }
  return out;
}

std::string python_message(const Error& e) {
  const Setting* setting = e.setting();
  if (setting == nullptr) return keywords(e.what());
  // Settings named in words by the algorithms' own calls have keywords too.
  static const std::pair<std::string_view, std::string_view> KEYWORD_OF[] = {
      {"failed links", "fail_links"}, {"failed nodes", "fail_nodes"}, {"port models", "ports"},
      {"failure probability", "fail_random"}, {"message size", "message_size"}, {"processors", "n"},
      {"mean transfer cost", "mu_d"}, {"mean computation cost", "mu_c"},
      {"limit K", "k"},
  };
  std::string keyword = setting->name;
  for (const auto& [words, name] : KEYWORD_OF) {
    if (keyword == words) keyword = name;
  }
  return keyword + "=" + setting->value + ": " + keywords(e.reason());
}

void register_errors(py::module_& module) {
  // The types are looked up here, as the module is imported: a first lookup inside a call could
  // import numpy while another thread, holding the GIL, waits for the same static to be made.
  (void)numpy_bool();
  (void)numpy_floating();
  static py::exception<InputError> input(module, "InputError", PyExc_ValueError);
  static py::exception<Error> runtime(module, "RuntimeFailure", PyExc_RuntimeError);
  static py::exception<ModelViolation> verification(module, "VerificationFailure", runtime.ptr());
  input.attr("__doc__") = "Bad input: a setting, a topology, a file. The message names the keyword or the input at fault.";
  runtime.attr("__doc__") = "A runtime failure: a worker died, a timeout, a solver failure.";
  verification.attr("__doc__") = "A violation of the port model found while emulating, where it could not be a result.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Interrupted&) {
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    } catch (const InputError& e) {
      input(python_message(e).c_str());
    } catch (const ModelViolation& e) {
      verification(python_message(e).c_str());
    } catch (const Error& e) {
      runtime(python_message(e).c_str());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_MemoryError, "out of memory (try a smaller topology)");
    }
  });
}

py::str large_text(const std::string& text) {
  bool ascii = false;
  {
    const py::gil_scoped_release release;
    ascii = std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  }
  if (!ascii) return py::str(text);
  PyObject* made = PyUnicode_New(static_cast<Py_ssize_t>(text.size()), /*maxchar=*/127);
  if (made == nullptr) throw py::error_already_set();
  auto out = py::reinterpret_steal<py::str>(made);
  {
    // No other thread holds the new str yet: its bytes are written without the GIL.
    const py::gil_scoped_release release;
    std::memcpy(PyUnicode_DATA(made), text.data(), text.size());
  }
  return out;
}

}  // namespace starnet::python

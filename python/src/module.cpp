// starnet._core: the extension the Python package `starnet` wraps (python/starnet/__init__.py;
// docs/python.md). Nothing here decides, searches or verifies: starnet::api does.
#include "calls.hpp"
#include "convert.hpp"

#include <starnet/api/json.hpp>

#include <pybind11/stl.h>

PYBIND11_MODULE(_core, m) {
  namespace py = pybind11;
  m.doc() = "The extension of the starnet package: starnet::api as Python calls (use the package, not this).";
  m.attr("__version__") = std::string(starnet::api::version());
  m.attr("EVENT_NAMES") = starnet::python::event_names();
  starnet::python::register_errors(m);
  starnet::python::bind_topology_and_star(m);
  starnet::python::bind_schedules(m);
  starnet::python::bind_studies(m);
  starnet::python::bind_programs(m);
}

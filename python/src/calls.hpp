#pragma once
// The functions and classes of starnet._core: thin wrappers that turn keyword arguments into the
// requests of starnet::api, run them interruptibly with the GIL released, and give back documents
// (dicts), traces (numpy columns) and opaque handles the Python package wraps (docs/python.md).

#include <pybind11/pybind11.h>

namespace starnet::python {

namespace py = pybind11;

/// Topology, engine choices, the star collectives, Table 1 and Table 2.
void bind_topology_and_star(py::module_& m);
/// Schedules: load, parse, save, run, export.
void bind_schedules(py::module_& m);
/// Optimal, what-if, Monte-Carlo, steady state, reduction trees, the Markov chain.
void bind_studies(py::module_& m);
/// Node programs written in Python: their context, messages and the run (starnet.emulate).
void bind_programs(py::module_& m);

}  // namespace starnet::python

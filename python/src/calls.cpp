#include "calls.hpp"

#include "convert.hpp"

#include <starnet/api/engine.hpp>
#include <starnet/api/schedule.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/star.hpp>
#include <starnet/api/star_layout.hpp>
#include <starnet/api/broadcast_beside.hpp>
#include <starnet/api/drawing.hpp>
#include <starnet/api/topology.hpp>
#include <starnet/api/viz.hpp>

#include <pybind11/stl.h>

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace starnet::python {
namespace {

using py::arg;

/// A platform built from a node list and an edge list (Topology.from_networkx): api::platform_from_edges.
api::TopologyRef topology_from_edges(const std::string& name, const std::vector<std::string>& nodes,
                                     const std::vector<std::tuple<std::size_t, std::size_t, std::string, std::string>>& edges,
                                     bool directed) {
  std::vector<api::EdgeSpec> specs;
  specs.reserve(edges.size());
  for (const auto& [u, v, cost, latency] : edges) specs.push_back({u, v, cost, latency});
  return api::platform_from_edges(name, nodes, specs, directed);
}

/// The edges of @p t, each link once when undirected: (u, v, cost, latency) with exact texts.
std::vector<std::tuple<std::size_t, std::size_t, std::string, std::string>> topology_edges(const api::TopologyRef& t) {
  const auto topo = t.topology();
  std::vector<std::tuple<std::size_t, std::size_t, std::string, std::string>> out;
  const bool undirected = t.platform() == nullptr || !t.platform()->directed();
  for (topology::NodeId v = 0; v < topo->num_nodes(); ++v) {
    for (topology::Port p = 0; p < topo->degree(v); ++p) {
      const auto u = topo->neighbor(v, p);
      if (undirected && u < v) continue;
      out.emplace_back(v, u, topo->link_cost(v, p).to_string(), topo->link_latency(v, p).to_string());
    }
  }
  return out;
}

std::vector<std::string> node_names(const api::TopologyRef& t) {
  const auto topo = t.topology();
  std::vector<std::string> out;
  out.reserve(topo->num_nodes());
  for (topology::NodeId v = 0; v < topo->num_nodes(); ++v) out.push_back(topo->node_name(v));
  return out;
}

/// A count as the api's signed settings take it (api/engine.hpp checks its range, negatives too).
std::optional<long> maybe_count(const py::handle& value, const char* keyword) {
  if (value.is_none()) return std::nullopt;
  return static_cast<long>(integer(value, keyword));
}

api::EngineChoice make_engine(const py::object& kind, const py::object& workers, const py::object& processes,
                              const py::object& address, const py::object& port, const py::object& listen,
                              const py::object& key_file, const py::object& peer_timeout, const py::object& timeout,
                              const py::object& force, const py::object& executable, const py::object& threads) {
  api::EngineChoice e;
  e.kind = api::parse_engine(text(kind, "engine"));
  e.workers = maybe_count(workers, "workers");
  e.listen = text(listen, "listen");
  e.processes = flag(processes, "processes") || !e.listen.empty();
  e.address = text(address, "address");
  e.port = maybe_count(port, "port");
  e.key_file = text(key_file, "key_file");
  e.peer_timeout = maybe_real(peer_timeout, "peer_timeout");
  e.timeout = maybe_real(timeout, "timeout");
  e.force = flag(force, "force");
  e.executable = text(executable, "executable");
  e.threads = maybe_count(threads, "threads");
  e.check();
  return e;
}

/// A run's document and, when kept, its trace and its intervals as columns.
py::tuple with_trace(py::object doc, const std::vector<api::TraceEvent<Rational>>& trace,
                     const std::shared_ptr<const api::Topology>& on, bool traced, const std::string& title = "") {
  if (!traced) return py::make_tuple(std::move(doc), py::none(), py::none());
  return py::make_tuple(std::move(doc), trace_columns(trace), interval_columns(trace, on, title));
}

py::tuple run_star(const std::string& topology, const std::string& collective, const py::object& op,
                   const py::object& values, const py::object& seed, const api::EngineChoice& engine,
                   const py::object& trace, const py::object& progress) {
  auto request = api::StarRequest::on(topology, api::parse_collective(collective));
  // Braces evaluate left to right: op, values, then seed, each checked in that order.
  request.values = {api::parse_op(text(op, "op")), api::parse_values(text(values, "values")), whole(seed, "seed")};
  request.engine = engine;
  request.trace = flag(trace, "trace");
  const auto result = run_interruptibly<api::StarResult>([request] { return api::run_star(request); }, progress);
  py::object page = py::none();
  if (request.trace && request.n >= 2 && request.n <= api::MAX_PAGE_N) page = py::str(api::star_page(result).html);
  const auto run = with_trace(document([&] { return result.to_json(); }), result.run.trace, result.graph, request.trace,
                              result.run_title());
  return py::make_tuple(run[0], run[1], run[2], page);
}

py::object star_table2(const py::object& max_n_value, const api::EngineChoice& engine, const py::object& op,
                       const py::object& values, const py::object& seed_value, const py::object& progress) {
  const auto max_n = static_cast<int>(std::min<std::uint64_t>(whole(max_n_value, "max_n"), std::numeric_limits<int>::max()));
  const auto seed = whole(seed_value, "seed");
  const auto o = api::parse_op(text(op, "op"));
  const auto v = api::parse_values(text(values, "values"));
  const auto table = run_interruptibly<api::Table2Result>(
      [=] { return api::star_table2(max_n, engine, {o, v, seed}); }, progress);
  return document([&] { return table.to_json(); });
}

}  // namespace

void bind_topology_and_star(py::module_& m) {
  py::class_<api::TopologyRef>(m, "TopologyRef")
      .def(py::init<std::string>(), arg("spec"))
      .def_static("from_edges", &topology_from_edges, arg("name"), arg("nodes"), arg("edges"), arg("directed"))
      .def_property_readonly("spec", &api::TopologyRef::spec)
      .def_property_readonly("from_spec", &api::TopologyRef::from_spec)
      .def_property_readonly("num_nodes", [](const api::TopologyRef& t) { return t.topology()->num_nodes(); })
      .def("check", [](const api::TopologyRef& t) { (void)t.topology(); })
      .def("node_names", &node_names)
      .def("edges", &topology_edges)
      .def("directed", [](const api::TopologyRef& t) { return t.platform()->directed(); })
      .def("links_both_ways",
           [](const api::TopologyRef& t) {
             return run_interruptibly<bool>([t] { return api::links_both_ways(t); }, py::none());
           })
      .def("same_as", &api::same_topology, arg("other"), py::call_guard<py::gil_scoped_release>())
      .def("structure_hash", &api::topology_hash, py::call_guard<py::gil_scoped_release>())
      .def("info",
           [](const api::TopologyRef& t, const py::object& progress) {
             const auto info = run_interruptibly<api::TopologyInfo>([t] { return api::topology_info(t); }, progress);
             return document([&] { return info.to_json(); });
           },
           arg("progress") = py::none())
      .def("export", [](const api::TopologyRef& t, const std::string& format) {
        const auto e = api::export_topology(t, std::string_view(format));
        return py::make_tuple(e.text, e.verified, e.problem);
      })
      .def("layout",
           [](const api::TopologyRef& t, const std::string& layout) {
             const auto l = run_interruptibly<api::TopologyLayout>([t, layout] { return api::topology_layout(t, layout); },
                                                                   py::none());
             py::list nodes;
             for (const auto& n : l.nodes) nodes.append(py::make_tuple(n.name, n.x, n.y, n.router));
             py::list links;
             for (const auto& k : l.links) {
               py::list path;
               for (const auto& p : k.path) path.append(py::make_tuple(p.x, p.y));
               links.append(py::make_tuple(k.u, k.v, k.colour, path));
             }
             py::dict out;
             out["title"] = l.title;
             out["width"] = l.width;
             out["height"] = l.height;
             out["directed"] = l.directed;
             out["nodes"] = nodes;
             out["links"] = links;
             out["legend"] = l.legend;
             return out;
           })
      .def(
          "svg",
          [](const api::TopologyRef& t, const std::string& layout, const std::optional<std::string>& loads_path,
             const std::optional<std::string>& loads_csv, const std::optional<std::string>& load_by) {
            // A link report as a file, or as the CSV text of a DataFrame (result.link_report).
            std::optional<std::vector<api::LinkReportLine>> lines;
            if (loads_path) lines = api::read_link_report(*loads_path, "link_loads");
            if (loads_csv) lines = api::parse_link_report(*loads_csv, "link_loads", "a DataFrame");
            const auto loads = api::drawn_loads(std::move(lines), load_by, loads_path.value_or("a DataFrame"));
            return run_interruptibly<api::TopologyDrawing>([t, layout, loads] { return api::draw_topology(t, layout, loads); },
                                                           py::none())
                .svg;
          },
          arg("layout"), arg("loads_path"), arg("loads_csv"), arg("load_by"));
  m.def("require_gantt_rows", py::overload_cast<std::uint64_t, const std::string&>(&api::require_gantt_rows),
        arg("nodes"), arg("name"));
  m.attr("LINK_PALETTE") = std::vector<std::string>(api::LINK_PALETTE.begin(), api::LINK_PALETTE.end());
  m.def("table1", [] { return document([] { return api::topology_table1().to_json(); }); });
  m.def(
      "keygen",
      [](const py::object& path) {
        try {
          api::write_key_file(file_path(path, "path"));
        } catch (const InputError& e) {
          // The api names its setting key_file, which is keygen's path.
          if (e.setting() == nullptr) throw;
          throw UsageError(Setting{"path", e.setting()->value}, e.reason());
        }
      },
      arg("path"));
  m.def(
      "worker",
      [](const std::string& join, const std::string& key_file, std::optional<unsigned> index, const std::string& address,
         double timeout, double peer_timeout, const py::object& progress) {
        const api::JoinRequest request{join, key_file, index, address, timeout, peer_timeout};
        return run_interruptibly<int>([request] { return api::join_run(request); }, progress);
      },
      arg("join"), arg("key_file"), arg("index"), arg("address"), arg("timeout"), arg("peer_timeout"), arg("progress"));
  m.def("schedule_page", [](const api::LoadedSchedule& l) {
    const auto page = api::schedule_page(l);
    return py::make_tuple(page.html, page.verified, page.steps);
  });

  py::class_<api::EngineChoice>(m, "EngineChoice");
  m.def("engine", &make_engine, arg("kind"), arg("workers"), arg("processes"), arg("address"), arg("port"),
        arg("listen"), arg("key_file"), arg("peer_timeout"), arg("timeout"), arg("force"), arg("executable"), arg("threads"));
  m.def("run_star", &run_star, arg("topology"), arg("collective"), arg("op"), arg("values"), arg("seed"),
        arg("engine"), arg("trace"), arg("progress"));
  m.def("star_table2", &star_table2, arg("max_n"), arg("engine"), arg("op"), arg("values"), arg("seed"),
        arg("progress"));
  m.def(
      "broadcast_beside",
      [](const std::string& topology, const py::object& schedule, const api::EngineChoice& engine,
         const py::object& progress) {
        auto request = api::StarRequest::on(topology, api::Collective::ALLGATHER);
        request.engine = engine;
        const auto file = file_path(schedule, "schedule");
        const auto r = run_interruptibly<api::BroadcastBeside>(
            [request, file] { return api::broadcast_beside_schedule(request, file); }, progress);
        return document([&] { return r.to_json(); });
      },
      arg("topology"), arg("schedule"), arg("engine"), arg("progress"));
}

namespace {

py::dict schedule_summary(const api::LoadedSchedule& l) {
  const auto& s = *l.schedule;
  py::dict d;
  d["collective"] = to_string(s.rules().kind());
  d["topology"] = l.spec;
  d["nodes"] = s.nodes();
  d["chunks"] = s.rules().chunks();
  d["scratch"] = s.scratch();
  d["root"] = s.rules().root();
  d["form"] = s.form() == algorithms::schedule::Form::STEPPED ? "steps" : "programs";
  d["steps"] = s.steps();
  d["transfers"] = s.transfers();
  d["chunks_moved"] = s.chunks_moved();
  d["format"] = l.format;
  d["source"] = l.source;
  return d;
}

py::tuple run_schedule(const api::LoadedSchedule& l, const py::object& ports, const std::string& duplex,
                       const std::optional<std::string>& checking, const std::string& costs,
                       const std::string& chunk_size, const py::object& op, const py::object& values,
                       const py::object& seed, const api::EngineChoice& engine, const py::object& trace_value,
                       const py::object& link_report, const py::object& progress) {
  const bool trace = flag(trace_value, "trace");
  api::ScheduleRunRequest request;
  request.schedule = l;
  request.ports = api::port_model(port_count(ports), duplex);
  if (checking) request.checking = api::parse_checking(*checking);
  request.costs = api::parse_run_costs(costs);
  request.chunk_size = api::parse_number(chunk_size, "chunk_size", 0, /*strictly=*/true);
  // Braces evaluate left to right: op, values, then seed, each checked in that order.
  request.values = {api::parse_op(text(op, "op")), api::parse_values(text(values, "values")), whole(seed, "seed")};
  request.engine = engine;
  request.trace = trace;
  request.link_report = flag(link_report, "link_report");
  const auto result =
      run_interruptibly<api::ScheduleRunResult>([request] { return api::run_schedule(request); }, progress);
  return with_trace(document([&] { return result.to_json(); }), result.run.run.trace, request.schedule.topology,
                    trace);
}

/// A node of a transfer as a schedule names it: a name (str) or an index.
api::ScheduleDraft::Node draft_node(const py::handle& value, const char* keyword) {
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  return whole(value, keyword);
}

/// Schedule.send's arguments as a transfer of the api's draft, each converted with its keyword named.
api::ScheduleDraft::Transfer draft_transfer(const py::object& step, const py::object& src, const py::object& dst,
                                            const py::object& chunks, const py::object& op) {
  api::ScheduleDraft::Transfer t;
  t.step = whole(step, "step");
  t.from = draft_node(src, "src");
  t.to = draft_node(dst, "dst");
  t.op = api::parse_item_op(text(op, "op"));
  const auto bad_chunks = [&] {
    return UsageError(Setting{"chunks", py::repr(chunks)},
                      "expected a list of chunk numbers, or of (src_chunk, dst_chunk) pairs, or of (src_chunk, "
                      "dst_chunk, 'copy'|'reduce') triples");
  };
  if (py::isinstance<py::str>(chunks) || py::isinstance<py::bytes>(chunks) || !py::hasattr(chunks, "__iter__")) {
    throw bad_chunks();
  }
  for (const auto& item : chunks) {
    if (py::isinstance<py::tuple>(item) || py::isinstance<py::list>(item)) {
      const auto seq = py::reinterpret_borrow<py::sequence>(item);
      if (seq.size() != 2 && seq.size() != 3) throw bad_chunks();
      std::optional<api::ItemOp> item_op;
      if (seq.size() == 3) item_op = api::parse_item_op(text(seq[2], "chunks"), "chunks");
      t.items.push_back({whole(seq[0], "chunks"), whole(seq[1], "chunks"), item_op});
    } else {
      const auto c = whole(item, "chunks");
      t.items.push_back({c, c, std::nullopt});
    }
  }
  return t;
}

}  // namespace

void bind_schedules(py::module_& m) {
  m.def(
      "default_chunks",
      [](const std::string& collective, const api::TopologyRef& topology) {
        return api::default_chunks(api::parse_collective(collective), topology.topology()->num_nodes());
      },
      arg("collective"), arg("topology"));
  py::class_<api::ScheduleDraft::Transfer>(m, "DraftTransfer");
  m.def("draft_transfer", &draft_transfer, arg("step"), arg("src"), arg("dst"), arg("chunks"), arg("op"));
  m.def(
      "build_schedule",
      [](const std::string& collective, const api::TopologyRef& topology, const py::object& chunks,
         const py::object& scratch, const py::object& root, const std::vector<api::ScheduleDraft::Transfer>& transfers) {
        api::ScheduleDraft d;
        d.collective = api::parse_collective(collective);
        d.topology = topology;
        d.chunks = whole(chunks, "chunks");
        d.scratch = whole(scratch, "scratch");
        if (!root.is_none()) d.root = draft_node(root, "root");
        d.transfers = transfers;
        return run_interruptibly<api::LoadedSchedule>([d] { return api::build_schedule(d, "schedule built in Python"); },
                                                      py::none());
      },
      arg("collective"), arg("topology"), arg("chunks"), arg("scratch"), arg("root"), arg("transfers"));
  py::class_<api::LoadedSchedule>(m, "LoadedSchedule")
      .def_static("load",
                  [](const std::string& path, const std::optional<api::TopologyRef>& topology) {
                    return run_interruptibly<api::LoadedSchedule>([=] { return api::load_schedule(path, topology); },
                                                                  py::none());
                  },
                  arg("path"), arg("topology") = std::nullopt)
      .def_static("parse",
                  [](const std::string& text, const std::string& where, const std::optional<api::TopologyRef>& topology) {
                    return run_interruptibly<api::LoadedSchedule>(
                        [=] { return api::parse_schedule(text, where, topology); }, py::none());
                  },
                  arg("text"), arg("where"), arg("topology") = std::nullopt)
      .def_static("export",
                  [](const std::string& algorithm, const api::TopologyRef& topology, const std::optional<std::string>& collective,
                     const std::string& root, const py::object& ports, const std::string& duplex) {
                    api::ExportRequest request;
                    request.algorithm = algorithm;
                    request.topology = topology;
                    if (collective) request.collective = api::parse_collective(*collective);
                    request.root = root;
                    request.ports = api::port_model(port_count(ports), duplex);
                    return run_interruptibly<api::LoadedSchedule>([request] { return api::export_schedule(request); },
                                                                  py::none());
                  },
                  arg("algorithm"), arg("topology"), arg("collective"), arg("root"), arg("ports"), arg("duplex"))
      .def("summary", &schedule_summary)
      .def("topology_ref", &api::LoadedSchedule::topology_ref)
      .def("files",
           [](const api::LoadedSchedule& l, const std::string& path, const std::string& comment) {
             std::vector<std::pair<std::string, std::string>> out;
             const auto files = run_interruptibly<std::vector<api::OutputFile>>(
                 [=] { return api::schedule_files(l, path, comment); }, py::none());
             for (const auto& f : files) out.emplace_back(f.path, f.text);
             return out;
           },
           arg("path"), arg("comment") = "")
      .def("to_json", [](const api::LoadedSchedule& l, const std::string& comment,
                         const std::string& output_path) {
             return large_text(
                 run_interruptibly<std::string>([=] { return api::schedule_json(l, comment, output_path); }, py::none()));
           },
           arg("comment") = "", arg("output_path") = "")
      .def("to_msccl",
           [](const api::LoadedSchedule& l, const py::object& name, const py::object& protocol) {
             const api::MscclSettings settings{text(name, "name"), text(protocol, "protocol")};
             return large_text(run_interruptibly<std::string>([=] { return api::schedule_msccl(l, settings); }, py::none()));
           },
           arg("name"), arg("protocol"))
      .def("run", &run_schedule, arg("ports"), arg("duplex"), arg("checking"), arg("costs"), arg("chunk_size"),
           arg("op"), arg("values"), arg("seed"), arg("engine"), arg("trace"), arg("link_report"), arg("progress"));
}

}  // namespace starnet::python

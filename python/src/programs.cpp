// Node programs written in Python (starnet.NodeProgram, starnet.emulate; docs/python.md, "Your own
// algorithm"): one C++ NodeProgram (api/emulate.hpp) that calls each node's Python object, and the node's
// context as Python sees it. The run itself is api::emulate.
#include "calls.hpp"
#include "convert.hpp"

#include <starnet/api/emulate.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/viz.hpp>
#include <starnet/api/core.hpp>

#include <pybind11/stl.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starnet::python {
namespace {

using py::arg;

/// The Python objects sent as payloads: a message carries its object's index here as one 8-byte
/// word, so that any object travels by reference (a trace counts 8 bytes, as for the built-ins'
/// words) while the model charges the size the sender gave. A run without a trace lets a
/// message's object go once its receiver has reacted to it and reuses its index, so that memory
/// does not grow with the steps (a ping-pong holds one object); a traced run keeps every object
/// for its page. Used with the GIL held.
struct Payloads {
  std::vector<py::object> objects;
  std::vector<std::uint64_t> free;  ///< indices let go, to reuse
  bool keep = true;

  [[nodiscard]] static std::uint64_t index_of(std::string_view word) {
    std::uint64_t index = 0;
    std::memcpy(&index, word.data(), std::min(sizeof index, word.size()));
    return index;
  }
  [[nodiscard]] std::uint64_t add(const py::object& payload) {
    if (free.empty()) {
      objects.push_back(payload);
      return objects.size() - 1;
    }
    const auto index = free.back();
    free.pop_back();
    objects[index] = payload;
    return index;
  }
  void let_go(std::string_view word) {
    if (keep) return;
    const auto index = index_of(word);
    objects.at(index) = py::object();
    free.push_back(index);
  }
  ~Payloads() {
    const py::gil_scoped_acquire gil;
    objects.clear();
  }
};

/// A message that arrived, as Python sees it (ctx.received).
struct Message {
  topology::NodeId source = 0;
  topology::Port port = 0;  ///< the sender's port it left through, as in the C++ Context
  topology::Port arrival_port = 0;  ///< the receiver's port it came in on: reply on it
  std::uint64_t tag = 0;
  py::object payload;
  py::object size;
};

/// A message's arrival port, None on a one-way link (Topology::NO_PORT).
py::object arrival_port(const Message& m) {
  return m.arrival_port == topology::Topology::NO_PORT ? py::none() : py::object(py::int_(m.arrival_port));
}

/// Something the node started that ended (ctx.completed).
struct Done {
  std::string kind;  ///< "send", "compute" or "timer"
  std::uint64_t tag = 0;
  topology::NodeId peer = 0;
};

py::object python_fraction(const Rational& r) {
  static const auto fraction = py::module_::import("fractions").attr("Fraction");
  return r.is_small() ? fraction(r.num(), r.den()) : fraction(py::str(r.to_string()));
}

py::object python_number(const Rational& r) {
  if (r.is_integer() && r.is_small()) return py::int_(r.num());
  return python_fraction(r);
}

/// The reacting node's context; valid only inside its react().
class NodeContext {
 public:
  explicit NodeContext(std::shared_ptr<Payloads> payloads) : payloads_(std::move(payloads)) {}

  api::Context& get() const {
    if (ctx_ == nullptr) throw UsageError("a node's context is valid only during its react()");
    return *ctx_;
  }
  void enter(api::Context& ctx) {
    ctx_ = &ctx;
    violation_.reset();
  }
  void leave() { ctx_ = nullptr; }
  [[nodiscard]] const std::optional<ModelViolation>& violation() const { return violation_; }

  [[nodiscard]] std::string name() const { return get().topology().node_name(get().node()); }
  [[nodiscard]] topology::Port degree() const { return get().topology().degree(get().node()); }
  [[nodiscard]] std::vector<topology::NodeId> neighbours() const {
    const auto& c = get();
    std::vector<topology::NodeId> out(c.topology().degree(c.node()));
    for (topology::Port p = 0; p < out.size(); ++p) out[p] = c.topology().neighbor(c.node(), p);
    return out;
  }
  [[nodiscard]] py::list received() const {
    py::list out;
    for (const auto& d : get().received()) {
      out.append(Message{d.from, d.port, d.arrival_port, d.tag, payloads_->objects.at(Payloads::index_of(d.payload)),
                         python_number(d.size)});
    }
    return out;
  }
  /// The node's own generator (random.Random), seeded from the run's seed and the node
  /// (Context::seed()), made at its first use: the same draws under every engine.
  [[nodiscard]] py::object random() {
    const auto& c = get();
    const py::int_ node(c.node());
    if (!randoms_.contains(node)) {
      static const auto make = py::module_::import("random").attr("Random");
      randoms_[node] = make(py::int_(c.seed()));
    }
    return randoms_[node];
  }
  [[nodiscard]] std::vector<Done> completed() const {
    static constexpr const char* KINDS[] = {"send", "compute", "timer"};
    std::vector<Done> out;
    for (const auto& c : get().completed()) out.push_back({KINDS[static_cast<int>(c.kind)], c.tag, c.peer});
    return out;
  }

  void send(const py::object& port, const py::object& payload, const py::object& size, const py::object& tag) {
    const auto p = whole(port, "port");
    if (p >= degree()) {
      throw UsageError(Setting{"port", std::to_string(p)},
                       fmt::format("node {} has ports 0..{}", name(), static_cast<long>(degree()) - 1));
    }
    guarded([&] { get().send(static_cast<topology::Port>(p), carry(payload), exact(size, "size", true), whole(tag, "tag")); });
  }
  void send_to(const py::object& node, const py::object& payload, const py::object& size, const py::object& tag) {
    const auto v = whole(node, "node");
    if (v >= get().topology().num_nodes()) {
      throw UsageError(Setting{"node", std::to_string(v)},
                       fmt::format("the topology has nodes 0..{}", get().topology().num_nodes() - 1));
    }
    guarded([&] { get().send_to(static_cast<topology::NodeId>(v), carry(payload), exact(size, "size", true), whole(tag, "tag")); });
  }
  void compute(const py::object& work, const py::object& tag) {
    guarded([&] { get().compute(exact(work, "work", false), whole(tag, "tag")); });
  }
  void sleep(const py::object& delay, const py::object& tag) {
    guarded([&] { get().sleep(exact(delay, "delay", false), whole(tag, "tag")); });
  }
  void accept(const py::object& source) {
    const auto v = whole(source, "source");
    guarded([&] { get().accept(static_cast<topology::NodeId>(v)); });
  }

 private:
  std::string carry(const py::object& payload) {
    const std::uint64_t index = payloads_->add(payload);
    std::string word(sizeof index, '\0');
    std::memcpy(word.data(), &index, sizeof index);
    return word;
  }
  /// A violation the engine finds at once (a send along no link, say) is kept, so that the run
  /// ends with it as its problem even when the program catches what Python raises.
  template <class F>
  void guarded(F&& f) {
    try {
      f();
    } catch (const ModelViolation& e) {
      if (!violation_) violation_ = e;
      throw;
    }
  }

  api::Context* ctx_ = nullptr;
  std::shared_ptr<Payloads> payloads_;
  py::dict randoms_;  // node id → its random.Random
  std::optional<ModelViolation> violation_;
};

/// The Python side of a run: the node objects and the payloads sent. The engine's threads hold it
/// through a shared_ptr, whose copies touch no Python reference count; the caller keeps the last
/// reference, so that it is let go with the GIL held.
struct PythonNodes {
  py::list nodes;
  std::shared_ptr<Payloads> payloads = std::make_shared<Payloads>();
  /// Traced runs of a class with show(): each node's show() after each of its reactions, for the page.
  bool record_views = false;
  std::vector<api::NodeView> views;
  ~PythonNodes() {
    const py::gil_scoped_acquire gil;
    nodes = py::list();
  }
};

/// Keeps the calling thread's Python thread state for as long as it lives, so that each reaction's
/// gil_scoped_acquire finds it rather than making and deleting one (most of a reaction's cost
/// without it; docs/python.md, "Performance").
class ThreadStateKept {
 public:
  ThreadStateKept() {
    py::gil_scoped_acquire gil;
    gil.inc_ref();
  }
  ~ThreadStateKept() {
    py::gil_scoped_acquire gil;
    gil.dec_ref();
  }
  ThreadStateKept(const ThreadStateKept&) = delete;
  ThreadStateKept& operator=(const ThreadStateKept&) = delete;
};

/// Gives a thread of the zmq engine a thread state of its own from its first reaction until it
/// ends (the engine joins its threads inside the run, while nothing holds the GIL): each reaction
/// would otherwise make and delete one. The run's own thread has one already (ThreadStateKept).
void keep_thread_state() {
  thread_local std::optional<ThreadStateKept> kept;
  if (!kept && PyGILState_GetThisThreadState() == nullptr) kept.emplace();
}

/// The C++ program of a Python run: node v's reaction is nodes[v].react(ctx), with the GIL held.
class PythonProgram final : public api::NodeProgram {
 public:
  explicit PythonProgram(std::shared_ptr<const PythonNodes> nodes)
      : nodes_(std::move(nodes)), context_(py::cast(NodeContext(nodes_->payloads))) {}
  ~PythonProgram() override {
    const py::gil_scoped_acquire gil;
    context_ = py::object();
  }
  PythonProgram(const PythonProgram&) = delete;
  PythonProgram& operator=(const PythonProgram&) = delete;

  void react(api::Context& ctx) override {
    keep_thread_state();
    const py::gil_scoped_acquire gil;
    auto& node_context = context_.cast<NodeContext&>();
    node_context.enter(ctx);
    const char* method = "react";
    try {
      const auto node = nodes_->nodes[ctx.node()];
      node.attr("react")(context_);
      method = "show";
      if (nodes_->record_views) views().push_back({ctx.step(), ctx.node(), py::str(node.attr("show")())});
    } catch (py::error_already_set& e) {
      node_context.leave();
      if (node_context.violation()) throw *node_context.violation();
      if (py::hasattr(e.value(), "add_note")) {
        e.value().attr("add_note")(fmt::format("in {}() of node {} ({}) at step {}", method, ctx.node(),
                                               ctx.topology().node_name(ctx.node()), ctx.step()));
      }
      throw;
    }
    node_context.leave();
    for (const auto& d : ctx.received()) nodes_->payloads->let_go(d.payload);
  }

 private:
  /// The views are written with the GIL held, which serialises the engine's threads.
  std::vector<api::NodeView>& views() { return const_cast<PythonNodes&>(*nodes_).views; }

  std::shared_ptr<const PythonNodes> nodes_;
  py::object context_;
};

/// `delays=` a callable (source, target, payload) → the message's transit time (a number; a
/// Fraction exact, a float as its decimal repr, as every exact keyword reads them).
class PythonDelays final : public emulator::DelayLaw {
 public:
  PythonDelays(py::object law, std::shared_ptr<Payloads> payloads)
      : law_(std::move(law)), payloads_(std::move(payloads)) {}
  ~PythonDelays() override {
    const py::gil_scoped_acquire gil;  // the last copy of a request may go on an engine's thread
    law_ = py::object();
  }
  PythonDelays(const PythonDelays&) = delete;
  PythonDelays& operator=(const PythonDelays&) = delete;
  [[nodiscard]] Rational delay(const emulator::Transit& m) const override {
    const py::gil_scoped_acquire gil;
    try {
      const py::object d = law_(m.from, m.to, payloads_->objects.at(Payloads::index_of(m.payload)));
      return exact(d, "delays", false);
    } catch (py::error_already_set& e) {
      if (py::hasattr(e.value(), "add_note")) {
        e.value().attr("add_note")(fmt::format("in delays({}, {}, payload)", m.from, m.to));
      }
      throw;
    }
  }

 private:
  py::object law_;
  std::shared_ptr<Payloads> payloads_;
};

/// A message's text on the page: repr() of the object sent.
std::string payload_repr(const Payloads& payloads, std::string_view payload) {
  return py::repr(payloads.objects.at(Payloads::index_of(payload)));
}

/// The exception a node's program raised that ended @p result's run, as the Python object raised
/// (its traceback kept), or None.
py::object raised(const api::EmulateResult& result) {
  if (!result.error) return py::none();
  try {
    std::rethrow_exception(result.error);
  } catch (py::error_already_set& e) {
    py::object value = e.value();
    if (e.trace()) py::setattr(value, "__traceback__", e.trace());
    return value;
  }
}

/// starnet.emulate's run of @p given, the keywords of api::emulate_settings() the caller gave, with
/// the node objects @p make_nodes makes for the topology's node count: the result's document, its
/// trace's columns and intervals and its page (or None), and the topology's handle.
py::tuple emulate(const py::dict& given, const py::object& make_nodes, const py::object& progress,
                  const py::object& delays) {
  const auto& table = api::emulate_settings();
  api::EmulateRequest request = table.parse(setting_values(table.rows(), given), api::EmulateRequest("", nullptr));
  const bool trace = request.trace;
  const auto count = request.topology.topology()->num_nodes();
  py::list nodes = make_nodes(count);
  if (py::len(nodes) != count) {
    throw UsageError(Setting{"program", ""}, fmt::format("expected one object per node ({})", count));
  }
  auto python = std::make_shared<PythonNodes>();
  python->record_views = trace && py::len(nodes) > 0 && py::hasattr(nodes[0], "show");
  python->payloads->keep = trace;
  python->nodes = std::move(nodes);
  if (!delays.is_none()) request.delays = std::make_shared<PythonDelays>(delays, python->payloads);
  std::shared_ptr<const PythonNodes> shared = python;
  request.programs = [shared](api::NodeRange) -> std::unique_ptr<api::NodeProgram> {
    const py::gil_scoped_acquire gil;
    return std::make_unique<PythonProgram>(shared);
  };
  auto result = run_interruptibly<api::EmulateResult>(
      [request] {
        const ThreadStateKept kept;  // the local engine reacts on this thread
        return api::emulate(request);
      },
      progress);
  const auto doc = document([&] { return result.to_json(); });
  const py::object topology = py::cast(request.topology);
  const py::object error = raised(result);
  if (!trace) return py::make_tuple(doc, py::none(), py::none(), py::none(), topology, error);
  bytes_from_sizes(result.run.trace);
  auto columns = trace_columns(result.run.trace);
  auto intervals = interval_columns(result.run.trace, result.graph, "", [python](std::string_view p) { return payload_repr(*python->payloads, p); });
  // The page is drawn when asked for, with the problem the caller's check may have found since.
  result.run.programs.clear();
  result.error = nullptr;  // its Python object is held by the caller, with the GIL
  auto kept = std::make_shared<const api::EmulateResult>(std::move(result));
  const py::cpp_function page([kept, python](const std::string& problem) {
    api::ProgramPageNotes notes;
    notes.payload_text = [&python](std::string_view payload) { return payload_repr(*python->payloads, payload); };
    notes.views = python->views;
    notes.problem = problem;
    const auto drawn = api::program_page(*kept, notes);
    return py::make_tuple(drawn.html, drawn.verified, drawn.steps);
  });
  return py::make_tuple(doc, columns, intervals, page, topology, error);
}

}  // namespace

void bind_programs(py::module_& m) {
  (void)python_fraction(0);  // its static made at import, not inside a call (convert.cpp, register_errors)
  py::class_<Message>(m, "Message",
                      "A message that arrived: source, port (the sender's), arrival_port (the receiver's: reply on "
                      "it), tag, payload, size.")
      .def_readonly("source", &Message::source)
      .def_readonly("port", &Message::port)
      .def_property_readonly("arrival_port", [](const Message& x) { return arrival_port(x); })
      .def_readonly("tag", &Message::tag)
      .def_readonly("payload", &Message::payload)
      .def_readonly("size", &Message::size)
      .def("__repr__", [](const Message& x) {
        return fmt::format("Message(source={}, port={}, arrival_port={}, tag={}, payload={}, size={})", x.source,
                           x.port, std::string(py::repr(arrival_port(x))), x.tag,
                           std::string(py::repr(x.payload)), std::string(py::repr(x.size)));
      });
  py::class_<Done>(m, "Completion", "Something the node started that ended: kind (send, compute, timer), tag, peer.")
      .def_readonly("kind", &Done::kind)
      .def_readonly("tag", &Done::tag)
      .def_readonly("peer", &Done::peer)
      .def("__repr__", [](const Done& d) { return fmt::format("Completion(kind='{}', tag={}, peer={})", d.kind, d.tag, d.peer); });
  py::class_<NodeContext>(m, "Context", "What a node sees and may do during react() (docs/python.md).")
      .def_property_readonly("node", [](const NodeContext& c) { return c.get().node(); })
      .def_property_readonly("name", &NodeContext::name)
      .def_property_readonly("step", [](const NodeContext& c) { return c.get().step(); })
      .def_property_readonly("time", [](const NodeContext& c) { return python_fraction(c.get().time()); })
      .def_property_readonly("starting", [](const NodeContext& c) { return c.get().starting(); })
      .def_property_readonly("degree", &NodeContext::degree)
      .def_property_readonly("neighbours", &NodeContext::neighbours)
      .def_property_readonly("received", &NodeContext::received)
      .def_property_readonly("completed", &NodeContext::completed)
      .def_property_readonly("free_ports", [](const NodeContext& c) { return c.get().free_send_ports(); })
      .def_property_readonly("random", &NodeContext::random)
      .def("send", &NodeContext::send, arg("port"), arg("payload"), arg("size") = 1, arg("tag") = 0)
      .def("send_to", &NodeContext::send_to, arg("node"), arg("payload"), arg("size") = 1, arg("tag") = 0)
      .def("compute", &NodeContext::compute, arg("work"), arg("tag") = 0)
      .def("sleep", &NodeContext::sleep, arg("delay"), arg("tag") = 0)
      .def("accept", &NodeContext::accept, arg("source"));
  m.def("emulate", &emulate, arg("given"), arg("make_nodes"), arg("progress"), arg("delays") = py::none());
  m.def("emulate_settings", [] { return setting_rows(api::emulate_settings().rows()); });
}

}  // namespace starnet::python

#include <starnet/api/emulate.hpp>


#include <starnet/api/delays.hpp>

#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/api/json.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/zmq_engine.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

namespace starnet::api {
namespace {

/// " (node N's id)" where a node's name is not its id, so that a problem names both.
std::string id_note(const topology::Topology& g, topology::NodeId v) {
  const auto name = g.node_name(v);
  return name == std::to_string(v) ? std::string() : fmt::format(" (node {} has id {})", name, v);
}

/// A node reacting beyond the run's max_steps: the run ends there, not verified.
class StepLimitReached final : public Error {
 public:
  using Error::Error;
};

/// Where a run of a caller's programs went wrong as the programs saw it: the node that reacted
/// past max_steps or whose program threw, at which step, and what it threw. The first fault wins
/// (the zmq engine's worker threads react at once).
class Fault {
 public:
  void note(topology::NodeId node, std::uint64_t step, std::exception_ptr error) {
    const std::scoped_lock lock(mutex_);
    if (node_) return;
    node_ = node;
    step_ = step;
    error_ = std::move(error);
  }
  [[nodiscard]] std::optional<topology::NodeId> node() const { return node_; }
  [[nodiscard]] std::uint64_t step() const { return step_; }
  [[nodiscard]] std::exception_ptr error() const { return error_; }

 private:
  std::mutex mutex_;
  std::optional<topology::NodeId> node_;
  std::uint64_t step_ = 0;
  std::exception_ptr error_;
};

/// The caller's program as the run sees it: stopped at its first reaction beyond max_steps (every
/// step of a run is some node's reaction, so none passes unseen), and the node and step of an
/// exception it throws noted, so that the failed run names them. A violation the engine finds
/// during a reaction is the engine's, not the program's.
class Watched final : public emulator::NodeProgram {
 public:
  Watched(std::unique_ptr<emulator::NodeProgram> inner, std::optional<std::uint64_t> limit, Fault& fault)
      : inner_(std::move(inner)), limit_(limit), fault_(&fault) {}
  void react(emulator::Context& ctx) override {
    if (limit_ && ctx.step() > *limit_) {
      fault_->note(ctx.node(), ctx.step(), nullptr);
      throw StepLimitReached(fmt::format("the run went past max_steps = {}: node {} reacts at step {}{}", *limit_,
                                         ctx.topology().node_name(ctx.node()), ctx.step(),
                                         id_note(ctx.topology(), ctx.node())));
    }
    try {
      inner_->react(ctx);
    } catch (const ModelViolation&) {
      throw;
    } catch (const Interrupted&) {
      throw;
    } catch (...) {
      fault_->note(ctx.node(), ctx.step(), std::current_exception());
      throw;
    }
  }
  [[nodiscard]] bool reacts_to_sends() const override { return inner_->reacts_to_sends(); }
  [[nodiscard]] bool sends_only() const override { return inner_->sends_only(); }
  [[nodiscard]] std::string report() const override { return inner_->report(); }
  std::unique_ptr<emulator::NodeProgram> release() { return std::move(inner_); }

 private:
  std::unique_ptr<emulator::NodeProgram> inner_;
  std::optional<std::uint64_t> limit_;
  Fault* fault_;
};

/// The text of a program's own exception, for the result's problem.
std::string what_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

emulator::RunConfig config_of(const EmulateRequest& request) {
  emulator::RunConfig config;
  config.ports = port_model(request.ports, request.duplex);
  // Messages in transit make per-node programs wait their turn rather than break the model.
  config.checking = request.checking ? parse_checking(*request.checking)
                    : request.delays  ? emulator::Checking::ARBITRATED
                                      : emulator::Checking::STRICT;
  config.time = request.timed() ? emulator::TimeMode::TIMED : emulator::TimeMode::UNIT;
  config.trace = request.trace;
  if (request.asynchronous()) {
    auto a = std::make_shared<emulator::Asynchrony>();
    a->seed = request.seed;
    a->delays = request.delays;
    a->fifo = request.fifo;
    a->loss = request.loss;
    a->crashes = request.crashes;
    a->failed_links = request.failed_links;
    a->random_order = request.random_order;
    config.asynchrony = std::move(a);
  }
  return config;
}

/// Refuses a crash of a node or a failure of a link that @p g lacks.
void check_faults(const EmulateRequest& request, const topology::Topology& g) {
  const auto n = g.num_nodes();
  for (const auto& c : request.crashes) {
    if (c.node >= n) {
      throw UsageError(Setting{"crash", fmt::format("{}@{}", c.node, c.at.to_string())},
                       fmt::format("{} has nodes 0..{}", g.name(), n - 1));
    }
  }
  for (const auto& f : request.failed_links) {
    if (f.a >= n || f.b >= n ||
        (g.find_port(f.a, f.b) == topology::Topology::NO_PORT && g.find_port(f.b, f.a) == topology::Topology::NO_PORT)) {
      throw UsageError(Setting{"fail_links", fmt::format("{}-{}", f.a, f.b)},
                       fmt::format("expected a link of {} between nodes 0..{}", g.name(), n - 1));
    }
  }
}

/// The messages lost, and the crashes and failures of @p request that happened by the run's end.
void note_faults(EmulateResult& out, const EmulateRequest& request) {
  out.lost = out.run.counters.lost;
  for (const auto& c : request.crashes) {
    if (c.at <= out.makespan) out.crashed.push_back(c.node);
  }
  std::sort(out.crashed.begin(), out.crashed.end());
  out.crashed.erase(std::unique(out.crashed.begin(), out.crashed.end()), out.crashed.end());
  for (const auto& f : request.failed_links) {
    if (f.at <= out.makespan) out.failed_links.emplace_back(std::min(f.a, f.b), std::max(f.a, f.b));
  }
  std::sort(out.failed_links.begin(), out.failed_links.end());
  out.failed_links.erase(std::unique(out.failed_links.begin(), out.failed_links.end()), out.failed_links.end());
}

/// @p out as far as the run went: its counters, trace and programs (unwrapped), faults, whether
/// it finished or stopped.
void take_run(EmulateResult& out, emulator::RunResult<Rational> run, const EmulateRequest& request) {
  out.run = std::move(run);
  for (auto& p : out.run.programs) p = static_cast<Watched&>(*p).release();
  out.makespan = out.run.makespan;
  out.steps = out.run.counters.event_times == 0 ? 0 : out.run.counters.event_times - 1;
  out.messages = out.run.counters.messages;
  note_faults(out, request);
}

std::unique_ptr<emulator::Engine<Rational>> engine_of(const EngineChoice& choice) {
  choice.check(/*processes_allowed=*/false);
  if (choice.kind == EngineKind::LOCAL) return std::make_unique<emulator::LocalEngine<Rational>>();
  return std::make_unique<emulator::ZmqThreadsEngine<Rational>>(choice.worker_count(), choice.barrier_timeout());
}

}  // namespace

const SettingTable<EmulateRequest>& emulate_settings() {
  using R = EmulateRequest;
  using T = SettingType;
  // clang-format off
  static const SettingTable<R> table("emulate", {
      {{"topology", T::TOPOLOGY, std::nullopt, "A spec, a file, or a topology built in memory", {.required = true}},
       into(&R::topology)},
      {{"ports", T::WHOLE, "1", "Sends and receives a node may have going at once (k-port model)",
        {.min = 1, .max = MAX_PORTS}},
       into(&R::ports)},
      {{"duplex", T::CHOICE, "full", "full or half: may a port send and receive at once", {.choices = {"full", "half"}}},
       into(&R::duplex)},
      {{"checking", T::CHOICE, std::nullopt,
        "strict (a busy port is a violation) or arbitrated (transfers wait their turn); none: strict, or arbitrated "
        "with «delays»",
        {.choices = {"strict", "arbitrated"}}},
       into(&R::checking)},
      {{"costs", T::CHOICE, "unit",
        "unit (every transfer one step) or topology (timed: the links' costs and latencies, exact)",
        {.choices = {"unit", "topology"}}},
       into(&R::costs, parse_run_costs)},
      {{"latency", T::EXACT, std::nullopt, "α on every link: the run is timed (exact)", {.min = 0}}, into(&R::latency)},
      {{"bandwidth", T::EXACT, std::nullopt, "β on every link: the run is timed (exact)", {.min = 0, .strictly = true}},
       into(&R::bandwidth)},
      {{"trace", T::FLAG, "false", "Keep every event: the result's trace, Gantt chart and page"}, into(&R::trace)},
      {{"max_steps", T::WHOLE, std::to_string(DEFAULT_MAX_STEPS),
        "A node reacting beyond this step ends the run, not verified, its trace kept; None: no limit",
        {.unset = true}},
       into(&R::max_steps)},
      {{"engine", T::CHOICE, "local", "local, or zmq (on «workers» threads; the same result)",
        {.choices = {"local", "zmq"}}},
       by<R, std::string>([](R& r, const std::string& e) { r.engine.kind = parse_engine(e); })},
      {{"workers", T::WHOLE, std::nullopt, "Worker threads of the zmq engine (none: 2)", {.min = 1, .max = MAX_WORKERS}},
       by<R, std::optional<long>>([](R& r, std::optional<long> w) { r.engine.workers = w; })},
      {{"seed", T::WHOLE, "1",
        "The seed of every draw: transit times, loss, the order of reactions, and each node's own random numbers"},
       into(&R::seed)},
      {{"delays", T::TEXT, std::nullopt,
        "A transit time per message after its transfer, making the run asynchronous: constant:D, uniform:LO:HI, "
        "exponential:MEAN, or a Monte-Carlo law LAW:MEAN:CV (gamma:1:0.5); from Python also a callable (source, "
        "target, payload) returning a number"},
       into(&R::delays, parse_delay_law)},
      {{"channels", T::CHOICE, "fifo", "fifo (messages in transit keep their order) or nonfifo (they may overtake)",
        {.choices = {"fifo", "nonfifo"}}},
       by<R, std::string>([](R& r, const std::string& c) { r.fifo = c == "fifo"; })},
      {{"loss", T::REAL, "0", "The probability that a message is lost (it takes its transfer, then never arrives)",
        {.min = 0}},
       into(&R::loss)},
      {{"crash", T::TEXT, std::nullopt, "Nodes that stop at a time, NODE@TIME (ids; Python: a dict {node: time})",
        {.list = true}},
       into(&R::crashes, parse_crash)},
      {{"fail_links", T::TEXT, std::nullopt,
        "Links that fail in both directions, A-B or A-B@TIME (ids; Python: pairs or triples)", {.list = true}},
       into(&R::failed_links, parse_link_failure)},
      {{"order", T::CHOICE, "id", "The order of reactions at one time: id, or random (drawn from «seed»)",
        {.choices = {"id", "random"}}},
       by<R, std::string>([](R& r, const std::string& o) { r.random_order = o == "random"; })},
  }, [](const R& request, const GivenSettings&) {
    if (request.loss > 1) {
      throw UsageError(Setting{"loss", fmt::format("{}", request.loss)}, "expected a probability in [0, 1]");
    }
  });
  // clang-format on
  return table;
}

EmulateResult emulate(const EmulateRequest& request) {
  const StopScope scope;
  if (!request.programs) throw UsageError(Setting{"programs", ""}, "expected a node program");
  const auto config = config_of(request);
  algorithms::generic::check_alpha_beta(request.latency, request.bandwidth);
  const auto engine = engine_of(request.engine);
  const auto topology = request.topology.topology();
  check_faults(request, *topology);
  const emulator::UnitCosts<Rational> unit;
  const emulator::TopologyCosts<Rational> links(*topology, {request.latency, request.bandwidth});
  const auto& costs = request.timed() ? static_cast<const emulator::CostModel<Rational>&>(links)
                                      : static_cast<const emulator::CostModel<Rational>&>(unit);
  Fault fault;
  const emulator::ProgramFactory factory = [&request, &fault](emulator::NodeRange range) {
    return std::make_unique<Watched>(request.programs(range), request.max_steps, fault);
  };
  EmulateResult out;
  out.topology = topology->name();
  out.graph = topology;
  out.timed = request.timed();
  out.traced = request.trace;
  try {
    take_run(out, engine->run(*topology, costs, factory, config), request);
    out.verified = true;
    return out;
  } catch (const ModelViolation& e) {
    take_run(out, engine->take_stopped(), request);
    out.problem = e.what();
    if (e.node() && *e.node() < topology->num_nodes()) {
      out.problem += id_note(*topology, *e.node());
      out.failed_node = *e.node();
    }
  } catch (const StepLimitReached& e) {
    take_run(out, engine->take_stopped(), request);
    out.problem = e.what();
    out.failed_node = fault.node();
    out.failed_step = fault.step();
    return out;
  } catch (...) {
    if (!fault.error()) throw;  // the engine's own failure (a worker, a timeout, Ctrl-C)
    take_run(out, engine->take_stopped(), request);
    out.error = fault.error();
    out.failed_node = fault.node();
    out.problem = fmt::format("node {} raised an exception at step {}{}: {}", topology->node_name(*fault.node()),
                              fault.step(), id_note(*topology, *fault.node()), what_of(out.error));
    out.failed_step = fault.step();
    return out;
  }
  out.failed_step = out.steps;  // a violation or deadlock: found at the step the run stopped at
  return out;
}

nlohmann::json EmulateResult::to_json() const {
  nlohmann::json j = {{"topology", topology}, {"timed", timed}, {"steps", steps}};
  put_exact(j, "makespan", makespan);
  j["messages"] = messages;
  j["lost"] = lost;
  j["crashed"] = crashed;
  j["failed_links"] = failed_links;
  j["verified"] = verified;
  j["problem"] = problem.empty() ? nlohmann::json(nullptr) : nlohmann::json(problem);
  j["failed_node"] = failed_node ? nlohmann::json(*failed_node) : nlohmann::json(nullptr);
  j["failed_step"] = failed_step ? nlohmann::json(*failed_step) : nlohmann::json(nullptr);
  return j;
}

}  // namespace starnet::api

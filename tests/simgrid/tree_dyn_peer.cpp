// The SimGrid peer of the Monte-Carlo's performance goal (docs/montecarlo.md, "Against
// SimGrid"): starnet's own Tree-dyn node program (algorithms/nonclairvoyant) driven by SimGrid's
// S4U actors, one actor per processor on a star-zone platform (one split-duplex link per host,
// SimGrid's CM02 model: a lone transfer of b bytes over links of bandwidth B takes b/B), and the
// same runs on starnet's local engine and on its Monte-Carlo fast path (fast_path.hpp), one after
// the other on this thread. Run r draws its costs
// from a counter-based hash of (seed, r, i, j): d_ij for a transfer from i to j, c_i for a
// reduction on i, exponential of mean 1, so both engines meet the same instance; every run's
// makespan is compared (SimGrid's clock is kept to its precision/timing, 1e-9) and every run's
// result checked by the program's report. Built with -DSTARNET_SIMGRID_PEER=ON where Debian's
// libsimgrid-dev is installed; not a test, a measuring stick:
//   simgrid_tree_dyn_peer N RUNS   prints both rates and the ratio.
#include "star_zone.hpp"

#include <starnet/algorithms/nonclairvoyant/fast_path.hpp>
#include <starnet/algorithms/nonclairvoyant/tree_dyn.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/complete_graph.hpp>

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

using namespace starnet::simgrid_peer;  // NOLINT(google-build-using-namespace): the peer's own names
using starnet::Rational;

namespace {

constexpr double BANDWIDTH = 1e9;  // bytes per second of every link, flops per second of every host
constexpr double SAME_MAKESPAN = 1e-6;  // relative difference allowed between the two engines
constexpr long BLOCK = 100;             // runs on one engine before the other takes its turn

/// A uniform in (0, 1) from a 64-bit key (SplitMix64's finaliser), turned exponential of mean 1.
double exponential(std::uint64_t key) {
  key += 0x9E3779B97F4A7C15ULL;
  key = (key ^ (key >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  key = (key ^ (key >> 27U)) * 0x94D049BB133111EBULL;
  key ^= key >> 31U;
  return -std::log((static_cast<double>(key >> 11U) + 0.5) * 0x1.0p-53);
}

/// The costs of run @p run: d_ij and c_i, each a function of (run, i, j) alone.
struct Instance {
  std::uint64_t run;
  [[nodiscard]] double d(NodeId i, NodeId j) const { return exponential((run << 32U) ^ (i << 16U) ^ j ^ (1ULL << 63U)); }
  [[nodiscard]] double c(NodeId i) const { return exponential((run << 32U) ^ (i << 16U) ^ 0xFFFFU); }
};

class InstanceCosts final : public starnet::emulator::CostModel<double> {
 public:
  explicit InstanceCosts(Instance x) : x_(x) {}
  [[nodiscard]] double transfer(NodeId from, Port, NodeId to, const Rational& size) const override {
    return size.to_double() * x_.d(from, to);
  }
  [[nodiscard]] double compute(NodeId node, const Rational& work) const override {
    return work.to_double() * x_.c(node);
  }

 private:
  Instance x_;
};

struct Message {
  NodeId from = 0;
  std::string payload;
};

std::string mailbox_of(NodeId v) { return named('p', v); }

/// The reacting processor's view. Tree-dyn sends or computes at most once a reaction; the actor
/// carries out what the reaction asked for after it returns.
class PeerContext final : public starnet::emulator::Context {
 public:
  PeerContext(const starnet::topology::Topology& g, NodeId v) : Context(g) { node_ = v; }
  void at(bool starting, std::span<const Delivery> received, std::span<const Completion> completed) {
    starting_ = starting;
    received_ = received;
    completed_ = completed;
  }
  void send(Port port, std::string payload, Rational size, std::uint64_t tag) override {
    send_to(topology().neighbor(node_, port), std::move(payload), std::move(size), tag);
  }
  void send_to(NodeId to, std::string payload, Rational, std::uint64_t) override {
    to_ = to;
    payload_ = std::move(payload);
  }
  void compute(Rational work, std::uint64_t) override { work_ = work.to_double(); }
  void sleep(Rational, std::uint64_t) override { std::abort(); }
  void accept(NodeId) override { std::abort(); }
  [[nodiscard]] unsigned free_send_ports() const override { return 1; }

  std::optional<NodeId> to_;
  std::string payload_;
  std::optional<double> work_;
};

/// One Tree-dyn run on SimGrid: @return its makespan; @p verified from the program's report.
double simgrid_run(const std::vector<sg4::Host*>& hosts, const starnet::topology::Topology& g, Instance x,
                   bool& verified) {
  auto program = starnet::algorithms::nonclairvoyant::make_tree_dyn({0, g.num_nodes()});
  const double start = sg4::Engine::get_clock();
  auto merged = std::make_shared<NodeId>(0);  // values combined so far: n − 1 at the end
  for (NodeId v = 0; v < g.num_nodes(); ++v) {
    sg4::Actor::create(named('a', v), hosts[v], [&g, &program, v, x, merged] {
      PeerContext ctx(g, v);
      ctx.at(true, {}, {});
      program->react(ctx);
      auto* box = sg4::Mailbox::by_name(mailbox_of(v));
      for (;;) {
        if (ctx.to_) {  // a sender is done once its value has arrived
          auto* m = new Message{v, std::move(ctx.payload_)};
          sg4::Mailbox::by_name(mailbox_of(*ctx.to_))->put(m, static_cast<std::uint64_t>(x.d(v, *ctx.to_) * BANDWIDTH));
          return;
        }
        if (ctx.work_) {
          sg4::this_actor::execute(*ctx.work_ * x.c(v) * BANDWIDTH);
          ctx.work_.reset();
          const Completion done{Completion::Kind::COMPUTE, 0, v};
          ctx.at(false, {}, std::span<const Completion>(&done, 1));
          program->react(ctx);
          continue;
        }
        if (*merged + 1 == g.num_nodes()) return;  // idle and holding every value: the root
        std::unique_ptr<Message> m(box->get<Message>());
        ++*merged;
        Delivery d;
        d.from = m->from;
        d.payload = std::move(m->payload);
        ctx.at(false, std::span<const Delivery>(&d, 1), {});
        program->react(ctx);
      }
    });
  }
  sg4::Engine::get_instance()->run();
  verified = program->report().front() == '1';
  return sg4::Engine::get_clock() - start;
}

}  // namespace

int main(int argc, char** argv) {
  sg4::Engine engine(&argc, argv);
  // No simulated acknowledgements on the reverse links: a transfer takes d_ij whatever else flows.
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  const long n = argc > 1 ? std::atol(argv[1]) : 64;
  const long runs = argc > 2 ? std::atol(argv[2]) : 1000;
  if (n < 2 || n > 4096 || runs < 1) {
    std::fprintf(stderr, "usage: simgrid_tree_dyn_peer N RUNS (N in 2..4096, RUNS >= 1)\n");
    return 2;
  }
  const starnet::topology::CompleteGraph g(static_cast<NodeId>(n));
  const auto hosts = star_hosts(g.num_nodes(), BANDWIDTH, Link{BANDWIDTH, 0});

  // starnet: the Monte-Carlo's configuration (timed, arbitrated, one port), one reused engine.
  // The engine, the fast path and SimGrid take turns, a block of runs each, so that the
  // machine's drift in speed weighs on all alike.
  starnet::emulator::RunConfig config;
  config.checking = starnet::emulator::Checking::ARBITRATED;
  config.time = starnet::emulator::TimeMode::TIMED;
  starnet::emulator::LocalEngine<double> local;
  starnet::algorithms::nonclairvoyant::FastPath fast(static_cast<int>(n));
  long right = 0;
  long fast_right = 0;
  long fast_same = 0;  // bit for bit the local engine's
  long theirs_right = 0;
  long same = 0;
  double starnet_wall = 0;
  double fast_wall = 0;
  double simgrid_wall = 0;
  std::vector<double> ours;
  std::vector<double> c(g.num_nodes());
  const auto since = [](auto t0) { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  for (long first = 0; first < runs; first += BLOCK) {
    const long last = std::min(runs, first + BLOCK);
    ours.clear();
    auto t0 = std::chrono::steady_clock::now();
    for (long r = first; r < last; ++r) {
      const InstanceCosts costs(Instance{static_cast<std::uint64_t>(r)});
      auto result = local.run(g, costs, starnet::algorithms::nonclairvoyant::make_tree_dyn, config);
      ours.push_back(result.makespan);
      right += result.reports.front().front() == '1' ? 1 : 0;
    }
    starnet_wall += since(t0);
    t0 = std::chrono::steady_clock::now();
    for (long r = first; r < last; ++r) {
      const Instance x{static_cast<std::uint64_t>(r)};
      const InstanceCosts costs(x);
      for (NodeId v = 0; v < g.num_nodes(); ++v) c[v] = x.c(v);  // compute(v, 1), known in advance
      const auto result = fast.run(starnet::algorithms::nonclairvoyant::Algorithm::TREE_DYN, costs, c);
      fast_right += result.verified ? 1 : 0;
      fast_same += result.makespan == ours[static_cast<std::size_t>(r - first)] ? 1 : 0;
    }
    fast_wall += since(t0);
    t0 = std::chrono::steady_clock::now();
    for (long r = first; r < last; ++r) {
      bool verified = false;
      const double makespan = simgrid_run(hosts, g, Instance{static_cast<std::uint64_t>(r)}, verified);
      theirs_right += verified ? 1 : 0;
      const double mine = ours[static_cast<std::size_t>(r - first)];
      same += std::abs(makespan - mine) <= SAME_MAKESPAN * mine ? 1 : 0;
    }
    simgrid_wall += since(t0);
  }
  const auto rate = [&](double wall) { return static_cast<double>(runs) / wall; };
  std::printf(
      "tree-dyn, n = %ld, %ld runs: starnet %.3f s (%.0f runs/s, %ld verified), starnet fast path %.3f s (%.0f runs/s, "
      "%ld verified, %ld bit for bit the engine's), simgrid %.3f s (%.0f runs/s, %ld verified), same makespan in %ld "
      "of %ld runs; starnet/simgrid rate %.1fx, fast path/simgrid rate %.1fx\n",
      n, runs, starnet_wall, rate(starnet_wall), right, fast_wall, rate(fast_wall), fast_right, fast_same, simgrid_wall,
      rate(simgrid_wall), theirs_right, same, runs, simgrid_wall / starnet_wall, simgrid_wall / fast_wall);
  return right == runs && fast_right == runs && fast_same == runs && theirs_right == runs && same == runs ? 0 : 1;
}

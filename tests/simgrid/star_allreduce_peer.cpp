// The SimGrid peer of the star all-reduce's performance goal (docs/emulator.md, "Against
// SimGrid"): starnet's own all-reduce node program (algorithms/star) driven by SimGrid's S4U
// actors instead of starnet's engine, one actor per node of S_n on a star-zone platform (one
// split-duplex link per host), every node's final value checked by the program's report as in
// `starnet allreduce`. Built with -DSTARNET_SIMGRID_PEER=ON where Debian's libsimgrid-dev is
// installed; not a test, a measuring stick: `simgrid_star_peer N` prints what it ran.
#include "star_zone.hpp"

#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/program.hpp>
#include <starnet/topology/star_graph.hpp>

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace starnet::simgrid_peer;  // NOLINT(google-build-using-namespace): the peer's own names
using starnet::Rational;
using starnet::topology::StarGraph;

namespace {

/// What travels in a SimGrid message: the fields a Delivery reports.
struct Message {
  NodeId from = 0;
  Port port = 0;
  std::uint64_t tag = 0;
  std::string payload;
};

std::string mailbox_of(NodeId v) { return named('n', v); }

/// The reacting node's view: sends become detached SimGrid communications to the neighbour's
/// mailbox, each waited for once the step's message has arrived. The all-reduce only sends.
class PeerContext final : public starnet::emulator::Context {
 public:
  PeerContext(const StarGraph& g, NodeId v) : Context(g), g_(g) { node_ = v; }
  void at(std::uint64_t step, bool starting, const std::vector<Delivery>& received) {
    step_ = step;
    starting_ = starting;
    received_ = received;
    completed_ = {};
  }
  void send(Port port, std::string payload, Rational /*size*/, std::uint64_t tag) override {
    const NodeId to = g_.neighbor(node_, port);
    auto* m = new Message{node_, port, tag, std::move(payload)};
    sent_ = sg4::Mailbox::by_name(mailbox_of(to))->put_async(m, m->payload.size());
  }
  /// Waits for this step's send, if any (detached sends made SimGrid 150 times slower on S_8).
  void finish_send() {
    if (sent_) sent_->wait();
    sent_ = nullptr;
  }
  void send_to(NodeId to, std::string payload, Rational size, std::uint64_t tag) override {
    send(g_.find_port(node_, to), std::move(payload), size, tag);
  }
  void compute(Rational, std::uint64_t) override { std::abort(); }
  void sleep(Rational, std::uint64_t) override { std::abort(); }
  void accept(NodeId) override { std::abort(); }
  [[nodiscard]] unsigned free_send_ports() const override { return 1; }

 private:
  const StarGraph& g_;
  sg4::CommPtr sent_;
};

}  // namespace

int main(int argc, char** argv) {
  sg4::Engine engine(&argc, argv);
  const int n = argc > 1 ? std::atoi(argv[1]) : 8;
  if (n < 2 || n > 9) {
    std::fprintf(stderr, "usage: simgrid_star_peer N (2..9)\n");
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const StarGraph g(n);
  const starnet::algorithms::star::Values values{};
  const auto op = starnet::algorithms::star::Op::SUM;
  const auto expected = starnet::algorithms::star::reduce_sequentially(g, op, values);
  // One program over every node, as the local engine's one lane: SimGrid runs one actor at a time.
  auto program = starnet::algorithms::star::make_allreduce_program(g, op, values, expected, {0, g.num_nodes()});
  const std::uint64_t steps = starnet::algorithms::star::allreduce_steps(n);

  // SimGrid's Constant network model (--cfg=network/model:Constant: every transfer takes the same
  // time, no contention, as starnet's unit steps) takes no links; the others a link per host.
  const bool constant = simgrid::config::get_value<std::string>("network/model") == "Constant";
  const auto hosts = star_hosts(
      g.num_nodes(), 1e9, constant ? std::nullopt : std::optional<Link>({1e12, 0.5}));
  for (NodeId v = 0; v < g.num_nodes(); ++v) {
    sg4::Actor::create(named('a', v), hosts[v], [&g, &program, v, steps] {
      PeerContext ctx(g, v);
      std::vector<Delivery> received;
      ctx.at(0, true, received);
      program->react(ctx);
      auto* box = sg4::Mailbox::by_name(mailbox_of(v));
      // One message a step at every node (n(n−1)/2 steps), each answered at the step it arrives.
      for (std::uint64_t s = 1; s <= steps; ++s) {
        std::unique_ptr<Message> m(box->get<Message>());
        ctx.finish_send();
        received.assign(1, Delivery{});
        received[0].from = m->from;
        received[0].port = m->port;
        received[0].tag = m->tag;
        received[0].payload = std::move(m->payload);
        ctx.at(s, false, received);
        program->react(ctx);
      }
      ctx.finish_send();
    });
  }
  engine.run();
  const auto report = starnet::algorithms::star::StarReport::parse(program->report());
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("simgrid peer: all-reduce on star:%d, %llu nodes, %llu steps, simulated time %g s, nodes verified %llu "
              "of %llu, wall %.3f s\n",
              n, static_cast<unsigned long long>(g.num_nodes()), static_cast<unsigned long long>(steps),
              sg4::Engine::get_clock(), static_cast<unsigned long long>(report.nodes_correct),
              static_cast<unsigned long long>(g.num_nodes()), wall);
  return report.nodes_correct == g.num_nodes() ? 0 : 1;
}

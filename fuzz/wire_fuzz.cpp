// libFuzzer harness: what a worker decodes from its peers (emulator/src/wire.hpp). A worker must
// survive any bytes a peer sends: only TransportError may leave a decoder (a worker's run may also
// end in ModelViolation, when the peer reports one; exact times of any size are held, so none
// overflows). The first byte picks what the rest is:
//   0, 1  a batch header, Rational / double times: decoded, re-encoded, decoded again to the same bytes
//   2, 3  request records, Rational / double
//   4     a fault
//   5     a worker's run on ring:4 (nodes 0, 1 its own), against a peer (nodes 2, 3) whose batches are
//         the frames of the rest: [u16 header length][header][u16 requests length][requests] …
//   6     a worker's hello, as its coordinator reads it (zmq_processes.hpp)
//   7     a coordinator's CONFIG after its type byte, as a worker reads it: decoded, re-encoded,
//         decoded again to the same bytes
#include "fuzz_support.hpp"
#include "wire.hpp"
#include "worker.hpp"
#include "zmq_processes.hpp"

#include <starnet/emulator/costs.hpp>

namespace {

using namespace starnet::emulator;
namespace wire = starnet::emulator::wire;
using starnet::Rational;

template <class Time>
void batch_round_trip(std::string_view bytes) {
  wire::Reader r(bytes);
  Batch<Time> b;
  wire::get_batch(r, b);
  wire::Writer once;
  wire::put_batch(once, b);
  Batch<Time> again;
  wire::Reader back(once.str());
  try {
    wire::get_batch(back, again);
  } catch (const starnet::TransportError& e) {
    std::fprintf(stderr, "a re-encoded batch does not decode: %s\n", e.what());
    __builtin_trap();
  }
  wire::Writer twice;
  wire::put_batch(twice, again);
  if (twice.str() != once.str() || !back.done()) {
    std::fprintf(stderr, "a batch re-encodes to other bytes\n");
    __builtin_trap();
  }
}

template <class Time>
void requests(std::string_view bytes) {
  wire::Reader r(bytes);
  while (!r.done()) {
    Request<Time> q;
    wire::get_request(r, q);
  }
}

/// Peer 1 of two: its batches are the frames of the input; nothing once they run out.
class FuzzedPeer final : public Exchange<Rational> {
 public:
  explicit FuzzedPeer(std::string_view frames) : frames_(frames) {}
  void exchange(std::vector<Batch<Rational>>& out, std::vector<Batch<Rational>>& in) override {
    std::swap(in[0], out[0]);
    in[1].clear();
    if (frames_.empty()) return;
    const std::string_view head = frame();
    requests_ = frame();
    wire::Reader r(head);
    wire::get_batch(r, in[1]);
    in[1].received = requests_;
  }

 private:
  std::string_view frame() {
    if (frames_.size() < 2) wire::Reader::malformed("truncated frame");
    const std::size_t n = static_cast<unsigned char>(frames_[0]) | static_cast<std::size_t>(static_cast<unsigned char>(frames_[1])) << 8U;
    frames_.remove_prefix(2);
    const auto f = frames_.substr(0, n);
    frames_.remove_prefix(f.size());
    return f;
  }
  std::string_view frames_;
  std::string_view requests_;
};

/// Each node sends one message through each port at the start and accepts whatever comes.
class Chatter final : public NodeProgram {
 public:
  void react(Context& ctx) override {
    if (!ctx.starting()) return;
    for (starnet::topology::Port p = 0; p < ctx.topology().degree(ctx.node()); ++p) ctx.send(p, "x");
  }
};

void config_round_trip(std::string_view bytes) {
  wire::Reader r(bytes);
  const WorkerConfig c = get_worker_config(r);
  wire::Writer once;
  put_worker_config(once, c);
  wire::Reader back(std::string_view(once.str()).substr(1));  // after the type byte
  WorkerConfig again;
  try {
    again = get_worker_config(back);
  } catch (const starnet::TransportError& e) {
    std::fprintf(stderr, "a re-encoded configuration does not decode: %s\n", e.what());
    __builtin_trap();
  }
  wire::Writer twice;
  put_worker_config(twice, again);
  if (twice.str() != once.str() || !back.done()) {
    std::fprintf(stderr, "a configuration re-encodes to other bytes\n");
    __builtin_trap();
  }
}

void worker_run(std::string_view frames) {
  const auto topology = starnet::topology::make_topology("ring:4");
  const UnitCosts<Rational> costs{};
  RunConfig config;
  config.checking = Checking::ARBITRATED;
  config.trace = true;
  Chatter program;
  FuzzedPeer peer(frames);
  Worker<Rational> worker;
  worker.reset(*topology, costs, config, {{0, 2}, {2, 4}}, 0, program, &peer);
  try {
    worker.run();
  } catch (const starnet::ModelViolation&) {  // the peer reported one
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest = starnet::fuzz::as_text(data + 1, size - 1);
  return starnet::fuzz::expect_only<starnet::TransportError>([&] {
    switch (data[0] % 8) {
      case 0: batch_round_trip<Rational>(rest); break;
      case 1: batch_round_trip<double>(rest); break;
      case 2: requests<Rational>(rest); break;
      case 3: requests<double>(rest); break;
      case 4: {
        wire::Reader r(rest);
        (void)wire::get_fault(r);
        break;
      }
      case 6: {
        wire::Reader r(rest);
        (void)get_hello(r);
        break;
      }
      case 7: config_round_trip(rest); break;
      default: worker_run(rest); break;
    }
  });
}

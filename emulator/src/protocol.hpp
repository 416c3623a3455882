#pragma once
// What workers tell each other (the protocol of the round, engine.hpp): send requests, send-done
// notices, posted receives (arbitrated), faults and each round's header, batched per peer, and the Exchange that moves the
// batches. wire.hpp encodes them; zmq_exchange.hpp moves them between workers; worker.hpp
// writes and reads them. Private to the emulator library.

#include <starnet/core/rational.hpp>
#include <starnet/emulator/program.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace starnet::emulator {

/// A send asked for by `from`, travelling to the worker that owns `to`.
template <class Time>
struct Request {
  NodeId from = 0;
  NodeId to = 0;
  Port port = 0;
  std::uint64_t tag = 0;
  Rational size = 1;
  Time duration{};
  std::string payload;
  /// Asynchronous runs (asynchrony.hpp), drawn by the sender's worker: the transit after the
  /// transfer, whether the message is lost, and its number among its sender's messages.
  Time delay{};
  bool lost = false;
  std::uint64_t number = 0;
};

/// A transfer has finished: travels to the worker that owns the sender.
struct SendDone {
  NodeId sender = 0;
  NodeId receiver = 0;
  std::uint64_t tag = 0;
  bool occupied = true;  // false for a zero-duration transfer, which holds no port
};

/// A posted receive (Context::accept) of arbitrated checking: travels to every other worker, whose
/// arbiter decides for all nodes (arbiter.hpp).
struct Post {
  NodeId node = 0;
  NodeId from = 0;
};

/// A port-model violation or a deadlock seen by one worker; the smallest key wins everywhere so
/// that every partitioning reports the same one.
struct Fault {
  NodeId node = 0;
  NodeId peer = 0;
  std::string message;
  [[nodiscard]] bool before(const Fault& other) const {
    return std::tie(node, peer, message) < std::tie(other.node, other.peer, other.message);
  }
};

template <class Time>
struct Header {
  bool has_now = false;   // events left at the current time (zero-duration work)
  bool has_next = false;  // events at a later time
  Time next{};
  std::optional<Fault> violation;
  std::optional<Fault> waiting;  // a send or request still queued (a deadlock if nothing else is left)
};

/// What one worker sends one peer in one exchange. In arbitrated runs of several workers every
/// request travels to every worker (arbiter.hpp); otherwise to the receiver's. Requests travel encoded (wire.hpp): a step of
/// S_11 sends 20 million of them, and an encoded request is smaller than a Request and is
/// written once, as the sender issues it, instead of being copied into a message later.
template <class Time>
struct Batch {
  /// Notices for the sender's worker; in arbitrated runs of several workers also for every other
  /// worker but the receiver's, to free the ports in its arbiter.
  std::vector<SendDone> done;
  std::vector<Post> posts;  ///< arbitrated runs of several workers: this round's posted receives
  std::string requests;  ///< outbound: wire::put_request records, `request_count` of them
  std::uint64_t request_count = 0;
  /// Inbound: the peer's encoded requests, valid while `holder` (the received message) lives.
  std::string_view received;
  std::shared_ptr<const void> holder;
  Header<Time> header;
  void clear() {
    done.clear();
    posts.clear();
    requests.clear();
    request_count = 0;
    received = {};
    holder.reset();
    header = {};
  }
};

template <class Time>
class Exchange {
 public:
  virtual ~Exchange() = default;
  /// Sends out[j] to worker j and fills in[j] with what worker j sent this one (j = own index:
  /// the own batch, moved). Blocks until a batch from every peer has arrived: the barrier.
  /// @throws TransportError when a peer is gone or the run was aborted.
  virtual void exchange(std::vector<Batch<Time>>& out, std::vector<Batch<Time>>& in) = 0;
};

}  // namespace starnet::emulator

#pragma once
// The exchange between zmq workers, threads or processes: one batched ZeroMQ message per peer per
// exchange over PUSH/PULL sockets, and the socket helpers both kinds of run share.
// Private to the emulator (zmq_threads.cpp, zmq_coordinator.cpp, zmq_worker_process.cpp).

#include "secure.hpp"
#include "trace_order.hpp"
#include "wire.hpp"
#include "partition_run.hpp"

#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/zmq_engine.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>
#include <zmq.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace starnet::emulator {

// libzmq is not built with ThreadSanitizer, so TSan cannot see that a message's bytes are
// written before they are sent and read after they arrive; tell it (inproc workers are threads).
#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
inline char tsan_channel;
inline void before_send() { __tsan_release(&tsan_channel); }
inline void after_receive() { __tsan_acquire(&tsan_channel); }
#else
inline void before_send() {}
inline void after_receive() {}
#endif

constexpr std::uint8_t BATCH = 0;
constexpr std::uint8_t ABORT = 1;
/// The first byte of a coordinator's heartbeat to a worker (its other messages: zmq_processes.hpp).
constexpr char COORDINATOR_HEARTBEAT = 'B';
constexpr auto POLL = std::chrono::milliseconds(100);

/// @p seconds rounded to a tenth, as messages give timeouts.
inline double tenths(double seconds) { return std::round(seconds * 10) / 10; }

/// A worker's echo of another worker's failure: the run's cause is elsewhere, so a run reports
/// the failure that is not an echo when there is one.
class PeerFailure : public TransportError {
 public:
  using TransportError::TransportError;
};

/// A ZeroMQ failure (too many sockets or open files, an endpoint it cannot use) as the runtime
/// failure it is, exit 3, rather than an internal error.
inline TransportError zmq_failure(const zmq::error_t& e) {
  const char* hint = e.num() == EMFILE ? "; each worker thread holds a socket per worker: use fewer workers, or raise "
                                         "the limit of open files (ulimit -n)"
                                       : "";
  return TransportError(fmt::format("ZeroMQ failed: {} (error {}{})", e.what(), e.num(), hint));
}

inline zmq::socket_t make_socket(zmq::context_t& ctx, zmq::socket_type type) {
  zmq::socket_t s(ctx, type);
  s.set(zmq::sockopt::linger, 2000);  // let a last result or abort reach its peer, then give up
  s.set(zmq::sockopt::sndhwm, 0);
  s.set(zmq::sockopt::rcvhwm, 0);
  return s;
}

/// Exchange between worker peers over PUSH/PULL sockets. In process mode a control socket to the
/// coordinator is polled too, so that an abort reaches a worker waiting for a dead peer.
template <class Time>
class ZmqExchange final : public Exchange<Time> {
 public:
  /// @param tcp how the push sockets connect to the peers (processes only; nullptr over inproc).
  /// @param stop set by a sibling thread that failed (threads only): checked while waiting, so a
  /// failure that could not even send its abort message (out of memory) still stops everyone.
  /// Takes @p pull only once every PUSH socket is open and connected: if that fails, the caller
  /// still holds its bound PULL socket, so the peers' connects to it do not dangle (zmq_threads.cpp).
  ZmqExchange(zmq::context_t& ctx, unsigned self, zmq::socket_t&& pull, const std::vector<std::string>& endpoints,
              zmq::socket_t* control, const TcpTransport* tcp, double timeout_seconds,
              const std::atomic<bool>* stop = nullptr)
      : self_(self), control_(control), timeout_(timeout_seconds), stop_(stop) {
    for (unsigned j = 0; j < endpoints.size(); ++j) {
      push_.emplace_back(make_socket(ctx, zmq::socket_type::push));
      if (j == self) continue;
      if (tcp != nullptr) {
        tcp->connect(push_.back(), endpoints[j]);
      } else {
        push_.back().connect(endpoints[j]);
      }
    }
    pull_ = std::move(pull);
  }

  void exchange(std::vector<Batch<Time>>& out, std::vector<Batch<Time>>& in) override {
    ++seq_;
    const auto now = std::chrono::steady_clock::now();
    longest_step_ = std::max(longest_step_, std::chrono::duration<double>(now - step_start_).count());
    step_start_ = now;
    if (published_step_ != nullptr) published_step_->store(longest_step_);
    for (unsigned j = 0; j < push_.size(); ++j) {
      if (j == self_) continue;
      wire::Writer w;
      w.put(BATCH);
      w.put(self_);
      w.put(seq_);
      wire::put_batch(w, out[j]);
      auto head = adopt(std::move(w.str()));
      auto requests = adopt(std::move(out[j].requests));
      out[j].requests = {};
      before_send();  // after the last write of what the receiver reads (and its deleter frees)
      send(j, head, zmq::send_flags::sndmore);
      send(j, requests, zmq::send_flags::none);
    }
    std::swap(in[self_], out[self_]);
    auto& got = early_[seq_];
    got.resize(push_.size(), false);
    unsigned missing = static_cast<unsigned>(push_.size()) - 1;
    for (unsigned j = 0; j < got.size(); ++j) {
      if (j != self_ && got[j]) {
        auto& stashed = stash_[{seq_, j}];
        take(stashed.first, std::move(stashed.second), in[j]);
        stash_.erase({seq_, j});
        --missing;
      }
    }
    auto last = std::chrono::steady_clock::now();
    while (missing > 0) {
      std::vector<zmq::pollitem_t> items = {{pull_.handle(), 0, ZMQ_POLLIN, 0}};
      if (control_ != nullptr) items.push_back({control_->handle(), 0, ZMQ_POLLIN, 0});
      zmq::poll(items, POLL);
      if (control_ != nullptr && (items[1].revents & ZMQ_POLLIN) != 0) take_control();
      if ((items[0].revents & ZMQ_POLLIN) == 0) {
        if (stop_ != nullptr && stop_->load()) throw PeerFailure(fmt::format("worker {}: a peer worker failed", self_));
        const double limit = tenths(coordinator_timeout_.after(longest_step_));
        if (watched_ && std::chrono::duration<double>(std::chrono::steady_clock::now() - heard_).count() > limit) {
          throw TransportError(
              fmt::format("worker {}: the coordinator has not been heard from for {} s", self_, limit));
        }
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - last).count() > timeout_) {
          throw TransportError(fmt::format("worker {} waited {} s for its peers' batches (step barrier)", self_,
                                           timeout_));
        }
        continue;
      }
      last = std::chrono::steady_clock::now();
      zmq::message_t m;
      (void)pull_.recv(m);
      zmq::message_t requests;
      if (m.more()) (void)pull_.recv(requests);
      after_receive();
      wire::Reader r(m.to_string_view());
      const auto type = r.get<std::uint8_t>();
      const auto from = r.get<unsigned>();
      const auto seq = r.get<std::uint64_t>();
      if (from >= push_.size() || from == self_) wire::Reader::malformed("unknown sender");
      if (type == ABORT) throw PeerFailure(fmt::format("worker {} failed: {}", from, r.get_string()));
      // One batch from each peer in each exchange, none of an exchange already done.
      if (seq < seq_) wire::Reader::malformed("a batch of a past exchange");
      auto& arrived = early_[seq];
      arrived.resize(push_.size(), false);
      if (arrived[from]) wire::Reader::malformed("two batches from one worker in one exchange");
      arrived[from] = true;
      if (seq == seq_) {
        take(m, std::move(requests), in[from]);
        --missing;
      } else {
        // A peer already in a later exchange: keep its batch for then.
        stash_[{seq, from}] = {std::move(m), std::move(requests)};
      }
    }
    early_.erase(seq_);
  }

  /// Ends the run (TransportError) when the coordinator has sent nothing, heartbeats included, for
  /// @p timeout while this worker waits at a barrier; publishes the longest step it has seen in
  /// @p longest_step (read by the heartbeat thread).
  void watch_coordinator(const PeerTimeout& timeout, std::atomic<double>* longest_step) {
    coordinator_timeout_ = timeout;
    watched_ = true;
    published_step_ = longest_step;
    heard_ = std::chrono::steady_clock::now();
    step_start_ = heard_;
  }

  /// Tells every peer this worker is gone, so that none waits for it.
  void abort(const std::string& reason) noexcept {
    try {
      for (unsigned j = 0; j < push_.size(); ++j) {
        if (j == self_) continue;
        wire::Writer w;
        w.put(ABORT);
        w.put(self_);
        w.put(seq_);
        w.put(reason);
        zmq::message_t message(w.str().data(), w.str().size());
        before_send();
        (void)push_[j].send(message, zmq::send_flags::dontwait);
      }
    } catch (...) {  // best effort: the peer may be gone already
    }
  }

 private:
  unsigned self_;
  zmq::socket_t pull_;
  std::vector<zmq::socket_t> push_;
  zmq::socket_t* control_;
  double timeout_;
  const std::atomic<bool>* stop_;
  bool watched_ = false;  // threads: no coordinator
  PeerTimeout coordinator_timeout_;
  std::atomic<double>* published_step_ = nullptr;
  std::chrono::steady_clock::time_point heard_;
  std::chrono::steady_clock::time_point step_start_ = std::chrono::steady_clock::now();
  double longest_step_ = 0;  ///< seconds between two exchanges: the compute of a step and its barrier
  std::uint64_t seq_ = 0;
  std::map<std::uint64_t, std::vector<bool>> early_;
  std::map<std::pair<std::uint64_t, unsigned>, std::pair<zmq::message_t, zmq::message_t>> stash_;

  /// A message from the coordinator: a heartbeat, or the end of the run.
  void take_control() {
    zmq::message_t m;
    (void)control_->recv(m);
    heard_ = std::chrono::steady_clock::now();
    const auto text = m.to_string_view();
    if (!text.empty() && text[0] == COORDINATOR_HEARTBEAT) return;
    std::string reason = "(no reason given)";
    try {
      wire::Reader r(text);
      (void)r.get<char>();
      reason = r.get_string();
    } catch (const TransportError&) {
    }
    throw TransportError("run aborted by the coordinator: " + reason);
  }

  /// Never blocks: with no high-water mark a push only refuses a message once its peer has closed
  /// its end (a worker that failed and left: inproc pipes do not outlive the socket), and waiting
  /// for it then would hang the run.
  void send(unsigned peer, zmq::message_t& message, zmq::send_flags flags) {
    if (!push_[peer].send(message, flags | zmq::send_flags::dontwait)) {
      throw TransportError(fmt::format("worker {}: peer worker {} is gone", self_, peer));
    }
  }

  /// A message that owns @p bytes: zmq frees them once sent (inproc: once the receiver is done).
  static zmq::message_t adopt(std::string bytes) {
    auto* owned = new std::string(std::move(bytes));
    return zmq::message_t(owned->data(), owned->size(),
                          [](void*, void* hint) {
                            after_receive();
                            delete static_cast<std::string*>(hint);
                          },
                          owned);
  }

  /// Decodes a peer's batch; its requests stay in the received message, decoded by the worker.
  static void take(const zmq::message_t& head, zmq::message_t requests, Batch<Time>& batch) {
    wire::Reader r(head.to_string_view());
    (void)r.get<std::uint8_t>();
    (void)r.get<unsigned>();
    (void)r.get<std::uint64_t>();
    wire::get_batch(r, batch);
    auto holder = std::make_shared<zmq::message_t>(std::move(requests));
    batch.received = holder->to_string_view();
    batch.holder = std::move(holder);
  }
};

template <class Time>
void merge_into(RunResult<Time>& result, PartitionRun<Time>& worker) {
  result.makespan = std::max(result.makespan, worker.makespan());
  result.counters.merge(worker.counters());
  auto& t = worker.trace();
  result.trace.insert(result.trace.end(), std::make_move_iterator(t.begin()), std::make_move_iterator(t.end()));
}

}  // namespace starnet::emulator

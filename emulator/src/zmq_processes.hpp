#pragma once
// The protocol between a coordinator and its worker processes (zmq_coordinator.cpp,
// zmq_worker_process.cpp): message types, and the codecs of what only they exchange.
// Private to the emulator.

#include "zmq_exchange.hpp"

#include <starnet/emulator/zmq_engine.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace starnet::emulator {

// ---- processes ------------------------------------------------------------------------------
//
// Coordinator (ROUTER) ⇄ workers (DEALER): HELLO {index or any, pull endpoint, host, pid, nonce} →
// CONFIG {index, job, config, peer timeout, partitions, endpoints} → RESULT {makespan, counters,
// report, trace, peak resident bytes} or FAILED {exit, message}. Meanwhile each side sends
// HEARTBEAT every HEARTBEAT_SECONDS: a worker from a socket and thread of its own (carrying the
// nonce of its hello, so that no one else can beat for it), the coordinator to every worker.
// The coordinator sends ABORT {reason} when the run ends early, and reaps every child it started.


constexpr char HELLO = 'H';
constexpr char CONFIG = 'C';
constexpr char RESULT = 'R';
constexpr char FAILED = 'F';
constexpr char HEARTBEAT = COORDINATOR_HEARTBEAT;
constexpr char ABORT_RUN = 'A';
/// Bytes of a worker's nonce: enough that no stray peer guesses it.
constexpr std::size_t NONCE_BYTES = 16;
/// Failed handshakes after which a worker gives up on its key: one may be a network hiccup.
constexpr std::uint64_t HANDSHAKE_ATTEMPTS = 3;
/// Heartbeats a worker queues while its coordinator is unreachable, then drops.
constexpr int HEARTBEAT_QUEUE = 16;

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

inline std::chrono::milliseconds milliseconds(double seconds) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::duration<double>(seconds));
}

inline void put_config(wire::Writer& w, const RunConfig& c) {
  w.put(c.ports.ports);
  w.put(static_cast<std::uint8_t>(c.ports.half_duplex));
  w.put(static_cast<std::uint8_t>(c.checking));
  w.put(static_cast<std::uint8_t>(c.time));
  w.put(static_cast<std::uint8_t>(c.trace));
  w.put(static_cast<std::uint8_t>(c.horizon.has_value()));
  w.put(c.horizon.value_or(0));
}

inline RunConfig get_config(wire::Reader& r) {
  RunConfig c;
  c.ports.ports = r.get<unsigned>();
  c.ports.half_duplex = r.get_flag();
  c.checking = r.get_enum(Checking::ARBITRATED);
  c.time = r.get_enum(TimeMode::TIMED);
  c.trace = r.get_flag();
  const bool horizon = r.get_flag();
  const Rational h = r.get_rational();
  if (horizon) c.horizon = h;
  return c;
}

/// TraceEvent's fields (E: TraceEvent<Rational>, const or not; wire.hpp tells how a field list
/// is both codecs).
template <class Io, class E>
void trace_event_fields(Io& io, E& e) {
  io(e.step);
  io(e.round);
  io(e.time);
  io(e.kind, EventKind::LINK_DOWN);
  io(e.node);
  io(e.peer);
  io(e.port);
  io(e.tag);
  io(e.size);
  io(e.bytes);
  io(e.payload);
}

inline void put_trace_event(wire::Writer& w, const TraceEvent<Rational>& e) {
  wire::Encoder encoder(w.str());
  trace_event_fields(encoder, e);
}

inline TraceEvent<Rational> get_trace_event(wire::Reader& r) {
  TraceEvent<Rational> e;
  wire::Decoder decoder(r);
  trace_event_fields(decoder, e);
  return e;
}

/// A worker's heartbeat: its nonce, and the longest step it has seen (seconds).
inline void put_heartbeat(wire::Writer& w, const std::string& nonce, double longest_step) {
  w.put(HEARTBEAT);
  w.put(nonce);
  w.put(longest_step);
}

inline void put_peer_timeout(wire::Writer& w, const PeerTimeout& t) {
  w.put(t.seconds);
  w.put(static_cast<std::uint8_t>(t.grows));
}

inline PeerTimeout get_peer_timeout(wire::Reader& r) {
  PeerTimeout t;
  t.seconds = r.get<double>();
  t.grows = r.get_flag();
  if (!(t.seconds > 0) || !std::isfinite(t.seconds)) wire::Reader::malformed("bad peer timeout");
  return t;
}

/// A worker's hello: the index it asks for (WorkerOptions::ANY_INDEX: any), where its peers reach
/// it, its host and pid (for messages, and to tell the coordinator's own children), and the nonce
/// its heartbeats carry.
struct Hello {
  unsigned index = WorkerOptions::ANY_INDEX;
  std::string endpoint;
  std::string host;
  std::int32_t pid = -1;
  std::string nonce;
};

inline void put_hello(wire::Writer& w, const Hello& h) {
  w.put(HELLO);
  w.put(h.index);
  w.put(h.endpoint);
  w.put(h.host);
  w.put(h.pid);
  w.put(h.nonce);
}

/// @throws TransportError when @p r holds no hello.
inline Hello get_hello(wire::Reader& r) {
  if (r.get<char>() != HELLO) wire::Reader::malformed("not a hello");
  Hello h;
  h.index = r.get<unsigned>();
  h.endpoint = r.get_string();
  h.host = r.get_string();
  h.pid = r.get<std::int32_t>();
  h.nonce = r.get_string();
  return h;
}

/// What the coordinator sends a worker: its index, the run, and who its peers are.
struct WorkerConfig {
  unsigned index = 0;
  std::string job;
  RunConfig config;
  PeerTimeout peer_timeout;
  double barrier_timeout_seconds = DEFAULT_RUN_TIMEOUT_SECONDS;  ///< the coordinator's timeout_seconds
  std::vector<NodeRange> parts;
  std::vector<std::string> endpoints;
};

/// Writes CONFIG (its type byte included); parts and endpoints have one entry per worker.
inline void put_worker_config(wire::Writer& w, const WorkerConfig& c) {
  w.put(CONFIG);
  w.put(c.index);
  w.put(c.job);
  put_config(w, c.config);
  put_peer_timeout(w, c.peer_timeout);
  w.put(c.barrier_timeout_seconds);
  w.put(static_cast<unsigned>(c.parts.size()));
  for (const auto& p : c.parts) {
    w.put(p.begin);
    w.put(p.end);
  }
  for (const auto& e : c.endpoints) w.put(e);
}

/// Reads CONFIG after its type byte. @throws TransportError when it is malformed.
inline WorkerConfig get_worker_config(wire::Reader& r) {
  WorkerConfig c;
  c.index = r.get<unsigned>();
  c.job = r.get_string();
  c.config = get_config(r);
  c.peer_timeout = get_peer_timeout(r);
  c.barrier_timeout_seconds = r.get<double>();
  if (!(c.barrier_timeout_seconds >= 0) || !std::isfinite(c.barrier_timeout_seconds)) {
    wire::Reader::malformed("bad barrier timeout");
  }
  // Per worker: a range and an endpoint (at least its length).
  const auto k = r.get_count<unsigned>(2 * sizeof(NodeId) + sizeof(std::uint64_t));
  c.parts.resize(k);
  for (auto& p : c.parts) {
    p.begin = r.get<NodeId>();
    p.end = r.get<NodeId>();
  }
  c.endpoints.resize(k);
  for (auto& e : c.endpoints) e = r.get_string();
  if (c.index >= k) wire::Reader::malformed("worker index beyond the run");
  return c;
}

}  // namespace starnet::emulator

#pragma once
// Binary encoding of what workers and the coordinator exchange. Private to the emulator. Both
// ends run the same build on the same machine, so integers travel in host byte order.

#include "worker.hpp"

#include <starnet/topology/error.hpp>

#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace starnet::emulator::wire {

/// Appends encodings to a string it does not own (e.g. a batch's request records).
class Appender {
 public:
  explicit Appender(std::string& out) : out_(out) {}
  template <class T>
    requires std::is_trivially_copyable_v<T>
  void put(const T& value) {
    const auto* p = reinterpret_cast<const char*>(&value);
    out_.append(p, sizeof value);
  }
  void put(const std::string& s) {
    put(static_cast<std::uint64_t>(s.size()));
    out_.append(s);
  }
  void put(const Rational& r) {
    put(r.num());
    put(r.den());
  }

 private:
  std::string& out_;
};

/// Appends encodings to a string of its own.
class Writer {
 public:
  template <class T>
  void put(const T& value) {
    Appender(out_).put(value);
  }
  std::string& str() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  template <class T>
    requires std::is_trivially_copyable_v<T>
  T get() {
    need(sizeof(T));
    T value;
    std::memcpy(&value, in_.data() + at_, sizeof value);
    at_ += sizeof value;
    return value;
  }
  std::string get_string() {
    const auto n = get<std::uint64_t>();
    need(n);
    std::string s(in_.substr(at_, n));
    at_ += n;
    return s;
  }
  Rational get_rational() {
    const auto num = get<std::int64_t>();
    const auto den = get<std::int64_t>();
    if (den <= 0) throw TransportError("malformed message between workers (bad rational)");
    return {num, den};
  }
  [[nodiscard]] bool done() const { return at_ == in_.size(); }

 private:
  void need(std::size_t n) const {
    if (in_.size() - at_ < n) throw TransportError("malformed message between workers (truncated)");
  }
  std::string_view in_;
  std::size_t at_ = 0;
};

template <class Time>
Time get_time(Reader& r) {
  if constexpr (std::is_same_v<Time, Rational>) {
    return r.get_rational();
  } else {
    return r.template get<double>();
  }
}

inline void put_fault(Writer& w, const std::optional<Fault>& f) {
  w.put(static_cast<std::uint8_t>(f.has_value()));
  if (f) {
    w.put(f->node);
    w.put(f->peer);
    w.put(f->message);
  }
}

inline std::optional<Fault> get_fault(Reader& r) {
  if (r.get<std::uint8_t>() == 0) return std::nullopt;
  Fault f;
  f.node = r.get<NodeId>();
  f.peer = r.get<NodeId>();
  f.message = r.get_string();
  return f;
}

/// A batch but for its requests, which travel apart (Batch::requests).
template <class Time>
void put_batch(Writer& w, const Batch<Time>& b) {
  w.put(static_cast<std::uint8_t>(b.header.has_now));
  w.put(static_cast<std::uint8_t>(b.header.has_next));
  w.put(b.header.next);
  put_fault(w, b.header.violation);
  put_fault(w, b.header.waiting);
  w.put(static_cast<std::uint64_t>(b.done.size()));
  for (const auto& d : b.done) w.put(d);
  w.put(b.request_count);
}

template <class Time>
void get_batch(Reader& r, Batch<Time>& b) {
  b.header.has_now = r.get<std::uint8_t>() != 0;
  b.header.has_next = r.get<std::uint8_t>() != 0;
  b.header.next = get_time<Time>(r);
  b.header.violation = get_fault(r);
  b.header.waiting = get_fault(r);
  const auto dones = r.get<std::uint64_t>();
  b.done.resize(dones);
  for (auto& d : b.done) d = r.get<SendDone>();
  b.request_count = r.get<std::uint64_t>();
}

template <class Time>
void put_request(std::string& out, const Request<Time>& q) {
  Appender a(out);
  a.put(q.from);
  a.put(q.to);
  a.put(q.port);
  a.put(q.tag);
  a.put(q.size);
  a.put(q.duration);
  a.put(q.payload);
}

template <class Time>
void get_request(Reader& r, Request<Time>& q) {
  q.from = r.get<NodeId>();
  q.to = r.get<NodeId>();
  q.port = r.get<Port>();
  q.tag = r.get<std::uint64_t>();
  q.size = r.get_rational();
  q.duration = get_time<Time>(r);
  q.payload = r.get_string();
}

}  // namespace starnet::emulator::wire

#pragma once
// Binary encoding of what workers and the coordinator exchange. Private to the emulator. Both
// ends run the same build on the same machine, so integers travel in host byte order. A reader
// refuses what no writer produces (a count beyond the bytes left, a flag other than 0 or 1, an
// enum out of range, a time that is negative or not finite) with TransportError, whatever the
// bytes: booleans and enums travel as one byte each and are never copied from the wire whole.

#include "worker.hpp"

#include <starnet/core/error.hpp>

#include <cmath>
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
  /// Plain integers, floating-point numbers and records of them; flags and enums: get_flag, get_enum.
  template <class T>
    requires(std::is_trivially_copyable_v<T> && !std::is_same_v<T, bool> && !std::is_enum_v<T>)
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
    if (den <= 0) malformed("bad rational");
    return {num, den};
  }
  /// A bool written as one byte.
  bool get_flag() {
    const auto b = get<std::uint8_t>();
    if (b > 1) malformed("bad flag");
    return b == 1;
  }
  /// An enum with a one-byte underlying type whose values are 0..@p last.
  template <class E>
    requires(std::is_enum_v<E> && sizeof(E) == 1)
  E get_enum(E last) {
    const auto b = get<std::uint8_t>();
    if (b > static_cast<std::uint8_t>(last)) malformed("bad enum value");
    return static_cast<E>(b);
  }
  /// The count of the records that follow, each at least @p record_bytes long: refused when the
  /// rest of the message cannot hold them, so that a hostile count allocates nothing.
  template <class Count = std::uint64_t>
  std::size_t get_count(std::size_t record_bytes) {
    const auto n = get<Count>();
    if (n > (in_.size() - at_) / record_bytes) malformed("count beyond the message");
    return static_cast<std::size_t>(n);
  }
  [[nodiscard]] bool done() const { return at_ == in_.size(); }
  [[noreturn]] static void malformed(const char* what) {
    throw TransportError(std::string("malformed message between workers (") + what + ")");
  }

 private:
  void need(std::size_t n) const {
    if (in_.size() - at_ < n) malformed("truncated");
  }
  std::string_view in_;
  std::size_t at_ = 0;
};

/// A time or a duration: never negative, and finite (a NaN would stall a worker's agenda).
template <class Time>
Time get_time(Reader& r) {
  Time t{};
  if constexpr (std::is_same_v<Time, Rational>) {
    t = r.get_rational();
  } else {
    t = r.template get<double>();
    if (!std::isfinite(t)) Reader::malformed("time not finite");
  }
  if (!(t >= Time(0))) Reader::malformed("negative time");
  return t;
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
  if (!r.get_flag()) return std::nullopt;
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
  for (const auto& d : b.done) {
    w.put(d.sender);
    w.put(d.receiver);
    w.put(d.tag);
    w.put(static_cast<std::uint8_t>(d.occupied));
  }
  w.put(b.request_count);
}

template <class Time>
void get_batch(Reader& r, Batch<Time>& b) {
  b.header.has_now = r.get_flag();
  b.header.has_next = r.get_flag();
  b.header.next = get_time<Time>(r);
  b.header.violation = get_fault(r);
  b.header.waiting = get_fault(r);
  constexpr std::size_t DONE_BYTES = 2 * sizeof(NodeId) + sizeof(std::uint64_t) + 1;
  b.done.resize(r.get_count(DONE_BYTES));
  for (auto& d : b.done) {
    d.sender = r.get<NodeId>();
    d.receiver = r.get<NodeId>();
    d.tag = r.get<std::uint64_t>();
    d.occupied = r.get_flag();
  }
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

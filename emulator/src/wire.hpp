#pragma once
// Binary encoding of what workers and the coordinator exchange. Private to the emulator. Both
// ends run the same build on the same machine, so integers travel in host byte order. A reader
// refuses what no writer produces (a count beyond the bytes left, a flag other than 0 or 1, an
// enum out of range, a time that is negative or not finite) with TransportError, whatever the
// bytes: booleans and enums travel as one byte each and are never copied from the wire whole.

#include "protocol.hpp"

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
  /// num and den; a value beyond 64 bits as den 0 (no small value has it) and its text.
  void put(const Rational& r) {
    if (r.is_small()) {
      put(r.num());
      put(r.den());
    } else {
      put(std::int64_t{0});
      put(std::int64_t{0});
      put(r.to_string());
    }
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
  /// The next @p n bytes, in place.
  std::string_view get_bytes(std::size_t n) {
    need(n);
    const auto s = in_.substr(at_, n);
    at_ += n;
    return s;
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
    if (den < 0 || (den == 0 && num != 0)) malformed("bad rational");
    if (den > 0) return {num, den};
    const std::string text = get_string();
    try {
      // Only what put() writes: a canonical text of a value beyond 64 bits.
      Rational r = Rational::parse(text, "rational");
      if (!r.is_small() && r.to_string() == text) return r;
    } catch (const InputError&) {
    }
    malformed("bad rational");
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

// A record's codec is its field list, written once as a function `X_fields(io, record)` that calls
// io(field) for each field in wire order (io(field, last) for an enum, io.time(field) for a time
// or duration); an Encoder writes the fields, a Decoder reads them back with the checks above.

/// Writes the fields a record's field list names.
class Encoder {
 public:
  explicit Encoder(std::string& out) : out_(out) {}
  template <class T>
  void operator()(const T& value) {
    out_.put(value);
  }
  template <class E>
    requires std::is_enum_v<E>
  void operator()(const E& value, E /*last*/) {
    out_.put(value);
  }
  template <class Time>
  void time(const Time& t) {
    out_.put(t);
  }

 private:
  Appender out_;
};

/// Reads the fields a record's field list names, refusing what no Encoder writes.
class Decoder {
 public:
  explicit Decoder(Reader& in) : in_(in) {}
  void operator()(bool& flag) { flag = in_.get_flag(); }
  void operator()(std::string& s) { s = in_.get_string(); }
  void operator()(Rational& r) { r = in_.get_rational(); }
  template <class T>
    requires(std::is_trivially_copyable_v<T> && !std::is_same_v<T, bool> && !std::is_enum_v<T> &&
             !std::is_same_v<T, Rational>)
  void operator()(T& value) {
    value = in_.get<T>();
  }
  template <class E>
    requires std::is_enum_v<E>
  void operator()(E& value, E last) {
    value = in_.get_enum(last);
  }
  template <class Time>
  void time(Time& t) {
    t = get_time<Time>(in_);
  }

 private:
  Reader& in_;
};

/// Fault's fields (F: Fault or const Fault).
template <class Io, class F>
void fault_fields(Io& io, F& f) {
  io(f.node);
  io(f.peer);
  io(f.message);
}

inline void put_fault(Writer& w, const std::optional<Fault>& f) {
  w.put(static_cast<std::uint8_t>(f.has_value()));
  if (f) {
    Encoder e(w.str());
    fault_fields(e, *f);
  }
}

inline std::optional<Fault> get_fault(Reader& r) {
  if (!r.get_flag()) return std::nullopt;
  Fault f;
  Decoder d(r);
  fault_fields(d, f);
  return f;
}

/// SendDone's fields (S: SendDone or const SendDone).
template <class Io, class S>
void send_done_fields(Io& io, S& d) {
  io(d.sender);
  io(d.receiver);
  io(d.tag);
  io(d.occupied);
}

/// Post's fields (P: Post or const Post).
template <class Io, class P>
void post_fields(Io& io, P& p) {
  io(p.node);
  io(p.from);
}

/// Request's fields (Q: Request<Time>, const or not).
template <class Io, class Q>
void request_fields(Io& io, Q& q) {
  io(q.from);
  io(q.to);
  io(q.port);
  io(q.tag);
  io(q.size);
  io.time(q.duration);
  io(q.payload);
  io.time(q.delay);
  io(q.lost);
  io(q.number);
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
  Encoder e(w.str());
  for (const auto& d : b.done) send_done_fields(e, d);
  w.put(static_cast<std::uint64_t>(b.posts.size()));
  for (const auto& p : b.posts) post_fields(e, p);
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
  Decoder decoder(r);
  for (auto& d : b.done) send_done_fields(decoder, d);
  constexpr std::size_t POST_BYTES = 2 * sizeof(NodeId);
  b.posts.resize(r.get_count(POST_BYTES));
  for (auto& p : b.posts) post_fields(decoder, p);
  b.request_count = r.get<std::uint64_t>();
}

template <class Time>
void put_request(std::string& out, const Request<Time>& q) {
  Encoder e(out);
  request_fields(e, q);
}

template <class Time>
void get_request(Reader& r, Request<Time>& q) {
  Decoder d(r);
  request_fields(d, q);
}

}  // namespace starnet::emulator::wire

#pragma once
// A round's messages from one zmq worker's dense step path to one peer (dense_step.hpp): receiver,
// sender and inline payload, 16 bytes a message, written once into the string ZeroMQ sends
// without a copy; the other fields as columns, kept once when every message of the batch agrees
// on them (tag, port and length: every step of a star all-reduce), else one per message; sizes
// other than 1 and payloads over 8 bytes listed beside. Private to the emulator library.

#include "wire.hpp"

#include <starnet/core/rational.hpp>
#include <starnet/emulator/program.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starnet::emulator {

/// One field of a batch: a single value while every message agrees on it, then one per message.
template <class T>
class BatchColumn {
 public:
  /// The value of message @p index (= the messages added before it).
  void add(std::uint64_t index, T value) {
    if (index == 0) {
      first_ = value;
    } else if (values_.empty() && value != first_) {
      values_.assign(index, first_);
    }
    if (!values_.empty()) values_.push_back(value);
  }
  void write(wire::Appender& w) const {
    w.put(static_cast<std::uint8_t>(values_.empty() ? 0 : 1));
    if (values_.empty()) {
      w.put(first_);
      return;
    }
    for (const auto& v : values_) w.put(v);
  }

 private:
  T first_{};
  std::vector<T> values_;
};

/// The messages of one round for one peer, in sender order, as they are sent.
class DenseBatch {
 public:
  static constexpr std::uint8_t LONG = 0xFF;  ///< the length of a payload over 8 bytes
  static constexpr std::size_t INLINE_BYTES = sizeof(std::uint64_t);
  /// A message's receiver, sender and inline payload.
  static constexpr std::size_t ROW = 2 * sizeof(std::uint32_t) + INLINE_BYTES;

  void add(std::uint32_t to, std::uint32_t from, Port port, std::uint64_t tag, const Rational& size,
           std::string&& payload) {
    if (count_ == 0) {
      // Room for every sender's row at once: pages never written are never resident, and the
      // string never moves (a copy as it grows would hold the rows twice).
      rows_.reserve(sizeof count_ + most_ * ROW);
      rows_.assign(sizeof count_, '\0');  // the count, written by move_to
    }
    append(rows_, to);
    append(rows_, from);
    std::uint64_t word = 0;
    std::uint8_t length = LONG;
    if (payload.size() <= INLINE_BYTES) {
      std::memcpy(&word, payload.data(), payload.size());
      length = static_cast<std::uint8_t>(payload.size());
    } else {
      long_payloads_.emplace_back(count_, std::move(payload));
    }
    append(rows_, word);
    tag_.add(count_, tag);
    port_.add(count_, port);
    length_.add(count_, length);
    if (size != 1) sizes_.emplace_back(count_, size);
    ++count_;
  }
  [[nodiscard]] std::uint64_t count() const { return count_; }
  /// The most messages a batch takes: one per sender of the worker, at most a round's.
  void expect_at_most(std::uint64_t messages) { most_ = messages; }
  /// Appends the encoding to @p out (moved there when @p out is empty) and forgets the messages,
  /// their storage too: a round's batch is as large as its messages for the peer.
  void move_to(std::string& out) {
    if (count_ == 0) {
      wire::Appender(out).put(count_);
    } else {
      std::memcpy(rows_.data(), &count_, sizeof count_);
      if (out.empty()) {
        out = std::move(rows_);
      } else {
        out.append(rows_);
      }
    }
    wire::Appender w(out);
    tag_.write(w);
    port_.write(w);
    length_.write(w);
    w.put(static_cast<std::uint64_t>(sizes_.size()));
    for (const auto& [i, s] : sizes_) {
      w.put(i);
      w.put(s);
    }
    w.put(static_cast<std::uint64_t>(long_payloads_.size()));
    for (const auto& [i, p] : long_payloads_) {
      w.put(i);
      w.put(p);
    }
    const auto most = most_;
    *this = DenseBatch{};
    most_ = most;
  }

 private:
  template <class T>
  static void append(std::string& column, T value) {
    column.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  std::uint64_t count_ = 0;
  std::uint64_t most_ = 0;
  std::string rows_;  // the count, then receiver, sender and payload of each message
  BatchColumn<std::uint64_t> tag_;
  BatchColumn<Port> port_;
  BatchColumn<std::uint8_t> length_;
  std::vector<std::pair<std::uint64_t, Rational>> sizes_;
  std::vector<std::pair<std::uint64_t, std::string>> long_payloads_;
};

/// Reads the batches DenseBatch::move_to wrote, one after the other, message by message; refuses
/// what it did not write (wire::Reader::malformed).
class DenseBatchReader {
 public:
  struct Message {
    std::uint32_t to = 0;
    std::uint32_t from = 0;
    Port port = 0;
    std::uint64_t tag = 0;
    Rational size = 1;
    std::string payload;
  };
  explicit DenseBatchReader(std::string_view bytes) : r_(bytes) {}

  /// The next message; false after the last.
  bool next(Message& m) {
    while (index_ == count_) {
      if (r_.done()) return false;
      open();
    }
    m.to = row<std::uint32_t>(0);
    m.from = row<std::uint32_t>(sizeof(std::uint32_t));
    m.tag = tag_.at(index_);
    m.port = port_.at(index_);
    const auto length = length_.at(index_);
    m.size = 1;
    if (size_ < sizes_.size() && sizes_[size_].first == index_) m.size = sizes_[size_++].second;
    if (length == DenseBatch::LONG) {
      if (long_ == long_payloads_.size() || long_payloads_[long_].first != index_) {
        wire::Reader::malformed("a long payload missing from a batch");
      }
      m.payload = std::move(long_payloads_[long_++].second);
    } else {
      if (length > DenseBatch::INLINE_BYTES) wire::Reader::malformed("bad payload length");
      const auto word = row<std::uint64_t>(2 * sizeof(std::uint32_t));
      m.payload.assign(reinterpret_cast<const char*>(&word), length);
    }
    ++index_;
    return true;
  }

 private:
  template <class T>
  class Field {
   public:
    void read(wire::Reader& r, std::uint64_t count) {
      wide_ = r.get_flag();
      if (!wide_) {
        first_ = r.get<T>();
        return;
      }
      values_.resize(count);
      for (auto& v : values_) v = r.get<T>();
    }
    [[nodiscard]] T at(std::uint64_t i) const { return wide_ ? values_[i] : first_; }

   private:
    bool wide_ = false;
    T first_{};
    std::vector<T> values_;
  };
  static constexpr std::size_t ROW = DenseBatch::ROW;
  /// The field at @p offset of the current message's row.
  template <class T>
  [[nodiscard]] T row(std::size_t offset) const {
    T v;
    std::memcpy(&v, rows_.data() + index_ * ROW + offset, sizeof v);
    return v;
  }
  void open() {
    count_ = r_.get_count(ROW);
    index_ = 0;
    rows_ = r_.get_bytes(count_ * ROW);
    tag_.read(r_, count_);
    port_.read(r_, count_);
    length_.read(r_, count_);
    sizes_.resize(r_.get_count(2 * sizeof(std::uint64_t)));
    for (auto& [i, s] : sizes_) {
      i = r_.get<std::uint64_t>();
      s = r_.get_rational();
    }
    long_payloads_.resize(r_.get_count(sizeof(std::uint64_t)));
    for (auto& [i, p] : long_payloads_) {
      i = r_.get<std::uint64_t>();
      p = r_.get_string();
    }
    size_ = 0;
    long_ = 0;
  }

  wire::Reader r_;
  std::uint64_t count_ = 0;
  std::uint64_t index_ = 0;
  std::string_view rows_;
  Field<std::uint64_t> tag_;
  Field<Port> port_;
  Field<std::uint8_t> length_;
  std::vector<std::pair<std::uint64_t, Rational>> sizes_;
  std::size_t size_ = 0;
  std::vector<std::pair<std::uint64_t, std::string>> long_payloads_;
  std::size_t long_ = 0;
};

}  // namespace starnet::emulator

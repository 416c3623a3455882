#pragma once
/// @file
/// Stopping a long call on request, and what it is doing now: the two things a front end asks of
/// a run it did not start itself (docs/architecture.md, "api/", "tools/" and "python/").
///
/// Stopping: a front end calls request_stop() (the Python module does on Ctrl-C); long loops of
/// the libraries call throw_if_stopped() at points where stopping leaves nothing half-done (an
/// emulator step, a solver call, a batch of Monte-Carlo runs), and the call ends with Interrupted.
/// The request holds while any StopScope is open and is cleared when the last one closes, so that
/// a stop meant for the running calls never reaches the next one.
///
/// Progress: loops report how far they are (progress_count) and what they are doing
/// (progress_detail); a front end reads progress_snapshot() from another thread (the command
/// line's meter on stderr, the Python module's tqdm bar). Both are process-wide and thread-safe.
/// IMPORTANT: a stop request reaches every call running in the process, whichever thread runs it.

#include <starnet/core/error.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace starnet {

/// A call stopped on request (Ctrl-C). Exit code 130, as a shell reports SIGINT.
class Interrupted : public Error {
 public:
  using Error::Error;
  [[nodiscard]] int exit_code() const noexcept override { return 130; }
};

/// Asks every running call to stop at its next check. Async-signal-safe (one atomic store).
void request_stop() noexcept;
namespace detail {
extern std::atomic<bool> stop_flag;
}  // namespace detail

/// Whether a stop was requested and not yet cleared. One relaxed atomic load, inline: cheap enough
/// for every event time of a Monte-Carlo run.
[[nodiscard]] inline bool stop_requested() noexcept { return detail::stop_flag.load(std::memory_order_relaxed); }
/// @throws Interrupted naming @p what when a stop was requested.
void throw_if_stopped(const char* what = "the run");

/// Iterations of a loop over every node between two looks at a stop request: 2^16, a few
/// milliseconds of work on any node loop of the libraries.
inline constexpr std::uint64_t STOP_CHECK_INTERVAL = std::uint64_t{1} << 16;
/// throw_if_stopped() at every STOP_CHECK_INTERVAL-th @p i of a long loop (S_12 has 479 million
/// nodes: a loop over them takes seconds).
inline void throw_if_stopped_every(std::uint64_t i) {
  if ((i & (STOP_CHECK_INTERVAL - 1)) == 0) throw_if_stopped();
}

/// Elements an array fill writes between two looks at a stop request (assign_interruptibly).
inline constexpr std::size_t STOP_CHECK_FILL = std::size_t{1} << 20;
/// @p v as @p n copies of @p value, written a stretch of STOP_CHECK_FILL at a time with a look at a
/// stop request before each: a run on S_11 first touches gigabytes in its set-up, seconds on a
/// machine whose memory is slow to fault in, and Ctrl-C must end it within a second.
/// @throws Interrupted when a stop was requested (@p v then holds a prefix).
template <class T>
void assign_interruptibly(std::vector<T>& v, std::size_t n, const std::type_identity_t<T>& value) {
  v.clear();
  v.reserve(n);
  while (v.size() < n) {
    throw_if_stopped();
    v.insert(v.end(), std::min(STOP_CHECK_FILL, n - v.size()), value);
  }
}

/// Marks a call that a stop request may end: the request is cleared when the last scope closes.
class StopScope {
 public:
  StopScope() noexcept;
  ~StopScope();
  StopScope(const StopScope&) = delete;
  StopScope& operator=(const StopScope&) = delete;
};

/// How far the running task is: @p done of @p total @p unit (total 0: unknown), @p unit a string
/// that lives as long as the program ("runs", "instances").
void progress_count(std::uint64_t done, std::uint64_t total, const char* unit = "") noexcept;
/// What the running task is doing now, e.g. "S_7 of S_3..S_9" or "T = 6: UNSAT".
void progress_detail(std::string detail);
/// Forgets the count and the detail (a new task begins).
void progress_reset();

struct ProgressSnapshot {
  std::uint64_t done = 0;
  std::uint64_t total = 0;  ///< 0: unknown
  std::string unit;
  std::string detail;
};
[[nodiscard]] ProgressSnapshot progress_snapshot();

}  // namespace starnet

#pragma once
// Lanes: one task per contiguous node range, run on up to a given number of threads, for the dense
// step path (dense_step.hpp). Private to the emulator library.
//
// Plain std::threads, started once per run and woken for each phase of a step, rather than
// oneTBB's parallel_for: libtbb is not built with ThreadSanitizer, and its header code inlined
// into ours then races, in TSan's eyes, with the library's own (47 reports on the lane tests, all
// inside tbb::detail), which would leave the lanes themselves unchecked. A phase is a few
// milliseconds to seconds of work per lane (a step of S_9 and more; smaller runs keep one lane),
// so waking the threads (tens of microseconds) costs nothing measurable.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace starnet::emulator {

class Lanes {
 public:
  /// @p threads: the most threads the lanes run on at once, the calling thread included (1: the
  /// calling thread alone), no more than the machine's cores.
  explicit Lanes(unsigned threads) {
    const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
    const unsigned usable = std::min(std::max(1U, threads), cores);
    for (unsigned t = 1; t < usable; ++t) helpers_.emplace_back([this] { serve(); });
  }
  ~Lanes() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : helpers_) t.join();
  }
  Lanes(const Lanes&) = delete;
  Lanes& operator=(const Lanes&) = delete;

  /// Calls @p f(lane) for every lane in 0..count−1, each once, on the calling thread and the
  /// helpers, and returns when all calls have returned. @p f must not throw (a lane keeps its own
  /// error).
  template <class F>
  void each(std::size_t count, const F& f) {
    if (helpers_.empty() || count == 1) {
      for (std::size_t l = 0; l < count; ++l) f(l);
      return;
    }
    {
      const std::lock_guard lock(mutex_);
      job_ = &f;
      call_ = [](const void* job, std::size_t l) { (*static_cast<const F*>(job))(l); };
      count_ = count;
      next_.store(0, std::memory_order_relaxed);
      done_ = 0;
      ++generation_;
    }
    wake_.notify_all();
    take_lanes();
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return done_ == helpers_.size(); });
  }

 private:
  void take_lanes() {
    for (std::size_t l = next_.fetch_add(1); l < count_; l = next_.fetch_add(1)) call_(job_, l);
  }
  void serve() {
    std::uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      lock.unlock();
      take_lanes();
      lock.lock();
      ++done_;
      if (done_ == helpers_.size()) finished_.notify_one();
    }
  }

  std::vector<std::thread> helpers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable finished_;
  bool stop_ = false;
  std::uint64_t generation_ = 0;
  const void* job_ = nullptr;
  void (*call_)(const void*, std::size_t) = nullptr;
  std::size_t count_ = 0;
  std::atomic<std::size_t> next_{0};
  std::size_t done_ = 0;
};

}  // namespace starnet::emulator

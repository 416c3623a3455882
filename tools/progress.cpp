#include "progress.hpp"

#include <starnet/api/core.hpp>

#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace starnet::tools {
namespace {

/// Nothing is shown for tasks shorter than this.
constexpr std::chrono::milliseconds PROGRESS_DELAY{1000};
/// Time between two reports (a terminal line is rewritten; a file gets one line each).
constexpr std::chrono::milliseconds PROGRESS_INTERVAL{1000};
constexpr std::chrono::milliseconds FILE_INTERVAL{10000};

}  // namespace

ProgressMode parse_progress_mode(std::string_view text) {
  if (text == "auto") return ProgressMode::AUTO;
  if (text == "always") return ProgressMode::ALWAYS;
  if (text == "never") return ProgressMode::NEVER;
  throw UsageError(fmt::format("--progress {}: not known (expected auto, always or never)", text));
}

struct ProgressMeter::State {
  std::string what;
  bool terminal = false;
  bool shown = false;
  bool stop = false;
  std::mutex mutex;
  std::condition_variable wake;
  std::thread thread;

  void run() {
    const auto start = std::chrono::steady_clock::now();
    std::unique_lock lock(mutex);
    auto next = start + PROGRESS_DELAY;
    while (!wake.wait_until(lock, next, [this] { return stop; })) {
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const ProgressSnapshot snapshot = progress_snapshot();
      std::string detail = snapshot.detail;
      if (snapshot.total > 0) {
        const double fraction = static_cast<double>(snapshot.done) / static_cast<double>(snapshot.total);
        const double eta = fraction > 0 ? seconds * (1 - fraction) / fraction : 0;
        detail += fmt::format("{}{:3.0f} % {}/{}{}{}, ETA {:.0f} s", detail.empty() ? "" : " — ", 100 * fraction,
                              snapshot.done, snapshot.total, snapshot.unit.empty() ? "" : " ", snapshot.unit, eta);
      }
      const std::string line =
          fmt::format("starnet {}{}{} ({:.0f} s)", what, detail.empty() ? "" : ": ", detail, seconds);
      // A failed write to stderr has nowhere to be reported; the run goes on.
      if (terminal) {
        std::fprintf(stderr, "\r\033[K%s", line.c_str());
      } else {
        std::fprintf(stderr, "%s\n", line.c_str());
      }
      std::fflush(stderr);
      shown = true;
      next += terminal ? PROGRESS_INTERVAL : FILE_INTERVAL;
    }
    if (shown && terminal) std::fprintf(stderr, "\r\033[K");
  }
};

ProgressMeter::ProgressMeter(std::string what, ProgressMode mode) {
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  if (mode == ProgressMode::NEVER || (mode == ProgressMode::AUTO && !terminal)) return;
  state_ = std::make_unique<State>();
  state_->what = std::move(what);
  state_->terminal = terminal;
  state_->thread = std::thread([s = state_.get()] { s->run(); });
}

ProgressMeter::~ProgressMeter() {
  if (state_ == nullptr) return;
  {
    const std::scoped_lock lock(state_->mutex);
    state_->stop = true;
  }
  state_->wake.notify_all();
  state_->thread.join();
  progress_reset();
}

}  // namespace starnet::tools

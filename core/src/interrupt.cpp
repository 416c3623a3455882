#include <starnet/core/interrupt.hpp>

#include <atomic>
#include <mutex>

namespace starnet {

std::atomic<bool> detail::stop_flag{false};

namespace {

std::atomic<int> open_scopes{0};

std::atomic<std::uint64_t> progress_done{0};
std::atomic<std::uint64_t> progress_total{0};
std::atomic<const char*> progress_unit{""};
std::mutex detail_mutex;
std::string current_detail;

}  // namespace

void request_stop() noexcept { detail::stop_flag.store(true, std::memory_order_relaxed); }

void throw_if_stopped(const char* what) {
  if (stop_requested()) throw Interrupted(std::string(what) + ": stopped on request");
}

StopScope::StopScope() noexcept { open_scopes.fetch_add(1, std::memory_order_acq_rel); }

StopScope::~StopScope() {
  if (open_scopes.fetch_sub(1, std::memory_order_acq_rel) == 1) detail::stop_flag.store(false, std::memory_order_relaxed);
}

void progress_count(std::uint64_t done, std::uint64_t total, const char* unit) noexcept {
  progress_unit.store(unit, std::memory_order_relaxed);
  progress_total.store(total, std::memory_order_relaxed);
  progress_done.store(done, std::memory_order_relaxed);
}

void progress_detail(std::string detail) {
  const std::scoped_lock lock(detail_mutex);
  current_detail = std::move(detail);
}

void progress_reset() {
  progress_count(0, 0);
  progress_detail({});
}

ProgressSnapshot progress_snapshot() {
  ProgressSnapshot s;
  s.done = progress_done.load(std::memory_order_relaxed);
  s.total = progress_total.load(std::memory_order_relaxed);
  s.unit = progress_unit.load(std::memory_order_relaxed);
  const std::scoped_lock lock(detail_mutex);
  s.detail = current_detail;
  return s;
}

}  // namespace starnet

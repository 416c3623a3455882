#pragma once
// Templates of convert.hpp.

#include <starnet/api/json.hpp>
#include <starnet/api/core.hpp>

#include <chrono>
#include <future>
#include <thread>

namespace starnet::python {

template <class F>
py::object document(F&& to_json) {
  const api::ExactAlways exact;
  return to_python(api::with_version(to_json()));
}

/// How often a waiting call looks for Ctrl-C and progress: well inside the second a stop may take.
inline constexpr std::chrono::milliseconds POLL{100};
/// Progress is shown for work that runs longer than this.
inline constexpr std::chrono::milliseconds PROGRESS_DELAY{1000};

template <class R>
R run_interruptibly(std::function<R()> work, const py::object& progress) {
  progress_reset();
  std::packaged_task<R()> task(std::move(work));
  auto result = task.get_future();
  std::thread thread(std::move(task));
  const auto start = std::chrono::steady_clock::now();
  const auto wait = [&](std::chrono::milliseconds d) {
    const py::gil_scoped_release release;
    return result.wait_for(d) == std::future_status::ready;
  };
  while (!wait(POLL)) {
    if (PyErr_CheckSignals() != 0) {  // the handler raised (KeyboardInterrupt): stop the work first
      request_stop();
      {
        const py::gil_scoped_release release;
        result.wait();
        thread.join();
      }
      throw py::error_already_set();
    }
    if (!progress.is_none() && std::chrono::steady_clock::now() - start >= PROGRESS_DELAY) {
      const auto s = progress_snapshot();
      progress(s.done, s.total, s.unit, s.detail);
    }
  }
  thread.join();
  return result.get();
}

}  // namespace starnet::python

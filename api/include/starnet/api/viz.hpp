#pragma once
/// @file
/// The teaching pages (docs/viz.md): one self-contained HTML page (inline SVG, CSS and script; no
/// network) that steps through a star collective on S_2..S_5, everything it shows read from the
/// run's trace and checked against it. `starnet viz` writes them; the Python module shows them
/// inline in Jupyter.

#include <starnet/api/schedule.hpp>
#include <starnet/api/star.hpp>

#include <cstdint>
#include <string>

namespace starnet::api {

/// Largest N of a page: S_5 has 120 nodes and 120 messages per step, about what a screen shows.
inline constexpr int MAX_PAGE_N = 5;

struct VizPage {
  std::string html;
  /// The run is verified and the page's reconstruction from the trace ends as it should.
  bool verified = false;
  std::size_t steps = 0;
};

/// Refuses a page of S_n outside S_2..S_MAX_PAGE_N, naming the topology and what to do instead.
/// @throws UsageError about setting "topology".
void check_page_size(int n);

/// The page of @p run, a star collective run with its trace kept (StarRequest::trace).
/// @throws UsageError as check_page_size(), and when the run kept no trace.
[[nodiscard]] VizPage star_page(const StarResult& run);

/// The page of a stepped all-gather schedule on S_n (e.g. a uniform gossip), the paper's step count
/// beside it; the schedule is run here, its trace kept.
/// @throws UsageError when it is not a stepped all-gather on a star graph of S_2..S_MAX_PAGE_N.
[[nodiscard]] VizPage schedule_page(const LoadedSchedule& schedule);

}  // namespace starnet::api

// The teaching pages as library calls (api/viz.hpp): a star run's page and a stepped all-gather
// schedule's page, each verified against the run's trace; sizes a page cannot show are refused.
#include "../core/expect_error.hpp"

#include <starnet/api/schedule.hpp>
#include <starnet/api/star.hpp>
#include <starnet/api/viz.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <string>

namespace starnet::api {
namespace {

StarResult traced_run(const std::string& topology, Collective collective = Collective::ALLREDUCE) {
  auto request = StarRequest::on(topology, collective);
  request.trace = true;
  return run_star(request);
}

TEST(StarPage, AnAllReducePageIsVerifiedWithOneFramePerStep) {
  for (int n = 2; n <= MAX_PAGE_N; ++n) {
    const auto page = star_page(traced_run("star:" + std::to_string(n)));
    EXPECT_TRUE(page.verified) << n;
    EXPECT_EQ(page.steps, static_cast<std::size_t>(n * (n - 1) / 2)) << n;  // Oh, Choi and Primeaux
    EXPECT_NE(page.html.find("<svg"), std::string::npos) << n;
    EXPECT_EQ(page.html.find("http://"), page.html.find("http://www.w3.org"));  // no network but the SVG namespace
  }
}

TEST(StarPage, RefusesARunWithoutItsTraceAndSizesBeyondAPage) {
  EXPECT_ERROR(UsageError, (void)star_page(run_star(StarRequest::on("star:3"))), "trace");
  EXPECT_ERROR(UsageError, check_page_size(6), "topology");
  EXPECT_ERROR(UsageError, check_page_size(1), "topology");
  EXPECT_NO_THROW(check_page_size(MAX_PAGE_N));
}

TEST(SchedulePage, AStarAllGatherScheduleIsRunAndVerified) {
  ExportRequest request;
  request.algorithm = "star-broadcast";
  request.topology = "star:4";
  const auto page = schedule_page(export_schedule(request));
  EXPECT_TRUE(page.verified);
  EXPECT_GT(page.steps, 0U);
  EXPECT_NE(page.html.find("<svg"), std::string::npos);
}

TEST(SchedulePage, RefusesWhatIsNotAStarAllGather) {
  ExportRequest request;
  request.algorithm = "ring";
  request.topology = "ring:6";
  EXPECT_ERROR(UsageError, (void)schedule_page(export_schedule(request)), "star");
}

}  // namespace
}  // namespace starnet::api

// libFuzzer harness: MSCCL algorithm files (XML) through read_msccl(); a file that reads is a
// schedule whose volume is counted.
#include "fuzz_support.hpp"

#include <starnet/algorithms/schedule/msccl.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace starnet::algorithms::schedule;
  return starnet::fuzz::expect_only([&] {
    const MscclAlgorithm a = read_msccl(std::string(starnet::fuzz::as_text(data, size)), "msccl \"fuzz.xml\"");
    (void)volume(a.schedule);
  });
}

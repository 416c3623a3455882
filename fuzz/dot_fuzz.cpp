// libFuzzer harness: DOT platforms through parse_platform(), and their round trip (fuzz_support.hpp).
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return starnet::fuzz::platform_harness(data, size, starnet::topology::FileFormat::DOT);
}

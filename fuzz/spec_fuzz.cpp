// libFuzzer harness: topology specs as the command line takes them. Every spec is parsed; a
// family's platform is built when the size the spec implies is small (fuzz_support.hpp), and
// must then have that many nodes. Files are never read.
#include "fuzz_support.hpp"

#include <starnet/topology/families.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace starnet::topology;
  const auto text = starnet::fuzz::as_text(data, size);
  return starnet::fuzz::expect_only([&] {
    const Spec spec = parse_spec(text);
    if (spec.family == "star") (void)make_topology(text);  // implicit up to star:12: no platform built
    (void)is_vertex_transitive(text);
    const auto expected = starnet::fuzz::implied_size(text);
    if (!starnet::fuzz::small_enough(expected)) return;
    const Platform p = make_platform(text);
    // tiers' size is random (so is a product with a tiers factor); every other family's follows from its spec.
    if (spec.text.find("tiers:") == std::string::npos && p.num_nodes() != expected->nodes) {
      std::fprintf(stderr, "spec \"%s\": %zu nodes, the spec implies %llu\n", spec.text.c_str(), p.num_nodes(),
                   static_cast<unsigned long long>(expected->nodes));
      __builtin_trap();
    }
    (void)make_topology(text);
  });
}

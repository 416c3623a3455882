#include <starnet/core/error.hpp>

#include <cstdio>
#include <cstdlib>

namespace starnet::detail {

void assertion_failed(const char* expr, const char* file, int line) {
  std::fprintf(stderr, "starnet: internal invariant violated: %s (%s:%d)\n", expr, file, line);
  std::abort();
}

}  // namespace starnet::detail

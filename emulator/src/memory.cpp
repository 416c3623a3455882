// Memory before work (memory.hpp): the bounds a process lives under, read from Linux.
#include <starnet/emulator/memory.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <sys/resource.h>

namespace starnet::emulator {
namespace {

constexpr std::uint64_t KIB = 1024;
constexpr std::uint64_t UNLIMITED = std::numeric_limits<std::uint64_t>::max();

/// The first whole number of a one-line file such as memory.max ("max" is no bound).
std::optional<std::uint64_t> read_number(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return std::nullopt;
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc() || ptr != word.data() + word.size()) return std::nullopt;
  return value;
}

/// A field of /proc/meminfo or /proc/self/status, in bytes ("MemAvailable:  1234 kB").
std::optional<std::uint64_t> read_kib_field(const std::string& path, std::string_view field) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with(field) || line.size() <= field.size() || line[field.size()] != ':') continue;
    std::istringstream fields(line.substr(field.size() + 1));
    std::uint64_t kib = 0;
    if (fields >> kib) return kib * KIB;
  }
  return std::nullopt;
}

/// The cgroup (v2, or v1's memory controller) of this process, as a path under /sys/fs/cgroup.
std::optional<std::string> cgroup_dir() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    // v2: "0::/path"; v1 memory: "N:memory:/path" (or "N:memory,...:/path").
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers.empty()) return "/sys/fs/cgroup" + path;
    if (controllers.find("memory") != std::string::npos) return "/sys/fs/cgroup/memory" + path;
  }
  return std::nullopt;
}

void tighten(MemoryBound& bound, std::optional<std::uint64_t> bytes, std::string source) {
  if (bytes && *bytes < bound.bytes) bound = {*bytes, std::move(source)};
}

/// What is left of a resource limit given what the process already has.
std::optional<std::uint64_t> rlimit_left(int resource, std::optional<std::uint64_t> used) {
  rlimit limit{};
  if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  const auto cap = static_cast<std::uint64_t>(limit.rlim_cur);
  const std::uint64_t have = used.value_or(0);
  return cap > have ? cap - have : 0;
}

}  // namespace

MemoryBound usable_memory() {
  MemoryBound bound{UNLIMITED, "no known bound"};
  tighten(bound, read_kib_field("/proc/meminfo", "MemAvailable"), "available memory (MemAvailable of /proc/meminfo)");
  tighten(bound, rlimit_left(RLIMIT_AS, read_kib_field("/proc/self/status", "VmSize")),
          "the address-space limit of the process (ulimit -v), less what it maps");
  tighten(bound, rlimit_left(RLIMIT_DATA, read_kib_field("/proc/self/status", "VmData")),
          "the data-segment limit of the process (ulimit -d), less what it uses");
  if (const auto dir = cgroup_dir()) {
    for (const auto& [limit_file, usage_file] : std::array<std::pair<const char*, const char*>, 2>{
             {{"/memory.max", "/memory.current"}, {"/memory.limit_in_bytes", "/memory.usage_in_bytes"}}}) {
      const auto limit = read_number(*dir + limit_file);
      if (!limit) continue;
      const std::uint64_t used = read_number(*dir + usage_file).value_or(0);
      tighten(bound, *limit > used ? *limit - used : 0, fmt::format("the cgroup's memory limit ({}{}), less its use", *dir,
                                                                    limit_file));
    }
  }
  return bound;
}

std::uint64_t peak_resident_bytes() { return read_kib_field("/proc/self/status", "VmHWM").value_or(0); }

std::string human_bytes(std::uint64_t bytes) {
  constexpr std::array<const char*, 5> UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};
  auto value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= static_cast<double>(KIB) && unit + 1 < UNITS.size()) {
    value /= static_cast<double>(KIB);
    ++unit;
  }
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", value, UNITS[unit]);
}

void check_memory(const MemoryEstimate& need, const MemoryBound& bound, bool force, std::string_view what,
                  std::string_view hint) {
  if (force || need.bytes <= bound.bytes) return;
  throw InputError(fmt::format("{} needs about {} ({}), more than the {} it may use ({}); try {}", what,
                               human_bytes(need.bytes), need.breakdown, human_bytes(bound.bytes), bound.source, hint));
}

}  // namespace starnet::emulator

// libFuzzer harness: starnet schedule files (JSON). A file that reads is resolved against its
// topology (complete:NODES without one) when that is small, and a stepped schedule is written and
// read back: the same actions on every node, with the same items.
#include "fuzz_support.hpp"

#include <starnet/algorithms/schedule/schedule_json.hpp>

#include <fmt/format.h>

#include <sstream>

namespace {

using namespace starnet::algorithms::schedule;

std::optional<std::string> difference(const Schedule& a, const Schedule& b) {
  const auto& ra = a.rules();
  const auto& rb = b.rules();
  if (a.form() != b.form() || ra.kind() != rb.kind() || a.nodes() != b.nodes() || ra.chunks() != rb.chunks() ||
      ra.root() != rb.root() || a.slots() != b.slots() || a.steps() != b.steps() || a.transfers() != b.transfers() ||
      a.local_operations() != b.local_operations() || a.chunks_moved() != b.chunks_moved() ||
      a.topology() != b.topology()) {
    return "the header or the totals differ";
  }
  for (std::uint32_t v = 0; v < a.nodes(); ++v) {
    const auto x = a.actions(v);
    const auto y = b.actions(v);
    if (x.size() != y.size()) return fmt::format("node {} has {} actions, then {}", v, x.size(), y.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const auto ix = a.items(x[i].items);
      const auto iy = b.items(y[i].items);
      if (x[i].kind != y[i].kind || x[i].key != y[i].key || x[i].peer != y[i].peer || x[i].dep != y[i].dep ||
          !std::equal(ix.begin(), ix.end(), iy.begin(), iy.end())) {
        return fmt::format("node {} action {} differs", v, i);
      }
    }
  }
  return std::nullopt;
}

Schedule read(const std::string& text, const starnet::topology::Topology& topology) {
  std::istringstream in(text);
  return ScheduleFile::read(in, "schedule \"written.json\"").resolve(topology);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return starnet::fuzz::expect_only([&] {
    std::istringstream in{std::string(starnet::fuzz::as_text(data, size))};
    const ScheduleFile file = ScheduleFile::read(in, "schedule \"fuzz.json\"");
    const std::string spec = file.topology().empty() ? fmt::format("complete:{}", file.nodes().value_or(4)) : file.topology();
    if (!starnet::fuzz::small_enough(starnet::fuzz::implied_size(spec))) return;
    const auto topology = starnet::topology::make_topology(spec);
    const Schedule s = file.resolve(*topology);
    (void)volume(s);
    if (s.form() != Form::STEPPED) return;  // the writer writes stepped schedules only
    starnet::fuzz::check_round_trip(
        "schedule", s, write_schedule_json(s, *topology, file.topology()),
        [&](const std::string& text) { return read(text, *topology); }, difference);
  });
}

// The run parameters' names (config.hpp).
#include <starnet/emulator/config.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

namespace starnet::emulator {

std::string PortModel::to_string() const {
  return fmt::format("{}-port {}-duplex", ports == 1 ? std::string("single") : std::to_string(ports),
                     half_duplex ? "half" : "full");
}

std::string to_string(Checking checking) { return checking == Checking::STRICT ? "strict" : "arbitrated"; }
std::string to_string(TimeMode mode) { return mode == TimeMode::UNIT ? "unit" : "timed"; }

Checking parse_checking(std::string_view text, std::string_view what) {
  if (text == "strict") return Checking::STRICT;
  if (text == "arbitrated") return Checking::ARBITRATED;
  throw UsageError(fmt::format("{}: \"{}\" is not a checking mode (expected strict or arbitrated)", what, text));
}

Checking default_checking(bool stepped, TimeMode time) {
  return stepped && time == TimeMode::UNIT ? Checking::STRICT : Checking::ARBITRATED;
}

}  // namespace starnet::emulator

#include "json_output.hpp"

namespace starnet::tools {

std::string_view version() { return STARNET_VERSION; }

}  // namespace starnet::tools

#include <starnet/api/json.hpp>

namespace starnet::api {
namespace {

thread_local bool always = false;

}  // namespace

std::string_view version() { return STARNET_VERSION; }

bool exact_always() { return always; }

ExactAlways::ExactAlways() : before_(always) { always = true; }

ExactAlways::~ExactAlways() { always = before_; }

}  // namespace starnet::api

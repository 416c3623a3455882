#pragma once
// EXPECT_ERROR(Type, statement, fragments...): the statement throws Type and the message contains
// every fragment (a documented throw is tested with the input it must name); setting_of(f): the
// setting an error names.

#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>

namespace starnet::testing {

template <class E, class F>
void expect_error(F&& f, std::initializer_list<std::string_view> fragments) {
  try {
    f();
    ADD_FAILURE() << "no exception thrown";
  } catch (const E& e) {
    const std::string message = e.what();
    for (const auto fragment : fragments) {
      EXPECT_NE(message.find(fragment), std::string::npos) << "message: " << message << "\n  lacks: " << fragment;
    }
  }
}

/// "NAME=VALUE" of the setting the error @p f throws is about, "" when it names none, "no error"
/// when it throws nothing.
template <class F>
std::string setting_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.setting() != nullptr ? e.setting()->name + "=" + e.setting()->value : "";
  }
  return "no error";
}

}  // namespace starnet::testing

#define EXPECT_ERROR(Type, statement, ...)                                   \
  do {                                                                       \
    SCOPED_TRACE(#statement);                                                \
    ::starnet::testing::expect_error<Type>([&] { (void)(statement); }, {__VA_ARGS__}); \
  } while (false)

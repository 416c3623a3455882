#pragma once
/// @file
/// The one exception hierarchy of starnet, and STARNET_ASSERT for internal invariants.
///
/// Every error names the offending input and what was expected, e.g.
/// `topology file "t.dot" line 7: link a->b has cost -1 (must be > 0)`. The command line maps
/// each leaf to the documented exit code (README, "Exit codes"): 2 for bad input or usage, 3 for a runtime
/// failure. A verification that fails is a result (exit 1), not an exception, except for a
/// violation of the port model detected while emulating (ModelViolation, exit 1).

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace starnet {

/// The setting of a library call that an error is about, in the library's own words (e.g.
/// "workers", the number of workers of a zmq run), and the value it was given. The libraries
/// never name command-line flags: a front end names the setting its own way (the command line
/// prints its flag, `--workers 0: …`; tools/options.cpp).
struct Setting {
  std::string name;
  std::string value;  ///< as given; empty when the error is about the setting as a whole
};

/// Root of every exception starnet throws on purpose.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  /// what() is "NAME VALUE: REASON" (or "NAME: REASON" without a value).
  Error(Setting setting, const std::string& reason)
      : std::runtime_error(setting.name + (setting.value.empty() ? "" : " " + setting.value) + ": " + reason),
        about_(std::make_shared<const About>(About{std::move(setting), reason})) {}
  /// @return the process exit code the command line uses for this error.
  [[nodiscard]] virtual int exit_code() const noexcept { return 3; }
  /// The setting at fault, or null for an error about something else (a file, a run).
  [[nodiscard]] const Setting* setting() const noexcept { return about_ ? &about_->setting : nullptr; }
  /// What is wrong with setting(): what() without the setting's name and value.
  [[nodiscard]] const char* reason() const noexcept { return about_ ? about_->reason.c_str() : what(); }

 private:
  struct About {
    Setting setting;
    std::string reason;
  };
  std::shared_ptr<const About> about_;  // shared: exceptions are copied, and copies must not throw
};

/// Bad input: a topology spec or file, a flag value, a plan that cannot be. Exit code 2.
class InputError : public Error {
 public:
  using Error::Error;
  [[nodiscard]] int exit_code() const noexcept override { return 2; }
};

/// A topology spec, file or query that is not valid.
class TopologyError : public InputError {
 public:
  using InputError::InputError;
};

/// A command line that does not make sense (unknown value, conflicting options).
class UsageError : public InputError {
 public:
  using InputError::InputError;
};

/// A plan or schedule that cannot be built or run as given.
class ScheduleError : public InputError {
 public:
  using InputError::InputError;
};

/// A node program broke the port model in strict mode: names step, node and link. Exit code 1.
class ModelViolation : public Error {
 public:
  using Error::Error;
  /// @param node the id of the node at fault (the message names it by its name).
  ModelViolation(const std::string& message, std::uint64_t node) : Error(message), node_(node) {}
  [[nodiscard]] int exit_code() const noexcept override { return 1; }
  /// The id of the node at fault, where the engine knows it.
  [[nodiscard]] std::optional<std::uint64_t> node() const noexcept { return node_; }

 private:
  std::optional<std::uint64_t> node_;
};

/// The emulator's transport failed (a worker died, a socket could not bind, a timeout). Exit 3.
class TransportError : public Error {
 public:
  using Error::Error;
};

/// A value that must be a 64-bit integer (a count, an index: Rational::floor and ceil) is beyond
/// 64 bits; exact rationals themselves never overflow (rational.hpp). The input's numbers are at
/// fault: exit code 2; callers that know the input name it.
class OverflowError : public InputError {
 public:
  using InputError::InputError;
};

/// An external solver failed to solve a problem it was given. Exit code 3.
class SolverError : public Error {
 public:
  using Error::Error;
};

namespace detail {
[[noreturn]] void assertion_failed(const char* expr, const char* file, int line);
}  // namespace detail

}  // namespace starnet

/// Internal invariant; never used to reject input (inputs are validated and throw InputError).
#define STARNET_ASSERT(expr) \
  ((expr) ? static_cast<void>(0) : ::starnet::detail::assertion_failed(#expr, __FILE__, __LINE__))

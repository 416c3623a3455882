#pragma once
// The engine options every emulating subcommand shares (--engine, --workers, --processes, …,
// --trace), turned into the library's typed choice (api/engine.hpp), which refuses what does not
// apply.

#include "trace_output.hpp"

#include <starnet/api/engine.hpp>

#include <CLI/CLI.hpp>

#include <string>

namespace starnet::tools {

struct EngineOptions {
  std::string engine = "local";
  long workers = 0;
  bool processes = false;
  std::string address;
  long port = 0;
  std::string listen;
  std::string key_file;
  double peer_timeout = 0;
  double timeout = 0;
  bool force = false;
  TraceOutput trace;
  /// Record the trace even without --trace (for drawings: --gantt, `starnet viz`).
  bool keep_trace = false;
  /// Declares --engine, --workers, --processes, --address, --port, --listen, --key-file,
  /// --peer-timeout, --timeout, --force and --trace (and its format); @p processes false leaves
  /// out the options of worker processes (a subcommand whose zmq workers are threads).
  void add_to(CLI::App& app, bool processes = true);
  /// The library's choice: the options given, the others left to their defaults.
  [[nodiscard]] api::EngineChoice choice() const;
  /// Whether the run keeps its trace (--trace, or a drawing).
  [[nodiscard]] bool tracing() const { return keep_trace || trace.wanted(); }

 private:
  const CLI::App* app_ = nullptr;
  [[nodiscard]] bool given(const char* option) const;
};

}  // namespace starnet::tools

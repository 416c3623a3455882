// `starnet worker` (a zmq worker process, started by a coordinator or joining one from another
// host) and `starnet keygen` (the key file of a run whose workers join).

#include "command.hpp"

#include <starnet/api/core.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/star.hpp>

#include <fmt/format.h>

#include <iostream>
#include <string>

namespace starnet::tools {

void declare_worker_command(CLI::App& cmd, Action& action) {
  static api::WorkerOptions o;
  static std::string join;
  auto* connect =
      cmd.add_option("--connect", o.coordinator, "Coordinator endpoint (tcp://ADDRESS:PORT, or ipc://DIR/NAME on one host)")
          ->check([](const std::string& e) {
            return e.starts_with("tcp://") || e.starts_with("ipc://")
                       ? std::string()
                       : fmt::format("\"{}\": expected tcp://ADDRESS:PORT or ipc://DIR/NAME", e);
          });
  auto* joining = cmd.add_option("--join", join,
                                 "HOST:PORT of a coordinator started with --listen (with --key-file, the run's key)")
                      ->excludes(connect);
  cmd.add_option("--key-file", o.key_file, "With --join: the run's key file (mode 0600)")->needs(joining);
  cmd.add_option("--index", o.index, "This worker's index (with --join: any free one unless given)")
      ->check(integer_in(0, api::MAX_WORKERS - 1));
  cmd.add_option("--address", o.address,
                 "Address this worker listens on for its peers (default: the run's address, or with --join the "
                 "address of this host that reaches the coordinator)");
  cmd.add_option("--timeout", o.timeout_seconds, "Seconds to wait for the coordinator's first answer after saying hello")
      ->capture_default_str()
      ->check(finite_number(0));
  cmd.add_option("--peer-timeout", o.peer_timeout_seconds,
                 "Seconds without the coordinator's heartbeat before giving up (the coordinator's own applies once "
                 "the run starts)")
      ->capture_default_str()
      ->check(finite_number(api::MIN_PEER_TIMEOUT_SECONDS));
  cmd.add_option("--key-fd", o.key_fd,
                 "Inherited pipe holding the run's CURVE secret key (the key itself is never an argument)")
      ->excludes(joining);
  cmd.callback([&action] {
    if (join.empty() && o.coordinator.empty()) throw UsageError("worker: expected --join HOST:PORT (or --connect ENDPOINT)");
    if (!join.empty()) {
      action = [] {
        api::JoinRequest r{join, o.key_file, std::nullopt, o.address, o.timeout_seconds, o.peer_timeout_seconds};
        if (o.index != api::WorkerOptions::ANY_INDEX) r.index = o.index;
        return api::join_run(r);
      };
      return;
    }
    if (o.index == api::WorkerOptions::ANY_INDEX) {
      throw UsageError(fmt::format("--connect {}: needs --index (given by the coordinator that starts it)", o.coordinator));
    }
    action = [] { return api::serve_partition(o); };
  });
}

void declare_keygen_command(CLI::App& cmd, Action& action) {
  static std::string path;
  cmd.add_option("-o,--output", path, "The key file to make (never replaced if it exists)")->required();
  cmd.callback([&action] {
    action = [] {
      api::write_key_file(path);
      std::cout << fmt::format("wrote {} (mode 0600): copy it to the coordinator's and every worker's host\n", path);
      return 0;
    };
  });
}

}  // namespace starnet::tools

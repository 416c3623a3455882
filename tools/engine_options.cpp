#include "engine_options.hpp"

#include "command.hpp"

#include <starnet/api/settings.hpp>
#include <starnet/api/star.hpp>

#include <fmt/format.h>

#include <iostream>

namespace starnet::tools {

void EngineOptions::add_to(CLI::App& app, bool with_processes) {
  app_ = &app;
  app.add_option("--engine", engine, "local (one process, no sockets) or zmq (workers exchanging ZeroMQ batches)")
      ->check(CLI::IsMember({"local", "zmq"}))
      ->capture_default_str();
  app.add_option("--workers", workers,
                 fmt::format("Number of zmq workers, 1..{}{} (default: 2 with --engine zmq)", api::MAX_WORKERS,
                             with_processes ? ", each owning a range of sub-stars" : ""));
  app.add_flag("--force", force,
               "Run even when the memory estimate exceeds what this process may use (available memory, ulimit, "
               "cgroup); without it such a run is refused before it starts (docs/limits.md)");
  trace.add_to(app);
  if (!with_processes) return;
  app.add_flag("--processes", processes,
               "Run zmq workers as separate processes over tcp (on 127.0.0.1 unless --address) instead of threads "
               "over inproc://");
  app.add_option("--address", address,
                 "With --processes: the address the coordinator and every worker listen on, a numeric IPv4 or IPv6 "
                 "address of this machine or localhost (default 127.0.0.1). Not loopback: every connection is "
                 "encrypted and authenticated with ZeroMQ CURVE, one fresh key pair per run (docs/emulator.md). "
                 "Workers still run on this machine");
  app.add_option("--port", port, "TCP port of the coordinator with --processes (default 0: any free port)")
      ->check(integer_in(0, 65535));
  app.add_option("--listen", listen,
                 "Workers on other hosts: listen on HOST:PORT (an address of this machine) for --workers K workers "
                 "started with `starnet worker --join HOST:PORT --key-file FILE`; implies --processes, always CURVE");
  app.add_option("--key-file", key_file,
                 "With --listen: the run's key file, mode 0600 (written here when it does not exist; or made by "
                 "`starnet keygen`); copy it to every worker host, never to anyone else");
  app.add_option("--peer-timeout", peer_timeout,
                 "With --processes: seconds without a heartbeat after which a worker is declared gone (exit 3); "
                 "default 5 s beyond the longest step seen")
      ->check(finite_number(emulator::MIN_PEER_TIMEOUT_SECONDS));
  app.add_option("--timeout", timeout,
                 fmt::format("With --engine zmq: seconds a worker waits at a step's barrier for its peers; with "
                             "--processes also to wait for every worker to join (--listen) or say hello, and for any "
                             "answer while running (default {:g})",
                             emulator::ProcessOptions{}.timeout_seconds))
      ->check(finite_number(0));
}

bool EngineOptions::given(const char* option) const {
  const CLI::Option* o = app_ != nullptr ? app_->get_option_no_throw(option) : nullptr;
  return o != nullptr && o->count() > 0;
}

api::EngineChoice EngineOptions::choice() const {
  api::EngineChoice c;
  c.kind = api::parse_engine(engine);
  if (given("--workers")) c.workers = workers;
  c.processes = processes || !listen.empty();
  c.address = address;
  if (given("--port")) c.port = port;
  c.listen = listen;
  c.key_file = key_file;
  if (given("--peer-timeout")) c.peer_timeout = peer_timeout;
  if (given("--timeout")) c.timeout = timeout;
  c.force = force;
  if (c.joined()) {
    const std::string key = key_file;
    const unsigned k = c.workers ? static_cast<unsigned>(*c.workers) : 2U;
    c.on_listening = [key, k](const std::string& endpoint, bool key_written) {
      // Tells the user where to start the workers, once the coordinator listens.
      constexpr std::string_view scheme = "tcp://";
      const std::string where = endpoint.starts_with(scheme) ? endpoint.substr(scheme.size()) : endpoint;
      std::cerr << fmt::format("starnet: listening on {} for {} worker{}{}; on each worker host run: starnet worker "
                               "--join {} --key-file {}\n",
                               endpoint, k, k > 1 ? "s" : "",
                               key_written ? fmt::format(" (wrote the run's key to {}: copy it there first)", key) : "",
                               where, key)
                << std::flush;
    };
  }
  return c;
}

}  // namespace starnet::tools

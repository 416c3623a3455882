#pragma once
// The tcp transport of worker processes (zmq_coordinator.cpp, zmq_worker_process.cpp): the address a run binds to, and CURVE
// (ZeroMQ RFC 26) with ZAP authentication (RFC 27) when that address is not loopback.
//
// One run = one fresh CURVE key pair, made by the coordinator. Every server socket (the
// coordinator's ROUTER, each worker's PULL) uses it as its server key pair and every client
// socket (each worker's DEALER and PUSH sockets) as its client key pair, with its public key as
// the server key. So every tcp connection of the run is encrypted, and a server accepts a client
// only if the client proves it holds the run's secret key: a ZAP handler in each process answers
// 200 for the run's public key and 400 for anything else. The secret key reaches a worker through
// an inherited pipe (KeyPipe), never through its command line or environment.
// Private to the emulator library.
//
// IMPORTANT: authentication is all-or-nothing (every holder of the run's secret key is a peer of
// the run); it does not tell one worker from another, nor protect a key read from a process's
// memory.

#include <zmq.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace starnet::emulator {

/// A checked `--address`: a numeric IPv4 or IPv6 address, or `localhost` (127.0.0.1).
struct TcpAddress {
  std::string text;  ///< as the user gave it (for messages)
  std::string ip;    ///< numeric, without brackets
  bool ipv6 = false;
  bool loopback = false;  ///< 127.0.0.0/8, ::1 or ::ffff:127.0.0.0/104
  /// @throws UsageError naming @p text when it is not an IP address, or is a wildcard (0.0.0.0, ::),
  /// which would listen on every interface.
  static TcpAddress parse(const std::string& text);
  /// @return tcp://IP:PORT, with the IPv6 address in brackets; port 0 is "*" (any free port).
  [[nodiscard]] std::string endpoint(int port) const;
};

/// The numeric addresses of this machine's interfaces that are up (getifaddrs), loopback included,
/// IPv6 link-local ones left out (they need a scope, which TcpAddress does not take).
/// @throws TransportError when the interfaces cannot be listed.
std::vector<std::string> local_addresses();

/// A CURVE key pair, Z85 text (40 characters each).
struct CurveKeys {
  std::string public_key;
  std::string secret_key;
  /// A fresh pair (zmq_curve_keypair). @throws TransportError when libzmq was built without CURVE.
  static CurveKeys generate();
  /// The pair of @p secret_key. @throws TransportError when it is not a Z85 CURVE key (the message
  /// does not repeat the key).
  static CurveKeys from_secret(const std::string& secret_key);
  /// Reads the secret key a KeyPipe holds from @p fd up to its end, and closes @p fd.
  /// @throws TransportError naming @p fd when it cannot be read or does not hold a key.
  static CurveKeys read_from(int fd);
  /// Reads a key file (write_file's format). @throws UsageError naming @p path when it is missing,
  /// not a regular file, open to other users (any mode bit beyond 0600), or holds no valid key.
  static CurveKeys read_file(const std::string& path);
  /// Writes this pair to a new file @p path, mode 0600. @throws UsageError naming @p path when it
  /// exists (a key file is never replaced: its copies on other hosts would stop matching) or
  /// cannot be made; TransportError when a write fails (the partial file is removed).
  void write_file(const std::string& path) const;
};

/// The address of this machine that its routing table uses to reach @p peer (a numeric IP): where
/// a worker listens so that its peers, which reach the coordinator as it does, can reach it too.
/// No packet is sent. @throws TransportError when no route leads there.
std::string local_address_towards(const std::string& peer);

/// The read end of a pipe holding a run's secret key, for one worker process to inherit: it is
/// close-on-exec, and the coordinator's spawn clears that flag in the child it starts, between fork
/// and exec, so no other process gets it. Closed on destruction.
class KeyPipe {
 public:
  /// @throws TransportError when the pipe cannot be made.
  explicit KeyPipe(const CurveKeys& keys);
  ~KeyPipe();
  KeyPipe(const KeyPipe&) = delete;
  KeyPipe& operator=(const KeyPipe&) = delete;
  [[nodiscard]] int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

/// How one process of a run binds and connects its tcp sockets: on the run's address (IPv4 or
/// IPv6), and with CURVE when it has the run's keys. With keys, it runs a ZAP handler on its own
/// thread, in the given context, that accepts only the run's public key: construct it before any
/// server socket of that context binds, and destroy it after they are closed.
/// A folder only this user may enter (mode 0700, under /tmp), removed with what it holds when
/// this object goes: the ipc:// endpoints of a run on one host live there, so that another local
/// user cannot connect to them.
class PrivateDirectory {
 public:
  /// @throws TransportError when it cannot be made.
  PrivateDirectory();
  ~PrivateDirectory();
  PrivateDirectory(const PrivateDirectory&) = delete;
  PrivateDirectory& operator=(const PrivateDirectory&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Watches the connections of one socket (zmq_socket_monitor) for handshakes that fail: a CURVE
/// peer without the run's key, a client that does not speak ZMTP (a port scanner), or a server
/// that closes every connection before its handshake ends (what a worker with the wrong key
/// file sees). Poll item(), then take().
class HandshakeMonitor {
 public:
  /// @throws zmq::error_t when the socket cannot be monitored.
  HandshakeMonitor(zmq::context_t& ctx, zmq::socket_t& watched);
  [[nodiscard]] zmq::pollitem_t item() { return {pair_.handle(), 0, ZMQ_POLLIN, 0}; }
  /// Reads every event waiting.
  void take();
  /// A client's view: connections that ended before their handshake succeeded.
  [[nodiscard]] std::uint64_t failed() const { return failed_; }
  /// A server's view: connections accepted whose handshake has not succeeded (failed, or still
  /// going: a client that sends what is not ZMTP is never answered and never fails outright).
  [[nodiscard]] std::uint64_t not_admitted() const { return accepted_ > succeeded_ ? accepted_ - succeeded_ : 0; }

 private:
  zmq::socket_t pair_;
  std::uint64_t failed_ = 0;
  std::uint64_t accepted_ = 0;
  std::uint64_t succeeded_ = 0;
  bool connected_ = false;  // a connection whose handshake has not ended yet
};

/// The folder of an ipc:// @p endpoint (ipc://DIR/NAME), or std::nullopt for another transport.
[[nodiscard]] std::optional<std::string> ipc_directory(const std::string& endpoint);

class TcpTransport {
 public:
  /// @param keys the run's keys, or std::nullopt for plain tcp.
  /// @param ipc_dir when given, servers bind ipc:// endpoints in this folder instead of tcp (a run
  /// on one host: the folder's mode keeps other users out; keys are then not used).
  /// @throws TransportError when the public key is not Z85 text, zmq::error_t when the context
  /// already has a ZAP handler.
  TcpTransport(zmq::context_t& ctx, TcpAddress address, std::optional<CurveKeys> keys,
               std::optional<std::string> ipc_dir = std::nullopt);
  ~TcpTransport();
  TcpTransport(const TcpTransport&) = delete;
  TcpTransport& operator=(const TcpTransport&) = delete;

  /// Makes @p s a server of the run and binds it to the address and @p port (0: any free port),
  /// or to a fresh ipc:// endpoint in the folder given.
  /// @return the endpoint bound (tcp://IP:PORT or ipc://DIR/NAME).
  /// @throws UsageError naming the address or the port when it cannot listen there (port taken,
  /// address not of this machine: the message lists this machine's addresses).
  std::string bind(zmq::socket_t& s, int port) const;
  /// Makes @p s a client of the run and connects it to @p endpoint.
  void connect(zmq::socket_t& s, const std::string& endpoint) const;

  [[nodiscard]] const TcpAddress& address() const { return address_; }
  [[nodiscard]] const std::optional<CurveKeys>& keys() const { return keys_; }

  /// The clients refused so far for not holding the run's key, and the addresses (up to
  /// MAX_NAMED_REFUSALS) they came from.
  struct Refusals {
    std::uint64_t count = 0;
    std::vector<std::string> addresses;
  };
  [[nodiscard]] Refusals refusals() const;

 private:
  TcpAddress address_;
  std::optional<CurveKeys> keys_;
  std::optional<std::string> ipc_dir_;
  mutable unsigned bound_ = 0;  // ipc endpoints bound so far: their names
  zmq::socket_t stop_;  // tells the ZAP handler to return
  struct Shared {
    std::mutex mutex;
    Refusals refusals;
  };
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();  // written by the ZAP handler
  std::thread zap_;
};

}  // namespace starnet::emulator

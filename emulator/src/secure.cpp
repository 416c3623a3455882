#include "secure.hpp"

#include <starnet/emulator/zmq_engine.hpp>

#include <starnet/core/error.hpp>

#include <fmt/format.h>
#include <zmq_addon.hpp>

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <ifaddrs.h>
#include <fstream>
#include <memory>
#include <netdb.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace starnet::emulator {
namespace {

constexpr std::size_t Z85_KEY = 40;
/// Refused clients named in a message: a scanner's many addresses are counted, not listed.
constexpr std::size_t MAX_NAMED_REFUSALS = 4;
/// The first line of a key file, which says what it is and how to keep it.
constexpr std::string_view KEY_FILE_HEADER =
    "# starnet run key (ZeroMQ CURVE): copy it to every worker host of the run, to no one else; mode 0600";
constexpr std::string_view PUBLIC_FIELD = "public-key: ";
constexpr std::string_view SECRET_FIELD = "secret-key: ";
/// A key file is three short lines: anything longer is not one.
constexpr std::uintmax_t MAX_KEY_FILE_BYTES = 4096;

UsageError wildcard(const std::string& text) {
  return UsageError(Setting{"address", text},
                    "a wildcard address listens on every interface (expected one address of this machine)");
}

/// Answers the ZAP requests of one context (RFC 27) until @p stop receives anything. Request:
/// version, request id, domain, address, routing id, mechanism, credentials (for CURVE, the
/// client's 32-byte public key); reply: version, request id, status code, status text, user id,
/// metadata. An error escapes the thread and ends the process, on purpose: libzmq lets every
/// client in when no handler is bound, so a dead handler must not leave its servers open.
template <class OnRefusal>
void answer_zap(zmq::socket_t& handler, zmq::socket_t& stop, const std::string& allowed, OnRefusal on_refusal) {
  for (;;) {
    std::vector<zmq::pollitem_t> items = {{handler.handle(), 0, ZMQ_POLLIN, 0}, {stop.handle(), 0, ZMQ_POLLIN, 0}};
    zmq::poll(items, std::chrono::milliseconds(-1));
    if ((items[1].revents & ZMQ_POLLIN) != 0) return;
    std::vector<zmq::message_t> request;
    (void)zmq::recv_multipart(handler, std::back_inserter(request));
    const bool accepted = request.size() == 7 && request[0].to_string_view() == "1.0" &&
                          request[5].to_string_view() == "CURVE" && request[6].to_string_view() == allowed;
    if (!accepted) on_refusal(request.size() > 3 ? request[3].to_string() : std::string("?"));
    const std::array<zmq::const_buffer, 6> reply = {
        zmq::str_buffer("1.0"),
        request.size() > 1 ? zmq::buffer(request[1].data(), request[1].size()) : zmq::const_buffer(),
        accepted ? zmq::str_buffer("200") : zmq::str_buffer("400"),
        accepted ? zmq::str_buffer("OK") : zmq::str_buffer("not the key of this run"),
        zmq::const_buffer(),
        zmq::const_buffer()};
    (void)zmq::send_multipart(handler, reply);
  }
}

}  // namespace

TcpAddress TcpAddress::parse(const std::string& text) {
  TcpAddress a;
  a.text = text;
  a.ip = text == "localhost" ? "127.0.0.1" : text;
  in_addr v4{};
  in6_addr v6{};
  if (::inet_pton(AF_INET, a.ip.c_str(), &v4) == 1) {
    const auto host = ntohl(v4.s_addr);
    if (host == INADDR_ANY) throw wildcard(text);
    a.loopback = (host >> 24) == 127;
  } else if (::inet_pton(AF_INET6, a.ip.c_str(), &v6) == 1) {
    if (IN6_IS_ADDR_UNSPECIFIED(&v6)) throw wildcard(text);
    a.ipv6 = true;
    a.loopback = IN6_IS_ADDR_LOOPBACK(&v6) || (IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127);
  } else {
    throw UsageError(Setting{"address", text}, "not an IP address (expected a numeric IPv4 or IPv6 address of this "
                                               "machine, e.g. 127.0.0.1 or ::1, or localhost)");
  }
  return a;
}

std::string TcpAddress::endpoint(int port) const {
  const std::string p = port == 0 ? "*" : std::to_string(port);
  return ipv6 ? fmt::format("tcp://[{}]:{}", ip, p) : fmt::format("tcp://{}:{}", ip, p);
}

std::vector<std::string> local_addresses() {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) {
    throw TransportError(fmt::format("cannot list this machine's addresses ({})", std::strerror(errno)));
  }
  const std::unique_ptr<ifaddrs, decltype(&::freeifaddrs)> owner(list, &::freeifaddrs);
  std::vector<std::string> out;
  for (const ifaddrs* a = list; a != nullptr; a = a->ifa_next) {
    if (a->ifa_addr == nullptr || (a->ifa_flags & IFF_UP) == 0) continue;
    std::array<char, INET6_ADDRSTRLEN> text{};
    if (a->ifa_addr->sa_family == AF_INET) {
      const auto& ip = reinterpret_cast<const sockaddr_in*>(a->ifa_addr)->sin_addr;
      ::inet_ntop(AF_INET, &ip, text.data(), text.size());
    } else if (a->ifa_addr->sa_family == AF_INET6) {
      const auto& ip = reinterpret_cast<const sockaddr_in6*>(a->ifa_addr)->sin6_addr;
      if (IN6_IS_ADDR_LINKLOCAL(&ip)) continue;
      ::inet_ntop(AF_INET6, &ip, text.data(), text.size());
    } else {
      continue;
    }
    out.emplace_back(text.data());
  }
  return out;
}

CurveKeys CurveKeys::generate() {
  std::array<char, Z85_KEY + 1> public_key{};
  std::array<char, Z85_KEY + 1> secret_key{};
  if (::zmq_curve_keypair(public_key.data(), secret_key.data()) != 0) {
    throw TransportError(fmt::format("cannot make a CURVE key pair ({}; is libzmq built with CURVE?)",
                                     ::zmq_strerror(::zmq_errno())));
  }
  return {public_key.data(), secret_key.data()};
}

CurveKeys CurveKeys::from_secret(const std::string& secret_key) {
  std::array<char, Z85_KEY + 1> public_key{};
  if (secret_key.size() != Z85_KEY || ::zmq_curve_public(public_key.data(), secret_key.c_str()) != 0) {
    throw TransportError(fmt::format("the run's CURVE secret key is not valid (expected {} Z85 characters, got {})",
                                     Z85_KEY, secret_key.size()));
  }
  return {public_key.data(), secret_key};
}

CurveKeys CurveKeys::read_from(int fd) {
  std::string text;
  std::array<char, 64> buffer{};
  ssize_t n = 0;
  // A key is 40 bytes: stop at 1 KiB rather than read a stray endless stream.
  while (text.size() < 1024 && ((n = ::read(fd, buffer.data(), buffer.size())) > 0 || (n < 0 && errno == EINTR))) {
    if (n > 0) text.append(buffer.data(), static_cast<std::size_t>(n));
  }
  const int error = errno;
  ::close(fd);
  // A descriptor that is not open is a bad argument (exit 2); a read that fails, a runtime failure.
  const Setting descriptor{"key descriptor", std::to_string(fd)};
  if (n < 0 && error == EBADF) throw UsageError(descriptor, "not an open file descriptor");
  if (n < 0) throw TransportError(descriptor, fmt::format("cannot read the run's key ({})", std::strerror(error)));
  try {
    return from_secret(text);
  } catch (const TransportError& e) {
    throw TransportError(descriptor, e.what());
  }
}

CurveKeys CurveKeys::read_file(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    throw UsageError(fmt::format("key file {}: cannot be read ({}; expected the run's key file, made by `starnet "
                                 "keygen -o FILE` or by the coordinator)",
                                 path, std::strerror(errno)));
  }
  if (!S_ISREG(info.st_mode) || info.st_size > static_cast<off_t>(MAX_KEY_FILE_BYTES)) {
    throw UsageError(fmt::format("key file {}: not a key file (expected a small regular file)", path));
  }
  if ((info.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    throw UsageError(fmt::format("key file {}: other users may read or change it (mode {:04o}; expected 0600: chmod "
                                 "600 {})",
                                 path, info.st_mode & 07777, path));
  }
  std::ifstream in(path);
  std::string secret;
  std::string public_key;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line.starts_with('#')) continue;
    if (line.starts_with(SECRET_FIELD)) {
      secret = line.substr(SECRET_FIELD.size());
    } else if (line.starts_with(PUBLIC_FIELD)) {
      public_key = line.substr(PUBLIC_FIELD.size());
    } else {
      throw UsageError(fmt::format("key file {}: a line that is not \"public-key: KEY\" or \"secret-key: KEY\"", path));
    }
  }
  if (in.bad()) throw UsageError(fmt::format("key file {}: cannot be read", path));
  CurveKeys keys;
  try {
    keys = from_secret(secret);
  } catch (const TransportError& e) {
    throw UsageError(fmt::format("key file {}: {}", path, e.what()));
  }
  if (!public_key.empty() && public_key != keys.public_key) {
    throw UsageError(fmt::format("key file {}: its public key is not the one of its secret key", path));
  }
  return keys;
}

void CurveKeys::write_file(const std::string& path) const {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, S_IRUSR | S_IWUSR);
  if (fd < 0 && errno == EEXIST) {
    throw UsageError(fmt::format("key file {}: already exists (a key file is never replaced; remove it first, or give "
                                 "another name)",
                                 path));
  }
  if (fd < 0) throw UsageError(fmt::format("key file {}: cannot be made ({})", path, std::strerror(errno)));
  const std::string text = fmt::format("{}\n{}{}\n{}{}\n", KEY_FILE_HEADER, PUBLIC_FIELD, public_key, SECRET_FIELD, secret_key);
  std::size_t done = 0;
  int error = 0;
  while (done < text.size() && error == 0) {
    const auto n = ::write(fd, text.data() + done, text.size() - done);
    if (n > 0) done += static_cast<std::size_t>(n);
    if (n < 0 && errno != EINTR) error = errno;
  }
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    ::unlink(path.c_str());
    throw TransportError(fmt::format("key file {}: cannot be written ({})", path, std::strerror(error)));
  }
}

std::string resolve_host(const std::string& host, std::string_view what) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string name = host.size() > 2 && host.front() == '[' && host.back() == ']' ? host.substr(1, host.size() - 2) : host;
  const int rc = ::getaddrinfo(name.c_str(), nullptr, &hints, &found);
  if (rc != 0 || found == nullptr) {
    throw UsageError(fmt::format("{} {}: not an address or a host name that resolves ({})", what, host, ::gai_strerror(rc)));
  }
  const std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> owner(found, &::freeaddrinfo);
  std::array<char, NI_MAXHOST> text{};
  if (::getnameinfo(found->ai_addr, found->ai_addrlen, text.data(), text.size(), nullptr, 0, NI_NUMERICHOST) != 0) {
    throw UsageError(fmt::format("{} {}: its address cannot be written as a number", what, host));
  }
  return text.data();
}

std::string local_address_towards(const std::string& peer) {
  const TcpAddress to = TcpAddress::parse(peer);
  sockaddr_storage address{};
  socklen_t length = 0;
  if (to.ipv6) {
    auto* a = reinterpret_cast<sockaddr_in6*>(&address);
    a->sin6_family = AF_INET6;
    a->sin6_port = htons(9);  // any port: a datagram socket's connect only picks a route
    ::inet_pton(AF_INET6, to.ip.c_str(), &a->sin6_addr);
    length = sizeof(sockaddr_in6);
  } else {
    auto* a = reinterpret_cast<sockaddr_in*>(&address);
    a->sin_family = AF_INET;
    a->sin_port = htons(9);
    ::inet_pton(AF_INET, to.ip.c_str(), &a->sin_addr);
    length = sizeof(sockaddr_in);
  }
  const int fd = ::socket(address.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw TransportError(fmt::format("cannot find a route to {} ({})", peer, std::strerror(errno)));
  sockaddr_storage mine{};
  socklen_t mine_length = sizeof(mine);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), length) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&mine), &mine_length) == 0;
  const int error = errno;
  ::close(fd);
  std::array<char, NI_MAXHOST> text{};
  if (!ok || ::getnameinfo(reinterpret_cast<sockaddr*>(&mine), mine_length, text.data(), text.size(), nullptr, 0,
                           NI_NUMERICHOST) != 0) {
    throw TransportError(fmt::format("no route from this machine to {} ({})", peer, std::strerror(error)));
  }
  return text.data();
}

KeyPipe::KeyPipe(const CurveKeys& keys) {
  std::array<int, 2> ends{};
  if (::pipe2(ends.data(), O_CLOEXEC) != 0) {
    throw TransportError(fmt::format("cannot make a pipe for a worker's key ({})", std::strerror(errno)));
  }
  // 40 bytes fit in any pipe's buffer: the write neither blocks nor stops short.
  const auto written = ::write(ends[1], keys.secret_key.data(), keys.secret_key.size());
  const int error = errno;
  ::close(ends[1]);
  if (written != static_cast<ssize_t>(keys.secret_key.size())) {
    ::close(ends[0]);
    throw TransportError(fmt::format("cannot write a worker's key to its pipe ({})", std::strerror(error)));
  }
  fd_ = ends[0];
}

KeyPipe::~KeyPipe() { ::close(fd_); }

PrivateDirectory::PrivateDirectory() {
  std::string pattern = "/tmp/starnet-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw TransportError(fmt::format("cannot make a private folder for the run's ipc:// endpoints ({})",
                                     std::strerror(errno)));
  }
  path_ = pattern;
}

PrivateDirectory::~PrivateDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

HandshakeMonitor::HandshakeMonitor(zmq::context_t& ctx, zmq::socket_t& watched) : pair_(ctx, zmq::socket_type::pair) {
  const std::string endpoint = fmt::format("inproc://starnet-handshakes-{}", static_cast<const void*>(this));
  constexpr int EVENTS = ZMQ_EVENT_CONNECTED | ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_HANDSHAKE_SUCCEEDED |
                         ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
                         ZMQ_EVENT_HANDSHAKE_FAILED_AUTH;
  if (::zmq_socket_monitor(watched.handle(), endpoint.c_str(), EVENTS) != 0) throw zmq::error_t();
  pair_.set(zmq::sockopt::linger, 0);
  pair_.connect(endpoint);
}

void HandshakeMonitor::take() {
  for (;;) {
    zmq::message_t event;
    if (!pair_.recv(event, zmq::recv_flags::dontwait)) return;
    while (event.more()) {  // the endpoint frame
      zmq::message_t rest;
      (void)pair_.recv(rest);
      if (!rest.more()) break;
    }
    std::uint16_t id = 0;
    if (event.size() >= sizeof id) std::memcpy(&id, event.data(), sizeof id);
    if (id == ZMQ_EVENT_CONNECTED) connected_ = true;
    if (id == ZMQ_EVENT_ACCEPTED) ++accepted_;
    if (id == ZMQ_EVENT_HANDSHAKE_SUCCEEDED) {
      connected_ = false;
      ++succeeded_;
    }
    if (id == ZMQ_EVENT_DISCONNECTED && connected_) {
      connected_ = false;
      ++failed_;  // a client's server closed the connection before the handshake ended
    }
    if (id == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL || id == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL ||
        id == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH) {
      connected_ = false;
      ++failed_;
    }
  }
}

std::optional<std::string> ipc_directory(const std::string& endpoint) {
  constexpr std::string_view scheme = "ipc://";
  if (!endpoint.starts_with(scheme)) return std::nullopt;
  return std::filesystem::path(endpoint.substr(scheme.size())).parent_path().string();
}

TcpTransport::TcpTransport(zmq::context_t& ctx, TcpAddress address, std::optional<CurveKeys> keys,
                           std::optional<std::string> ipc_dir)
    : address_(std::move(address)), keys_(std::move(keys)), ipc_dir_(std::move(ipc_dir)) {
  if (!keys_) return;
  std::string allowed(32, '\0');
  if (::zmq_z85_decode(reinterpret_cast<std::uint8_t*>(allowed.data()), keys_->public_key.c_str()) == nullptr) {
    throw TransportError("the run's CURVE public key is not Z85 text");
  }
  zmq::socket_t handler(ctx, zmq::socket_type::rep);
  handler.set(zmq::sockopt::linger, 0);
  handler.bind("inproc://zeromq.zap.01");  // the one address libzmq asks (RFC 27)
  const std::string stop_endpoint = fmt::format("inproc://starnet-zap-stop-{}", static_cast<const void*>(this));
  stop_ = zmq::socket_t(ctx, zmq::socket_type::pair);
  stop_.set(zmq::sockopt::linger, 0);
  stop_.bind(stop_endpoint);
  zmq::socket_t stopped(ctx, zmq::socket_type::pair);
  stopped.set(zmq::sockopt::linger, 0);
  stopped.connect(stop_endpoint);
  zap_ = std::thread([h = std::move(handler), s = std::move(stopped), allowed, shared = shared_]() mutable {
    // Owned here, so that both are closed before join() returns.
    zmq::socket_t handler_socket = std::move(h);
    zmq::socket_t stop_socket = std::move(s);
    answer_zap(handler_socket, stop_socket, allowed, [&shared](std::string peer) {
      const std::lock_guard lock(shared->mutex);
      auto& r = shared->refusals;
      ++r.count;
      if (r.addresses.size() < MAX_NAMED_REFUSALS && std::find(r.addresses.begin(), r.addresses.end(), peer) == r.addresses.end()) {
        r.addresses.push_back(std::move(peer));
      }
    });
  });
}

TcpTransport::Refusals TcpTransport::refusals() const {
  const std::lock_guard lock(shared_->mutex);
  return shared_->refusals;
}

TcpTransport::~TcpTransport() {
  if (!zap_.joinable()) return;
  (void)stop_.send(zmq::str_buffer("stop"), zmq::send_flags::none);
  zap_.join();
}

std::string TcpTransport::bind(zmq::socket_t& s, int port) const {
  if (ipc_dir_) {
    const std::string endpoint = fmt::format("ipc://{}/{}-{}", *ipc_dir_, ::getpid(), bound_++);
    try {
      s.bind(endpoint);
    } catch (const zmq::error_t& e) {
      throw TransportError(fmt::format("cannot listen on {} ({})", endpoint, e.what()));
    }
    return endpoint;
  }
  s.set(zmq::sockopt::ipv6, address_.ipv6);
  if (keys_) {
    s.set(zmq::sockopt::curve_server, true);
    s.set(zmq::sockopt::curve_secretkey, keys_->secret_key);
  }
  const std::string endpoint = address_.endpoint(port);
  try {
    s.bind(endpoint);
  } catch (const zmq::error_t& e) {
    if (e.num() == EADDRINUSE) {
      throw UsageError(Setting{"port", std::to_string(port)},
                       fmt::format("{} is already in use (choose another port, or 0 for any free one)", endpoint));
    }
    if (e.num() == EADDRNOTAVAIL) {
      throw UsageError(Setting{"address", address_.text},
                       fmt::format("not an address of this machine (cannot listen on {}: {}); expected one of {}",
                                   endpoint, e.what(), fmt::join(local_addresses(), ", ")));
    }
    throw UsageError(Setting{"address", address_.text},
                     fmt::format("cannot listen on {}, port {} ({})", endpoint, port, e.what()));
  }
  return s.get(zmq::sockopt::last_endpoint);
}

void TcpTransport::connect(zmq::socket_t& s, const std::string& endpoint) const {
  s.set(zmq::sockopt::ipv6, address_.ipv6);
  if (keys_) {
    s.set(zmq::sockopt::curve_serverkey, keys_->public_key);
    s.set(zmq::sockopt::curve_publickey, keys_->public_key);
    s.set(zmq::sockopt::curve_secretkey, keys_->secret_key);
  }
  s.connect(endpoint);
}

}  // namespace starnet::emulator

// The tcp transport of worker processes: which addresses are loopback, how keys travel, and CURVE
// servers that let in only the clients holding the run's keys.
#include "../../emulator/src/secure.hpp"
#include "../core/expect_error.hpp"

#include <starnet/emulator/zmq_engine.hpp>
#include <starnet/core/error.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace starnet::emulator {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;

TEST(TcpAddress, TellsLoopbackFromOtherAddresses) {
  struct Case {
    const char* text;
    bool loopback;
    std::string host;  // in an endpoint
  };
  for (const Case& c : {Case{"127.0.0.1", true, "127.0.0.1"}, Case{"127.8.9.10", true, "127.8.9.10"},
                        Case{"localhost", true, "127.0.0.1"}, Case{"::1", true, "[::1]"},
                        Case{"::ffff:127.0.0.1", true, "[::ffff:127.0.0.1]"}, Case{"192.0.2.2", false, "192.0.2.2"},
                        Case{"128.0.0.1", false, "128.0.0.1"}, Case{"fd00::2", false, "[fd00::2]"},
                        Case{"::ffff:192.0.2.2", false, "[::ffff:192.0.2.2]"}}) {
    const auto a = TcpAddress::parse(c.text);
    EXPECT_EQ(a.loopback, c.loopback) << " address=" << c.text;
    EXPECT_EQ(a.ipv6, c.host[0] == '[') << " address=" << c.text;
    EXPECT_EQ(a.text, c.text);
    EXPECT_EQ(a.endpoint(/*port=*/7), "tcp://" + c.host + ":7") << " address=" << c.text;
    EXPECT_EQ(a.endpoint(/*port=*/0), "tcp://" + c.host + ":*") << " address=" << c.text;
  }
}

TEST(TcpAddress, RejectsWhatIsNotOneIpAddress) {
  // About the setting "address" and the text given (Setting: no value, no space before the colon).
  const auto about = [](const std::string& text) { return "address" + (text.empty() ? "" : " " + text) + ":"; };
  for (const char* text : {"300.1.2.3", "1.2.3", "not-an-address", "", "eth0", "fe80::1%eth0", "127.0.0.1:80"}) {
    EXPECT_ERROR(UsageError, TcpAddress::parse(text), about(text), "not an IP address");
  }
  for (const char* text : {"0.0.0.0", "::"}) {
    EXPECT_ERROR(UsageError, TcpAddress::parse(text), about(text), "wildcard");
  }
}

TEST(LocalAddresses, ListLoopbackAndParse) {
  const auto addresses = local_addresses();
  EXPECT_NE(std::find(addresses.begin(), addresses.end(), "127.0.0.1"), addresses.end());
  for (const auto& a : addresses) EXPECT_NO_THROW((void)TcpAddress::parse(a)) << " address=" << a;
}

TEST(CurveKeys, TravelThroughAPipeThatNoOtherProgramInherits) {
  const auto keys = CurveKeys::generate();
  ASSERT_EQ(keys.public_key.size(), 40U);
  ASSERT_EQ(keys.secret_key.size(), 40U);
  EXPECT_NE(CurveKeys::generate().secret_key, keys.secret_key);
  EXPECT_EQ(CurveKeys::from_secret(keys.secret_key).public_key, keys.public_key);
  const KeyPipe pipe(keys);
  EXPECT_EQ(::fcntl(pipe.fd(), F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
  const auto read = CurveKeys::read_from(::dup(pipe.fd()));
  EXPECT_EQ(read.secret_key, keys.secret_key);
  EXPECT_EQ(read.public_key, keys.public_key);
}

TEST(CurveKeys, RejectWhatIsNotAKeyWithoutRepeatingIt) {
  EXPECT_ERROR(TransportError, CurveKeys::from_secret("short"), "expected 40 Z85 characters", "got 5");
  const std::string not_z85(40, ' ');
  try {
    (void)CurveKeys::from_secret(not_z85);
    ADD_FAILURE() << "a secret key of spaces was taken";
  } catch (const TransportError& e) {
    EXPECT_THAT(e.what(), HasSubstr("not valid"));
    EXPECT_THAT(e.what(), Not(HasSubstr(not_z85)));
  }
  std::array<int, 2> ends{};
  ASSERT_EQ(::pipe(ends.data()), 0);
  ASSERT_EQ(::write(ends[1], "junk", 4), 4);
  ::close(ends[1]);
  EXPECT_ERROR(TransportError, CurveKeys::read_from(ends[0]), "key descriptor " + std::to_string(ends[0]), "got 4");
  // A descriptor that is not open is a bad argument of `starnet worker` (exit 2).
  EXPECT_ERROR(UsageError, CurveKeys::read_from(-1), "key descriptor -1", "not an open file descriptor");
}

std::optional<std::string> receive(zmq::socket_t& s, std::chrono::milliseconds within) {
  std::vector<zmq::pollitem_t> items = {{s.handle(), 0, ZMQ_POLLIN, 0}};
  if (zmq::poll(items, within) == 0) return std::nullopt;
  zmq::message_t m;
  (void)s.recv(m);
  return m.to_string();
}

zmq::socket_t push_socket(zmq::context_t& ctx) {
  zmq::socket_t s(ctx, zmq::socket_type::push);
  s.set(zmq::sockopt::linger, 0);
  return s;
}

/// A CURVE client with its own key pair that knows the server's public key: only the ZAP handler
/// can tell it from a client of the run.
zmq::socket_t foreign_client(zmq::context_t& ctx, const CurveKeys& run, const std::string& endpoint) {
  const auto own = CurveKeys::generate();
  auto s = push_socket(ctx);
  s.set(zmq::sockopt::curve_serverkey, run.public_key);
  s.set(zmq::sockopt::curve_publickey, own.public_key);
  s.set(zmq::sockopt::curve_secretkey, own.secret_key);
  s.connect(endpoint);
  return s;
}

TEST(TcpTransport, ServersLetInOnlyClientsHoldingTheRunKeys) {
  const auto run = CurveKeys::generate();
  zmq::context_t server_ctx;
  const TcpTransport server(server_ctx, TcpAddress::parse("127.0.0.1"), run);
  zmq::socket_t pull(server_ctx, zmq::socket_type::pull);
  pull.set(zmq::sockopt::linger, 0);
  const std::string endpoint = server.bind(pull, 0);

  zmq::context_t client_ctx;
  auto plain = push_socket(client_ctx);
  plain.connect(endpoint);
  (void)plain.send(zmq::str_buffer("plain"), zmq::send_flags::dontwait);
  auto foreign = foreign_client(client_ctx, run, endpoint);
  (void)foreign.send(zmq::str_buffer("foreign"), zmq::send_flags::dontwait);
  EXPECT_EQ(receive(pull, 500ms), std::nullopt);

  const TcpTransport client(client_ctx, TcpAddress::parse("127.0.0.1"), run);
  auto member = push_socket(client_ctx);
  client.connect(member, endpoint);
  (void)member.send(zmq::str_buffer("member"), zmq::send_flags::dontwait);
  EXPECT_EQ(receive(pull, 10s), "member");
  EXPECT_EQ(receive(pull, 500ms), std::nullopt) << " a refused client got through later";
}

TEST(TcpTransport, RefusalsOfTheZapHandlerAreCountedWithTheirAddress) {
  const auto run = CurveKeys::generate();
  zmq::context_t server_ctx;
  const TcpTransport server(server_ctx, TcpAddress::parse("127.0.0.1"), run);
  zmq::socket_t pull(server_ctx, zmq::socket_type::pull);
  pull.set(zmq::sockopt::linger, 0);
  HandshakeMonitor handshakes(server_ctx, pull);
  const std::string endpoint = server.bind(pull, 0);
  zmq::context_t client_ctx;
  auto foreign = foreign_client(client_ctx, run, endpoint);
  (void)foreign.send(zmq::str_buffer("foreign"), zmq::send_flags::dontwait);
  EXPECT_EQ(receive(pull, 500ms), std::nullopt);
  for (int i = 0; i < 50 && server.refusals().count == 0; ++i) std::this_thread::sleep_for(20ms);
  const auto refusals = server.refusals();
  EXPECT_GE(refusals.count, 1U);
  ASSERT_FALSE(refusals.addresses.empty());
  EXPECT_EQ(refusals.addresses.front(), "127.0.0.1");
  // The server's monitor sees connections accepted and never admitted.
  std::vector<zmq::pollitem_t> items = {handshakes.item()};
  for (int i = 0; i < 50 && handshakes.not_admitted() == 0; ++i) {
    zmq::poll(items, 20ms);
    handshakes.take();
  }
  EXPECT_GE(handshakes.not_admitted(), 1U);
}

TEST(HandshakeMonitor, AClientSeesAServerThatClosesDuringTheHandshake) {
  // A client holding another run's key: the server cannot read its hello and closes the connection.
  const auto run = CurveKeys::generate();
  const auto other = CurveKeys::generate();
  zmq::context_t server_ctx;
  const TcpTransport server(server_ctx, TcpAddress::parse("127.0.0.1"), run);
  zmq::socket_t pull(server_ctx, zmq::socket_type::pull);
  pull.set(zmq::sockopt::linger, 0);
  const std::string endpoint = server.bind(pull, 0);
  zmq::context_t client_ctx;
  const TcpTransport client(client_ctx, TcpAddress::parse("127.0.0.1"), other);
  auto push = push_socket(client_ctx);
  HandshakeMonitor handshakes(client_ctx, push);
  client.connect(push, endpoint);
  std::vector<zmq::pollitem_t> items = {handshakes.item()};
  for (int i = 0; i < 200 && handshakes.failed() < 2; ++i) {
    zmq::poll(items, 20ms);
    handshakes.take();
  }
  EXPECT_GE(handshakes.failed(), 2U) << "the client retries, and fails each time";
  EXPECT_EQ(receive(pull, 200ms), std::nullopt);
}

TEST(CurveKeys, KeyFilesRoundTripAndAreOnlyTheOwners) {
  const auto dir = std::filesystem::temp_directory_path() / ("starnet_keys_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto path = (dir / "run.key").string();
  const auto keys = CurveKeys::generate();
  keys.write_file(path);
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600U);
  const auto back = CurveKeys::read_file(path);
  EXPECT_EQ(back.public_key, keys.public_key);
  EXPECT_EQ(back.secret_key, keys.secret_key);
  EXPECT_ERROR(UsageError, keys.write_file(path), "key file " + path, "already exists");
  EXPECT_EQ(CurveKeys::read_file(path).secret_key, keys.secret_key) << "an existing key file is never replaced";

  const auto write = [&](const std::string& name, const std::string& text, mode_t mode) {
    const auto p = (dir / name).string();
    std::ofstream(p) << text;
    ::chmod(p.c_str(), mode);
    return p;
  };
  const std::string good = "public-key: " + keys.public_key + "\nsecret-key: " + keys.secret_key + "\n";
  EXPECT_ERROR(UsageError, CurveKeys::read_file(write("open.key", good, 0644)), "open.key", "mode 0644");
  EXPECT_ERROR(UsageError, CurveKeys::read_file(write("group.key", good, 0620)), "group.key", "mode 0620");
  EXPECT_EQ(CurveKeys::read_file(write("bare.key", "secret-key: " + keys.secret_key + "\n", 0400)).public_key,
            keys.public_key);
  EXPECT_ERROR(UsageError, CurveKeys::read_file(write("short.key", "secret-key: abc\n", 0600)), "short.key",
               "expected 40 Z85 characters");
  EXPECT_ERROR(UsageError, CurveKeys::read_file(write("odd.key", "password: x\n", 0600)), "odd.key",
               "not \"public-key: KEY\"");
  const auto other = CurveKeys::generate();
  EXPECT_ERROR(UsageError,
               CurveKeys::read_file(write("mixed.key", "public-key: " + other.public_key + "\nsecret-key: " +
                                                           keys.secret_key + "\n", 0600)),
               "mixed.key", "not the one of its secret key");
  EXPECT_ERROR(UsageError, CurveKeys::read_file((dir / "none").string()), "none", "cannot be read");
  std::filesystem::remove_all(dir);
}

TEST(Addresses, HostNamesResolveAndTheRouteToAPeerIsFound) {
  EXPECT_EQ(resolve_host("127.0.0.1", "--join"), "127.0.0.1");
  const auto localhost = resolve_host("localhost", "--join");
  EXPECT_TRUE(localhost == "127.0.0.1" || localhost == "::1") << localhost;
  EXPECT_EQ(resolve_host("[::1]", "--join"), "::1");  // numeric: no lookup, no interface needed
  EXPECT_EQ(local_address_towards("127.0.0.1"), "127.0.0.1");
  EXPECT_EQ(local_address_towards("127.4.5.6"), "127.0.0.1");
}

// What the refusal above rests on: a CURVE server without a ZAP handler takes any client key.
TEST(TcpTransport, WithoutAZapHandlerAForeignKeyWouldGetIn) {
  const auto run = CurveKeys::generate();
  zmq::context_t server_ctx;
  zmq::socket_t pull(server_ctx, zmq::socket_type::pull);
  pull.set(zmq::sockopt::linger, 0);
  pull.set(zmq::sockopt::curve_server, true);
  pull.set(zmq::sockopt::curve_secretkey, run.secret_key);
  pull.bind("tcp://127.0.0.1:*");
  zmq::context_t client_ctx;
  auto foreign = foreign_client(client_ctx, run, pull.get(zmq::sockopt::last_endpoint));
  (void)foreign.send(zmq::str_buffer("foreign"), zmq::send_flags::dontwait);
  EXPECT_EQ(receive(pull, 10s), "foreign");
}

TEST(TcpTransport, BindNamesTheAddressOrPortItCannotListenOn) {
  zmq::context_t ctx;
  const TcpAddress elsewhere = TcpAddress::parse("203.0.113.7");  // TEST-NET-3, documentation only
  const auto mine = local_addresses();
  ASSERT_EQ(std::find(mine.begin(), mine.end(), elsewhere.ip), mine.end());
  const TcpTransport away(ctx, elsewhere, std::nullopt);
  const TcpTransport here(ctx, TcpAddress::parse("127.0.0.1"), CurveKeys::generate());
  zmq::socket_t s(ctx, zmq::socket_type::pull);
  s.set(zmq::sockopt::linger, 0);
  EXPECT_ERROR(UsageError, away.bind(s, 0), "address 203.0.113.7:", "not an address of this machine", "127.0.0.1");

  const std::string endpoint = here.bind(s, 0);
  const int port = std::stoi(endpoint.substr(endpoint.rfind(':') + 1));
  zmq::socket_t t(ctx, zmq::socket_type::pull);
  t.set(zmq::sockopt::linger, 0);
  EXPECT_ERROR(UsageError, here.bind(t, port), "port " + std::to_string(port), "already in use");
}

/// Whether a process running as user @p uid can connect to the unix socket at @p path.
bool can_connect_as(uid_t uid, const std::string& path) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::setgid(uid) != 0 || ::setuid(uid) != 0) ::_exit(2);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    path.copy(address.sun_path, sizeof(address.sun_path) - 1);
    ::_exit(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(PrivateDirectory, KeepsOtherUsersFromTheRunsIpcEndpoints) {
  std::string folder;
  {
    const PrivateDirectory dir;
    folder = dir.path();
    struct stat st {};
    ASSERT_EQ(::stat(folder.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777U, 0700U);
    EXPECT_EQ(st.st_uid, ::getuid());
    zmq::context_t ctx;
    const TcpTransport transport(ctx, TcpAddress::parse("127.0.0.1"), std::nullopt, folder);
    zmq::socket_t server(ctx, zmq::socket_type::pull);
    server.set(zmq::sockopt::linger, 0);
    const std::string endpoint = transport.bind(server, 0);
    EXPECT_THAT(endpoint, ::testing::StartsWith("ipc://" + folder + "/"));
    EXPECT_EQ(ipc_directory(endpoint), folder);
    EXPECT_EQ(ipc_directory("tcp://127.0.0.1:5555"), std::nullopt);
    const std::string socket_file = endpoint.substr(std::string("ipc://").size());
    EXPECT_TRUE(can_connect_as(::getuid(), socket_file)) << " the owner must get in";
    if (::getuid() == 0) {
      // The socket file itself open to all: only the folder's mode keeps another user out.
      ASSERT_EQ(::chmod(socket_file.c_str(), 0777), 0);
      constexpr uid_t NOBODY = 65534;
      EXPECT_FALSE(can_connect_as(NOBODY, socket_file)) << " another user got into " << folder;
      // The control: with the folder open to others, the same user does get in.
      ASSERT_EQ(::chmod(folder.c_str(), 0711), 0);
      EXPECT_TRUE(can_connect_as(NOBODY, socket_file)) << " the test cannot tell a refusal from a failure";
      ASSERT_EQ(::chmod(folder.c_str(), 0700), 0);
    } else {
      std::cout << "note: not root, so the refusal of another user is not tried\n";
    }
  }
  EXPECT_FALSE(std::filesystem::exists(folder)) << " the folder outlived its run";
}

}  // namespace
}  // namespace starnet::emulator

// An independent check of starnet's network model (docs/whatif.md, "The network model") against
// SimGrid 3.32's own cluster platforms (Debian's libsimgrid-dev): the host-level ring and
// recursive-doubling all-reduces, written here again as S4U actors (each step a put and a get of
// the whole vector to and from the right peer), timed by SimGrid on FAT_TREE, TORUS and DRAGONFLY
// zones and on the star graph (as a Full zone of its links, and on the star zone of
// tests/simgrid/star_zone.hpp), beside starnet's makespans from the api
// (api/include/starnet/api/whatif.hpp) on fattree:4, torus:4x6, dragonfly:3:2:1 and star:4.
//
// Both sides use the α–β model: SimGrid's CM02 without its TCP corrections (docs/simgrid.md,
// "Cross-checking in SimGrid"), every link of bandwidth β, and latencies such that a host-to-host
// route costs α in total, as a message over a free path does in starnet: on the fat-tree and the
// dragonfly α/2 on each host's own link (both directions) and 0 on switch links; on the torus, a
// direct network whose nodes are the hosts, and on the star graph α on every link (their
// all-reduces talk to neighbours only); on the star zone α/2 on each host's link. The figures
// are printed (docs/whatif.md, "Against SimGrid", keeps them).
//
// SimGrid's engine is one per process: the platforms are child zones of one root, built once per
// process (gtest_discover_tests runs each test in a process of its own), and each run is timed as
// the clock's advance.
//
// IMPORTANT: a SimGrid DRAGONFLY links router n of every group to group n, one global link a
// router (DragonflyZone.cpp in SimGrid's src/kernel/routing/), so it matches starnet's
// dragonfly:A:P:1 only, with A + 1 routers a group of which router g of group g carries no global
// link and its hosts stay idle; dragonfly:A:P:H with H > 1 has no SimGrid counterpart.
#include "star_zone.hpp"

#include <starnet/algorithms/collectives/builtin_algorithm.hpp>
#include <starnet/algorithms/star/star_report.hpp>
#include <starnet/api/whatif.hpp>
#include <starnet/topology/network.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gtest/gtest.h>
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace starnet::simgrid_peer {
namespace {

// The α–β model of both sides: α = 1 µs from host to host, β = 1 GB/s on every link.
constexpr std::int64_t ALPHA_PER_SECOND = 1'000'000;  // α = 1/ALPHA_PER_SECOND s
constexpr std::int64_t BETA = 1'000'000'000;          // bytes per second
constexpr double ALPHA_SECONDS = 1.0 / static_cast<double>(ALPHA_PER_SECOND);
constexpr double BETA_DOUBLE = static_cast<double>(BETA);
constexpr double HOST_SPEED = 1e9;                // flop/s; nothing is computed
constexpr std::uint64_t LARGE_MESSAGE = 1 << 20;  // bytes: the acceptance size
constexpr std::uint64_t SMALL_MESSAGE = 8;        // bytes: one word, where α dominates

// Without contention both sides compute steps × (α + M/β); SimGrid in doubles, with its time
// precision lowered from 10⁻⁵ to SIMGRID_PRECISION (seconds and bytes): a relative gap below this.
constexpr double SIMGRID_PRECISION = 1e-9;
constexpr double SAME_TIME = 1e-6;
// Under contention SimGrid shares a link's bandwidth max-min fairly between its flows where
// starnet serialises them (a message waits at its sender for its whole route): the acceptance of
// issue #58 is 5% at 1 MiB, where M/β outweighs α a thousandfold.
constexpr double CONTENTION_GAP = 0.05;
// Recursive doubling on the dragonfly misses it (starnet 13.0 free steps, SimGrid 15.0): when
// four messages want one global link at once, starnet's serve one at a time and their receivers
// go on as each arrives, SimGrid's share it and all arrive at the end. The gap measured, bounded.
constexpr double SERIALISED_VERSUS_SHARED_GAP = 0.15;

// The platforms (the sizes of similar order: 16 and 24 hosts).
constexpr unsigned FATTREE_K = 4;                          // fattree:4, 16 hosts
constexpr std::array<unsigned long, 2> TORUS_SIDES{4, 6};  // torus:4x6, 24 hosts
constexpr unsigned DRAGONFLY_A = 3;                        // dragonfly:3:2:1, 24 hosts
constexpr unsigned DRAGONFLY_P = 2;
constexpr int STAR_N = 4;  // star:4, 24 nodes
const char* const FATTREE_SPEC = "fattree:4";
const char* const TORUS_SPEC = "torus:4x6";
const char* const DRAGONFLY_SPEC = "dragonfly:3:2:1";
const char* const STAR_SPEC = "star:4";

/// One step of a rank: the whole vector to @p to and from @p from (either may be absent).
struct Step {
  std::optional<std::size_t> to;
  std::optional<std::size_t> from;
};
/// Each rank's steps, in order.
using Plan = std::vector<std::vector<Step>>;

/// Pass-along ring (docs/whatif.md, "Algorithms"): N − 1 steps, rank i to i + 1 mod N.
Plan ring_plan(std::size_t n) {
  Plan plan(n);
  for (std::size_t r = 0; r < n; ++r) plan[r].assign(n - 1, Step{(r + 1) % n, (r + n - 1) % n});
  return plan;
}

/// Recursive doubling folded onto N' = 2^⌊log₂ N⌋ ranks as starnet folds it
/// (algorithms/include/starnet/algorithms/generic/recursive_doubling.hpp): ranks N'..N−1 send to
/// r − N', the N' exchange with r ⊕ 2^i, then r − N' sends the result back.
Plan recursive_doubling_plan(std::size_t n) {
  std::size_t cube = 1;
  while (cube * 2 <= n) cube *= 2;
  Plan plan(n);
  for (std::size_t r = cube; r < n; ++r) {
    plan[r].push_back(Step{r - cube, std::nullopt});
    plan[r - cube].push_back(Step{std::nullopt, r});
  }
  for (std::size_t bit = 1; bit < cube; bit *= 2)
    for (std::size_t r = 0; r < cube; ++r) plan[r].push_back(Step{r ^ bit, r ^ bit});
  for (std::size_t r = cube; r < n; ++r) {
    plan[r - cube].push_back(Step{r, std::nullopt});
    plan[r].push_back(Step{std::nullopt, r - cube});
  }
  return plan;
}

/// The torus ring: one pass-along ring per dimension, first factor first, over ranks numbered in
/// mixed radix with the first factor most significant (topology/families.hpp).
Plan torus_ring_plan(const std::array<unsigned long, 2>& sides) {
  const std::size_t n = sides[0] * sides[1];
  Plan plan(n);
  for (std::size_t r = 0; r < n; ++r) {
    const std::size_t i = r / sides[1];
    const std::size_t j = r % sides[1];
    for (std::size_t s = 1; s < sides[0]; ++s)
      plan[r].push_back(Step{((i + 1) % sides[0]) * sides[1] + j, ((i + sides[0] - 1) % sides[0]) * sides[1] + j});
    for (std::size_t s = 1; s < sides[1]; ++s)
      plan[r].push_back(Step{i * sides[1] + (j + 1) % sides[1], i * sides[1] + (j + sides[1] - 1) % sides[1]});
  }
  return plan;
}

/// The star all-reduce of Oh, Choi, Primeaux (2005) on S_n (algorithms/star): n(n − 1)/2 steps,
/// step s an exchange of every node with its neighbour along link level_of_step(s).link().
Plan star_plan(int n) {
  const topology::StarGraph g(n);
  Plan plan(g.num_nodes());
  for (std::uint64_t s = 0; s < algorithms::star::allreduce_steps(n); ++s) {
    const int link = algorithms::star::level_of_step(s).link();
    for (std::uint32_t v = 0; v < g.size(); ++v) {
      const std::size_t u = g.neighbor_along(v, link);
      plan[v].push_back(Step{u, u});
    }
  }
  return plan;
}

/// A SimGrid platform standing for a starnet topology: the host of each starnet rank.
struct SimPlatform {
  std::string spec;
  std::string zone;  ///< what SimGrid runs it on
  std::vector<sg4::Host*> ranks;
};

/// The engine and the platforms, made once per process.
struct SimWorld {
  SimPlatform fattree;
  SimPlatform torus;
  SimPlatform dragonfly;
  SimPlatform star;        ///< S_n on SimGrid's star zone (tests/simgrid/star_zone.hpp)
  SimPlatform star_graph;  ///< S_n itself: a link (α, β) per edge, routed in a Full zone
};

/// A cluster callback making host "<prefix><id>" at each leaf, kept in @p hosts by id.
std::function<sg4::ClusterCallbacks::ClusterNetPointCb> host_maker(const std::string& prefix,
                                                                   std::map<unsigned long, sg4::Host*>& hosts) {
  return [prefix, &hosts](sg4::NetZone* zone, const std::vector<unsigned long>&, unsigned long id) {
    sg4::Host* host = zone->create_host(prefix + std::to_string(id), HOST_SPEED)->seal();
    hosts[id] = host;
    return std::make_pair(host->get_netpoint(), static_cast<simgrid::kernel::routing::NetPoint*>(nullptr));
  };
}

/// Puts @p latency on each of @p hosts' own links, both directions: the first link of its routes
/// out and the last of its routes in (any other host of the list shows them).
void put_latency_on_host_links(const std::vector<sg4::Host*>& hosts, double latency) {
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    const sg4::Host* other = hosts[(i + 1) % hosts.size()];
    std::vector<sg4::Link*> out;
    std::vector<sg4::Link*> in;
    hosts[i]->route_to(other, out, nullptr);
    other->route_to(hosts[i], in, nullptr);
    out.front()->set_latency(latency);
    in.back()->set_latency(latency);
  }
}

/// The starnet host numbers a rank of @p spec runs on, parsed from its host names ("h1_0_1"):
/// the fields of each of its first @p hosts nodes.
std::vector<std::array<unsigned, 3>> host_fields(const std::string& spec, std::size_t hosts) {
  const auto t = api::TopologyRef(spec).topology();
  std::vector<std::array<unsigned, 3>> fields(hosts);
  for (std::size_t v = 0; v < hosts; ++v) {
    const std::string name = t->node_name(static_cast<NodeId>(v));
    const int read = std::sscanf(name.c_str(), "h%u_%u_%u", &fields[v][0], &fields[v][1], &fields[v][2]);
    if (read != 3) throw std::runtime_error(spec + ": host " + std::to_string(v) + " is \"" + name + "\"");
  }
  return fields;
}

/// SimGrid's FAT_TREE for fattree:K (Al-Fares et al.'s k-ary 3-level tree): k/2 hosts an edge
/// switch, k/2 edge switches below an aggregation switch, k pods below a core switch; k/2 up-links
/// from an edge and from an aggregation switch. Leaf p·(k/2)² + e·(k/2) + h is starnet's "hp_e_h".
SimPlatform make_fattree(const sg4::NetZone* root) {
  const unsigned half = FATTREE_K / 2;
  std::map<unsigned long, sg4::Host*> leaves;
  auto* zone = sg4::create_fatTree_zone(
      "fattree", root, sg4::FatTreeParams(3, {half, half, FATTREE_K}, {1, half, half}, {1, 1, 1}),
      sg4::ClusterCallbacks(host_maker("ft", leaves)), BETA_DOUBLE, 0, sg4::Link::SharingPolicy::SPLITDUPLEX);
  zone->seal();
  SimPlatform p{FATTREE_SPEC, "FAT_TREE", {}};
  for (const auto& f : host_fields(FATTREE_SPEC, leaves.size()))
    p.ranks.push_back(leaves.at((f[0] * half + f[1]) * half + f[2]));
  put_latency_on_host_links(p.ranks, ALPHA_SECONDS / 2);
  return p;
}

/// SimGrid's TORUS: its nodes are the hosts and its links join neighbours, as starnet's torus.
/// SimGrid numbers with the first dimension fastest: its dimensions are starnet's sides reversed,
/// so that node ids are starnet's.
SimPlatform make_torus(const sg4::NetZone* root) {
  std::map<unsigned long, sg4::Host*> nodes;
  auto* zone = sg4::create_torus_zone("torus", root, {TORUS_SIDES[1], TORUS_SIDES[0]},
                                      sg4::ClusterCallbacks(host_maker("to", nodes)), BETA_DOUBLE, ALPHA_SECONDS,
                                      sg4::Link::SharingPolicy::SPLITDUPLEX);
  zone->seal();
  SimPlatform p{TORUS_SPEC, "TORUS", {}};
  for (const auto& [id, host] : nodes) p.ranks.push_back(host);
  return p;
}

/// SimGrid's DRAGONFLY for dragonfly:A:P:1 (file comment): A + 1 groups of one chassis of A + 1
/// routers, P hosts a router. starnet's router r of group g is SimGrid's router r (r < g) or r + 1
/// (r ≥ g): both lead to the same group (starnet's absolute arrangement, topology/families.hpp).
SimPlatform make_dragonfly(const sg4::NetZone* root) {
  const unsigned groups = DRAGONFLY_A + 1;
  std::map<unsigned long, sg4::Host*> leaves;
  auto* zone = sg4::create_dragonfly_zone(
      "dragonfly", root, sg4::DragonflyParams({groups, 1}, {1, 1}, {groups, 1}, DRAGONFLY_P),
      sg4::ClusterCallbacks(host_maker("df", leaves)), BETA_DOUBLE, 0, sg4::Link::SharingPolicy::SPLITDUPLEX);
  zone->seal();
  SimPlatform p{DRAGONFLY_SPEC, "DRAGONFLY", {}};
  const std::size_t hosts = static_cast<std::size_t>(groups) * DRAGONFLY_A * DRAGONFLY_P;
  for (const auto& f : host_fields(DRAGONFLY_SPEC, hosts)) {
    const unsigned router = f[1] < f[0] ? f[1] : f[1] + 1;
    p.ranks.push_back(leaves.at((f[0] * groups + router) * DRAGONFLY_P + f[2]));
  }
  put_latency_on_host_links(p.ranks, ALPHA_SECONDS / 2);
  return p;
}

/// The star graph S_n as a direct network: a split-duplex link of latency α and bandwidth β per
/// edge, a route between neighbours only (the star all-reduce talks to neighbours alone).
SimPlatform make_star_graph(const sg4::NetZone* root) {
  const topology::StarGraph g(STAR_N);
  auto* zone = sg4::create_full_zone("stargraph");
  zone->set_parent(root);
  SimPlatform p{STAR_SPEC, "Full zone of S_n", {}};
  for (std::uint32_t v = 0; v < g.size(); ++v)
    p.ranks.push_back(zone->create_host("sg" + std::to_string(v), HOST_SPEED)->seal());
  for (std::uint32_t v = 0; v < g.size(); ++v) {
    for (int k = 2; k <= STAR_N; ++k) {
      const std::uint32_t u = g.neighbor_along(v, k);
      if (u < v) continue;
      auto* link = zone->create_split_duplex_link("sg" + std::to_string(v) + "-" + std::to_string(u), BETA_DOUBLE)
                       ->set_latency(ALPHA_SECONDS)
                       ->seal();
      zone->add_route(p.ranks[v]->get_netpoint(), p.ranks[u]->get_netpoint(), nullptr, nullptr,
                      {{link, sg4::LinkInRoute::Direction::UP}}, true);
    }
  }
  zone->seal();
  return p;
}

// SimGrid switches between its actors' stacks, which AddressSanitizer cannot follow ("False positive
// error reports may follow"): under it, every actor a thread of its own.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STARNET_CROSSCHECK_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(STARNET_CROSSCHECK_ASAN)
constexpr bool UNDER_ASAN = true;
#else
constexpr bool UNDER_ASAN = false;
#endif

SimWorld make_world() {
  // SimGrid keeps pointers into argv: storage for the process's life.
  static std::vector<std::string> args{"network_crosscheck",           "--cfg=network/model:CM02",
                                       "--cfg=network/crosstraffic:0", "--cfg=network/TCP-gamma:1e30",
                                       "--cfg=surf/precision:1e-9",    "--log=root.thres:warning"};
  static_assert(SIMGRID_PRECISION == 1e-9, "the --cfg=surf/precision above");
  if constexpr (UNDER_ASAN) args.emplace_back("--cfg=contexts/factory:thread");
  static std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  static int argc = static_cast<int>(args.size());
  static sg4::Engine engine(&argc, argv.data());
  auto* root = sg4::create_full_zone("crosscheck");
  SimWorld w{
      make_fattree(root), make_torus(root), make_dragonfly(root), {STAR_SPEC, "star zone", {}}, make_star_graph(root)};
  const topology::StarGraph g(STAR_N);
  w.star.ranks = star_hosts(g.num_nodes(), HOST_SPEED, Link{BETA_DOUBLE, ALPHA_SECONDS / 2}, root);
  root->seal();
  return w;
}

SimWorld& world() {
  static SimWorld w = make_world();
  return w;
}

/// SimGrid's time for @p plan on @p p with messages of @p bytes: each rank puts its step's
/// message, gets the one it expects, and waits for its put before the next step.
double simulate(const SimPlatform& p, const Plan& plan, std::uint64_t bytes) {
  static int token = 0;
  const double start = sg4::Engine::get_clock();
  auto box = [&p](std::size_t from, std::size_t to) {
    return sg4::Mailbox::by_name(p.spec + ":" + std::to_string(from) + ">" + std::to_string(to));
  };
  for (std::size_t r = 0; r < plan.size(); ++r) {
    sg4::Actor::create(p.spec + ":" + std::to_string(r), p.ranks.at(r), [&plan, &box, r, bytes] {
      for (const Step& s : plan[r]) {
        sg4::CommPtr sent = s.to ? box(r, *s.to)->put_async(&token, bytes) : nullptr;
        if (s.from) box(*s.from, r)->get<int>();
        if (sent) sent->wait();
      }
    });
  }
  sg4::Engine::get_instance()->run();
  return sg4::Engine::get_clock() - start;
}

/// starnet's all-reduce study of @p spec under the α–β model with messages of @p bytes.
api::WhatIfRequest alpha_beta_request(const std::string& spec, std::uint64_t bytes) {
  api::WhatIfRequest request;
  request.topologies = {spec};
  request.latency = Rational(1, ALPHA_PER_SECOND);
  request.bandwidth = Rational(BETA);
  request.message_size = {Rational(static_cast<std::int64_t>(bytes))};
  return request;
}

/// starnet's makespan of @p algorithm on @p spec (the api's what-if row, verified), in seconds.
double starnet_time(const std::string& spec, const std::string& algorithm, std::uint64_t bytes) {
  for (const auto& row : api::run_whatif(alpha_beta_request(spec, bytes)).rows) {
    if (algorithms::collectives::to_string(row.algorithm) != algorithm) continue;
    EXPECT_TRUE(row.verified) << spec << " " << algorithm << ": " << row.reason;
    return row.makespan.to_double();
  }
  ADD_FAILURE() << spec << ": no row " << algorithm;
  return 0;
}

/// Both times of one run, printed for docs/whatif.md; the ratio starnet / SimGrid.
double compare(const SimPlatform& p, const std::string& algorithm, const Plan& plan, std::uint64_t bytes) {
  const double ours = starnet_time(p.spec, algorithm, bytes);
  const double theirs = simulate(p, plan, bytes);
  std::printf("simgrid crosscheck: %-16s %-16s %-18s %8llu B  starnet %.7g s  SimGrid %.7g s  ratio %.4f\n",
              p.spec.c_str(), p.zone.c_str(), algorithm.c_str(), static_cast<unsigned long long>(bytes), ours, theirs,
              ours / theirs);
  return ours / theirs;
}

/// Where no message waits for a link: both sides take @p steps × (α + M/β), M = @p bytes.
void expect_free_steps(const SimPlatform& p, const std::string& algorithm, const Plan& plan, std::uint64_t steps) {
  for (const std::uint64_t bytes : {LARGE_MESSAGE, SMALL_MESSAGE}) {
    const double free = static_cast<double>(steps) * (ALPHA_SECONDS + static_cast<double>(bytes) / BETA_DOUBLE);
    EXPECT_NEAR(compare(p, algorithm, plan, bytes), 1, SAME_TIME) << p.spec << " " << algorithm << " " << bytes;
    EXPECT_NEAR(starnet_time(p.spec, algorithm, bytes) / free, 1, SAME_TIME) << p.spec << " " << algorithm;
  }
}

/// The messages each directed link carries over @p plan's whole run on SimGrid's routes, sorted.
std::vector<std::uint64_t> simgrid_link_loads(const SimPlatform& p, const Plan& plan) {
  std::map<std::string, std::uint64_t> loads;
  for (std::size_t r = 0; r < plan.size(); ++r) {
    for (const Step& s : plan[r]) {
      if (!s.to) continue;
      std::vector<sg4::Link*> links;
      p.ranks[r]->route_to(p.ranks[*s.to], links, nullptr);
      for (const sg4::Link* l : links) ++loads[l->get_name()];
    }
  }
  std::vector<std::uint64_t> sorted;
  for (const auto& [name, count] : loads) sorted.push_back(count);
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}
/// The same from starnet's link report of @p algorithm on @p spec.
std::vector<std::uint64_t> starnet_link_loads(const std::string& spec, const std::string& algorithm) {
  api::WhatIfRequest request = alpha_beta_request(spec, LARGE_MESSAGE);
  request.link_report = true;
  std::vector<std::uint64_t> sorted;
  for (const auto& row : api::run_whatif(request).rows)
    if (algorithms::collectives::to_string(row.algorithm) == algorithm)
      for (const auto& load : row.link_loads) sorted.push_back(load.messages);
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

/// Whether the route from @p a to @p b costs α at bandwidth β.
void expect_alpha_beta_route(const SimPlatform& p, const sg4::Host* a, const sg4::Host* b) {
  std::vector<sg4::Link*> links;
  double latency = 0;
  a->route_to(b, links, &latency);
  EXPECT_EQ(latency, ALPHA_SECONDS) << p.spec << " on " << p.zone << ": " << a->get_name() << "->" << b->get_name();
  for (const sg4::Link* l : links) EXPECT_EQ(l->get_bandwidth(), BETA_DOUBLE) << l->get_name();
}

TEST(SimGridNetwork, EveryRouteTheAllReducesTakeCostsAlphaAtBandwidthBeta) {
  // Between any two hosts on the networks of switches and the star zone.
  for (const SimPlatform* p : {&world().fattree, &world().dragonfly, &world().star})
    for (const sg4::Host* a : p->ranks)
      for (const sg4::Host* b : p->ranks)
        if (a != b) expect_alpha_beta_route(*p, a, b);
  // Between neighbours on the direct networks, where the all-reduces talk to neighbours alone.
  const std::pair<const SimPlatform*, Plan> direct[] = {{&world().torus, torus_ring_plan(TORUS_SIDES)},
                                                        {&world().star_graph, star_plan(STAR_N)}};
  for (const auto& [p, plan] : direct)
    for (std::size_t r = 0; r < plan.size(); ++r)
      for (const Step& s : plan[r]) expect_alpha_beta_route(*p, p->ranks[r], p->ranks.at(*s.to));
}

TEST(SimGridNetwork, FatTreeRingAndRecursiveDoublingTakeTheSameTimeAsOnSimGridsFatTree) {
  // D-mod-K routes on both sides: neither all-reduce meets contention.
  const SimPlatform& p = world().fattree;
  const std::size_t n = p.ranks.size();
  expect_free_steps(p, "ring", ring_plan(n), n - 1);
  expect_free_steps(p, "recursive-doubling", recursive_doubling_plan(n), std::bit_width(n) - 1);
}

TEST(SimGridNetwork, TorusRingTakesTheSameTimeAsOnSimGridsTorus) {
  expect_free_steps(world().torus, "ring", torus_ring_plan(TORUS_SIDES), TORUS_SIDES[0] - 1 + TORUS_SIDES[1] - 1);
}

TEST(SimGridNetwork, StarGraphAllReduceTakesTheSameTimeAsOnSimGridsStarGraphAndStarZone) {
  // On S_4's own links and on SimGrid's star zone (every host its own split-duplex link, α/2 each
  // way) alike, the pairwise exchanges of a step (one link of each host) meet no contention.
  for (const SimPlatform* p : {&world().star, &world().star_graph})
    expect_free_steps(*p, "star", star_plan(STAR_N), algorithms::star::allreduce_steps(STAR_N));
}

TEST(SimGridNetwork, DragonflyRingAgreesWithSimGridsDragonflyWithinFivePercentAtOneMebibyte) {
  const SimPlatform& p = world().dragonfly;
  EXPECT_NEAR(compare(p, "ring", ring_plan(p.ranks.size()), LARGE_MESSAGE), 1, CONTENTION_GAP);
  // 8 bytes: printed for docs/whatif.md, not compared (a message that waits pays α again).
  compare(p, "ring", ring_plan(p.ranks.size()), SMALL_MESSAGE);
}

TEST(SimGridNetwork, DragonflyRecursiveDoublingIsFasterSerialisedThanShared) {
  // Not within 5%: starnet serves the messages that want one link one after the other, so the
  // first arrive early and their receivers go on, where SimGrid shares the link and they all
  // arrive at the end (docs/whatif.md, "Against SimGrid").
  const SimPlatform& p = world().dragonfly;
  const double ratio = compare(p, "recursive-doubling", recursive_doubling_plan(p.ranks.size()), LARGE_MESSAGE);
  EXPECT_LT(ratio, 1);
  EXPECT_GT(ratio, 1 - SERIALISED_VERSUS_SHARED_GAP);
  compare(p, "recursive-doubling", recursive_doubling_plan(p.ranks.size()), SMALL_MESSAGE);
}

TEST(SimGridNetwork, RoutesLoadTheLinksAsStarnetsMinimalRoutes) {
  // The same loads link by link (up to the links' names): the gap above comes from the sharing of
  // links, not from the routes.
  const SimPlatform& p = world().dragonfly;
  const std::size_t n = p.ranks.size();
  EXPECT_EQ(simgrid_link_loads(p, ring_plan(n)), starnet_link_loads(p.spec, "ring"));
  EXPECT_EQ(simgrid_link_loads(p, recursive_doubling_plan(n)), starnet_link_loads(p.spec, "recursive-doubling"));
  const SimPlatform& f = world().fattree;
  EXPECT_EQ(simgrid_link_loads(f, recursive_doubling_plan(f.ranks.size())),
            starnet_link_loads(f.spec, "recursive-doubling"));
}

TEST(SimGridNetwork, EveryRouteCrossesAsManyLinksOnBothSides) {
  // starnet's minimal routes (topology/network.hpp) and SimGrid's, pair by pair: 2, 4 or 6 links
  // on the fat-tree (same edge switch, same pod, other pod), 2 to 5 on the dragonfly.
  const std::pair<const SimPlatform*, std::set<std::size_t>> cases[] = {{&world().fattree, {2, 4, 6}},
                                                                         {&world().dragonfly, {2, 3, 4, 5}}};
  for (const auto& [p, expected_lengths] : cases) {
    const topology::HostNetwork net(api::TopologyRef(p->spec).platform(), topology::NetworkOptions{});
    ASSERT_EQ(net.num_nodes(), p->ranks.size()) << p->spec;
    std::set<std::size_t> lengths;
    for (NodeId a = 0; a < net.num_nodes(); ++a) {
      for (NodeId b = 0; b < net.num_nodes(); ++b) {
        if (a == b) continue;
        std::vector<sg4::Link*> links;
        p->ranks[a]->route_to(p->ranks[b], links, nullptr);
        EXPECT_EQ(links.size(), net.path(a, b).size() - 1) << p->spec << " " << a << "->" << b;
        lengths.insert(links.size());
      }
    }
    EXPECT_EQ(lengths, expected_lengths) << p->spec;
  }
}

TEST(SimGridNetwork, RankingOfTheFourNetworksAtOneMebibyteAgrees) {
  struct Entry {
    const SimPlatform* platform;
    std::vector<std::pair<std::string, Plan>> algorithms;
    double ours = 0;
    double theirs = 0;
  };
  const std::size_t hosts_ft = world().fattree.ranks.size();
  const std::size_t hosts_df = world().dragonfly.ranks.size();
  std::vector<Entry> entries{
      {&world().fattree, {{"ring", ring_plan(hosts_ft)}, {"recursive-doubling", recursive_doubling_plan(hosts_ft)}}},
      {&world().torus, {{"ring", torus_ring_plan(TORUS_SIDES)}}},
      {&world().dragonfly, {{"ring", ring_plan(hosts_df)}, {"recursive-doubling", recursive_doubling_plan(hosts_df)}}},
      {&world().star, {{"star", star_plan(STAR_N)}}}};
  // Each network's best all-reduce among those both sides run.
  for (Entry& e : entries) {
    e.ours = e.theirs = INFINITY;
    for (const auto& [name, plan] : e.algorithms) {
      e.ours = std::min(e.ours, starnet_time(e.platform->spec, name, LARGE_MESSAGE));
      e.theirs = std::min(e.theirs, simulate(*e.platform, plan, LARGE_MESSAGE));
    }
  }
  auto ranking = [&entries](double Entry::*time) {
    std::vector<std::string> order;
    std::vector<const Entry*> sorted;
    for (const Entry& e : entries) sorted.push_back(&e);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [time](const Entry* a, const Entry* b) { return a->*time < b->*time; });
    for (const Entry* e : sorted) order.push_back(e->platform->spec);
    return order;
  };
  const auto ours = ranking(&Entry::ours);
  std::string line;
  for (const auto& spec : ours) line += " " + spec;
  std::printf("simgrid crosscheck: ranking at 1 MiB (fastest first):%s\n", line.c_str());
  EXPECT_EQ(ours, ranking(&Entry::theirs));
}

}  // namespace
}  // namespace starnet::simgrid_peer

#include "starnet_test_paths.hpp"
#include "../core/expect_error.hpp"

#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/simgrid.hpp>

#include <gtest/gtest.h>

#include <boost/range/iterator_range.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace starnet::topology {
namespace {

/// A platform file around @p body, which starts on line 4.
std::string platform_xml(const std::string& body, const std::string& version = "4.1") {
  return "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<platform version=\"" +
         version + "\">\n" + body + "</platform>\n";
}

/// A Full zone holding @p body.
std::string full_zone(const std::string& body) {
  return platform_xml("  <zone id=\"z\" routing=\"Full\">\n" + body + "  </zone>\n");
}

/// The link u -> v of @p p, found by name.
LinkProperties link(const Platform& p, const std::string& u, const std::string& v) {
  const auto [e, found] = boost::edge(*p.find(u), *p.find(v), p.graph());
  EXPECT_TRUE(found) << u << "->" << v;
  return found ? p.graph()[e] : LinkProperties{0, 0, 0};
}

bool has_link(const Platform& p, const std::string& u, const std::string& v) {
  return boost::edge(*p.find(u), *p.find(v), p.graph()).second;
}

const NodeProperties& node(const Platform& p, const std::string& name) { return p.graph()[*p.find(name)]; }

/// Whether a warning contains @p fragment.
bool warned(const std::vector<std::string>& warnings, const std::string& fragment) {
  return std::any_of(warnings.begin(), warnings.end(),
                     [&](const std::string& w) { return w.find(fragment) != std::string::npos; });
}

TEST(Simgrid, TwoHostsOneLinkIsOneUndirectedLink) {
  const Platform p = parse_simgrid(full_zone(R"(    <host id="a" speed="2Gf"/>
    <host id="b" speed="500Mf"/>
    <link id="l" bandwidth="1GBps" latency="20us"/>
    <route src="a" dst="b"><link_ctn id="l"/></route>
)"),
                                   "two.xml");
  EXPECT_EQ(p.name(), "two.xml");
  EXPECT_FALSE(p.directed());
  EXPECT_EQ(p.num_nodes(), 2U);
  EXPECT_EQ(p.num_links(), 1U);
  EXPECT_EQ(node(p, "a").role, Role::PROCESSOR);
  EXPECT_EQ(node(p, "a").speed, Rational(2'000'000'000));
  EXPECT_EQ(node(p, "b").speed, Rational(500'000'000));
  EXPECT_EQ(link(p, "a", "b").latency, Rational(1, 50'000));
  EXPECT_EQ(link(p, "a", "b").cost, Rational(1, 1'000'000'000));
  EXPECT_EQ(link(p, "b", "a").cost, Rational(1, 1'000'000'000));
  EXPECT_EQ(link(p, "a", "b").dimension, 0);
}

TEST(Simgrid, FullRouteSumsItsLatenciesAndTakesItsSmallestBandwidth) {
  std::vector<std::string> warnings;
  // a -l1- r -l2- b, written as SimGrid Full routes: a->b crosses l1, l2 and l3.
  const Platform p = parse_simgrid(full_zone(R"(    <host id="a" speed="1.5Gf"/>
    <host id="b" speed="3kf"/>
    <host id="c" speed="41.279125Mf"/>
    <link id="l1" bandwidth="10Gbps" latency="1.5ms" sharing_policy="SPLITDUPLEX"/>
    <link id="l2" bandwidth="41.279125MBps" latency="59.904us" sharing_policy="FATPIPE"/>
    <link id="l3" bandwidth="1GiBps"/>
    <route src="a" dst="b">
      <link_ctn id="l1" direction="UP"/><link_ctn id="l2"/><link_ctn id="l3"/>
    </route>
    <route src="b" dst="c"><link_ctn id="l3"/><link_ctn id="l1" direction="DOWN"/></route>
)"),
                                   "hetero.xml", &warnings);
  EXPECT_EQ(p.num_links(), 2U);
  EXPECT_EQ(node(p, "a").speed, Rational(1'500'000'000));
  EXPECT_EQ(node(p, "b").speed, Rational(3'000));
  EXPECT_EQ(node(p, "c").speed, Rational(41'279'125));
  // 1.5 ms + 59.904 us + 0 = 1.559904 ms; min(1.25 GB/s, 41.279125 MB/s, 2^30 B/s).
  EXPECT_EQ(link(p, "a", "b").latency, Rational(1'559'904, 1'000'000'000));
  EXPECT_EQ(link(p, "a", "b").cost, Rational(1, 41'279'125));
  EXPECT_EQ(link(p, "b", "a").latency, Rational(1'559'904, 1'000'000'000));
  EXPECT_EQ(link(p, "b", "c").latency, Rational(3, 2'000));
  EXPECT_EQ(link(p, "b", "c").cost, Rational(1, 1'073'741'824));  // 2^30 < 10 Gb/s = 1.25e9 B/s
  EXPECT_FALSE(has_link(p, "a", "c"));
  EXPECT_TRUE(warned(warnings, "no contention model"));
}

TEST(Simgrid, EveryDocumentedUnitIsReadExactly) {
  struct Case {
    const char* text;
    Rational bytes_per_second;
  };
  for (const Case& c : {Case{"1Bps", 1}, Case{"8bps", 1}, Case{"1kBps", 1'000}, Case{"1KBps", 1'000},
                        Case{"1kbps", 125}, Case{"1Kbps", 125}, Case{"1Kibps", 128}, Case{"1KiBps", 1'024},
                        Case{"2.5Mbps", 312'500}, Case{"1MiBps", 1'048'576}, Case{"1GiBps", 1'073'741'824},
                        Case{"3Gbps", 375'000'000}, Case{"1TBps", 1'000'000'000'000}, Case{"1Tibps", 137'438'953'472},
                        Case{"1e3Bps", 1'000}, Case{"0.5Bps", Rational(1, 2)}, Case{"1PBps", 1'000'000'000'000'000}}) {
    const Platform p = parse_simgrid(full_zone(std::string(R"(    <host id="a" speed="1f"/><host id="b" speed="1f"/>
    <link id="l" bandwidth=")") + c.text + R"("/>
    <route src="a" dst="b"><link_ctn id="l"/></route>
)"),
                                     "units.xml");
    EXPECT_EQ(link(p, "a", "b").cost, Rational(1) / c.bytes_per_second) << c.text;
  }
  for (const Case& c : {Case{"2s", 2}, Case{"3ms", Rational(3, 1'000)}, Case{"7us", Rational(7, 1'000'000)},
                        Case{"1500ps", Rational(3, 2'000'000'000)}, Case{"4ns", Rational(1, 250'000'000)},
                        Case{"1m", 60}, Case{"2h", 7'200}, Case{"1d", 86'400}, Case{"1w", 604'800}, Case{"0", 0},
                        Case{"0.0", 0}}) {
    const Platform p = parse_simgrid(full_zone(std::string(R"(    <host id="a" speed="1f"/><host id="b" speed="1f"/>
    <link id="l" bandwidth="1Bps" latency=")") + c.text + R"("/>
    <route src="a" dst="b"><link_ctn id="l"/></route>
)"),
                                     "times.xml");
    EXPECT_EQ(link(p, "a", "b").latency, c.bytes_per_second) << c.text;
  }
  for (const Case& c : {Case{"1f", 1}, Case{"1.5kf", 1'500}, Case{"2Mf", 2'000'000}, Case{"1Tf", 1'000'000'000'000},
                        Case{"1Ef", 1'000'000'000'000'000'000}, Case{"3flops", 3}, Case{"2kiloflops", 2'000},
                        Case{"1gigaflops", 1'000'000'000}, Case{"0.25petaflops", 250'000'000'000'000}}) {
    const Platform p = parse_simgrid(platform_xml(std::string("<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"") +
                                                  c.text + "\"/></zone>\n"),
                                     "speeds.xml");
    EXPECT_EQ(node(p, "a").speed, c.bytes_per_second) << c.text;
  }
}

TEST(Simgrid, FloydZoneRouterIsARouterAndItsRoutesAreLinks) {
  const Platform p = parse_simgrid(platform_xml(R"(  <AS id="world" routing="Floyd">
    <host id="h1" speed="1Gf"/>
    <host id="h2" speed="2Gf"/>
    <router id="r"/>
    <link id="up1" bandwidth="125MBps" latency="100us"/>
    <link id="up2" bandwidth="250MBps" latency="50us"/>
    <route src="h1" dst="r"><link_ctn id="up1"/></route>
    <route src="r" dst="h2"><link_ctn id="up2"/></route>
  </AS>
)"),
                                   "floyd.xml");
  EXPECT_EQ(p.num_nodes(), 3U);
  EXPECT_EQ(p.num_links(), 2U);
  EXPECT_EQ(node(p, "r").role, Role::ROUTER);
  EXPECT_EQ(node(p, "r").speed, 1);
  EXPECT_EQ(node(p, "h2").role, Role::PROCESSOR);
  EXPECT_EQ(link(p, "r", "h1").cost, Rational(1, 125'000'000));
  EXPECT_EQ(link(p, "h2", "r").latency, Rational(1, 20'000));
  EXPECT_FALSE(has_link(p, "h1", "h2"));  // SimGrid computes that path; starnet routes over the links itself
  // Document order, routers included.
  EXPECT_EQ(p.graph()[0].name, "h1");
  EXPECT_EQ(p.graph()[2].name, "r");
}

TEST(Simgrid, AnAsymmetricalRouteMakesTheWholePlatformDirected) {
  const Platform p = parse_simgrid(full_zone(R"(    <host id="a" speed="1f"/><host id="b" speed="1f"/><host id="c" speed="1f"/>
    <link id="fast" bandwidth="2Bps" latency="1s"/>
    <link id="slow" bandwidth="1Bps" latency="3s"/>
    <route src="a" dst="b" symmetrical="NO"><link_ctn id="fast"/></route>
    <route src="b" dst="a" symmetrical="no"><link_ctn id="slow"/></route>
    <route src="b" dst="c"><link_ctn id="fast"/></route>
)"),
                                   "asym.xml");
  EXPECT_TRUE(p.directed());
  EXPECT_EQ(p.num_links(), 4U);  // a->b, b->a, and the symmetrical b->c as two arcs
  EXPECT_EQ(link(p, "a", "b").cost, Rational(1, 2));
  EXPECT_EQ(link(p, "b", "a").cost, 1);
  EXPECT_EQ(link(p, "b", "a").latency, 3);
  EXPECT_EQ(link(p, "b", "c").latency, 1);
  EXPECT_EQ(link(p, "c", "b").latency, 1);
  EXPECT_FALSE(has_link(p, "a", "c"));
}

TEST(Simgrid, ClusterHostNamesAreTrimmedAsHostIdsAre) {
  // Found by fuzz/simgrid_fuzz.cpp: a prefix " n" made the host " n0", which, written as
  // <host id=" n0">, read back as "n0" (ids are trimmed).
  const Platform p = parse_simgrid(platform_xml(R"(  <cluster id="c" prefix=" n" suffix=" " radical="0-1"
           speed="1Gf" bw="1GBps" lat="0"/>
)"),
                                   "trim.xml");
  ASSERT_EQ(p.num_nodes(), 2U);
  EXPECT_EQ(p.graph()[0].name, "n0");
  EXPECT_EQ(parse_simgrid(write_simgrid(p), "back.xml").graph()[1].name, "n1");
}

TEST(Simgrid, FlatClusterWithoutBackboneIsACompleteGraphOfTwoPrivateLinks) {
  const Platform p = parse_simgrid(platform_xml(R"(  <cluster id="c" prefix="n-" suffix=".lan" radical="1,3;5-7"
           speed="2Gf" bw="1Gbps" lat="25us"/>
)"),
                                   "flat.xml");
  EXPECT_FALSE(p.directed());
  ASSERT_EQ(p.num_nodes(), 5U);
  const std::vector<std::string> names = {"n-1.lan", "n-3.lan", "n-5.lan", "n-6.lan", "n-7.lan"};
  for (std::size_t v = 0; v < names.size(); ++v) {
    EXPECT_EQ(p.graph()[v].name, names[v]) << " v=" << v;
    EXPECT_EQ(p.graph()[v].speed, Rational(2'000'000'000)) << " v=" << v;
  }
  EXPECT_EQ(p.num_links(), 10U);  // K_5
  for (const auto e : boost::make_iterator_range(boost::edges(p.graph()))) {
    EXPECT_EQ(p.graph()[e].latency, Rational(1, 20'000));      // 2 · 25 us
    EXPECT_EQ(p.graph()[e].cost, Rational(1, 125'000'000));    // 1 Gb/s = 125 MB/s
  }
}

TEST(Simgrid, ClusterWithBackboneAddsItsLatencyAndItsBandwidthWhenSmaller) {
  // In a zone, as SimGrid's examples write it; the backbone is the bottleneck here.
  const Platform p = parse_simgrid(platform_xml(R"(  <zone id="AS0" routing="Full">
    <cluster id="c" prefix="node" suffix="" radical="0-3" speed="1Gf" bw="125MBps" lat="50us"
             bb_bw="100MBps" bb_lat="500us" router_id="gw" sharing_policy="FATPIPE"/>
  </zone>
)"),
                                   "bb.xml");
  ASSERT_EQ(p.num_nodes(), 4U);
  EXPECT_EQ(p.graph()[3].name, "node3");
  EXPECT_FALSE(p.find("gw").has_value());  // the cluster's router serves other zones only
  EXPECT_EQ(p.num_links(), 6U);
  EXPECT_EQ(link(p, "node0", "node3").latency, Rational(3, 5'000));  // 2 · 50 us + 500 us
  EXPECT_EQ(link(p, "node2", "node1").cost, Rational(1, 100'000'000));
}

/// A platform with every field a SimGrid file can carry back: routers, labels, dimensions,
/// latencies, decimal speeds and costs.
Platform hand_made(bool directed) {
  Platform p("hand", directed);
  p.add_node({"a b", Role::PROCESSOR, Rational(5, 2), "213"});
  p.add_node({"r\"1<&>", Role::ROUTER, 1, ""});
  p.add_node({"c", Role::PROCESSOR, Rational(98'095'000), ""});
  p.add_link(0, 1, {Rational(1, 3), 2, Rational(1, 10'000)});
  p.add_link(1, 2, {Rational(4, 5), 0, Rational(1'272'279, 1'000'000'000)});
  if (directed) p.add_link(1, 0, {Rational(1, 125'000'000), 0, 0});
  return p;
}

TEST(Simgrid, WrittenPlatformsReadBackWithoutDifference) {
  std::vector<Platform> platforms = {hand_made(false), hand_made(true)};
  for (const char* spec : {"star:4", "hypercube:3", "ring:6", "complete:4", "ring:1"}) platforms.push_back(make_platform(spec));
  for (const Platform& p : platforms) {
    const std::string text = write_simgrid(p);
    const Platform back = parse_simgrid(text, "round-trip.xml");
    EXPECT_EQ(difference(p, back), std::nullopt) << p.name() << "\n" << text;
    EXPECT_EQ(back.name(), "round-trip.xml");
  }
  const std::string text = write_simgrid(hand_made(true));
  EXPECT_NE(text.find("<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">"), std::string::npos) << text;
  EXPECT_NE(text.find("<platform version=\"4.1\">"), std::string::npos) << text;
  EXPECT_NE(text.find("bandwidth=\"3Bps\" latency=\"0.0001s\""), std::string::npos) << text;
  EXPECT_NE(text.find("speed=\"2.5f\""), std::string::npos) << text;
  EXPECT_NE(text.find("symmetrical=\"NO\""), std::string::npos) << text;
}

TEST(Simgrid, TiersRoundTripsWhenItsBandwidthsAreFiniteDecimals) {
  // Tiers costs are k/10, so 1/cost = 10/k is a finite decimal for some k only.
  const Platform tiers = make_platform("tiers:1");
  bool finite = true;
  for (const auto e : boost::make_iterator_range(boost::edges(tiers.graph()))) {
    std::int64_t den = (Rational(1) / tiers.graph()[e].cost).den();
    while (den % 2 == 0) den /= 2;
    while (den % 5 == 0) den /= 5;
    finite = finite && den == 1;
  }
  if (finite) {
    EXPECT_EQ(difference(tiers, parse_simgrid(write_simgrid(tiers), "tiers.xml")), std::nullopt);
  } else {
    EXPECT_ERROR(TopologyError, write_simgrid(tiers), "has no finite decimal", "bandwidth 1/cost");
    const Platform ring = make_platform("ring:8");
    EXPECT_EQ(difference(ring, parse_simgrid(write_simgrid(ring), "ring.xml")), std::nullopt);
  }
}

TEST(Simgrid, WriteRefusesValuesWithoutFiniteDecimalNamingTheNodeOrLink) {
  Platform p("thirds", false);
  p.add_node({"a", Role::PROCESSOR, 1, ""});
  p.add_node({"b", Role::PROCESSOR, 1, ""});
  p.add_link(0, 1, {3, 0, 0});  // bandwidth 1/3 byte/s
  EXPECT_ERROR(TopologyError, write_simgrid(p), "platform \"thirds\"", "link a->b", "1/3", "cost 3",
               "no finite decimal");

  Platform q("third latency", false);
  q.add_node({"a", Role::PROCESSOR, 1, ""});
  q.add_node({"b", Role::PROCESSOR, 1, ""});
  q.add_link(0, 1, {Rational(1, 3), 0, Rational(1, 3)});  // cost 1/3 is 3 Bps: fine; latency 1/3 s is not
  EXPECT_ERROR(TopologyError, write_simgrid(q), "link a->b latency 1/3", "no finite decimal");

  Platform r("third speed", false);
  r.add_node({"a", Role::PROCESSOR, Rational(1, 3), ""});
  EXPECT_ERROR(TopologyError, write_simgrid(r), "node \"a\" speed 1/3", "no finite decimal");

  Platform s("fast router", false);
  s.add_node({"r", Role::ROUTER, 2, ""});
  EXPECT_ERROR(TopologyError, write_simgrid(s), "router \"r\" has speed 2");
}

TEST(Simgrid, WarnsOncePerFileOfWhatItDoesNotModel) {
  std::vector<std::string> warnings;
  const Platform p = parse_simgrid(platform_xml(R"(  <config><prop id="network/model" value="CM02"/></config>
  <zone id="z" routing="Full">
    <prop id="owner" value="me"/>
    <host id="a" speed="1Gf" core="4"><prop id="ram" value="1GB"/></host>
    <host id="b" speed="1Gf" core="8"/>
    <link id="l" bandwidth="1GBps" latency="0s"/>
    <link id="lo" bandwidth="10GBps" latency="0s"/>
    <route src="a" dst="a"><link_ctn id="lo"/></route>
    <route src="b" dst="b"><link_ctn id="lo"/></route>
    <route src="a" dst="b"><link_ctn id="l"/></route>
  </zone>
  <actor host="a" function="ping"/>
)"),
                                   "warn.xml", &warnings);
  EXPECT_EQ(p.num_links(), 1U);
  EXPECT_EQ(warnings.size(), 6U) << ::testing::PrintToString(warnings);
  for (const char* fragment : {"<config> is not read", "<prop> elements", "core > 1", "no contention model",
                               "from a host to itself", "(a deployment)"}) {
    EXPECT_TRUE(warned(warnings, fragment)) << fragment << "\n" << ::testing::PrintToString(warnings);
  }
  for (const auto& w : warnings) EXPECT_EQ(w.rfind("simgrid file \"warn.xml\": ", 0), 0U) << w;
}

TEST(Simgrid, RefusesBadValuesNamingTheElementTheAttributeAndTheUnit) {
  const auto with_link = [](const std::string& attributes) {
    return full_zone("    <host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n    <link id=\"l1\" " + attributes +
                     "/>\n    <route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></route>\n");
  };
  EXPECT_ERROR(TopologyError, parse_simgrid(with_link(R"(bandwidth="12Qbps")"), "u.xml"), "simgrid file \"u.xml\" line 6",
               "<link id=\"l1\"> bandwidth \"12Qbps\"", "unknown unit \"Qbps\"", "Bps, kBps", "Mibps");
  EXPECT_ERROR(TopologyError, parse_simgrid(with_link(R"(bandwidth="125000000")"), "u.xml"),
               "<link id=\"l1\"> bandwidth \"125000000\" has no unit", "expected one of Bps");
  EXPECT_ERROR(TopologyError, parse_simgrid(with_link(R"(bandwidth="1MBps" latency="5")"), "u.xml"),
               "latency \"5\" has no unit", "s, ms, us");
  EXPECT_ERROR(TopologyError, parse_simgrid(with_link(R"(bandwidth="-5MBps")"), "u.xml"),
               "<link id=\"l1\"> has bandwidth \"-5MBps\" (must be > 0)");
  EXPECT_ERROR(TopologyError, parse_simgrid(with_link(R"(bandwidth="0Bps")"), "u.xml"), "(must be > 0)");
  EXPECT_ERROR(TopologyError, parse_simgrid(with_link(R"(bandwidth="1MBps" latency="-1ms")"), "u.xml"),
               "<link id=\"l1\"> has latency \"-1ms\" (must be >= 0)");
  EXPECT_ERROR(TopologyError, parse_simgrid(with_link(R"(bandwidth="fast")"), "u.xml"),
               "bandwidth \"fast\" is not a number with a unit");
  EXPECT_ERROR(TopologyError, parse_simgrid(with_link(R"(bandwidth="1YBps")"), "u.xml"), "cannot be held exactly");
  EXPECT_ERROR(TopologyError, parse_simgrid(with_link(R"(bandwidth="1MBps" sharing_policy="WIFI")"), "u.xml"),
               "sharing_policy \"WIFI\"", "SPLITDUPLEX");
  EXPECT_ERROR(TopologyError, parse_simgrid(with_link(R"(bandwidth="1MBps" latency_file="lat.txt")"), "u.xml"),
               "latency_file=\"lat.txt\"", "constant");
  EXPECT_ERROR(TopologyError, parse_simgrid(with_link(R"(bandwidth="1MBps" colour="red")"), "u.xml"),
               "attribute \"colour\"", "expected id, bandwidth, latency");
  EXPECT_ERROR(TopologyError, parse_simgrid(with_link(R"(latency="1ms")"), "u.xml"), "<link id=\"l1\"> has no bandwidth");

  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(R"(    <host id="a" speed="1Gf,500Mf"/>
)"),
                                            "p.xml"),
               "line 5", "<host id=\"a\"> has speed \"1Gf,500Mf\", a list of 2 pstates");
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(R"(    <host id="a" speed="12Qf"/>
)"),
                                            "p.xml"),
               "<host id=\"a\"> speed \"12Qf\" has the unknown unit \"Qf\"", "kf, Mf");
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(R"(    <host id="a" speed="1Gf" core="two"/>
)"),
                                            "p.xml"),
               "core \"two\"");
}

TEST(Simgrid, RefusesDvfsProfilesAndListsNamingTheElement) {
  const auto one_host = [](const std::string& attributes) {
    return full_zone("    <host id=\"a\" speed=\"1Gf\" " + attributes + "/>\n");
  };
  EXPECT_ERROR(TopologyError, parse_simgrid(one_host(R"(pstate="1")"), "d.xml"), "line 5",
               "<host id=\"a\"> has pstate \"1\" (expected 0");
  EXPECT_ERROR(TopologyError, parse_simgrid(one_host(R"(speed_file="cpu.txt")"), "d.xml"),
               "<host id=\"a\"> has speed_file=\"cpu.txt\"");
  EXPECT_EQ(parse_simgrid(one_host(R"(pstate="0.0" core="1")"), "d.xml").num_nodes(), 1U);
  const std::string hosts = "    <host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n";
  EXPECT_ERROR(TopologyError,
               parse_simgrid(full_zone(hosts + "    <link id=\"w\" bandwidth=\"54Mbps,36Mbps\" sharing_policy=\"WIFI\"/>\n"),
                             "d.xml"),
               "<link id=\"w\"> has bandwidth \"54Mbps,36Mbps\", a list");
  EXPECT_ERROR(TopologyError,
               parse_simgrid(full_zone(hosts + "    <link id=\"l\" bandwidth=\"1MBps\"/>\n    <link id=\"l\" bandwidth=\"2MBps\"/>\n"),
                             "d.xml"),
               "line 7", "declares the link \"l\" a second time");
  EXPECT_ERROR(TopologyError,
               parse_simgrid(full_zone(hosts + "    <link id=\"l\" bandwidth=\"1MBps\"/>\n"
                                               "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l\" direction=\"SIDEWAYS\"/></route>\n"),
                             "d.xml"),
               "line 7", "<link_ctn id=\"l\"> has direction \"SIDEWAYS\" (expected UP, DOWN, NONE)");
}

TEST(Simgrid, RefusesRoutesNamingUnknownEndsOrLinks) {
  const std::string hosts = R"(    <host id="a" speed="1Gf"/><host id="b" speed="1Gf"/>
    <link id="l" bandwidth="1GBps"/>
)";
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(hosts + R"(    <route src="a" dst="ghost"><link_ctn id="l"/></route>
)"),
                                            "r.xml"),
               "simgrid file \"r.xml\" line 7", "route a->ghost", "\"ghost\"", "no host or router");
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(hosts + R"(    <route src="a" dst="b"><link_ctn id="l9"/></route>
)"),
                                            "r.xml"),
               "line 7", "route a->b", "link \"l9\", which is not declared");
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(hosts + R"(    <route src="a" dst="b"/>
)"),
                                            "r.xml"),
               "line 7", "has no <link_ctn>");
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(hosts + R"(    <route src="a" dst="b"><link_ctn id="l"/></route>
    <route src="b" dst="a"><link_ctn id="l"/></route>
)"),
                                            "r.xml"),
               "line 8", "route b->a is given twice");
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(hosts + R"(    <route src="a" dst="b" symmetrical="maybe"><link_ctn id="l"/></route>
)"),
                                            "r.xml"),
               "symmetrical=\"maybe\"");
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(hosts + R"(    <host id="a" speed="2Gf"/>
)"),
                                            "r.xml"),
               "line 7", "declares the name \"a\" a second time");
}

TEST(Simgrid, RefusesDocumentsItCannotTrust) {
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone("    <host id=\"a\" speed=\"1Gf\">\n"), "bad.xml"),
               "simgrid file \"bad.xml\" line", "malformed XML", "expected well-formed XML");
  EXPECT_ERROR(TopologyError, parse_simgrid("<platform version=\"4.1\">\n  <zone id=\"z\" routing=\"Full\">\n<host id=\"a\"", "bad.xml"),
               "line 3", "malformed XML");
  const std::string entity = R"(<?xml version="1.0"?>
<!DOCTYPE platform [ <!ENTITY big "lots"> ]>
<platform version="4.1"><zone id="z" routing="Full"><host id="&big;" speed="1f"/></zone></platform>
)";
  EXPECT_ERROR(TopologyError, parse_simgrid(entity, "e.xml"), "simgrid file \"e.xml\" line 2", "internal subset",
               "expands no entities");
  EXPECT_ERROR(TopologyError, parse_simgrid("<platform>\n<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1f\"/></zone></platform>", "v.xml"),
               "line 1", "<platform> has no version");
  EXPECT_ERROR(TopologyError,
               parse_simgrid(platform_xml("<AS id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1f\"/></AS>\n", "3"), "v.xml"),
               "<platform> has version \"3\"", "expected 4.x");
  EXPECT_ERROR(TopologyError, parse_simgrid(platform_xml("", "4.x"), "v.xml"), "version \"4.x\"");
  EXPECT_ERROR(TopologyError, parse_simgrid("<graphml/>", "g.xml"), "root element <graphml>");
}

TEST(Simgrid, RefusesWhatStarnetDoesNotModelNamingTheElement) {
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(R"(    <zone id="inner" routing="Full"><host id="a" speed="1f"/></zone>
)"),
                                            "n.xml"),
               "simgrid file \"n.xml\" line 5: <zone> is not supported", "nested zones");
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(R"(    <host id="a" speed="1f"/>
    <zoneRoute src="z1" dst="z2" gw_src="a" gw_dst="b"/>
)"),
                                            "n.xml"),
               "line 6: <zoneRoute> is not supported (expected one zone");
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(R"(    <host id="a" speed="1f"/>
    <bypassRoute src="a" dst="a"/>
)"),
                                            "n.xml"),
               "<bypassRoute> is not supported");
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(R"(    <host id="a" speed="1f"><disk id="d" read_bw="1MBps" write_bw="1MBps"/></host>
)"),
                                            "n.xml"),
               "<disk> is not supported");
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone(R"(    <host id="a" speed="1f"/>
    <teleporter id="t"/>
)"),
                                            "n.xml"),
               "line 6: <teleporter> in <zone> is not a SimGrid element starnet knows");
  EXPECT_ERROR(TopologyError, parse_simgrid(platform_xml("<trace id=\"t\" periodicity=\"1\"/>\n"), "n.xml"),
               "<trace> is not supported");
  EXPECT_ERROR(TopologyError, parse_simgrid(platform_xml("<include file=\"other.xml\"/>\n"), "n.xml"),
               "<include> is not supported");
  EXPECT_ERROR(TopologyError,
               parse_simgrid(platform_xml("<zone id=\"z\" routing=\"Vivaldi\"><host id=\"a\" speed=\"1f\"/></zone>\n"), "n.xml"),
               "<zone id=\"z\"> has routing \"Vivaldi\"", "Full, Floyd, Dijkstra or DijkstraCache");
  EXPECT_ERROR(TopologyError,
               parse_simgrid(platform_xml("<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1f\"/></zone>\n"
                                          "<zone id=\"y\" routing=\"Full\"/>\n"),
                             "n.xml"),
               "line 5", "second top-level <zone>");
  EXPECT_ERROR(TopologyError, parse_simgrid(full_zone("    <router id=\"r\"/>\n"), "n.xml"), "line 3",
               "has no hosts");
  EXPECT_ERROR(TopologyError, parse_simgrid(platform_xml(""), "n.xml"), "has no <zone> or <cluster>");
}

TEST(Simgrid, RefusesClustersItCannotMapNamingTheCluster) {
  const auto cluster = [](const std::string& attributes) {
    return platform_xml("  <cluster id=\"c\" prefix=\"n\" suffix=\"\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" " +
                        attributes + "/>\n");
  };
  EXPECT_ERROR(TopologyError, parse_simgrid(cluster(R"(radical="0-15" topology="TORUS" topo_parameters="4,4")"), "c.xml"),
               "line 4", "<cluster id=\"c\"> has topology \"TORUS\"", "expected FLAT");
  EXPECT_ERROR(TopologyError, parse_simgrid(cluster(R"(radical="0-99999")"), "c.xml"),
               "radical \"0-99999\" giving 100000 hosts", "at most 1448");
  EXPECT_ERROR(TopologyError, parse_simgrid(cluster(R"(radical="5-2")"), "c.xml"), "the part \"5-2\"");
  EXPECT_ERROR(TopologyError, parse_simgrid(cluster(R"(radical="0-3,x")"), "c.xml"), "the part \"x\"");
  EXPECT_ERROR(TopologyError, parse_simgrid(cluster(R"(radical="0-3,2")"), "c.xml"), "name \"n2\" a second time");
  EXPECT_ERROR(TopologyError, parse_simgrid(cluster(R"(radical="0-3" limiter_link="2GBps")"), "c.xml"),
               "limiter_link=\"2GBps\"");
  EXPECT_ERROR(TopologyError, parse_simgrid(cluster(R"(radical="0-3" bb_lat="1us")"), "c.xml"), "bb_lat but no bb_bw");
  EXPECT_ERROR(TopologyError,
               parse_simgrid(platform_xml("<zone id=\"z\" routing=\"Full\">\n  <host id=\"h\" speed=\"1f\"/>\n"
                                          "  <cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-1\" speed=\"1f\" "
                                          "bw=\"1Bps\" lat=\"0s\"/>\n</zone>\n"),
                             "c.xml"),
               "line 6", "is not the only element of <zone id=\"z\">");
}

// ---- SimGrid's own example platforms (../shared/data/simgrid, not part of the repository) ------

const std::filesystem::path SHARED_SIMGRID = std::filesystem::path(STARNET_SOURCE_DIR) / ".." / "shared" / "data" / "simgrid";

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Simgrid, ReadsSimgridsExamplePlatforms) {
  if (!std::filesystem::is_directory(SHARED_SIMGRID)) {
    GTEST_SKIP() << "SimGrid's example platforms are not here: " << SHARED_SIMGRID << " (see its README.md)";
  }
  {
    const Platform p = parse_simgrid(read_text(SHARED_SIMGRID / "two_hosts.xml"), "two_hosts.xml");
    EXPECT_EQ(p.num_nodes(), 2U);
    EXPECT_EQ(p.num_links(), 1U);
    EXPECT_EQ(node(p, "Tremblay").speed, Rational(25'000'000));       // 25Mf
    EXPECT_EQ(link(p, "Jupiter", "Tremblay").latency, Rational(1, 10'000));  // 100us
    EXPECT_EQ(link(p, "Tremblay", "Jupiter").cost, Rational(1, 125'000'000));  // 125MBps
  }
  {
    std::vector<std::string> warnings;
    const Platform p = parse_simgrid(read_text(SHARED_SIMGRID / "small_platform.xml"), "small_platform.xml", &warnings);
    EXPECT_FALSE(p.directed());
    EXPECT_EQ(p.num_nodes(), 7U);
    EXPECT_EQ(p.num_links(), 21U);  // every pair of the 7 hosts; the 5 loopback routes are skipped
    EXPECT_TRUE(warned(warnings, "from a host to itself"));
    EXPECT_EQ(node(p, "Tremblay").speed, Rational(98'095'000));   // 98.095Mf
    EXPECT_EQ(node(p, "Jacquelin").speed, Rational(137'333'000));  // 137.333Mf
    EXPECT_EQ(node(p, "Ginette").speed, Rational(48'492'000));     // 48.492Mf
    // Tremblay->Ginette through links 4, 3, 5: 479.78 + 514.433 + 278.066 us; min 10.099625 MB/s (link 4).
    EXPECT_EQ(link(p, "Tremblay", "Ginette").latency, Rational(1'272'279, 1'000'000'000));
    EXPECT_EQ(link(p, "Ginette", "Tremblay").cost, Rational(1, 10'099'625));
    // Jacquelin->Boivin through 10 links, 80.6211717 ms in all; link 145 (2.583375 MB/s) is the slowest.
    EXPECT_EQ(link(p, "Jacquelin", "Boivin").latency, Rational(806'211'717, 10'000'000'000));
    EXPECT_EQ(link(p, "Jacquelin", "Boivin").cost, Rational(1, 2'583'375));
  }
  {
    const Platform p = parse_simgrid(read_text(SHARED_SIMGRID / "cluster_backbone.xml"), "cluster_backbone.xml");
    ASSERT_EQ(p.num_nodes(), 100U);
    for (std::size_t v = 0; v < 100; ++v) {
      EXPECT_EQ(p.graph()[v].name, "node-" + std::to_string(v) + ".simgrid.org") << " v=" << v;
      EXPECT_EQ(p.graph()[v].speed, Rational(1'000'000'000)) << " v=" << v;
    }
    EXPECT_EQ(p.num_links(), 4'950U);  // K_100
    for (const auto e : boost::make_iterator_range(boost::edges(p.graph()))) {
      ASSERT_EQ(p.graph()[e].latency, Rational(3, 5'000));          // 2 · 50us + 500us
      ASSERT_EQ(p.graph()[e].cost, Rational(1, 125'000'000));       // 125MBps < 2.25GBps
    }
  }
}

}  // namespace
}  // namespace starnet::topology

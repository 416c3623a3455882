#pragma once
/// @file
/// Platforms in SimGrid's XML platform format, version 4.x (https://simgrid.org/simgrid.dtd),
/// read and written on pugixml (docs/simgrid.md).
///
/// Units: the second is starnet's time unit, the byte its message unit and the flop its task
/// unit, so a host's speed is in flop/s, a link's cost is 1/(bytes per second) and its latency in
/// seconds. SimGrid values carry a unit suffix ("125MBps", "50us", "1Gf") and are read exactly as
/// rationals: "41.279125MBps" is 41279125 bytes/s, never a double.
///
/// What a SimGrid route becomes: starnet has no contention and no pipelining through several
/// links, so each <route src dst> becomes ONE starnet link src→dst carrying the time SimGrid gives
/// a lone transfer on that route under its CM02 model without correction factors: latency = the
/// sum of the route's link latencies, cost = 1/(the smallest bandwidth of its links). A <cluster>
/// (FLAT, with or without backbone) becomes the complete graph of its hosts, each link carrying
/// the time of SimGrid's route private link up → backbone → private link down.
///
///   SimGrid                                  starnet
///   <host id speed>                          processor of that speed
///   <router id>                              router (speed 1)
///   <route src dst> + <link_ctn>s            link src→dst: α = Σ latency, cost = 1/min bandwidth
///   symmetrical="YES" (default)              both directions; any "NO" makes the platform directed
///   <cluster radical="0-3" bw lat bb_*>      complete graph K_n: α = 2·lat (+ bb_lat), cost = 1/min(bw, bb_bw)
///
/// IMPORTANT: a route of a Floyd or Dijkstra zone is one edge of SimGrid's routing graph; SimGrid
/// pipelines a multi-hop transfer (Σ α + m/min β) where starnet forwards it hop by hop, so the two
/// agree on single routes only. Contention (sharing_policy), DVFS, multi-core hosts, profiles and
/// every multi-zone feature are outside the model: see parse_simgrid() for what is refused.

#include <starnet/topology/platform.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace starnet::topology {

/// @brief Reads a SimGrid platform; the platform is named @p path.
///
/// Reads one <zone> (or legacy <AS>) routed Full, Floyd, Dijkstra or DijkstraCache holding
/// <host>, <router>, <link> and <route> elements, or one FLAT <cluster> at top level or as the only
/// element of a zone. Hosts and routers keep their document order (cluster hosts: radical order).
/// A <!DOCTYPE platform SYSTEM "..."> is accepted and never fetched; no entity is ever expanded.
/// @param text the XML text.
/// @param path names the input in messages (`simgrid file "PATH" line L: …`).
/// @param warnings when not null, receives one sentence per kind of thing that is read but not
/// modelled (contention, loopback routes, extra cores, <prop>, <config>, deployment elements,
/// unused attributes), each once per file, appended after a successful read.
/// @return the platform: undirected unless a route has symmetrical="NO".
/// @throws TopologyError naming the file, the line, the element and what was expected, for:
/// malformed XML; a DOCTYPE with an internal subset; a root other than <platform>; a version
/// missing or not 4.x; no zone or cluster, or more than one; nested zones, <zoneRoute>,
/// <ASroute>, bypass routes, <trace>, <trace_connect>, <cabinet>, <peer>, <disk>, <storage>,
/// <include>, <backbone>, <host_link> or any unknown element; a routing other than Full, Floyd,
/// Dijkstra, DijkstraCache; an unknown attribute or a missing required one; a value that is not
/// a number with a known unit of its kind, cannot be held as a 64-bit rational, or is out of range
/// (speed and bandwidth > 0, latency >= 0); a speed list (pstates); a speed, bandwidth, latency
/// or state profile file; sharing_policy WIFI; a name declared twice; a route naming an unknown
/// host, router or link, without <link_ctn>, or given twice; a cluster topology other than FLAT,
/// a limiter_link, a bad radical or more hosts than MAX_PLATFORM_LINKS allows; no host.
/// Complexity: O(file size + L log L) for L links; a cluster of n hosts O(n²). Memory O(file size
/// + L); no recursion per level of XML nesting.
///
///   std::vector<std::string> warnings;
///   const Platform p = parse_simgrid(text, "small_platform.xml", &warnings);
///   // 7 processors; link Tremblay->Ginette: latency 1272279/10^9 s, cost 1/10099625 s/byte
[[nodiscard]] Platform parse_simgrid(std::string_view text, std::string_view path,
                                     std::vector<std::string>* warnings = nullptr);

/// @brief A SimGrid platform that reads back into @p platform:
/// `difference(platform, parse_simgrid(write_simgrid(platform), …))` is std::nullopt.
///
/// Version 4.1, one zone routed Full named after the platform, processors as <host speed="…f">,
/// routers as <router>, and for each starnet link one <link bandwidth="…Bps" latency="…s"> and one
/// <route> through it (a directed platform writes symmetrical="NO" routes, one per arc). Values
/// are exact decimals of the rationals. A node's permutation label and a link's dimension travel as
/// <prop id="starnet:label"> and <prop id="starnet:dimension">, which SimGrid keeps as user data.
/// @throws TopologyError naming the node or link when a written value has no finite decimal: a
/// speed or latency of 1/3, or a cost whose bandwidth 1/cost has none (cost 3 is 1/3 byte/s and
/// is refused; cost 1/3 is written "3Bps"). SimGrid cannot hold such a value exactly and starnet
/// never rounds. Also for a router whose speed is not 1 or that has a label (a SimGrid <router>
/// has neither).
/// Complexity: O(V + E).
[[nodiscard]] std::string write_simgrid(const Platform& platform);

}  // namespace starnet::topology

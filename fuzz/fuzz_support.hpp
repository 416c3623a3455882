#pragma once
// What the libFuzzer harnesses share (fuzz/README.md): the input as text, the one exception a
// harness expects, the round-trip check, the size a topology spec implies, and the platform
// harness of the three file formats.
//
// A harness returns 0 for an input its parser refuses as documented (InputError; TransportError
// for the wire); any other exception escapes and libFuzzer reports it as a crash. A round trip
// that fails prints what differed and traps.

#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/files.hpp>
#include <starnet/topology/spec.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Runs @p body; an @p Expected exception (the input refused as documented) ends the input.
template <class Expected = InputError, class Body>
int expect_only(Body&& body) {
  try {
    body();
  } catch (const Expected&) {
  }
  return 0;
}

/// Reads back @p written, the text @p original was written as: reading must succeed and
/// @p differ(original, read back) must be std::nullopt; otherwise prints why and traps.
template <class T, class Read, class Differ>
void check_round_trip(std::string_view what, const T& original, const std::string& written, Read&& read,
                      Differ&& differ) {
  std::optional<std::string> why;
  try {
    why = differ(original, read(written));
  } catch (const std::exception& e) {
    why = std::string("reading it back threw: ") + e.what();
  }
  if (why) {
    std::fprintf(stderr, "round trip of %.*s failed: %s\n--- written ---\n%s\n--- end ---\n",
                 static_cast<int>(what.size()), what.data(), why->c_str(), written.c_str());
    __builtin_trap();
  }
}

/// Nodes and links of a family spec's platform, saturating at UINT64_MAX.
struct SpecSize {
  std::uint64_t nodes = 0;
  std::uint64_t links = 0;
};

namespace detail {
inline std::uint64_t mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
inline std::uint64_t add(std::uint64_t a, std::uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
/// A whole number as make_platform() reads it, or 0 for text it refuses anyway.
inline std::uint64_t number(std::string_view text) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size() ? v : 0;
}
/// The whole numbers of @p text split at @p separator (0 for a part make_platform() refuses).
inline std::vector<std::uint64_t> numbers(std::string_view text, char separator) {
  std::vector<std::uint64_t> out;
  for (std::size_t begin = 0;;) {
    const auto end = text.find(separator, begin);
    out.push_back(number(text.substr(begin, end == std::string_view::npos ? end : end - begin)));
    if (end == std::string_view::npos) return out;
    begin = end + 1;
  }
}
/// n·(n − 1)·…·(n − k + 1), saturating (n! for k = n).
inline std::uint64_t falling(std::uint64_t n, std::uint64_t k) {
  std::uint64_t r = 1;
  for (std::uint64_t i = 0; i < k && r != UINT64_MAX && r != 0; ++i) r = mul(r, n - i);
  return r;
}
inline std::uint64_t power(std::uint64_t base, std::uint64_t exponent) {
  if (base <= 1) return exponent == 0 ? 1 : base;  // the loop below saturates within 64 rounds
  std::uint64_t r = 1;
  for (std::uint64_t i = 0; i < exponent && r != UINT64_MAX; ++i) r = mul(r, base);
  return r;
}
}  // namespace detail

/// The size of the platform make_platform(@p text) builds, computed from the spec alone (a
/// malformed argument counts as empty: make_platform() refuses it cheaply). std::nullopt for a
/// file, or a product with a file factor: a harness never reads files.
inline std::optional<SpecSize> implied_size(std::string_view text) {
  using detail::mul;
  topology::Spec spec;
  try {
    spec = topology::parse_spec(text);
  } catch (const InputError&) {
    return SpecSize{};
  }
  const std::string_view f = spec.family;
  const std::string_view arg = spec.argument;
  if (f == "file") return std::nullopt;
  if (f == "star") {
    const auto n = detail::number(arg);
    std::uint64_t nodes = 1;
    for (std::uint64_t k = 2; k <= n && nodes != UINT64_MAX; ++k) nodes = mul(nodes, k);
    return SpecSize{nodes, mul(nodes, n)};
  }
  if (f == "hypercube" || f == "debruijn") {
    const auto nodes = detail::power(2, detail::number(arg));
    return SpecSize{nodes, mul(nodes, detail::number(arg) + 2)};
  }
  if (f == "complete" || f == "ring") {
    const auto n = detail::number(arg);
    return SpecSize{n, f == "ring" ? n : mul(n, n)};
  }
  if (f == "torus" || f == "mesh") {  // AxBx…: the product of the sides, a link per side and node at most
    const auto sides = detail::numbers(arg, 'x');
    std::uint64_t nodes = 1;
    for (const auto side : sides) nodes = mul(nodes, side);
    return SpecSize{nodes, mul(nodes, sides.size())};
  }
  if (f == "pancake" || f == "bubblesort" || f == "transposition") {  // N! permutations, degree < N²
    const auto n = detail::number(arg);
    return SpecSize{detail::falling(n, n), mul(detail::falling(n, n), mul(n, n))};
  }
  if (f == "nkstar" || f == "arrangement") {  // N!/(N−K)! arrangements of K out of N, degree < N²
    const auto nk = detail::numbers(arg, ':');
    if (nk.size() != 2 || nk[1] > nk[0]) return SpecSize{};
    const auto nodes = detail::falling(nk[0], nk[1]);
    return SpecSize{nodes, mul(nodes, mul(nk[0], nk[0]))};
  }
  if (f == "fattree") {  // K³/4 hosts and 5K²/4 switches, K links a switch at most
    const auto k = detail::number(arg);
    const auto nodes = detail::add(mul(mul(k, k), k) / 4, mul(mul(k, k), 5) / 4);
    return SpecSize{nodes, mul(nodes, k)};
  }
  if (f == "dragonfly") {  // A·H + 1 groups of A routers, each with P hosts; A + P + H links a router at most
    const auto aph = detail::numbers(arg, ':');
    if (aph.size() != 3) return SpecSize{};
    const auto routers = mul(detail::add(mul(aph[0], aph[2]), 1), aph[0]);
    const auto nodes = mul(routers, detail::add(aph[1], 1));
    return SpecSize{nodes, mul(routers, detail::add(detail::add(aph[0], aph[1]), aph[2]))};
  }
  if (f == "mct") {
    const auto colon = arg.find(':');
    if (colon == std::string_view::npos) return SpecSize{};
    const auto trees = detail::number(arg.substr(0, colon));
    const auto nodes = detail::power(detail::power(2, detail::number(arg.substr(colon + 1))) - 1, trees);
    return SpecSize{nodes, mul(nodes, trees)};
  }
  if (f == "product") {
    SpecSize total{1, 0};
    std::vector<SpecSize> factors;
    for (std::size_t begin = 0;;) {
      const auto star = arg.find('*', begin);
      const auto factor = implied_size(arg.substr(begin, star - begin));
      if (!factor) return std::nullopt;
      factors.push_back(*factor);
      total.nodes = mul(total.nodes, factor->nodes);
      if (star == std::string_view::npos) break;
      begin = star + 1;
    }
    for (const auto& s : factors) {
      if (s.nodes != 0) total.links = detail::add(total.links, mul(s.links, total.nodes / s.nodes));
    }
    // make_platform() builds the factors first: a large one counts even when a malformed one
    // makes the product empty.
    for (const auto& s : factors) {
      total.nodes = std::max(total.nodes, s.nodes);
      total.links = std::max(total.links, s.links);
    }
    return total;
  }
  return SpecSize{18, 40};  // tiers: at most 18 nodes
}

/// The largest platform a harness builds: enough for every family, small enough for speed.
inline constexpr SpecSize MAX_FUZZ_SIZE{4'096, 32'768};

inline bool small_enough(const std::optional<SpecSize>& s) {
  return s && s->nodes <= MAX_FUZZ_SIZE.nodes && s->links <= MAX_FUZZ_SIZE.links;
}

/// The harness of one platform file format: read, then write → read back → the same platform
/// (difference() compares by name, so DOT's reordering of nodes is no difference).
inline int platform_harness(const std::uint8_t* data, std::size_t size, topology::FileFormat format) {
  using namespace topology;
  return expect_only([&] {
    std::vector<std::string> warnings;
    const Platform p = parse_platform(as_text(data, size), format, "fuzz." + to_string(format), &warnings);
    std::string written;
    try {
      written = write_platform(p, format);
    } catch (const TopologyError&) {
      // SimGrid holds only values with a finite decimal (write_simgrid() documents the refusal);
      // DOT refuses node names that are DOT keywords (write_platform() documents it).
      if (format == FileFormat::SIMGRID || format == FileFormat::DOT) return;
      throw;
    }
    // Documented (docs/simgrid.md, "Writing"): a directed SimGrid platform without links reads back undirected.
    if (format == FileFormat::SIMGRID && p.directed() && p.num_links() == 0) return;
    check_round_trip(
        to_string(format), p, written,
        [&](const std::string& text) { return parse_platform(text, format, "written." + to_string(format)); },
        [](const Platform& a, const Platform& b) { return difference(a, b); });
  });
}

}  // namespace starnet::fuzz

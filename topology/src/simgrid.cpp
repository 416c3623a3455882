// SimGrid platforms (simgrid.hpp, docs/simgrid.md).
//
// SimgridReader visits the fixed levels of a platform file by loops (platform > zone > host |
// router | link | route > link_ctn, or platform [> zone] > cluster), collecting nodes, links and
// routes with their lines; build() then turns each route, or the cluster, into starnet links. A
// value with a unit is read exactly: the decimal's digits · 10^e · the unit's 10^a · 2^b · k, in
// 128-bit integers reduced once, so "41.279125MBps" is 41279125 and "1Kibps" is 128.
#include <starnet/core/error.hpp>
#include <starnet/core/rational_gmp.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/simgrid.hpp>

#include "decimal.hpp"
#include "xml_text.hpp"

#include <boost/range/iterator_range.hpp>
#include <fmt/format.h>
#include <pugixml.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

namespace starnet::topology {
namespace {

constexpr std::string_view SIMGRID_DTD = "https://simgrid.org/simgrid.dtd";
constexpr std::string_view WRITTEN_VERSION = "4.1";
/// User properties (SimGrid keeps them and ignores them) that carry what SimGrid has no field for.
constexpr std::string_view LABEL_PROP = "starnet:label";
constexpr std::string_view DIMENSION_PROP = "starnet:dimension";

std::string where(std::string_view path) { return fmt::format("simgrid file \"{}\"", path); }

using detail::Decimal;
using detail::exact_value;
using detail::leading_decimal;
using detail::Lines;
using detail::trimmed;


// ---- values with units ----------------------------------------------------------------------

enum class Quantity { SPEED, BANDWIDTH, TIME };

/// A unit multiplies the number by 10^pow10 · 2^pow2 · factor.
struct Unit {
  std::string name;
  std::int64_t pow10 = 0;
  std::int64_t pow2 = 0;
  std::int64_t factor = 1;
};

constexpr std::array<std::string_view, 8> SI_PREFIXES = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
constexpr std::array<std::string_view, 8> SI_WORDS = {"kilo", "mega", "giga", "tera", "peta", "exa", "zetta", "yotta"};
constexpr std::array<std::string_view, 8> BINARY_PREFIXES = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
constexpr std::int64_t DECADES_PER_SI_PREFIX = 3;       // k = 10^3
constexpr std::int64_t DOUBLINGS_PER_BINARY_PREFIX = 10;  // Ki = 2^10
constexpr std::int64_t DOUBLINGS_PER_BYTE = 3;            // 1 B = 8 b
constexpr std::int64_t SECONDS_PER_MINUTE = 60;
constexpr std::int64_t SECONDS_PER_HOUR = 60 * SECONDS_PER_MINUTE;
constexpr std::int64_t SECONDS_PER_DAY = 24 * SECONDS_PER_HOUR;
constexpr std::int64_t SECONDS_PER_WEEK = 7 * SECONDS_PER_DAY;

std::int64_t si_power(std::size_t prefix) { return DECADES_PER_SI_PREFIX * static_cast<std::int64_t>(prefix + 1); }

/// SimGrid's speeds (xbt_parse_units.cpp): f and flops with SI prefixes, in flop/s.
std::vector<Unit> speed_units() {
  std::vector<Unit> units{{"f"}};
  for (std::size_t i = 0; i < SI_PREFIXES.size(); ++i) units.push_back({fmt::format("{}f", SI_PREFIXES[i]), si_power(i)});
  units.push_back({"flops"});
  for (std::size_t i = 0; i < SI_WORDS.size(); ++i) units.push_back({fmt::format("{}flops", SI_WORDS[i]), si_power(i)});
  units.push_back({"zetaflops", si_power(6)});  // SimGrid's parser spells zetta so
  return units;
}

/// SimGrid's bandwidths, in bytes/s: Bps and bps (1/8) with SI and binary prefixes. SimGrid's
/// parser knows kBps and kbps, its documentation writes KBps and Kbps: both are read.
std::vector<Unit> bandwidth_units() {
  std::vector<Unit> units;
  for (const auto& [base, pow2] : {std::pair("Bps", std::int64_t{0}), std::pair("bps", -DOUBLINGS_PER_BYTE)}) {
    units.push_back({base, 0, pow2});
    for (std::size_t i = 0; i < SI_PREFIXES.size(); ++i) {
      units.push_back({fmt::format("{}{}", SI_PREFIXES[i], base), si_power(i), pow2});
      if (i == 0) units.push_back({fmt::format("K{}", base), si_power(i), pow2});
    }
    for (std::size_t i = 0; i < BINARY_PREFIXES.size(); ++i) {
      units.push_back({fmt::format("{}{}", BINARY_PREFIXES[i], base), 0,
                       pow2 + DOUBLINGS_PER_BINARY_PREFIX * static_cast<std::int64_t>(i + 1)});
    }
  }
  return units;
}

std::vector<Unit> time_units() {
  return {{"s"}, {"ms", -3}, {"us", -6}, {"ns", -9}, {"ps", -12}, {"m", 0, 0, SECONDS_PER_MINUTE},
          {"h", 0, 0, SECONDS_PER_HOUR}, {"d", 0, 0, SECONDS_PER_DAY}, {"w", 0, 0, SECONDS_PER_WEEK}};
}

const std::vector<Unit>& units_of(Quantity kind) {
  static const std::vector<Unit> speed = speed_units();
  static const std::vector<Unit> bandwidth = bandwidth_units();
  static const std::vector<Unit> time = time_units();
  return kind == Quantity::SPEED ? speed : kind == Quantity::BANDWIDTH ? bandwidth : time;
}

std::string unit_list(Quantity kind) {
  std::string list;
  for (const Unit& u : units_of(kind)) list += (list.empty() ? "" : ", ") + u.name;
  return list;
}

std::string_view example_of(Quantity kind) {
  return kind == Quantity::SPEED ? "1Gf" : kind == Quantity::BANDWIDTH ? "125MBps" : "50us";
}


/// A non-negative integer written in decimal digits, or nullopt.
std::optional<std::int64_t> whole_number(std::string_view text) {
  text = trimmed(text);
  std::int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// ---- writing decimals -------------------------------------------------------------------------

/// decimal_text() of a value beyond 64 bits.
std::optional<std::string> big_decimal_text(const mpq_class& q) {
  mpz_class rest = q.get_den();
  const mpz_class two = 2;
  const mpz_class five = 5;
  const mp_bitcnt_t twos = mpz_remove(rest.get_mpz_t(), rest.get_mpz_t(), two.get_mpz_t());
  const mp_bitcnt_t fives = mpz_remove(rest.get_mpz_t(), rest.get_mpz_t(), five.get_mpz_t());
  if (rest != 1) return std::nullopt;
  const mpz_class num = abs(q.get_num());
  const mpz_class whole = num / q.get_den();
  const mpz_class remainder = num - whole * q.get_den();
  std::string text = (q < 0 ? "-" : "") + whole.get_str();
  if (remainder != 0) {
    // den divides 10^digits, so remainder·10^digits/den is exact: the digits after the point,
    // the last one non-zero (den is in lowest terms).
    const unsigned long digits = std::max(twos, fives);
    mpz_class scale;
    mpz_ui_pow_ui(scale.get_mpz_t(), 10, digits);
    const std::string fraction = mpz_class(remainder * scale / q.get_den()).get_str();
    text += '.' + std::string(digits - fraction.size(), '0') + fraction;
  }
  return text;
}

/// The finite decimal text of @p r ("0.0001", "3", "-2.5"), or nullopt when its denominator has a
/// prime factor other than 2 and 5.
std::optional<std::string> decimal_text(const Rational& r) {
  if (!r.is_small()) return big_decimal_text(to_mpq(r));
  std::int64_t rest = r.den();
  int twos = 0;
  int fives = 0;
  for (; rest % 2 == 0; rest /= 2) ++twos;
  for (; rest % 5 == 0; rest /= 5) ++fives;
  if (rest != 1) return std::nullopt;
  const Wide den = r.den();
  Wide num = r.num() < 0 ? -static_cast<Wide>(r.num()) : static_cast<Wide>(r.num());
  std::string text = fmt::format("{}{}", r.num() < 0 ? "-" : "", static_cast<std::int64_t>(num / den));
  Wide remainder = num % den;
  if (remainder != 0) text += '.';
  // den = 2^twos · 5^fives, so max(twos, fives) digits end the expansion; remainder·10 < 10·2^63.
  for (int k = 0; k < std::max(twos, fives); ++k) {
    remainder *= 10;
    text += static_cast<char>('0' + static_cast<int>(remainder / den));
    remainder %= den;
  }
  return text;
}

// ---- reading ----------------------------------------------------------------------------------

/// Most hosts of a cluster: its complete graph has n(n-1)/2 links, at most MAX_PLATFORM_LINKS.
constexpr std::uint64_t max_cluster_hosts() {
  std::uint64_t n = 1;
  while ((n + 1) * n / 2 <= MAX_PLATFORM_LINKS) ++n;
  return n;
}

struct RawNode {
  NodeProperties props;
  std::size_t line = 0;
};

struct RawLink {
  Rational bandwidth;
  Rational latency;
  int dimension = 0;
};

struct RawRoute {
  std::string src;
  std::string dst;
  bool symmetrical = true;
  std::vector<std::string> links;
  std::size_t line = 0;
};

/// One warning per kind, in the order first met.
class Warnings {
 public:
  explicit Warnings(std::string file) : file_(std::move(file)) {}
  void add(std::string_view sentence) {
    std::string message = fmt::format("{}: {}", file_, sentence);
    if (seen_.insert(message).second) messages_.push_back(std::move(message));
  }
  [[nodiscard]] const std::vector<std::string>& messages() const { return messages_; }

 private:
  std::string file_;
  std::set<std::string> seen_;
  std::vector<std::string> messages_;
};

constexpr std::string_view CONTENTION_WARNING =
    "starnet has no contention model: each route becomes one link carrying the time SimGrid gives a lone transfer "
    "on it (sum of the latencies, smallest bandwidth); sharing policies are not modelled";
constexpr std::string_view LOOPBACK_WARNING =
    "routes and loopback links from a host to itself are not links in starnet (ignored)";
constexpr std::string_view CORES_WARNING =
    "hosts with core > 1 are read as one core of their speed (a starnet node runs one task at a time)";
constexpr std::string_view PROP_WARNING = "<prop> elements are SimGrid user data and are not read (ignored)";
constexpr std::string_view CONFIG_WARNING =
    "<config> is not read: it sets SimGrid options (docs/simgrid.md names those under which SimGrid gives the "
    "times starnet reads)";
constexpr std::string_view DEPLOYMENT_WARNING = "<actor> and <process> elements (a deployment) are not read (ignored)";

/// What starnet does not read, and what it expects instead.
const std::map<std::string_view, std::string_view>& unsupported_elements() {
  static const std::map<std::string_view, std::string_view> reasons = {
      {"zone", "one zone: nested zones are not read"},
      {"AS", "one zone: nested zones are not read"},
      {"zoneRoute", "one zone: starnet reads no routes between zones"},
      {"ASroute", "one zone: starnet reads no routes between zones"},
      {"bypassRoute", "<route>: starnet reads routes as given, with no bypass"},
      {"bypassZoneRoute", "one zone: starnet reads no routes between zones"},
      {"bypassASroute", "one zone: starnet reads no routes between zones"},
      {"trace", "constant resources: starnet has no availability profiles"},
      {"trace_connect", "constant resources: starnet has no availability profiles"},
      {"cabinet", "<host>, <router>, <link> and <route>, or one FLAT <cluster>"},
      {"peer", "<host>, <router>, <link> and <route>, or one FLAT <cluster>"},
      {"backbone", "a <link> named in the routes"},
      {"host_link", "a <link> named in the routes"},
      {"disk", "no storage: starnet models processors and links only"},
      {"storage", "no storage: starnet models processors and links only"},
      {"storage_type", "no storage: starnet models processors and links only"},
      {"mount", "no storage: starnet models processors and links only"},
      {"include", "one self-contained file: starnet follows no <include>"},
      {"random", "constant values: <random> is deprecated in SimGrid"},
  };
  return reasons;
}

class SimgridReader {
 public:
  SimgridReader(std::string_view text, std::string_view path)
      : text_(text), path_(path), file_(where(path)), lines_(text), warnings_(file_) {}

  Platform read();
  [[nodiscard]] const std::vector<std::string>& warnings() const { return warnings_.messages(); }

 private:
  [[nodiscard]] std::string place(std::size_t line) const {
    return line == 0 ? file_ : fmt::format("{} line {}", file_, line);
  }
  [[nodiscard]] std::size_t line_of(const pugi::xml_node& at) const { return lines_.of(at.offset_debug()); }
  [[noreturn]] void fail(const pugi::xml_node& at, const std::string& what) const {
    throw TopologyError(fmt::format("{}: {}", place(line_of(at)), what));
  }
  [[noreturn]] void unsupported(const pugi::xml_node& element, std::string_view expected) const;
  static std::string describe(const pugi::xml_node& element);
  void check_attributes(const pugi::xml_node& element, std::initializer_list<std::string_view> known) const;
  [[nodiscard]] std::string required(const pugi::xml_node& element, const char* attribute) const;
  [[nodiscard]] Rational quantity(const pugi::xml_node& at, const char* attribute, std::string_view text,
                                  Quantity kind) const;
  [[nodiscard]] Rational positive(const pugi::xml_node& element, const char* attribute, Quantity kind) const;
  /// A time >= 0; 0 when the attribute is absent.
  [[nodiscard]] Rational non_negative(const pugi::xml_node& element, const char* attribute) const;
  /// Refuses a non-empty @p attribute: a time-varying profile, or another feature starnet lacks.
  void refuse_given(const pugi::xml_node& element, const char* attribute, std::string_view expected) const;
  [[nodiscard]] Rational speed(const pugi::xml_node& element) const;
  void read_cores(const pugi::xml_node& element);
  void check_policy(const pugi::xml_node& element, const char* attribute,
                    std::initializer_list<std::string_view> allowed) const;

  pugi::xml_node load(pugi::xml_document& doc) const;
  void read_platform(const pugi::xml_node& root);
  void read_zone(const pugi::xml_node& zone);
  void read_host(const pugi::xml_node& element);
  void read_router(const pugi::xml_node& element);
  void read_link(const pugi::xml_node& element);
  void read_route(const pugi::xml_node& element);
  void read_cluster(const pugi::xml_node& element);
  [[nodiscard]] std::vector<std::int64_t> radical(const pugi::xml_node& element) const;
  void add_node(NodeProperties props, const pugi::xml_node& at);

  [[nodiscard]] Platform build(const pugi::xml_node& root);
  [[nodiscard]] LinkProperties route_link(const RawRoute& route) const;
  void add_routes(Platform& p);

  std::string_view text_;
  std::string path_;
  std::string file_;
  Lines lines_;
  Warnings warnings_;
  std::vector<RawNode> nodes_;
  std::unordered_map<std::string, std::size_t> node_index_;
  std::unordered_map<std::string, RawLink> links_;
  std::vector<RawRoute> routes_;
  std::optional<LinkProperties> cluster_link_;  // set when the platform is a cluster
};

std::string SimgridReader::describe(const pugi::xml_node& element) {
  const std::string_view tag = element.name();
  if (tag == "route") {
    return fmt::format("<route src=\"{}\" dst=\"{}\">", element.attribute("src").value(), element.attribute("dst").value());
  }
  if (const auto id = element.attribute("id")) return fmt::format("<{} id=\"{}\">", tag, id.value());
  return fmt::format("<{}>", tag);
}

void SimgridReader::unsupported(const pugi::xml_node& element, std::string_view expected) const {
  const auto& reasons = unsupported_elements();
  if (const auto it = reasons.find(element.name()); it != reasons.end()) {
    fail(element, fmt::format("<{}> is not supported (expected {})", element.name(), it->second));
  }
  fail(element, fmt::format("<{}> in <{}> is not a SimGrid element starnet knows (expected {})", element.name(),
                            element.parent().name(), expected));
}

void SimgridReader::check_attributes(const pugi::xml_node& element, std::initializer_list<std::string_view> known) const {
  for (const pugi::xml_attribute a : element.attributes()) {
    if (std::find(known.begin(), known.end(), a.name()) != known.end()) continue;
    std::string list;
    for (const auto k : known) list += fmt::format("{}{}", list.empty() ? "" : ", ", k);
    fail(element, fmt::format("{} has the attribute \"{}\", which SimGrid does not define for <{}> (expected {})",
                              describe(element), a.name(), element.name(), list));
  }
}

std::string SimgridReader::required(const pugi::xml_node& element, const char* attribute) const {
  const std::string value(trimmed(element.attribute(attribute).value()));
  if (value.empty()) {
    fail(element, fmt::format("{} has no {} (expected {}=\"...\")", describe(element), attribute, attribute));
  }
  return value;
}

Rational SimgridReader::quantity(const pugi::xml_node& at, const char* attribute, std::string_view text,
                                 Quantity kind) const {
  text = trimmed(text);
  const std::string what = fmt::format("{} {} \"{}\"", describe(at), attribute, text);
  std::size_t end = 0;
  const auto number = leading_decimal(text, end);
  if (!number) fail(at, fmt::format("{} is not a number with a unit (expected e.g. \"{}\")", what, example_of(kind)));
  const std::string_view unit = text.substr(end);
  if (unit.empty()) {
    if (number->digits.empty()) return 0;  // SimGrid: "0 can be unit-less, as its unit does not matter"
    fail(at, fmt::format("{} has no unit (expected one of {})", what, unit_list(kind)));
  }
  const auto& units = units_of(kind);
  const auto u = std::find_if(units.begin(), units.end(), [&](const Unit& x) { return x.name == unit; });
  if (u == units.end()) {
    fail(at, fmt::format("{} has the unknown unit \"{}\" (expected one of {})", what, unit, unit_list(kind)));
  }
  const auto value = exact_value(*number, u->pow10, u->pow2, u->factor);
  if (!value) fail(at, what + " cannot be held exactly (starnet reads a value as a fraction of two 64-bit integers)");
  return *value;
}

Rational SimgridReader::positive(const pugi::xml_node& element, const char* attribute, Quantity kind) const {
  const std::string text = required(element, attribute);
  const Rational value = quantity(element, attribute, text, kind);
  if (value <= 0) fail(element, fmt::format("{} has {} \"{}\" (must be > 0)", describe(element), attribute, text));
  return value;
}

Rational SimgridReader::non_negative(const pugi::xml_node& element, const char* attribute) const {
  if (!element.attribute(attribute)) return 0;  // SimGrid's default latencies are 0
  const std::string_view text = element.attribute(attribute).value();
  const Rational value = quantity(element, attribute, text, Quantity::TIME);
  if (value < 0) {
    fail(element, fmt::format("{} has {} \"{}\" (must be >= 0)", describe(element), attribute, trimmed(text)));
  }
  return value;
}

Rational SimgridReader::speed(const pugi::xml_node& element) const {
  const std::string text = required(element, "speed");
  if (const auto pstates = std::count(text.begin(), text.end(), ',') + 1; pstates > 1) {
    fail(element, fmt::format("{} has speed \"{}\", a list of {} pstates (expected one speed: starnet has no DVFS)",
                              describe(element), text, pstates));
  }
  return positive(element, "speed", Quantity::SPEED);
}

void SimgridReader::refuse_given(const pugi::xml_node& element, const char* attribute, std::string_view expected) const {
  if (trimmed(element.attribute(attribute).value()).empty()) return;
  fail(element, fmt::format("{} has {}=\"{}\" (expected {})", describe(element), attribute,
                            element.attribute(attribute).value(), expected));
}

void SimgridReader::read_cores(const pugi::xml_node& element) {
  const auto attribute = element.attribute("core");
  if (!attribute) return;
  const auto cores = whole_number(attribute.value());
  if (!cores || *cores < 1) {
    fail(element, fmt::format("{} has core \"{}\" (expected an integer >= 1)", describe(element), attribute.value()));
  }
  if (*cores > 1) warnings_.add(CORES_WARNING);
}

void SimgridReader::check_policy(const pugi::xml_node& element, const char* attribute,
                                 std::initializer_list<std::string_view> allowed) const {
  const auto policy = element.attribute(attribute);
  if (!policy || std::find(allowed.begin(), allowed.end(), policy.value()) != allowed.end()) return;
  std::string list;
  for (const auto a : allowed) list += fmt::format("{}{}", list.empty() ? "" : ", ", a);
  fail(element, fmt::format("{} has {} \"{}\" (expected {})", describe(element), attribute, policy.value(), list));
}

void SimgridReader::add_node(NodeProperties props, const pugi::xml_node& at) {
  if (!node_index_.emplace(props.name, nodes_.size()).second) {
    fail(at, fmt::format("{} declares the name \"{}\" a second time (names of hosts and routers must be unique)",
                         describe(at), props.name));
  }
  nodes_.push_back({std::move(props), line_of(at)});
}

pugi::xml_node SimgridReader::load(pugi::xml_document& doc) const {
  // parse_doctype keeps the DOCTYPE as a node to inspect; pugixml fetches no DTD and expands no
  // entity other than XML's five, so a SYSTEM identifier is harmless and only a subset is refused.
  const auto parsed = doc.load_buffer(text_.data(), text_.size(), pugi::parse_default | pugi::parse_doctype);
  if (!parsed) {
    throw TopologyError(fmt::format("{}: malformed XML: {} (expected well-formed XML)",
                                    place(std::max<std::size_t>(lines_.of(parsed.offset), 1)), parsed.description()));
  }
  for (const pugi::xml_node child : doc.children()) {
    if (child.type() == pugi::node_doctype && std::string_view(child.value()).find('[') != std::string_view::npos) {
      fail(child, fmt::format("has a <!DOCTYPE> with an internal subset (refused: starnet expands no entities; "
                              "expected <!DOCTYPE platform SYSTEM \"{}\">)",
                              SIMGRID_DTD));
    }
  }
  const pugi::xml_node root = doc.document_element();
  if (!root) throw TopologyError(file_ + ": has no root element (expected <platform version=\"4.1\">)");
  if (std::string_view(root.name()) != "platform") {
    fail(root, fmt::format("has the root element <{}> (expected <platform version=\"4.1\">)", root.name()));
  }
  check_attributes(root, {"version"});
  const auto version = root.attribute("version");
  if (!version) fail(root, "<platform> has no version (expected version=\"4.1\", a SimGrid platform of version 4.x)");
  const std::string_view v = version.value();
  const bool is_4x = v == "4" || (v.starts_with("4.") && v.size() > 2 &&
                                  v.find_first_not_of("0123456789", 2) == std::string_view::npos);
  if (!is_4x) {
    fail(root, fmt::format("<platform> has version \"{}\" (expected 4.x; SimGrid's simgrid_update_xml upgrades older "
                           "files)",
                           v));
  }
  return root;
}

void SimgridReader::read_platform(const pugi::xml_node& root) {
  bool has_zone = false;
  for (const pugi::xml_node child : root.children()) {
    if (child.type() != pugi::node_element) continue;
    const std::string_view tag = child.name();
    if (tag == "config") {
      warnings_.add(CONFIG_WARNING);
    } else if (tag == "actor" || tag == "process") {
      warnings_.add(DEPLOYMENT_WARNING);
    } else if (tag == "zone" || tag == "AS" || tag == "cluster") {
      if (has_zone) {
        fail(child, fmt::format("has a second top-level <{}> (expected one <zone> or <cluster>: starnet reads one "
                                "zone)",
                                tag));
      }
      has_zone = true;
      if (tag == "cluster") {
        read_cluster(child);
      } else {
        read_zone(child);
      }
    } else {
      unsupported(child, "<config>, then one <zone> or <cluster>");
    }
  }
  if (!has_zone) fail(root, "<platform> has no <zone> or <cluster> (expected one, with at least one <host>)");
}

void SimgridReader::read_zone(const pugi::xml_node& zone) {
  check_attributes(zone, {"id", "routing"});
  const std::string routing = required(zone, "routing");
  constexpr std::array<std::string_view, 4> ROUTINGS = {"Full", "Floyd", "Dijkstra", "DijkstraCache"};
  if (std::find(ROUTINGS.begin(), ROUTINGS.end(), routing) == ROUTINGS.end()) {
    fail(zone, fmt::format("{} has routing \"{}\" (expected Full, Floyd, Dijkstra or DijkstraCache: starnet reads "
                           "routes given one by one)",
                           describe(zone), routing));
  }
  std::size_t elements = 0;
  pugi::xml_node cluster;
  for (const pugi::xml_node child : zone.children()) {
    if (child.type() != pugi::node_element || std::string_view(child.name()) == "prop") continue;
    ++elements;
    if (std::string_view(child.name()) == "cluster") cluster = child;
  }
  if (cluster && elements > 1) {
    fail(cluster, fmt::format("{} is not the only element of {} (expected a zone holding one <cluster>, or hosts, "
                              "routers, links and routes)",
                              describe(cluster), describe(zone)));
  }
  for (const pugi::xml_node child : zone.children()) {
    if (child.type() != pugi::node_element) continue;
    const std::string_view tag = child.name();
    if (tag == "prop") {
      warnings_.add(PROP_WARNING);
    } else if (tag == "host") {
      read_host(child);
    } else if (tag == "router") {
      read_router(child);
    } else if (tag == "link") {
      read_link(child);
    } else if (tag == "route") {
      read_route(child);
    } else if (tag == "cluster") {
      read_cluster(child);
    } else {
      unsupported(child, "<host>, <router>, <link>, <route> or one <cluster>");
    }
  }
}

void SimgridReader::read_host(const pugi::xml_node& element) {
  check_attributes(element,
                   {"id", "speed", "core", "speed_file", "availability_file", "state_file", "coordinates", "pstate"});
  NodeProperties props{required(element, "id"), Role::PROCESSOR, speed(element), ""};
  read_cores(element);
  for (const char* profile : {"speed_file", "availability_file", "state_file"}) {
    refuse_given(element, profile, "none: starnet's hosts have a constant speed");
  }
  if (element.attribute("coordinates")) warnings_.add("attribute \"coordinates\" (Vivaldi) is not used by starnet (ignored)");
  if (const auto pstate = element.attribute("pstate")) {
    std::size_t end = 0;
    const std::string_view text = trimmed(pstate.value());
    const auto value = leading_decimal(text, end);
    if (!value || end != text.size() || !value->digits.empty()) {
      fail(element, fmt::format("{} has pstate \"{}\" (expected 0: a host of one speed has one pstate)",
                                describe(element), text));
    }
  }
  for (const pugi::xml_node child : element.children()) {
    if (child.type() != pugi::node_element) continue;
    if (std::string_view(child.name()) != "prop") unsupported(child, "<prop>");
    if (child.attribute("id").value() == LABEL_PROP) {
      props.label = child.attribute("value").value();
    } else {
      warnings_.add(PROP_WARNING);
    }
  }
  add_node(std::move(props), element);
}

void SimgridReader::read_router(const pugi::xml_node& element) {
  check_attributes(element, {"id", "coordinates"});
  if (element.attribute("coordinates")) warnings_.add("attribute \"coordinates\" (Vivaldi) is not used by starnet (ignored)");
  for (const pugi::xml_node child : element.children()) {
    if (child.type() == pugi::node_element) unsupported(child, "no element inside a <router>");
  }
  add_node({required(element, "id"), Role::ROUTER, 1, ""}, element);
}

void SimgridReader::read_link(const pugi::xml_node& element) {
  check_attributes(element,
                   {"id", "bandwidth", "latency", "sharing_policy", "bandwidth_file", "latency_file", "state_file"});
  const std::string id = required(element, "id");
  const std::string bandwidth = required(element, "bandwidth");
  if (bandwidth.find_first_of(",;") != std::string::npos) {
    fail(element, fmt::format("{} has bandwidth \"{}\", a list (expected one bandwidth: lists are for WIFI links)",
                              describe(element), bandwidth));
  }
  RawLink link{positive(element, "bandwidth", Quantity::BANDWIDTH), non_negative(element, "latency"), 0};
  check_policy(element, "sharing_policy", {"SHARED", "SPLITDUPLEX", "FULLDUPLEX", "FATPIPE"});
  for (const char* profile : {"bandwidth_file", "latency_file", "state_file"}) {
    refuse_given(element, profile, "none: starnet's links are constant");
  }
  for (const pugi::xml_node child : element.children()) {
    if (child.type() != pugi::node_element) continue;
    if (std::string_view(child.name()) != "prop") unsupported(child, "<prop>");
    if (child.attribute("id").value() != DIMENSION_PROP) {
      warnings_.add(PROP_WARNING);
      continue;
    }
    const auto dimension = whole_number(child.attribute("value").value());
    if (!dimension || *dimension > std::numeric_limits<int>::max()) {
      fail(child, fmt::format("{} has {} \"{}\" (expected an integer >= 0)", describe(element), DIMENSION_PROP,
                              child.attribute("value").value()));
    }
    link.dimension = static_cast<int>(*dimension);
  }
  if (!links_.emplace(id, link).second) {
    fail(element, fmt::format("{} declares the link \"{}\" a second time (link ids must be unique)", describe(element), id));
  }
}

void SimgridReader::read_route(const pugi::xml_node& element) {
  check_attributes(element, {"src", "dst", "symmetrical"});
  RawRoute route{required(element, "src"), required(element, "dst"), true, {}, line_of(element)};
  if (const auto symmetrical = element.attribute("symmetrical")) {
    const std::string_view s = symmetrical.value();
    if (s != "YES" && s != "yes" && s != "NO" && s != "no") {
      fail(element, fmt::format("{} has symmetrical=\"{}\" (expected YES or NO)", describe(element), s));
    }
    route.symmetrical = s == "YES" || s == "yes";
  }
  for (const pugi::xml_node child : element.children()) {
    if (child.type() != pugi::node_element) continue;
    if (std::string_view(child.name()) != "link_ctn") unsupported(child, "<link_ctn>");
    check_attributes(child, {"id", "direction"});
    // A SPLITDUPLEX link's two directions have the same α–β, so UP and DOWN read alike.
    check_policy(child, "direction", {"UP", "DOWN", "NONE"});
    route.links.push_back(required(child, "id"));
  }
  if (route.links.empty()) {
    fail(element, fmt::format("{} has no <link_ctn> (expected at least one link: a route without links takes no "
                              "time, which starnet's links cannot)",
                              describe(element)));
  }
  routes_.push_back(std::move(route));
}

std::vector<std::int64_t> SimgridReader::radical(const pugi::xml_node& element) const {
  const std::string text = required(element, "radical");
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
  std::uint64_t count = 0;
  std::string_view rest = text;
  // SimGrid's documentation separates the parts with ';', its examples with ',': both are read.
  for (bool more = true; more;) {
    const std::size_t cut = rest.find_first_of(",;");
    more = cut != std::string_view::npos;
    const std::string_view part = trimmed(rest.substr(0, cut));
    const std::size_t dash = part.find('-');
    const auto low = whole_number(part.substr(0, dash));
    const auto high = dash == std::string_view::npos ? low : whole_number(part.substr(dash + 1));
    if (!low || !high || *high < *low) {
      fail(element, fmt::format("{} has radical \"{}\" with the part \"{}\" (expected numbers and ranges low-high, "
                                "such as \"0-99\" or \"1,3,5-7\")",
                                describe(element), text, part));
    }
    ranges.emplace_back(*low, *high);
    // count <= max_cluster_hosts() before the sum and high - low < 2^63: no overflow.
    count += static_cast<std::uint64_t>(*high - *low) + 1;
    if (count > max_cluster_hosts()) {
      fail(element, fmt::format("{} has radical \"{}\" giving {}{} hosts (expected at most {}: their complete graph "
                                "has at most {} links)",
                                describe(element), text, more ? "at least " : "", count, max_cluster_hosts(),
                                MAX_PLATFORM_LINKS));
    }
    if (more) rest.remove_prefix(cut + 1);
  }
  std::vector<std::int64_t> numbers;
  for (const auto& [low, high] : ranges) {
    for (std::int64_t i = low; i <= high; ++i) numbers.push_back(i);
  }
  return numbers;
}

void SimgridReader::read_cluster(const pugi::xml_node& element) {
  check_attributes(element, {"id", "prefix", "suffix", "radical", "speed", "core", "bw", "lat", "sharing_policy",
                             "topology", "topo_parameters", "bb_bw", "bb_lat", "bb_sharing_policy", "router_id",
                             "limiter_link", "loopback_bw", "loopback_lat"});
  if (const auto topology = element.attribute("topology"); topology && std::string_view(topology.value()) != "FLAT") {
    fail(element, fmt::format("{} has topology \"{}\" (expected FLAT: starnet reads no TORUS, FAT_TREE or DRAGONFLY "
                              "cluster)",
                              describe(element), topology.value()));
  }
  refuse_given(element, "limiter_link",
               "none: a limiter shared by both directions of a host is contention, which starnet does not model");
  if (!trimmed(element.attribute("topo_parameters").value()).empty()) {
    warnings_.add("attribute \"topo_parameters\" of a FLAT <cluster> is not used (ignored)");
  }
  check_policy(element, "sharing_policy", {"SHARED", "SPLITDUPLEX", "FULLDUPLEX", "FATPIPE"});
  check_policy(element, "bb_sharing_policy", {"SHARED", "FATPIPE"});
  const Rational speed_value = speed(element);
  read_cores(element);
  if (element.attribute("loopback_bw") || element.attribute("loopback_lat")) {
    if (element.attribute("loopback_bw")) (void)positive(element, "loopback_bw", Quantity::BANDWIDTH);
    (void)non_negative(element, "loopback_lat");
    warnings_.add(LOOPBACK_WARNING);
  }
  // SimGrid routes host i to host j through i's private link, the backbone if any, and j's link.
  Rational bandwidth = positive(element, "bw", Quantity::BANDWIDTH);
  (void)required(element, "lat");
  const Rational lat = non_negative(element, "lat");
  Rational bb_lat = 0;
  if (element.attribute("bb_bw")) {
    bandwidth = std::min(bandwidth, positive(element, "bb_bw", Quantity::BANDWIDTH));
    bb_lat = non_negative(element, "bb_lat");
  } else if (element.attribute("bb_lat")) {
    fail(element, fmt::format("{} has bb_lat but no bb_bw (expected both for a backbone, or neither)",
                              describe(element)));
  }
  cluster_link_ = LinkProperties{Rational(1) / bandwidth, 0, 2 * lat + bb_lat};
  const std::string prefix = element.attribute("prefix").value();
  const std::string suffix = element.attribute("suffix").value();
  for (const std::int64_t i : radical(element)) {
    // Trimmed as <host id> is, so that a written platform reads back with the same names.
    add_node({std::string(trimmed(fmt::format("{}{}{}", prefix, i, suffix))), Role::PROCESSOR, speed_value, ""},
             element);
  }
  for (const pugi::xml_node child : element.children()) {
    if (child.type() != pugi::node_element) continue;
    if (std::string_view(child.name()) != "prop") unsupported(child, "<prop>");
    warnings_.add(PROP_WARNING);
  }
}

LinkProperties SimgridReader::route_link(const RawRoute& route) const {
  const std::string name = fmt::format("{}: route {}->{}", place(route.line), route.src, route.dst);
  std::optional<Rational> bandwidth;
  Rational latency = 0;
  std::optional<int> dimension;
  for (const std::string& id : route.links) {
    const auto it = links_.find(id);
    if (it == links_.end()) {
      throw TopologyError(fmt::format("{} names the link \"{}\", which is not declared (expected a <link id=\"{}\">)",
                                      name, id, id));
    }
    latency += it->second.latency;
    bandwidth = bandwidth ? std::min(*bandwidth, it->second.bandwidth) : it->second.bandwidth;
    // A route's dimension is its links' when they all carry the same one.
    dimension = !dimension || *dimension == it->second.dimension ? it->second.dimension : 0;
  }
  return {Rational(1) / *bandwidth, dimension.value_or(0), latency};
}

void SimgridReader::add_routes(Platform& p) {
  std::set<std::pair<Platform::vertex_descriptor, Platform::vertex_descriptor>> arcs;
  for (const RawRoute& route : routes_) {
    const auto node = [&](const std::string& name) {
      const auto it = node_index_.find(name);
      if (it == node_index_.end()) {
        throw TopologyError(fmt::format("{}: route {}->{} names \"{}\", which is no host or router of the zone "
                                        "(expected a <host id=\"{}\"> or <router id=\"{}\">)",
                                        place(route.line), route.src, route.dst, name, name, name));
      }
      return static_cast<Platform::vertex_descriptor>(it->second);
    };
    const auto u = node(route.src);
    const auto v = node(route.dst);
    const LinkProperties props = route_link(route);
    if (u == v) {
      warnings_.add(LOOPBACK_WARNING);
      continue;
    }
    for (const auto& arc : {std::pair(u, v), std::pair(v, u)}) {
      if ((arc.first == v && !route.symmetrical) || arcs.insert(arc).second) continue;
      throw TopologyError(fmt::format("{}: route {}->{} is given twice (its arc {}->{} is given by an earlier route; "
                                      "expected one route per pair and direction, a symmetrical route giving both)",
                                      place(route.line), route.src, route.dst, p.graph()[arc.first].name,
                                      p.graph()[arc.second].name));
    }
    p.add_link(u, v, props);
    if (p.directed() && route.symmetrical) p.add_link(v, u, props);
  }
}

Platform SimgridReader::build(const pugi::xml_node& root) {
  const auto hosts = std::count_if(nodes_.begin(), nodes_.end(),
                                   [](const RawNode& n) { return n.props.role == Role::PROCESSOR; });
  if (hosts == 0) fail(root, "has no hosts (expected at least one <host>, or a <cluster>)");
  if (nodes_.size() > MAX_PLATFORM_NODES) {
    fail(root, fmt::format("has {} hosts and routers (expected at most {})", nodes_.size(), MAX_PLATFORM_NODES));
  }
  const bool directed = std::any_of(routes_.begin(), routes_.end(), [](const RawRoute& r) { return !r.symmetrical; });
  // Named after the file while it is built, so that Platform's own checks name the file too.
  Platform p(file_, directed);
  for (const RawNode& n : nodes_) p.add_node(n.props);
  if (cluster_link_) {
    warnings_.add(CONTENTION_WARNING);
    for (std::size_t u = 0; u < nodes_.size(); ++u) {
      for (std::size_t v = u + 1; v < nodes_.size(); ++v) p.add_link(u, v, *cluster_link_);
    }
  }
  if (!routes_.empty()) warnings_.add(CONTENTION_WARNING);
  add_routes(p);
  if (p.num_links() > MAX_PLATFORM_LINKS) {
    fail(root, fmt::format("has {} links (expected at most {})", p.num_links(), MAX_PLATFORM_LINKS));
  }
  p.validate();
  p.set_name(path_);
  return p;
}

Platform SimgridReader::read() {
  pugi::xml_document doc;
  const pugi::xml_node root = load(doc);
  read_platform(root);
  return build(root);
}

// ---- writing ----------------------------------------------------------------------------------

/// @p value as an exact decimal followed by @p unit. @throws TopologyError naming @p what.
std::string exact_text(const Rational& value, std::string_view unit, const std::string& what) {
  const auto text = decimal_text(value);
  if (!text) {
    throw TopologyError(fmt::format("{} has no finite decimal (SimGrid cannot hold it exactly, and starnet never "
                                    "rounds; expected a value whose denominator has no prime factor but 2 and 5)",
                                    what));
  }
  return *text + std::string(unit);
}

void write_nodes(const Platform& platform, const std::string& name, pugi::xml_node& zone) {
  const auto& g = platform.graph();
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    const NodeProperties& n = g[v];
    if (n.role == Role::ROUTER) {
      if (n.speed != 1 || !n.label.empty()) {
        throw TopologyError(fmt::format("{}: router \"{}\" has speed {} and label \"{}\" (expected speed 1 and no "
                                        "label: a SimGrid <router> has neither)",
                                        name, n.name, n.speed.to_string(), n.label));
      }
      zone.append_child("router").append_attribute("id").set_value(n.name.c_str());
      continue;
    }
    pugi::xml_node host = zone.append_child("host");
    host.append_attribute("id").set_value(n.name.c_str());
    const std::string speed =
        exact_text(n.speed, "f", fmt::format("{}: node \"{}\" speed {}", name, n.name, n.speed.to_string()));
    host.append_attribute("speed").set_value(speed.c_str());
    if (n.label.empty()) continue;
    pugi::xml_node prop = host.append_child("prop");
    prop.append_attribute("id").set_value(std::string(LABEL_PROP).c_str());
    prop.append_attribute("value").set_value(n.label.c_str());
  }
}

/// One <link> per starnet link (per arc when directed), then one <route> through each: the DTD
/// puts every route after the zone's links.
void write_links(const Platform& platform, const std::string& name, pugi::xml_node& zone) {
  const auto& g = platform.graph();
  std::vector<std::pair<Platform::edge_descriptor, std::string>> routes;
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    const auto u = boost::source(e, g);
    const auto v = boost::target(e, g);
    // An undirected link is stored as two arcs; write it once.
    if (!platform.directed() && u > v) continue;
    const LinkProperties& props = g[e];
    const std::string link = fmt::format("{}: link {}->{}", name, g[u].name, g[v].name);
    const Rational bandwidth = Rational(1) / props.cost;
    const std::string bandwidth_text = exact_text(
        bandwidth, "Bps",
        fmt::format("{} bandwidth 1/cost = {} bytes/s (cost {})", link, bandwidth.to_string(), props.cost.to_string()));
    const std::string latency_text =
        exact_text(props.latency, "s", fmt::format("{} latency {}", link, props.latency.to_string()));
    std::string id = fmt::format("link{}", routes.size());
    pugi::xml_node element = zone.append_child("link");
    element.append_attribute("id").set_value(id.c_str());
    element.append_attribute("bandwidth").set_value(bandwidth_text.c_str());
    element.append_attribute("latency").set_value(latency_text.c_str());
    if (props.dimension != 0) {
      pugi::xml_node prop = element.append_child("prop");
      prop.append_attribute("id").set_value(std::string(DIMENSION_PROP).c_str());
      prop.append_attribute("value").set_value(std::to_string(props.dimension).c_str());
    }
    routes.emplace_back(e, std::move(id));
  }
  for (const auto& [e, id] : routes) {
    pugi::xml_node route = zone.append_child("route");
    route.append_attribute("src").set_value(g[boost::source(e, g)].name.c_str());
    route.append_attribute("dst").set_value(g[boost::target(e, g)].name.c_str());
    if (platform.directed()) route.append_attribute("symmetrical").set_value("NO");
    route.append_child("link_ctn").append_attribute("id").set_value(id.c_str());
  }
}

}  // namespace

Platform parse_simgrid(std::string_view text, std::string_view path, std::vector<std::string>* warnings) {
  SimgridReader reader(text, path);
  Platform p = reader.read();
  if (warnings != nullptr) warnings->insert(warnings->end(), reader.warnings().begin(), reader.warnings().end());
  return p;
}

std::string write_simgrid(const Platform& platform) {
  const std::string name = fmt::format("platform \"{}\"", platform.name());
  pugi::xml_document doc;
  // pugixml writes the XML declaration itself; SimGrid's files name their DTD, which it never fetches.
  doc.append_child(pugi::node_doctype).set_value(fmt::format("platform SYSTEM \"{}\"", SIMGRID_DTD).c_str());
  pugi::xml_node root = doc.append_child("platform");
  root.append_attribute("version").set_value(std::string(WRITTEN_VERSION).c_str());
  pugi::xml_node zone = root.append_child("zone");
  zone.append_attribute("id").set_value(platform.name().empty() ? "starnet" : platform.name().c_str());
  zone.append_attribute("routing").set_value("Full");
  write_nodes(platform, name, zone);
  write_links(platform, name, zone);
  std::ostringstream out;
  doc.save(out, "  ");
  return out.str();
}

}  // namespace starnet::topology

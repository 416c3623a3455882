#pragma once
// The rules an MSCCL algorithm file must follow for the GPU loaders (msccl-executor's parser, and
// RCCL's copy of it) to load and run it, written from their public description (docs/gpu.md,
// "The loader's rules"), independently of starnet's reader (pugixml) and writer: a small
// tokenizer, as the loaders have. check_loader_rules() lists every rule a file breaks.
//
// IMPORTANT: what a file computes is not checked here (starnet's importer and a run do that);
// nor are the runtime's limits that depend on the machine (threadblocks per channel, SM count).

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace starnet::testing::msccl {

/// The loader's limits.
inline constexpr long MAX_COUNT = 72;          // cnt below this
inline constexpr std::size_t MAX_STEPS = 64;   // steps in one threadblock (the executor's)
inline constexpr std::size_t MAX_NODES = 1024;  // XML elements one rank reads

struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<Element> children;
  int line = 0;
};

struct RuleCheck {
  std::vector<std::string> problems;
  [[nodiscard]] bool ok() const { return problems.empty(); }
  [[nodiscard]] std::string first() const { return problems.empty() ? std::string() : problems.front(); }
  [[nodiscard]] std::string all() const {
    std::string out;
    for (const auto& p : problems) out += p + "\n";
    return out;
  }
};

namespace detail {

/// The tokenizer: tags `<name a="v" …>`, `<name …/>`, `</name>`, each on one line.
class Tokenizer {
 public:
  Tokenizer(std::string_view text, RuleCheck& check) : text_(text), check_(check) {}

  std::optional<Element> document() {
    skip_space();
    if (text_.substr(at_, 5) != "<algo") {
      problem(fmt::format("line {}: the file must start with <algo> (the loader reads no <?xml?> line, comment or "
                          "other element before it)",
                          line_));
      const auto algo = text_.find("<algo");
      if (algo == std::string_view::npos) return std::nullopt;
      for (; at_ < algo; ++at_) line_ += text_[at_] == '\n' ? 1 : 0;
    }
    auto root = element();
    skip_space();
    if (root && at_ < text_.size()) problem(fmt::format("line {}: text after </algo>", line_));
    return root;
  }

 private:
  void problem(std::string p) { check_.problems.push_back(std::move(p)); }
  void skip_space() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) line_ += text_[at_++] == '\n';
  }
  /// One element and its children; at_ is on its '<'.
  std::optional<Element> element() {
    const auto close = text_.find('>', at_);
    if (close == std::string_view::npos) {
      problem(fmt::format("line {}: a tag that never closes", line_));
      return std::nullopt;
    }
    const std::string_view tag = text_.substr(at_ + 1, close - at_ - 1);
    Element e;
    e.line = line_;
    if (tag.find('\n') != std::string_view::npos) {
      problem(fmt::format("line {}: a tag spread over several lines (the loader reads each element on one line)", line_));
    }
    for (const char c : tag) line_ += c == '\n';
    at_ = close + 1;
    const bool empty = !tag.empty() && tag.back() == '/';
    parse_tag(empty ? tag.substr(0, tag.size() - 1) : tag, e);
    if (empty) return e;
    for (;;) {
      skip_space();
      if (at_ >= text_.size()) {
        problem(fmt::format("line {}: <{}> is never closed", e.line, e.name));
        return e;
      }
      if (text_[at_] != '<') {
        problem(fmt::format("line {}: text inside <{}> (the loader reads elements only)", line_, e.name));
        at_ = text_.find('<', at_);
        if (at_ == std::string_view::npos) at_ = text_.size();
        continue;
      }
      if (text_.substr(at_, 2) == "</") {
        const auto end = text_.find('>', at_);
        const auto name = text_.substr(at_ + 2, end == std::string_view::npos ? 0 : end - at_ - 2);
        if (name != e.name) problem(fmt::format("line {}: </{}> closes <{}>", line_, name, e.name));
        at_ = end == std::string_view::npos ? text_.size() : end + 1;
        return e;
      }
      if (auto child = element()) e.children.push_back(std::move(*child));
    }
  }
  void parse_tag(std::string_view tag, Element& e) {
    std::size_t k = 0;
    while (k < tag.size() && !std::isspace(static_cast<unsigned char>(tag[k]))) ++k;
    e.name = std::string(tag.substr(0, k));
    for (;;) {
      while (k < tag.size() && std::isspace(static_cast<unsigned char>(tag[k]))) ++k;
      if (k >= tag.size()) return;
      const auto eq = tag.find('=', k);
      if (eq == std::string_view::npos || eq + 1 >= tag.size() || tag[eq + 1] != '"') {
        problem(fmt::format("line {}: <{}>: attribute near \"{}\" is not name=\"value\" (double quotes)", e.line,
                            e.name, tag.substr(k, 20)));
        return;
      }
      const auto end = tag.find('"', eq + 2);
      if (end == std::string_view::npos) {
        problem(fmt::format("line {}: <{}>: an unterminated attribute value", e.line, e.name));
        return;
      }
      e.attributes[std::string(tag.substr(k, eq - k))] = std::string(tag.substr(eq + 2, end - eq - 2));
      k = end + 1;
    }
  }

  std::string_view text_;
  RuleCheck& check_;
  std::size_t at_ = 0;
  int line_ = 1;
};

inline std::optional<long> integer(const std::string& text) {
  constexpr std::size_t MOST_DIGITS = 18;  // within a long
  if (text.empty() || text.size() > MOST_DIGITS) return std::nullopt;
  std::size_t k = text[0] == '-' ? 1 : 0;
  if (k == text.size()) return std::nullopt;
  for (std::size_t i = k; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
  }
  return std::stol(text);
}

/// A rule check over one file.
class Rules {
 public:
  explicit Rules(RuleCheck& check) : check_(check) {}
  void problem(std::string p) { check_.problems.push_back(std::move(p)); }

  /// Every attribute the loader requires is there (one problem per missing attribute).
  bool has_all(const Element& e, std::initializer_list<std::string_view> names, const std::string& where) {
    bool all = true;
    for (const auto name : names) {
      if (!e.attributes.count(std::string(name))) {
        problem(fmt::format("{}: attribute {} is missing (the loader requires it)", where, name));
        all = false;
      }
    }
    return all;
  }
  /// Attribute @p name as an integer in [lo, hi], or a problem.
  std::optional<long> number(const Element& e, const char* name, const std::string& where, long lo, long hi) {
    const auto it = e.attributes.find(name);
    if (it == e.attributes.end()) return std::nullopt;
    const auto x = integer(it->second);
    if (!x || *x < lo || *x > hi) {
      problem(fmt::format("{}: {}=\"{}\" (expected an integer in {}..{})", where, name, it->second, lo, hi));
      return std::nullopt;
    }
    return x;
  }
  bool one_of(const Element& e, const char* name, const std::string& where, std::initializer_list<std::string_view> ok) {
    const auto it = e.attributes.find(name);
    if (it == e.attributes.end()) return false;
    if (std::find(ok.begin(), ok.end(), it->second) != ok.end()) return true;
    std::string list;
    for (const auto o : ok) list += (list.empty() ? "" : ", ") + std::string(o);
    problem(fmt::format("{}: {}=\"{}\" (expected one of {})", where, name, it->second, list));
    return false;
  }

 private:
  RuleCheck& check_;
};

struct Buffers {
  long i = 0, o = 0, s = 0;
  bool in_place = true;
  [[nodiscard]] long size(const std::string& b) const {
    if (b == "s") return s;
    return in_place ? std::max(i, o) : (b == "i" ? i : o);
  }
};

struct Peer {
  long send = -1, recv = -1, chan = 0;
};

/// One message end: its count, where it is.
struct End {
  long cnt;
  std::string where;
};
/// (channel, from, to) → the sends (or receives) in order.
using Ends = std::map<std::tuple<long, long, long>, std::vector<End>>;

inline bool sends(const std::string& t) { return t == "s" || t == "rcs" || t == "rrs" || t == "rrcs"; }
inline bool receives(const std::string& t) {
  return t == "r" || t == "rcs" || t == "rrs" || t == "rrc" || t == "rrcs";
}

/// The steps of one threadblock; @p steps_of: how many steps each threadblock of the GPU has.
inline void check_steps(Rules& rules, const Element& tb, long gpu, long id, const Peer& peer, const Buffers& buffers,
                        const std::map<long, long>& steps_of, std::set<std::pair<long, long>>& depended,
                        std::set<std::pair<long, long>>& flagged, Ends& out, Ends& in) {
  const auto tb_place = fmt::format("gpu {}, tb {}", gpu, id);
  if (tb.children.size() > MAX_STEPS) {
    rules.problem(fmt::format("{}: {} steps (the executor runs at most {} a threadblock)", tb_place, tb.children.size(),
                              MAX_STEPS));
  }
  long expected = 0;
  for (const auto& st : tb.children) {
    const auto place = fmt::format("{}, step {}", tb_place, expected);
    if (st.name != "step") {
      rules.problem(fmt::format("{}: <{}> inside <tb> (expected <step>)", tb_place, st.name));
      continue;
    }
    rules.has_all(st, {"s", "type", "srcbuf", "srcoff", "dstbuf", "dstoff", "cnt", "depid", "deps", "hasdep"}, place);
    if (const auto s = rules.number(st, "s", place, 0, 1L << 30); s && *s != expected) {
      rules.problem(fmt::format("{}: s=\"{}\" (steps are numbered 0, 1, 2, … in order)", place, *s));
    }
    ++expected;
    const bool typed = rules.one_of(st, "type", place, {"s", "r", "rcs", "rrs", "rrc", "rrcs", "cpy", "re", "nop"});
    const std::string type = typed ? st.attributes.at("type") : std::string();
    const auto cnt = rules.number(st, "cnt", place, type == "nop" ? 0 : 1, MAX_COUNT - 1);
    // A receive's source and a send's destination are the peer's chunks: not checked here.
    const bool local_src = type != "r" && type != "rcs";
    const bool local_dst = type != "s" && type != "rrs";
    for (const auto& [buf, off, local] :
         {std::tuple{"srcbuf", "srcoff", local_src}, std::tuple{"dstbuf", "dstoff", local_dst}}) {
      if (!rules.one_of(st, buf, place, {"i", "o", "s"})) continue;
      const auto offset = rules.number(st, off, place, 0, 1L << 30);
      if (local && offset && cnt && type != "nop" && *offset + *cnt > buffers.size(st.attributes.at(buf))) {
        rules.problem(fmt::format("{}: {}=\"{}\" {}={} cnt={} reaches past the buffer ({} chunks)", place, buf,
                                  st.attributes.at(buf), off, *offset, *cnt, buffers.size(st.attributes.at(buf))));
      }
    }
    if (sends(type) && peer.send < 0) rules.problem(fmt::format("{}: type=\"{}\" sends, but the tb has send=\"-1\"", place, type));
    if (receives(type) && peer.recv < 0) rules.problem(fmt::format("{}: type=\"{}\" receives, but the tb has recv=\"-1\"", place, type));
    if (cnt && sends(type) && peer.send >= 0) out[{peer.chan, gpu, peer.send}].push_back({*cnt, place});
    if (cnt && receives(type) && peer.recv >= 0) in[{peer.chan, peer.recv, gpu}].push_back({*cnt, place});
    const auto depid = rules.number(st, "depid", place, -1, 1L << 30);
    const auto deps = rules.number(st, "deps", place, -1, 1L << 30);
    if (depid && deps && (*depid < 0) != (*deps < 0)) {
      rules.problem(fmt::format("{}: depid=\"{}\" deps=\"{}\" (both -1, or a threadblock and its step)", place, *depid, *deps));
    } else if (depid && deps && *depid >= 0) {
      const auto it = steps_of.find(*depid);
      if (it == steps_of.end() || *deps >= it->second) {
        rules.problem(fmt::format("{}: depends on step {} of tb {}, which gpu {} does not have", place, *deps, *depid, gpu));
      } else {
        depended.insert({*depid, *deps});
      }
    }
    if (const auto h = rules.number(st, "hasdep", place, 0, 1); h && *h == 1) flagged.insert({id, expected - 1});
  }
}

inline void check_gpu(Rules& rules, const Element& g, long ngpus, long nchannels, const Buffers& algo_buffers,
                      Ends& out, Ends& in) {
  const auto id = rules.number(g, "id", "<gpu>", 0, ngpus - 1).value_or(-1);
  const auto place = fmt::format("gpu {}", id);
  rules.has_all(g, {"id", "i_chunks", "o_chunks", "s_chunks"}, place);
  Buffers buffers = algo_buffers;
  buffers.i = rules.number(g, "i_chunks", place, 0, 1L << 30).value_or(0);
  buffers.o = rules.number(g, "o_chunks", place, 0, 1L << 30).value_or(0);
  buffers.s = rules.number(g, "s_chunks", place, 0, 1L << 30).value_or(0);
  std::size_t nodes = 2 + g.children.size();  // <algo>, <gpu>, its <tb>s
  std::map<long, long> steps_of;
  std::map<long, Peer> peers;
  for (const auto& tb : g.children) {
    nodes += tb.children.size();
    if (tb.name != "tb") {
      rules.problem(fmt::format("{}: <{}> inside <gpu> (expected <tb>)", place, tb.name));
      continue;
    }
    const auto tb_id = rules.number(tb, "id", place + ", a <tb>", 0, 1L << 20);
    if (!tb_id) continue;
    const auto tb_place = fmt::format("{}, tb {}", place, *tb_id);
    rules.has_all(tb, {"id", "send", "recv", "chan"}, tb_place);
    if (steps_of.count(*tb_id)) rules.problem(fmt::format("{}: appears twice", tb_place));
    steps_of[*tb_id] = static_cast<long>(tb.children.size());
    Peer p;
    p.send = rules.number(tb, "send", tb_place, -1, ngpus - 1).value_or(-1);
    p.recv = rules.number(tb, "recv", tb_place, -1, ngpus - 1).value_or(-1);
    p.chan = rules.number(tb, "chan", tb_place, 0, nchannels - 1).value_or(0);
    if (p.send == id || p.recv == id) rules.problem(fmt::format("{}: a peer is the GPU itself", tb_place));
    for (const auto& [other, q] : peers) {
      if (q.chan == p.chan && p.send >= 0 && q.send == p.send) {
        rules.problem(fmt::format("{}: sends to {} on channel {}, as tb {} does (messages pair per channel and peer)",
                                  tb_place, p.send, p.chan, other));
      }
      if (q.chan == p.chan && p.recv >= 0 && q.recv == p.recv) {
        rules.problem(fmt::format("{}: receives from {} on channel {}, as tb {} does (messages pair per channel and "
                                  "peer)",
                                  tb_place, p.recv, p.chan, other));
      }
    }
    peers[*tb_id] = p;
  }
  for (long k = 0; k < static_cast<long>(steps_of.size()); ++k) {
    if (!steps_of.count(k)) rules.problem(fmt::format("{}: tb ids are not 0, 1, 2, … without gaps (no tb {})", place, k));
  }
  if (nodes > MAX_NODES) {
    rules.problem(fmt::format("{}: {} XML elements for this rank (the loader reads at most {})", place, nodes, MAX_NODES));
  }
  std::set<std::pair<long, long>> depended;
  std::set<std::pair<long, long>> flagged;
  for (const auto& tb : g.children) {
    if (tb.name != "tb") continue;
    const auto tb_id = integer(tb.attributes.count("id") ? tb.attributes.at("id") : "");
    if (!tb_id || !peers.count(*tb_id)) continue;
    check_steps(rules, tb, id, *tb_id, peers.at(*tb_id), buffers, steps_of, depended, flagged, out, in);
  }
  for (const auto& [tb, step] : depended) {
    if (!flagged.count({tb, step})) {
      rules.problem(fmt::format("{}, tb {}, step {}: other steps depend on it, but it has hasdep=\"0\"", place, tb, step));
    }
  }
}

}  // namespace detail

/// Every rule of the loader that @p xml breaks, in file order (docs/gpu.md, "The loader's rules").
inline RuleCheck check_loader_rules(const std::string& xml) {
  RuleCheck check;
  detail::Tokenizer tokens(xml, check);
  const auto algo = tokens.document();
  if (!algo) return check;
  detail::Rules rules(check);
  if (algo->name != "algo") rules.problem(fmt::format("the first element is <{}>, not <algo>", algo->name));
  rules.has_all(*algo, {"name", "proto", "nchannels", "nchunksperloop", "ngpus", "coll", "inplace", "outofplace",
                        "minBytes", "maxBytes"},
                "<algo>");
  rules.one_of(*algo, "proto", "<algo>", {"Simple", "LL128", "LL"});
  rules.one_of(*algo, "coll", "<algo>",
               {"allreduce", "allgather", "reducescatter", "reduce", "broadcast", "alltoall", "gather", "scatter",
                "custom"});
  const auto ngpus = rules.number(*algo, "ngpus", "<algo>", 1, 1L << 20).value_or(1);
  const auto nchannels = rules.number(*algo, "nchannels", "<algo>", 1, 1L << 10).value_or(1);
  rules.number(*algo, "nchunksperloop", "<algo>", 1, 1L << 30);
  const auto in_place = rules.number(*algo, "inplace", "<algo>", 0, 1);
  rules.number(*algo, "outofplace", "<algo>", 0, 1);
  const auto lo = rules.number(*algo, "minBytes", "<algo>", 0, std::numeric_limits<long>::max());
  const auto hi = rules.number(*algo, "maxBytes", "<algo>", 0, std::numeric_limits<long>::max());
  if (lo && hi && *hi != 0 && *hi < *lo) {
    rules.problem(fmt::format("<algo>: maxBytes=\"{}\" below minBytes=\"{}\" (0 means no limit)", *hi, *lo));
  }
  detail::Buffers buffers;
  buffers.in_place = in_place.value_or(1) == 1;
  detail::Ends out;
  detail::Ends in;
  std::set<long> ids;
  for (const auto& g : algo->children) {
    if (g.name != "gpu") {
      rules.problem(fmt::format("<{}> inside <algo> (expected <gpu>)", g.name));
      continue;
    }
    const auto id = detail::integer(g.attributes.count("id") ? g.attributes.at("id") : "");
    if (id && !ids.insert(*id).second) rules.problem(fmt::format("gpu {} appears twice", *id));
    detail::check_gpu(rules, g, ngpus, nchannels, buffers, out, in);
  }
  if (static_cast<long>(ids.size()) != ngpus) {
    rules.problem(fmt::format("<algo>: ngpus=\"{}\" but the file has {} <gpu> elements with ids", ngpus, ids.size()));
  }
  // Sends and receives pair in order per (channel, sender, receiver), count for count.
  for (const auto* side : {&out, &in}) {
    for (const auto& [key, ends] : *side) {
      const auto& [chan, from, to] = key;
      const auto other = (side == &out ? in : out).find(key);
      const std::size_t n = other == (side == &out ? in : out).end() ? 0 : other->second.size();
      if (n != ends.size()) {
        rules.problem(fmt::format("channel {}: gpu {} sends {} messages to gpu {}, which receives {}", chan, from,
                                  side == &out ? ends.size() : n, to, side == &out ? n : ends.size()));
        continue;
      }
      for (std::size_t k = 0; side == &out && k < n; ++k) {
        if (ends[k].cnt != other->second[k].cnt) {
          rules.problem(fmt::format("{} sends cnt={}, but the receive it meets ({}) has cnt={}", ends[k].where,
                                    ends[k].cnt, other->second[k].where, other->second[k].cnt));
        }
      }
    }
  }
  return check;
}

/// Whether a call with @p count elements of @p bytes in all uses the algorithm (else NCCL silently
/// uses its own): the count a multiple of nchunksperloop, the size in [minBytes, maxBytes].
/// @pre check_loader_rules(@p xml) is ok.
inline bool selected(const std::string& xml, std::uint64_t count, std::uint64_t bytes) {
  RuleCheck ignored;
  detail::Tokenizer tokens(xml, ignored);
  const auto algo = tokens.document();
  const auto get = [&](const char* name) { return std::stoull(algo->attributes.at(name)); };
  const auto hi = get("maxBytes");
  return count % get("nchunksperloop") == 0 && bytes >= get("minBytes") && (hi == 0 || bytes <= hi);
}

}  // namespace starnet::testing::msccl

#include <starnet/core/interrupt.hpp>
#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/algorithms/schedule/schedule_json.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/input.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>
#include <unordered_map>

namespace starnet::algorithms::schedule {

using nlohmann::json;
using topology::NodeId;

namespace {

constexpr std::string_view FORMAT_NAME = "starnet-schedule";
/// Marks a node given by index (a JSON integer) among interned names.
constexpr char INDEX_MARK = '\x01';

/// Longest JSON value a message quotes: a hostile value is shown by its start.
constexpr std::size_t SHOWN_CHARS = 160;
/// 2^63: a number at least this large that the parser holds as a double is beyond 64-bit integers.
constexpr double BEYOND_64_BITS = 9223372036854775808.0;

/// @p text cut to about SHOWN_CHARS bytes with "…", at a character boundary: a message quotes a
/// hostile value (or the token nlohmann's parser quotes) by its start.
std::string brief(std::string text) {
  if (text.size() <= SHOWN_CHARS) return text;
  std::size_t cut = SHOWN_CHARS;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) --cut;
  return text.substr(0, cut) + "…";
}

/// @p j as a message quotes it (dump() recurses once per level; the parser refuses values nested
/// deeper than MAX_JSON_NESTING).
/// @p j as the file may have written it; an integer beyond 64 bits, which the parser holds as a
/// rounded double, is said to be one rather than shown rounded.
std::string shown(const json& j) {
  if (j.is_number_float() && std::abs(j.get<double>()) >= BEYOND_64_BITS) return "a number beyond 64-bit integers";
  return brief(j.dump(-1, ' ', false, json::error_handler_t::replace));
}

const std::vector<std::string_view> TOP_KEYS = {"format", "version", "collective", "chunks",  "scratch", "root",
                                                "topology", "nodes", "name",    "comment", "steps",   "programs"};

}  // namespace

struct ScheduleFile::Data {
  struct RawTransfer {
    std::uint32_t step, from, to, list;
  };
  struct RawAction {
    enum class Kind : std::uint8_t { SEND, RECV, LOCAL } kind;
    std::uint32_t peer;
    std::uint32_t list;
    std::uint32_t channel;
    ItemOp op;
  };
  std::string where;
  Collective collective = Collective::ALLREDUCE;
  std::uint64_t chunks = 0;
  std::uint64_t scratch = 0;
  std::optional<std::uint32_t> root;  // a name id
  std::string topology;
  std::optional<std::uint64_t> nodes;
  std::vector<std::string> names;
  std::unordered_map<std::string, std::uint32_t> name_ids;
  std::vector<std::vector<TransferItem>> lists;
  std::unordered_map<std::string, std::uint32_t> list_ids;
  std::vector<RawTransfer> transfers;
  std::vector<std::pair<std::uint32_t, std::vector<RawAction>>> programs;

  [[noreturn]] void fail(const std::string& place, const std::string& what) const {
    throw ScheduleError(fmt::format("{}: {}: {}", where, place, what));
  }

  std::uint32_t name_id(const json& j, const std::string& place) {
    std::string key;
    if (j.is_string()) {
      key = j.get<std::string>();
      if (key.empty()) fail(place, "an empty node name");
    } else if (j.is_number_unsigned()) {
      key = INDEX_MARK + std::to_string(j.get<std::uint64_t>());
    } else {
      fail(place, fmt::format("{} is not a node (expected a name or an index ≥ 0)", shown(j)));
    }
    const auto [it, fresh] = name_ids.try_emplace(std::move(key), static_cast<std::uint32_t>(names.size()));
    if (fresh) names.push_back(it->first);
    return it->second;
  }

  static std::uint32_t chunk(const json& j, const std::string& place, const Data& d) {
    if (!j.is_number_unsigned() || j.get<std::uint64_t>() > std::numeric_limits<std::uint32_t>::max()) {
      d.fail(place, fmt::format("{} is not a chunk (expected an integer ≥ 0)", shown(j)));
    }
    return j.get<std::uint32_t>();
  }

  ItemOp op_of(const json& j, const std::string& place) const {
    if (j.is_string()) {
      if (j == "copy") return ItemOp::COPY;
      if (j == "reduce") return ItemOp::REDUCE;
    }
    fail(place, fmt::format("op {} is not an operation (expected \"copy\" or \"reduce\")", shown(j)));
  }

  std::uint32_t intern(std::vector<TransferItem> items) {
    std::string key(items.size() * 9, '\0');
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::memcpy(key.data() + i * 9, &items[i].src, 4);
      std::memcpy(key.data() + i * 9 + 4, &items[i].dst, 4);
      key[i * 9 + 8] = static_cast<char>(items[i].op);
    }
    const auto [it, fresh] = list_ids.try_emplace(std::move(key), static_cast<std::uint32_t>(lists.size()));
    if (fresh) lists.push_back(std::move(items));
    return it->second;
  }

  /// "c" of a transfer or a local operation: chunk (same on both sides), [src, dst], [src, dst, op].
  std::uint32_t items_of(const json& c, ItemOp op, const std::string& place) {
    if (!c.is_array() || c.empty()) fail(place, "\"c\" must be a non-empty array of chunks");
    std::vector<TransferItem> items;
    items.reserve(c.size());
    for (const auto& e : c) {
      if (e.is_array()) {
        if (e.size() != 2 && e.size() != 3) fail(place, fmt::format("item {} is not [src, dst] or [src, dst, op]", shown(e)));
        items.push_back({chunk(e[0], place, *this), chunk(e[1], place, *this), e.size() == 3 ? op_of(e[2], place) : op});
      } else {
        const auto x = chunk(e, place, *this);
        items.push_back({x, x, op});
      }
    }
    return intern(std::move(items));
  }

  /// "c" of a send or a receive: plain chunk numbers.
  std::uint32_t chunks_of(const json& c, ItemOp op, const std::string& place) {
    if (!c.is_array() || c.empty()) fail(place, "\"c\" must be a non-empty array of chunks");
    std::vector<TransferItem> items;
    for (const auto& e : c) {
      const auto x = chunk(e, place, *this);
      items.push_back({x, x, op});
    }
    return intern(std::move(items));
  }

  void check_keys(const json& o, std::initializer_list<std::string_view> allowed, const std::string& place) const {
    if (!o.is_object()) fail(place, fmt::format("{} is not an object", shown(o)));
    for (const auto& [key, value] : o.items()) {
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        fail(place, fmt::format("unknown field \"{}\" (expected {})", key, fmt::join(allowed, ", ")));
      }
    }
  }

  void add_transfer(const json& o, std::uint64_t step, std::uint64_t index) {
    const auto place = fmt::format("steps[{}][{}]", step, index);
    check_keys(o, {"f", "t", "c", "op"}, place);
    if (!o.contains("f") || !o.contains("t") || !o.contains("c")) fail(place, "a transfer needs \"f\", \"t\" and \"c\"");
    const ItemOp op = o.contains("op") ? op_of(o["op"], place) : ItemOp::COPY;
    transfers.push_back({static_cast<std::uint32_t>(step), name_id(o["f"], place), name_id(o["t"], place),
                         items_of(o["c"], op, place)});
  }

  void add_action(const json& o, const std::string& node, std::uint64_t index) {
    const auto place = fmt::format("programs[\"{}\"][{}]", node, index);
    check_keys(o, {"send", "recv", "c", "op", "ch"}, place);
    if (!o.contains("c")) fail(place, "an action needs \"c\"");
    const ItemOp op = o.contains("op") ? op_of(o["op"], place) : ItemOp::COPY;
    std::uint32_t channel = 0;
    if (o.contains("ch")) channel = chunk(o["ch"], place, *this);
    if (o.contains("send") && o.contains("recv")) fail(place, "an action is a send or a receive, not both");
    if (o.contains("send")) {
      if (o.contains("op")) fail(place, "a send has no \"op\" (the receiver says what it does)");
      programs.back().second.push_back({RawAction::Kind::SEND, name_id(o["send"], place), chunks_of(o["c"], op, place), channel, op});
    } else if (o.contains("recv")) {
      programs.back().second.push_back({RawAction::Kind::RECV, name_id(o["recv"], place), chunks_of(o["c"], op, place), channel, op});
    } else {
      programs.back().second.push_back({RawAction::Kind::LOCAL, 0, items_of(o["c"], op, place), channel, op});
    }
  }

  void read_header(const json& doc) {
    if (!doc.is_object()) fail("the document", "expected a JSON object");
    for (const auto& [key, value] : doc.items()) {
      if (std::find(TOP_KEYS.begin(), TOP_KEYS.end(), key) == TOP_KEYS.end()) {
        fail(fmt::format("field \"{}\"", key), fmt::format("unknown (expected {})", fmt::join(TOP_KEYS, ", ")));
      }
    }
    const auto need = [&](const char* key) -> const json& {
      if (!doc.contains(key)) fail(fmt::format("field \"{}\"", key), "missing");
      return doc[key];
    };
    if (need("format") != FORMAT_NAME) {
      fail("field \"format\"", fmt::format("{} (expected \"{}\")", shown(doc["format"]), FORMAT_NAME));
    }
    if (!need("version").is_number_integer() || doc["version"] != SCHEDULE_FORMAT_VERSION) {
      fail("field \"version\"", fmt::format("{} is not a version this build reads (expected {})", shown(doc["version"]),
                                            SCHEDULE_FORMAT_VERSION));
    }
    const auto& c = need("collective");
    const auto found = c.is_string() ? find_collective(c.get<std::string>()) : std::nullopt;
    if (!found) {
      fail("field \"collective\"", fmt::format("{} is not a collective (expected allreduce, reduce, broadcast, allgather, "
                                               "gather, scatter, reducescatter or alltoall)",
                                               shown(c)));
    }
    collective = *found;
    const auto count = [&](const char* key, std::uint64_t max) {
      const auto& j = doc[key];
      if (!j.is_number_unsigned() || j.get<std::uint64_t>() > max) {
        fail(fmt::format("field \"{}\"", key), fmt::format("{} (expected an integer in 0..{})", shown(j), max));
      }
      return j.get<std::uint64_t>();
    };
    need("chunks");
    chunks = count("chunks", std::numeric_limits<std::uint32_t>::max() / 2);
    if (doc.contains("scratch")) scratch = count("scratch", std::numeric_limits<std::uint32_t>::max() / 2);
    if (doc.contains("nodes")) nodes = count("nodes", std::numeric_limits<std::uint32_t>::max());
    if (doc.contains("topology")) {
      if (!doc["topology"].is_string()) fail("field \"topology\"", "expected a topology spec such as \"star:5\"");
      topology = doc["topology"];
    }
    if (doc.contains("root")) root = name_id(doc["root"], "field \"root\"");
    if (is_rooted(collective) && !root) {
      fail("field \"root\"", fmt::format("missing: a {} needs a root node", to_string(collective)));
    }
    if (!doc.contains("steps") && !doc.contains("programs")) fail("the document", "has neither \"steps\" nor \"programs\"");
    if (doc.contains("steps") && doc.contains("programs")) fail("the document", "has both \"steps\" and \"programs\"");
  }
};

ScheduleFile::ScheduleFile() : data_(std::make_unique<Data>()) {}
ScheduleFile::~ScheduleFile() = default;
ScheduleFile::ScheduleFile(ScheduleFile&&) noexcept = default;
ScheduleFile& ScheduleFile::operator=(ScheduleFile&&) noexcept = default;

Collective ScheduleFile::collective() const { return data_->collective; }
const std::string& ScheduleFile::topology() const { return data_->topology; }
std::uint64_t ScheduleFile::transfers() const { return data_->transfers.size(); }
std::optional<std::uint64_t> ScheduleFile::nodes() const { return data_->nodes; }

ScheduleFile ScheduleFile::read(std::istream& in, const std::string& where) {
  ScheduleFile file;
  Data& d = *file.data_;
  d.where = where;
  // Streamed: every transfer (steps[s][i]) and action (programs[node][i]) is handled as soon as it
  // is parsed and then dropped from the document, which keeps only the header.
  struct Frame {
    bool array;
    std::string key;
    std::uint64_t index = 0;
    std::set<std::string, std::less<>> keys;  ///< an object's keys so far: a repeated one is refused
  };
  std::vector<Frame> stack;
  const auto in_section = [&](std::string_view section, std::size_t depth) {
    return stack.size() == depth && !stack[0].array && stack[0].key == section;
  };
  const json::parser_callback_t callback = [&](int, json::parse_event_t event, json& parsed) -> bool {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (stack.size() >= MAX_JSON_NESTING) {
          throw ScheduleError(fmt::format("{}: arrays and objects nested deeper than {} levels (expected at most {}; a "
                                          "schedule nests four)",
                                          where, MAX_JSON_NESTING, MAX_JSON_NESTING));
        }
        stack.push_back({event == json::parse_event_t::array_start, {}, 0});
        return true;
      case json::parse_event_t::key:
        stack.back().key = parsed.get<std::string>();
        // nlohmann keeps the last of repeated keys; which one the author meant is not known.
        if (!stack.back().keys.insert(stack.back().key).second) {
          throw ScheduleError(fmt::format("{}: the key \"{}\" is given twice in one object (expected each key once)",
                                          where, brief(stack.back().key)));
        }
        return true;
      case json::parse_event_t::value:
        // A transfer or an action is an object: a bare value in their place is refused here, as
        // the object handlers below would pair the next object with the wrong program.
        if (in_section("programs", 3) && !stack[1].array && stack[2].array) {
          d.fail(fmt::format("programs[\"{}\"][{}]", brief(stack[1].key), stack[2].index), "expected an action (an object)");
        }
        if (in_section("steps", 3) && stack[1].array && stack[2].array) {
          d.fail(fmt::format("steps[{}][{}]", stack[1].index, stack[2].index), "expected a transfer (an object)");
        }
        if (!stack.empty() && stack.back().array) ++stack.back().index;
        return true;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end: {
        const bool object = event == json::parse_event_t::object_end;
        const std::uint64_t elements = stack.back().index;
        stack.pop_back();
        bool keep = true;
        if (object && in_section("steps", 3) && stack[1].array && stack[2].array) {
          d.add_transfer(parsed, stack[1].index, stack[2].index);
          keep = false;
        } else if (object && in_section("programs", 3) && !stack[1].array && stack[2].array) {
          if (stack[2].index == 0) d.programs.emplace_back(d.name_id(json(stack[1].key), "programs"), std::vector<Data::RawAction>{});
          d.add_action(parsed, stack[1].key, stack[2].index);
          keep = false;
        } else if (!object && in_section("programs", 2) && !stack[1].array) {
          if (elements == 0) d.programs.emplace_back(d.name_id(json(stack[1].key), "programs"), std::vector<Data::RawAction>{});
          keep = false;
        } else if (!object && (in_section("steps", 2) || in_section("programs", 2))) {
          keep = false;
        } else if (!object && ((in_section("programs", 3) && stack[2].array) ||
                               (in_section("steps", 3) && stack[1].array && stack[2].array))) {
          d.fail(fmt::format("{}[{}][{}]", stack[0].key, stack[1].array ? std::to_string(stack[1].index) : "\"" + brief(stack[1].key) + "\"",
                             stack[2].index),
                 "expected an object, not an array");
        }
        if (!stack.empty() && stack.back().array) ++stack.back().index;
        return keep;
      }
    }
    return true;
  };
  json doc;
  try {
    doc = json::parse(in, callback, /*allow_exceptions=*/true, /*ignore_comments=*/false);
  } catch (const json::parse_error& e) {
    throw ScheduleError(fmt::format("{}: not valid JSON at byte {}: {}", where, e.byte, brief(e.what())));
  } catch (const json::exception& e) {
    throw ScheduleError(fmt::format("{}: {}", where, brief(e.what())));
  }
  if (doc.is_discarded()) throw ScheduleError(fmt::format("{}: not valid JSON", where));
  d.read_header(doc);
  return file;
}

Schedule ScheduleFile::resolve(const topology::Topology& topology) const {
  const Data& d = *data_;
  const auto n = topology.num_nodes();
  if (d.nodes && *d.nodes != n) {
    throw ScheduleError(fmt::format("{}: field \"nodes\" is {}, but {} has {} nodes", d.where, *d.nodes, topology.name(), n));
  }
  if (n > std::numeric_limits<std::uint32_t>::max()) {
    throw ScheduleError(fmt::format("{}: {} has {} nodes; schedules address at most 2^32 − 1", d.where, topology.name(), n));
  }
  std::vector<std::uint32_t> ids(d.names.size());
  for (std::size_t i = 0; i < d.names.size(); ++i) {
    const auto& name = d.names[i];
    std::optional<NodeId> v;
    if (!name.empty() && name[0] == INDEX_MARK) {
      const auto index = std::stoull(name.substr(1));
      if (index < n) v = index;
    } else {
      v = generic::find_node(topology, name);
    }
    if (!v) {
      const std::string shown = name[0] == INDEX_MARK ? "index " + name.substr(1) : "\"" + name + "\"";
      throw ScheduleError(fmt::format("{}: node {} is not a node of {} ({} nodes)", d.where, shown, topology.name(), n));
    }
    ids[i] = static_cast<std::uint32_t>(*v);
  }
  const auto nodes = static_cast<std::uint32_t>(n);
  const ChunkRules rules(d.collective, nodes, static_cast<std::uint32_t>(d.chunks), d.root ? ids[*d.root] : 0);
  ScheduleBuilder builder(rules, static_cast<std::uint32_t>(d.scratch), 0, d.where);
  builder.set_topology(d.topology);
  const std::uint64_t slots = d.chunks + d.scratch;
  for (const auto& list : d.lists) {
    for (const auto& it : list) {
      if (it.src >= slots || it.dst >= slots) {
        throw ScheduleError(fmt::format("{}: chunk {} is out of range (a node has {} chunks: {} data, {} scratch)",
                                        d.where, std::max(it.src, it.dst), slots, d.chunks, d.scratch));
      }
    }
  }
  for (const auto& t : d.transfers) builder.add_transfer(t.step, ids[t.from], ids[t.to], d.lists[t.list]);
  std::vector<std::uint32_t> chunks;
  for (const auto& [name, actions] : d.programs) {
    const auto v = ids[name];
    const auto thread = builder.add_thread(v);
    for (std::size_t i = 0; i < actions.size(); ++i) {
      const auto& a = actions[i];
      const auto place = fmt::format("programs[\"{}\"][{}]", topology.node_name(v), i);
      const auto& list = d.lists[a.list];
      chunks.clear();
      for (const auto& it : list) chunks.push_back(it.src);
      switch (a.kind) {
        case Data::RawAction::Kind::SEND: builder.add_send(v, thread, ids[a.peer], chunks, a.channel, place); break;
        case Data::RawAction::Kind::RECV:
          builder.add_receive(v, thread, ids[a.peer], chunks, a.op, a.channel, place);
          break;
        case Data::RawAction::Kind::LOCAL: builder.add_local(v, thread, list, place); break;
      }
    }
  }
  return std::move(builder).build();
}

namespace {

std::string quoted(const std::string& s) { return json(s).dump(); }

/// One transfer as the file writes it: items in the receiver's order.
struct Written {
  std::uint32_t step, from, to;
  std::vector<TransferItem> items;
};

std::string item_text(const TransferItem& it, ItemOp op) {
  if (it.op != op) return fmt::format("[{},{},\"{}\"]", it.src, it.dst, to_string(it.op));
  if (it.src != it.dst) return fmt::format("[{},{}]", it.src, it.dst);
  return std::to_string(it.src);
}

std::vector<Written> stepped_transfers(const Schedule& s) {
  std::vector<Written> out;
  for (std::uint32_t v = 0; v < s.nodes(); ++v) {
    for (const Action& a : s.actions(v)) {
      if (a.kind == Action::Kind::SEND) continue;
      Written w{a.key, a.peer, v, {}};
      if (a.kind == Action::Kind::LOCAL) {
        for (const Item& it : s.items(a.items)) w.items.push_back({it.a, it.b, it.op});
      } else {
        const auto sender = s.actions(a.peer);
        const auto send = std::find_if(sender.begin(), sender.end(), [&](const Action& b) {
          return b.kind == Action::Kind::SEND && b.key == a.key && b.peer == v;
        });
        STARNET_ASSERT(send != sender.end());
        const auto carried = s.items(send->items);
        for (const Item& it : s.items(a.items)) w.items.push_back({carried[it.a].a, it.b, it.op});
      }
      out.push_back(std::move(w));
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Written& a, const Written& b) { return std::tie(a.step, a.from, a.to) < std::tie(b.step, b.from, b.to); });
  return out;
}

/// Node @p v's actions as one program: its threads in turn, each giving its next action once the
/// action it depends on is placed (a thread's order and every dependency kept).
std::vector<std::uint32_t> merged_program(const Schedule& s, std::uint32_t v) {
  const auto actions = s.actions(v);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  for (std::uint32_t t = 0; t < s.threads(v); ++t) ranges.push_back(s.thread_range(v, t));
  std::vector<char> placed(actions.size(), 0);
  std::vector<std::uint32_t> order;
  while (order.size() < actions.size()) {
    bool progressed = false;
    for (auto& [next, end] : ranges) {
      if (next == end || (actions[next].dep != NO_DEP && !placed[actions[next].dep])) continue;
      placed[next] = 1;
      order.push_back(next++);
      progressed = true;
    }
    if (!progressed) {
      throw ScheduleError(fmt::format("writing a schedule file: node {}'s threads wait for each other (a cycle of "
                                      "dependencies)", v));
    }
  }
  return order;
}

/// One action of a program as the format writes it; a nop (it only orders) as nothing.
std::string program_action(const Schedule& s, const topology::Topology& topology, std::uint32_t v, const Action& a) {
  const auto items = s.items(a.items);
  const std::uint32_t channel = a.key >> 24;  // a programmed tag: the channel above the pair's ordinal
  const std::string ch = a.kind != Action::Kind::LOCAL && channel ? fmt::format(",\"ch\":{}", channel) : "";
  std::string chunks;
  if (a.kind == Action::Kind::LOCAL) {
    if (items.empty()) return {};
    for (const auto& it : items) chunks += (chunks.empty() ? "" : ",") + item_text({it.a, it.b, it.op}, items[0].op);
  } else {
    for (std::uint32_t k = 0; k < items.size(); ++k) {
      const auto& it = items[k];
      if (a.kind == Action::Kind::RECV && (it.a != k || it.op != items[0].op)) {
        throw ScheduleError(fmt::format("writing a schedule file: node {} receives a message whose chunks it keeps out "
                                        "of order or with several operations (a program's receive puts chunk i of "
                                        "the message in c[i], with one op)",
                                        v));
      }
      chunks += fmt::format("{}{}", k ? "," : "", a.kind == Action::Kind::SEND ? it.a : it.b);
    }
  }
  const std::string op = a.kind != Action::Kind::SEND && items[0].op == ItemOp::REDUCE ? ",\"op\":\"reduce\"" : "";
  if (a.kind == Action::Kind::LOCAL) return fmt::format("{{\"c\":[{}]{}}}", chunks, op);
  return fmt::format("{{\"{}\":{},\"c\":[{}]{}{}}}", a.kind == Action::Kind::SEND ? "send" : "recv",
                     quoted(topology.node_name(a.peer)), chunks, op, ch);
}

/// "programs": each node's threads merged into one program (merged_program()).
std::string programs_text(const Schedule& s, const topology::Topology& topology) {
  if (s.slots() != s.rules().chunks() + s.scratch()) {
    throw ScheduleError("writing a schedule file: the schedule keeps its input and output in separate buffers (an "
                        "MSCCL file written out of place); the format has one buffer a node");
  }
  std::string out = ",\n\"programs\":{";
  for (std::uint32_t v = 0; v < s.nodes(); ++v) {
    out += fmt::format("{}\n{}:[", v ? "," : "", quoted(topology.node_name(v)));
    bool first = true;
    for (const auto i : merged_program(s, v)) {
      const auto text = program_action(s, topology, v, s.actions(v)[i]);
      if (text.empty()) continue;
      out += (first ? "" : ",\n ") + text;
      first = false;
    }
    out += "]";
  }
  return out + "}}\n";
}

}  // namespace

std::string write_schedule_json(const Schedule& s, const topology::Topology& topology, const std::string& spec,
                                const std::string& comment) {
  const auto& rules = s.rules();
  if (rules.has_relays()) {
    throw ScheduleError("writing a schedule file: a collective among the processors of a platform with relays has no "
                        "file form (the format gives every node its block)");
  }
  std::string out = fmt::format("{{\"format\":\"{}\",\"version\":{},\"collective\":\"{}\",\"chunks\":{},\"scratch\":{},"
                                "\"topology\":{},\"nodes\":{}",
                                FORMAT_NAME, SCHEDULE_FORMAT_VERSION, to_string(rules.kind()), rules.chunks(),
                                s.scratch(), quoted(spec), s.nodes());
  if (is_rooted(rules.kind())) out += fmt::format(",\"root\":{}", quoted(topology.node_name(rules.root())));
  if (!comment.empty()) out += fmt::format(",\"comment\":{}", quoted(comment));
  if (s.form() == Form::PROGRAMMED) return out + programs_text(s, topology);
  out += ",\n\"steps\":[";
  const auto transfers = stepped_transfers(s);
  std::size_t i = 0;
  for (std::uint32_t step = 0; step < s.steps(); ++step) {
    out += step == 0 ? "\n[" : ",\n[";
    bool first = true;
    for (; i < transfers.size() && transfers[i].step == step; ++i) {
      throw_if_stopped_every(i);
      const auto& w = transfers[i];
      const ItemOp op = w.items.front().op;
      out += fmt::format("{}{{\"f\":{},\"t\":{},\"c\":[", first ? "" : ",\n ", quoted(topology.node_name(w.from)),
                         quoted(topology.node_name(w.to)));
      for (std::size_t k = 0; k < w.items.size(); ++k) out += (k ? "," : "") + item_text(w.items[k], op);
      out += op == ItemOp::REDUCE ? "],\"op\":\"reduce\"}" : "]}";
      first = false;
    }
    out += "]";
  }
  out += "]}\n";
  return out;
}

}  // namespace starnet::algorithms::schedule

#include <starnet/algorithms/schedule/msccl_export.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>

namespace starnet::algorithms::schedule {

namespace {

/// The loader's limits (docs/gpu.md): `cnt` below this, steps a threadblock, XML elements a rank.
constexpr std::uint32_t MSCCL_MAX_COUNT = 72;
constexpr std::size_t MSCCL_MAX_STEPS = 64;
constexpr std::size_t MSCCL_MAX_ELEMENTS = 1024;
constexpr std::size_t MSCCL_MAX_STRING = 255;
/// A programmed action's tag holds its channel above the pair's ordinal (chunk_schedule.cpp).
constexpr std::uint32_t CHANNEL_SHIFT = 24;
constexpr std::int64_t NO_PEER = -1;
/// The key of a thread's threadblock for local steps that come before its first transfer.
constexpr std::int64_t LOCAL_STEPS = -2;

constexpr std::array<std::string_view, 3> PROTOCOLS = {"Simple", "LL128", "LL"};

struct Step {
  std::string_view type;
  char srcbuf = 'i';
  std::uint32_t srcoff = 0;
  char dstbuf = 'i';
  std::uint32_t dstoff = 0;
  std::uint32_t cnt = 1;
  std::uint32_t after = NO_DEP;  ///< the node-local action whose last step this one waits for
  std::int64_t depid = -1;
  std::int64_t deps = -1;
  bool hasdep = false;
};

struct Threadblock {
  std::int64_t send = NO_PEER;
  std::int64_t recv = NO_PEER;
  std::uint32_t chan = 0;
  std::vector<Step> steps;
};

/// A run of chunks as one MSCCL buffer names them.
struct Range {
  char buffer;
  std::uint32_t offset;
};

/// One node's threadblocks, built action by action in the schedule's order.
class GpuWriter {
 public:
  GpuWriter(const Schedule& s, std::uint32_t v, char data_buffer) : s_(s), v_(v), data_(data_buffer) {}

  /// @p message_size: the chunks of the message a receive meets (by node-local action index).
  void write(const std::vector<std::uint32_t>& message_size);
  [[nodiscard]] const std::vector<Threadblock>& threadblocks() const { return tbs_; }
  [[nodiscard]] std::uint32_t staging() const { return staging_total_; }

 private:
  [[noreturn]] void refuse(const std::string& why) const {
    throw ScheduleError(fmt::format("MSCCL export: node {}: {}", v_, why));
  }
  [[nodiscard]] Range range(std::uint32_t slot) const {
    const auto data = s_.rules().chunks();
    return slot < data ? Range{data_, slot} : Range{'s', slot - data};
  }
  /// Whether @p slots are consecutive, ascending, in one buffer.
  [[nodiscard]] bool consecutive(const std::vector<std::uint32_t>& slots) const;
  [[nodiscard]] bool plain_receive(std::span<const Item> items, std::uint32_t size) const;
  std::uint32_t staging_need(const Action& a, std::uint32_t size) const;
  std::uint32_t threadblock(std::uint32_t thread, std::uint32_t chan, std::int64_t peer, bool sends);
  void add(std::uint32_t tb, std::string_view type, Range src, Range dst, std::uint32_t cnt);
  void add_runs(std::uint32_t tb, std::span<const Item> items, std::uint32_t src_base, const std::string& what);
  void check_count(std::uint32_t cnt, const std::string& what) const {
    if (cnt >= MSCCL_MAX_COUNT) {
      refuse(fmt::format("{} moves {} chunks in one message (MSCCL's cnt must be below {})", what, cnt, MSCCL_MAX_COUNT));
    }
  }
  void emit(std::uint32_t tb, const Action& a, std::uint32_t size, std::uint32_t staging, const std::string& what);

  const Schedule& s_;
  std::uint32_t v_;
  char data_;
  std::vector<Threadblock> tbs_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::int64_t>, std::uint32_t> by_peer_;  // (thread, chan, peer)
  std::uint32_t staging_total_ = 0;
};

bool GpuWriter::consecutive(const std::vector<std::uint32_t>& slots) const {
  for (std::size_t k = 1; k < slots.size(); ++k) {
    if (slots[k] != slots[0] + k || range(slots[k]).buffer != range(slots[0]).buffer) return false;
  }
  return true;
}

/// A receive the loader does in one step: message position k into consecutive chunks, one op.
bool GpuWriter::plain_receive(std::span<const Item> items, std::uint32_t size) const {
  if (items.size() != size) return false;
  std::vector<std::uint32_t> dst;
  for (std::uint32_t k = 0; k < items.size(); ++k) {
    if (items[k].a != k || items[k].op != items[0].op) return false;
    dst.push_back(items[k].b);
  }
  return consecutive(dst);
}

std::uint32_t GpuWriter::staging_need(const Action& a, std::uint32_t size) const {
  const auto items = s_.items(a.items);
  if (a.kind == Action::Kind::SEND) {
    std::vector<std::uint32_t> slots;
    for (const auto& it : items) slots.push_back(it.a);
    return consecutive(slots) ? 0 : static_cast<std::uint32_t>(slots.size());
  }
  if (a.kind == Action::Kind::RECV) return plain_receive(items, size) ? 0 : size;
  return 0;
}

std::uint32_t GpuWriter::threadblock(std::uint32_t thread, std::uint32_t chan, std::int64_t peer, bool sends) {
  const auto [it, fresh] = by_peer_.try_emplace({thread, chan, peer}, static_cast<std::uint32_t>(tbs_.size()));
  if (fresh) tbs_.push_back({NO_PEER, NO_PEER, chan, {}});
  auto& tb = tbs_[it->second];
  auto& end = sends ? tb.send : tb.recv;
  if (end == NO_PEER && peer >= 0) {
    // The loader pairs messages per (channel, peer): one threadblock a GPU may own each direction.
    for (std::size_t other = 0; other < tbs_.size(); ++other) {
      const auto& o = tbs_[other];
      if (other != it->second && o.chan == chan && (sends ? o.send : o.recv) == peer) {
        refuse(fmt::format("two of its threads {} node {} on channel {} (an MSCCL GPU has one threadblock per "
                           "channel and peer in each direction, or the messages would have no order)",
                           sends ? "send to" : "receive from", peer, chan));
      }
    }
    end = peer;
  }
  return it->second;
}

void GpuWriter::add(std::uint32_t tb, std::string_view type, Range src, Range dst, std::uint32_t cnt) {
  auto& steps = tbs_[tb].steps;
  steps.push_back({type, src.buffer, src.offset, dst.buffer, dst.offset, cnt});
  if (steps.size() > MSCCL_MAX_STEPS) {
    refuse(fmt::format("its threadblock {} (send {}, recv {}, channel {}) needs more than {} steps, the most the "
                       "executor runs in one threadblock",
                       tb, tbs_[tb].send, tbs_[tb].recv, tbs_[tb].chan, MSCCL_MAX_STEPS));
  }
}

/// Local steps for @p items (chunk a → chunk b, a counted from @p src_base): one cpy or re a run
/// of consecutive items with one op.
void GpuWriter::add_runs(std::uint32_t tb, std::span<const Item> items, std::uint32_t src_base,
                         const std::string& what) {
  std::set<std::uint32_t> written;
  for (const auto& it : items) {
    if (written.count(src_base + it.a)) {
      refuse(fmt::format("{} reads {} after writing it (its items act at once; MSCCL's steps one after the other)",
                         what, s_.chunk_name(src_base + it.a)));
    }
    written.insert(it.b);
  }
  std::size_t k = 0;
  while (k < items.size()) {
    std::size_t end = k + 1;
    const auto src = range(src_base + items[k].a);
    const auto dst = range(items[k].b);
    while (end < items.size() && items[end].op == items[k].op && items[end].a == items[k].a + (end - k) &&
           items[end].b == items[k].b + (end - k) && range(src_base + items[end].a).buffer == src.buffer &&
           range(items[end].b).buffer == dst.buffer && !written.count(src_base + items[end].a)) {
      ++end;
    }
    const auto cnt = static_cast<std::uint32_t>(end - k);
    check_count(cnt, what);
    add(tb, items[k].op == ItemOp::COPY ? "cpy" : "re", src, dst, cnt);
    k = end;
  }
}

/// The steps of one action in threadblock @p tb; @p staging its first staging chunk.
void GpuWriter::emit(std::uint32_t tb, const Action& a, std::uint32_t size, std::uint32_t staging,
                     const std::string& what) {
  const auto items = s_.items(a.items);
  const auto stage = range(staging);
  if (a.kind == Action::Kind::LOCAL) {
    if (items.empty()) return add(tb, "nop", range(0), range(0), 1);
    return add_runs(tb, items, 0, what);
  }
  check_count(size, what);
  if (a.kind == Action::Kind::SEND) {
    if (staging_need(a, size) == 0) return add(tb, "s", range(items[0].a), range(items[0].a), size);
    std::vector<Item> packing;
    for (std::uint32_t k = 0; k < items.size(); ++k) packing.push_back({items[k].a, staging + k, ItemOp::COPY});
    add_runs(tb, packing, 0, what);
    return add(tb, "s", stage, stage, size);
  }
  if (staging_need(a, size) == 0) {
    const auto dst = range(items[0].b);
    return add(tb, items[0].op == ItemOp::COPY ? "r" : "rrc", dst, dst, size);
  }
  add(tb, "r", stage, stage, size);
  add_runs(tb, items, staging, what);
}

void GpuWriter::write(const std::vector<std::uint32_t>& message_size) {
  const auto actions = s_.actions(v_);
  const bool stepped = s_.form() == Form::STEPPED;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> last(actions.size());  // action → (tb, step)
  std::uint32_t staging_base = s_.slots();
  for (std::uint32_t t = 0; t < s_.threads(v_); ++t) {
    const auto [begin, end] = s_.thread_range(v_, t);
    std::uint32_t need = 0;
    for (auto i = begin; i < end; ++i) need = std::max(need, staging_need(actions[i], message_size[i]));
    std::optional<std::uint32_t> current;  // the threadblock of the previous action
    for (auto i = begin; i < end; ++i) {
      const Action& a = actions[i];
      const std::uint32_t chan = stepped ? 0 : a.key >> CHANNEL_SHIFT;
      std::uint32_t tb = 0;
      if (a.kind == Action::Kind::LOCAL) {
        // Local steps join the threadblock of the transfer before them, or after them.
        for (auto j = i + 1; !current && j < end; ++j) {
          if (actions[j].kind != Action::Kind::LOCAL) {
            current = threadblock(t, stepped ? 0 : actions[j].key >> CHANNEL_SHIFT, actions[j].peer,
                                  actions[j].kind == Action::Kind::SEND);
          }
        }
        if (!current) current = threadblock(t, 0, LOCAL_STEPS, true);
        tb = *current;
      } else {
        tb = threadblock(t, chan, a.peer, a.kind == Action::Kind::SEND);
      }
      std::vector<std::uint32_t> waits;
      if (i > begin && last[i - 1].first != tb) waits.push_back(i - 1);
      if (a.dep != NO_DEP && (waits.empty() || waits[0] != a.dep)) waits.push_back(a.dep);
      for (std::size_t w = 0; w + 1 < waits.size(); ++w) {
        add(tb, "nop", range(0), range(0), 1);
        tbs_[tb].steps.back().after = waits[w];
      }
      const auto first = tbs_[tb].steps.size();
      const auto what = fmt::format("its action {} ({} {})", i,
                                    a.kind == Action::Kind::SEND   ? "send to node"
                                    : a.kind == Action::Kind::RECV ? "receive from node"
                                                                   : "local operation at node",
                                    a.peer);
      emit(tb, a, message_size[i], staging_base, what);
      if (!waits.empty()) tbs_[tb].steps[first].after = waits.back();
      last[i] = {tb, static_cast<std::uint32_t>(tbs_[tb].steps.size() - 1)};
      current = tb;
    }
    staging_base += need;
    staging_total_ += need;
  }
  for (std::uint32_t tb = 0; tb < tbs_.size(); ++tb) {
    for (auto& st : tbs_[tb].steps) {
      if (st.after == NO_DEP) continue;
      const auto [on_tb, on_step] = last[st.after];
      if (on_tb == tb) continue;  // in order already
      st.depid = on_tb;
      st.deps = on_step;
      tbs_[on_tb].steps[on_step].hasdep = true;
    }
  }
  std::size_t elements = 2;  // <algo> and this <gpu>
  for (const auto& tb : tbs_) elements += 1 + tb.steps.size();
  if (elements > MSCCL_MAX_ELEMENTS) {
    refuse(fmt::format("its part of the file holds {} XML elements (<algo>, <gpu>, <tb>, <step>); the loader reads at "
                       "most {} for one rank",
                       elements, MSCCL_MAX_ELEMENTS));
  }
}

/// The name as the loader's tokenizer can carry it (it does not read it).
std::string safe_name(const std::string& name) {
  std::string out;
  for (const char c : name.substr(0, MSCCL_MAX_STRING)) {
    const auto u = static_cast<unsigned char>(c);
    out += u < 0x20 || u == 0x7F || c == '"' || c == '\'' || c == '<' || c == '>' || c == '&' ? '_' : c;
  }
  while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0U) == 0x80U) out.pop_back();  // a cut character
  if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0U) == 0xC0U) out.pop_back();
  return out.empty() ? "starnet" : out;
}

/// (input, output) chunks of the collective, per node, in MSCCL's sense.
std::pair<std::uint32_t, std::uint32_t> buffer_sizes(const ChunkRules& r) {
  switch (r.kind()) {
    case Collective::ALLGATHER:
    case Collective::GATHER: return {r.block(), r.chunks()};
    case Collective::REDUCESCATTER:
    case Collective::SCATTER: return {r.chunks(), r.block()};
    default: return {r.chunks(), r.chunks()};
  }
}

}  // namespace

bool is_msccl_protocol(std::string_view protocol) {
  return std::find(PROTOCOLS.begin(), PROTOCOLS.end(), protocol) != PROTOCOLS.end();
}

MscclFile write_msccl(const Schedule& s, const MscclWriteOptions& options) {
  if (!is_msccl_protocol(options.protocol)) {
    throw ScheduleError(fmt::format("MSCCL export: protocol \"{}\" (expected Simple, LL128 or LL)", options.protocol));
  }
  const auto& rules = s.rules();
  if (rules.has_relays()) {
    throw ScheduleError("MSCCL export: the schedule has relays (routers that only forward); in MSCCL every rank is a "
                        "GPU of the collective");
  }
  if (s.slots() != rules.chunks() + s.scratch()) {
    throw ScheduleError("MSCCL export: the schedule keeps its input and output in separate buffers (an MSCCL file "
                        "written out of place); starnet writes in-place files, whose data are one buffer");
  }
  const auto kind = rules.kind();
  const char data = kind == Collective::ALLGATHER || kind == Collective::GATHER ? 'o' : 'i';
  // The chunks of the message each receive meets: (sender, receiver, key) → size.
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> sent;
  for (std::uint32_t u = 0; u < s.nodes(); ++u) {
    for (const auto& a : s.actions(u)) {
      if (a.kind == Action::Kind::SEND) sent[{u, a.peer, a.key}] = static_cast<std::uint32_t>(s.items(a.items).size());
    }
  }
  MscclFile out;
  std::string body;
  for (std::uint32_t v = 0; v < s.nodes(); ++v) {
    const auto actions = s.actions(v);
    std::vector<std::uint32_t> sizes(actions.size(), 0);
    for (std::size_t i = 0; i < actions.size(); ++i) {
      const auto& a = actions[i];
      sizes[i] = a.kind == Action::Kind::RECV ? sent.at({a.peer, v, a.key}) : static_cast<std::uint32_t>(s.items(a.items).size());
    }
    GpuWriter gpu(s, v, data);
    gpu.write(sizes);
    const auto [input, output] = buffer_sizes(rules);
    body += fmt::format("  <gpu id=\"{}\" i_chunks=\"{}\" o_chunks=\"{}\" s_chunks=\"{}\">\n", v, input, output,
                        s.scratch() + gpu.staging());
    out.staging = std::max(out.staging, gpu.staging());
    const auto& tbs = gpu.threadblocks();
    for (std::size_t id = 0; id < tbs.size(); ++id) {
      const auto& tb = tbs[id];
      out.channels = std::max(out.channels, tb.chan + 1);
      body += fmt::format("    <tb id=\"{}\" send=\"{}\" recv=\"{}\" chan=\"{}\">\n", id, tb.send, tb.recv, tb.chan);
      for (std::size_t k = 0; k < tb.steps.size(); ++k) {
        const auto& st = tb.steps[k];
        body += fmt::format("      <step s=\"{}\" type=\"{}\" srcbuf=\"{}\" srcoff=\"{}\" dstbuf=\"{}\" dstoff=\"{}\" "
                            "cnt=\"{}\" depid=\"{}\" deps=\"{}\" hasdep=\"{}\"/>\n",
                            k, st.type, st.srcbuf, st.srcoff, st.dstbuf, st.dstoff, st.cnt, st.depid, st.deps,
                            st.hasdep ? 1 : 0);
      }
      body += "    </tb>\n";
    }
    out.threadblocks += static_cast<std::uint32_t>(tbs.size());
    for (const auto& tb : tbs) out.steps += static_cast<std::uint32_t>(tb.steps.size());
    body += "  </gpu>\n";
  }
  const std::string root = is_rooted(kind) ? fmt::format(" root=\"{}\"", rules.root()) : std::string();
  out.xml = fmt::format("<algo name=\"{}\" proto=\"{}\" nchannels=\"{}\" nchunksperloop=\"{}\" ngpus=\"{}\" "
                        "coll=\"{}\" inplace=\"1\" outofplace=\"0\" minBytes=\"0\" maxBytes=\"0\"{}>\n",
                        safe_name(options.name), options.protocol, out.channels, rules.chunks(), s.nodes(),
                        to_string(kind), root) +
            body + "</algo>\n";
  return out;
}

namespace {

/// A node's messages to (or from) each peer in the order they pair: key (step, or channel and
/// ordinal) ascending.
struct Message {
  std::uint32_t key;
  std::uint32_t items;
};
using Messages = std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<Message>>;  // (from, to)

std::pair<Messages, Messages> messages_of(const Schedule& s) {
  Messages sends;
  Messages receives;
  for (std::uint32_t v = 0; v < s.nodes(); ++v) {
    for (const auto& a : s.actions(v)) {
      if (a.kind == Action::Kind::SEND) sends[{v, a.peer}].push_back({a.key, a.items});
      if (a.kind == Action::Kind::RECV) receives[{a.peer, v}].push_back({a.key, a.items});
    }
  }
  for (auto* m : {&sends, &receives}) {
    for (auto& [pair, list] : *m) {
      std::sort(list.begin(), list.end(), [](const Message& x, const Message& y) { return x.key < y.key; });
    }
  }
  return {std::move(sends), std::move(receives)};
}

/// The difference between message @p k of one pair in @p a and in @p b, if any.
std::optional<std::string> message_difference(const Schedule& a, const Schedule& b, std::span<const Item> x,
                                              std::span<const Item> y, bool send) {
  const auto staged = [&](std::span<const Item> items) {
    return std::all_of(items.begin(), items.end(), [&](const Item& it) {
      return (send ? it.a : it.b) >= a.slots() && (send || (it.op == ItemOp::COPY && it.a < items.size()));
    });
  };
  if (send && x.size() != y.size()) return fmt::format("carries {} chunks, not {}", y.size(), x.size());
  if (std::equal(x.begin(), x.end(), y.begin(), y.end()) || staged(y)) return std::nullopt;
  const auto shown = [](const Schedule& s, std::span<const Item> items, bool sent) {
    std::string text;
    for (const auto& it : items) {
      text += sent ? " " + s.chunk_name(it.a) : fmt::format(" {}→{} {}", it.a, s.chunk_name(it.b), to_string(it.op));
    }
    return text;
  };
  return fmt::format("{}{} instead of{}", send ? "sends" : "is received as", shown(b, y, send), shown(a, x, send));
}

}  // namespace

std::optional<std::string> transfer_difference(const Schedule& a, const Schedule& b) {
  const bool rooted = is_rooted(a.rules().kind());
  if (a.rules().kind() != b.rules().kind() || a.nodes() != b.nodes() || a.rules().chunks() != b.rules().chunks() ||
      (rooted && a.rules().root() != b.rules().root())) {
    return fmt::format("{} of {} chunks on {} nodes (root {}) reads back as {} of {} chunks on {} nodes (root {})",
                       to_string(a.rules().kind()), a.rules().chunks(), a.nodes(), a.rules().root(),
                       to_string(b.rules().kind()), b.rules().chunks(), b.nodes(), b.rules().root());
  }
  const auto [sends_a, receives_a] = messages_of(a);
  const auto [sends_b, receives_b] = messages_of(b);
  for (const bool send : {true, false}) {
    const auto& ma = send ? sends_a : receives_a;
    const auto& mb = send ? sends_b : receives_b;
    for (const auto& [pair, list] : ma) {
      const auto it = mb.find(pair);
      const std::size_t count = it == mb.end() ? 0 : it->second.size();
      if (count != list.size()) {
        return fmt::format("node {} {} node {} {} messages, not {}", send ? pair.first : pair.second,
                           send ? "sends to" : "receives from", send ? pair.second : pair.first, count, list.size());
      }
      for (std::size_t k = 0; k < list.size(); ++k) {
        if (auto d = message_difference(a, b, a.items(list[k].items), b.items(it->second[k].items), send)) {
          return fmt::format("message {} from node {} to node {} {}", k, pair.first, pair.second, *d);
        }
      }
    }
    if (ma.size() != mb.size()) return fmt::format("{} pairs of nodes exchange messages, not {}", mb.size(), ma.size());
  }
  return std::nullopt;
}

}  // namespace starnet::algorithms::schedule

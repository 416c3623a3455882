#include <starnet/algorithms/schedule/msccl.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/input.hpp>

#include <fmt/format.h>
#include <pugixml.hpp>

#include <charconv>
#include <map>
#include <optional>

namespace starnet::algorithms::schedule {

namespace {

/// What a step does, as a sequence of starnet actions.
enum class StepType : std::uint8_t { SEND, RECV, REDUCE, COPY, NOP, RCS, RRC, RRS, RRCS };

std::optional<StepType> step_type(std::string_view t) {
  static const std::map<std::string_view, StepType> types = {
      {"s", StepType::SEND},  {"r", StepType::RECV},  {"re", StepType::REDUCE}, {"cpy", StepType::COPY},
      {"nop", StepType::NOP}, {"rcs", StepType::RCS}, {"rrc", StepType::RRC},   {"rrs", StepType::RRS},
      {"rrcs", StepType::RRCS}};
  const auto it = types.find(t);
  return it == types.end() ? std::nullopt : std::optional(it->second);
}

class Reader {
 public:
  explicit Reader(std::string where) : where_(std::move(where)) {}

  [[noreturn]] void fail(const std::string& place, const std::string& what) const {
    throw ScheduleError(fmt::format("{}: {}: {}", where_, place, what));
  }

  long integer(const pugi::xml_node& e, const char* name, const std::string& place, long lo, long hi,
               std::optional<long> fallback = std::nullopt) const {
    const auto a = e.attribute(name);
    if (!a) {
      if (fallback) return *fallback;
      fail(place, fmt::format("attribute {} is missing", name));
    }
    const std::string_view text = a.value();
    long x = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
    if (ec != std::errc() || end != text.data() + text.size() || x < lo || x > hi) {
      fail(place, fmt::format("{}=\"{}\" (expected an integer in {}..{})", name, text, lo, hi));
    }
    return x;
  }

  MscclAlgorithm read(const std::string& xml);

 private:
  struct Counts {
    std::uint32_t gpus = 0;
    std::uint32_t threadblocks = 0;
    std::uint32_t steps = 0;
  };
  /// A <tb> as the node program sees it: its node and thread, peers, channel, first temporary.
  struct Threadblock {
    std::uint32_t node;
    std::uint32_t thread;
    long send;
    long recv;
    std::uint32_t chan;
    std::uint32_t temp;
  };
  std::vector<pugi::xml_node> gpus_by_id(const pugi::xml_node& algo, std::uint32_t gpus);
  [[nodiscard]] std::uint32_t temporaries(const pugi::xml_node& algo) const;
  std::uint32_t add_step(ScheduleBuilder& builder, const pugi::xml_node& st, const Threadblock& tb,
                         const std::string& place, std::uint32_t& temp_most);
  void read_gpu(ScheduleBuilder& builder, const pugi::xml_node& gpu, std::uint32_t v, std::uint32_t temp_base,
                Counts& counts);

  struct Buffers {
    std::uint32_t input = 0, output = 0, scratch = 0;
    std::uint32_t data = 0;  ///< slots before scratch: max(i, o, nchunksperloop) in place, i + o otherwise
    bool in_place = true;
    /// In place, NCCL's convention for the current GPU r: an all-gather's (gather's) input is block
    /// r of the output (input_at = r·k), a reduce-scatter's (scatter's) output block r of the input.
    std::uint32_t input_at = 0, output_at = 0;
    bool shifted_input = false, shifted_output = false;
    [[nodiscard]] std::uint32_t base(char b) const {
      if (b == 's') return data;
      if (in_place) return b == 'i' ? input_at : output_at;
      return b == 'i' ? 0 : input;
    }
    [[nodiscard]] std::uint32_t size(char b) const {
      if (b == 's') return scratch;
      if (!in_place) return b == 'i' ? input : output;
      if (b == 'i') return shifted_input ? input : std::max(input, output);
      return shifted_output ? output : std::max(input, output);
    }
  };

  std::uint32_t slot(const pugi::xml_node& step, const char* buf, const char* off, std::uint32_t cnt,
                     const std::string& place) const {
    const std::string_view b = step.attribute(buf).value();
    if (b != "i" && b != "o" && b != "s") fail(place, fmt::format("{}=\"{}\" is not a buffer (expected i, o or s)", buf, b));
    const auto offset = static_cast<std::uint32_t>(integer(step, off, place, 0, MAX_CHUNKS));
    if (offset + cnt > buffers_.size(b[0])) {
      fail(place, fmt::format("{}=\"{}\" {}={} cnt={} reaches past the buffer ({} chunks)", buf, b, off, offset, cnt,
                              buffers_.size(b[0])));
    }
    return buffers_.base(b[0]) + offset;
  }

  static constexpr long MAX_CHUNKS = 1L << 24;
  /// Most chunk items (cnt summed over all steps) an MSCCL file may expand to (docs/limits.md).
  static constexpr std::uint64_t MAX_ITEMS = std::uint64_t{1} << 24;
  static constexpr long MAX_CHANNEL = 255;
  std::string where_;
  Buffers buffers_;
  std::uint64_t items_ = 0;
};

/// The GPUs by id, after checking that each appears once; the buffer sizes (the largest any GPU has).
std::vector<pugi::xml_node> Reader::gpus_by_id(const pugi::xml_node& algo, std::uint32_t gpus) {
  std::vector<pugi::xml_node> by_id(gpus);
  for (const auto& g : algo.children("gpu")) {
    const auto id = static_cast<std::uint32_t>(integer(g, "id", "<gpu>", 0, gpus - 1));
    const auto place = fmt::format("gpu {}", id);
    if (by_id[id]) fail(place, "appears twice");
    by_id[id] = g;
    buffers_.input = std::max(buffers_.input, static_cast<std::uint32_t>(integer(g, "i_chunks", place, 0, MAX_CHUNKS)));
    buffers_.output = std::max(buffers_.output, static_cast<std::uint32_t>(integer(g, "o_chunks", place, 0, MAX_CHUNKS)));
    buffers_.scratch = std::max(buffers_.scratch, static_cast<std::uint32_t>(integer(g, "s_chunks", place, 0, MAX_CHUNKS)));
  }
  for (std::uint32_t id = 0; id < gpus; ++id) {
    if (!by_id[id]) fail("<algo>", fmt::format("ngpus=\"{}\" but gpu {} is missing", gpus, id));
  }
  return by_id;
}

/// Temporaries of rrs: per threadblock as many as its largest cnt; a node gets the most any GPU needs.
std::uint32_t Reader::temporaries(const pugi::xml_node& algo) const {
  std::uint32_t temps = 0;
  for (const auto& g : algo.children("gpu")) {
    std::uint32_t here = 0;
    for (const auto& tb : g.children("tb")) {
      std::uint32_t most = 0;
      for (const auto& st : tb.children("step")) {
        if (std::string_view(st.attribute("type").value()) == "rrs") {
          most = std::max(most, static_cast<std::uint32_t>(integer(st, "cnt", "an rrs step", 1, MAX_CHUNKS)));
        }
      }
      here += most;
    }
    temps = std::max(temps, here);
  }
  return temps;
}

/// Appends the actions of one <step> to thread t of node v. @return the index of its last action.
std::uint32_t Reader::add_step(ScheduleBuilder& builder, const pugi::xml_node& st, const Threadblock& tb,
                               const std::string& place, std::uint32_t& temp_most) {
  const auto type = step_type(st.attribute("type").value());
  if (!type) {
    fail(place, fmt::format("type=\"{}\" is not a step type (expected s, r, re, cpy, nop, rcs, rrc, rrs, rrcs)",
                            st.attribute("type").value()));
  }
  const auto cnt = static_cast<std::uint32_t>(integer(st, "cnt", place, 1, MAX_CHUNKS, 1));
  items_ += cnt;
  if (items_ > MAX_ITEMS) {
    fail(place, fmt::format("the steps so far move more than {} chunks in all (expected at most {}: a few hundred "
                            "bytes of cnt attributes must not expand into gigabytes)",
                            MAX_ITEMS, MAX_ITEMS));
  }
  const bool sends = *type == StepType::SEND || *type == StepType::RCS || *type == StepType::RRS || *type == StepType::RRCS;
  const bool receives = *type != StepType::SEND && *type != StepType::REDUCE && *type != StepType::COPY && *type != StepType::NOP;
  if (sends && tb.send < 0) fail(place, "sends, but its threadblock has send=\"-1\" (no peer)");
  if (receives && tb.recv < 0) fail(place, "receives, but its threadblock has recv=\"-1\" (no peer)");
  const auto to = static_cast<std::uint32_t>(tb.send);
  const auto from = static_cast<std::uint32_t>(tb.recv);
  std::vector<std::uint32_t> list;
  const auto range = [&](std::uint32_t first) {
    list.resize(cnt);
    for (std::uint32_t k = 0; k < cnt; ++k) list[k] = first + k;
    return std::span<const std::uint32_t>(list);
  };
  const auto local = [&](std::uint32_t a, std::uint32_t b, ItemOp op) {
    std::vector<TransferItem> items;
    for (std::uint32_t k = 0; k < cnt; ++k) items.push_back({a + k, b + k, op});
    return builder.add_local(tb.node, tb.thread, items, place);
  };
  const auto src = [&] { return slot(st, "srcbuf", "srcoff", cnt, place); };
  const auto dst = [&] { return slot(st, "dstbuf", "dstoff", cnt, place); };
  switch (*type) {
    case StepType::SEND: return builder.add_send(tb.node, tb.thread, to, range(src()), tb.chan, place);
    case StepType::RECV: return builder.add_receive(tb.node, tb.thread, from, range(dst()), ItemOp::COPY, tb.chan, place);
    case StepType::REDUCE: return local(src(), dst(), ItemOp::REDUCE);
    case StepType::COPY: return local(src(), dst(), ItemOp::COPY);
    case StepType::NOP: return builder.add_nop(tb.node, tb.thread, place);
    case StepType::RCS: {
      const auto d = dst();
      builder.add_receive(tb.node, tb.thread, from, range(d), ItemOp::COPY, tb.chan, place);
      return builder.add_send(tb.node, tb.thread, to, range(d), tb.chan, place);
    }
    case StepType::RRC:
    case StepType::RRCS:
    case StepType::RRS: {
      // The sum of the local src and the received chunks lands in dst (rrs: a temporary).
      const auto a = src();
      const auto b = *type == StepType::RRS ? tb.temp : dst();
      if (*type == StepType::RRS) temp_most = std::max(temp_most, cnt);
      if (a != b) local(a, b, ItemOp::COPY);
      const auto last = builder.add_receive(tb.node, tb.thread, from, range(b), ItemOp::REDUCE, tb.chan, place);
      return *type == StepType::RRC ? last : builder.add_send(tb.node, tb.thread, to, range(b), tb.chan, place);
    }
  }
  return 0;
}

/// The threadblocks of GPU @p v as threads of node v, then their dependencies.
void Reader::read_gpu(ScheduleBuilder& builder, const pugi::xml_node& gpu, std::uint32_t v, std::uint32_t temp_base,
                      Counts& counts) {
  std::map<long, std::uint32_t> thread_of;                     // tb id → thread
  std::map<std::pair<long, long>, std::uint32_t> last_action;  // (tb, step) → its last action
  struct Pending {
    std::uint32_t thread, first;
    long tb, step;
    std::string place;
  };
  std::vector<Pending> deps;
  std::uint32_t temp_next = temp_base;
  for (const auto& node : gpu.children("tb")) {
    const long tb_id = integer(node, "id", fmt::format("gpu {}, a <tb>", v), 0, 1L << 20);
    const auto tb_place = fmt::format("gpu {}, tb {}", v, tb_id);
    if (thread_of.count(tb_id)) fail(tb_place, "appears twice");
    Threadblock tb{v, builder.add_thread(v), integer(node, "send", tb_place, -1, counts.gpus - 1),
                   integer(node, "recv", tb_place, -1, counts.gpus - 1),
                   static_cast<std::uint32_t>(integer(node, "chan", tb_place, 0, MAX_CHANNEL, 0)), temp_next};
    thread_of[tb_id] = tb.thread;
    ++counts.threadblocks;
    std::uint32_t temp_most = 0;
    std::uint32_t index = 0;  // actions in this thread so far
    for (const auto& st : node.children("step")) {
      const long s = integer(st, "s", tb_place + ", a <step>", 0, 1L << 24);
      const auto place = fmt::format("{}, step {}", tb_place, s);
      ++counts.steps;
      const auto first = index;
      const auto last = add_step(builder, st, tb, place, temp_most);
      index = last + 1;
      last_action[{tb_id, s}] = last;
      const long depid = integer(st, "depid", place, -1, 1L << 20, -1);
      const long dep_step = integer(st, "deps", place, -1, 1L << 24, -1);
      if (depid >= 0 && dep_step >= 0) deps.push_back({tb.thread, first, depid, dep_step, place});
    }
    temp_next += temp_most;
  }
  for (const auto& d : deps) {
    const auto th = thread_of.find(d.tb);
    const auto at = last_action.find({d.tb, d.step});
    if (th == thread_of.end() || at == last_action.end()) {
      fail(d.place, fmt::format("depends on step {} of tb {}, which gpu {} does not have", d.step, d.tb, v));
    }
    builder.depends_on(v, d.thread, d.first, th->second, at->second, d.place);
  }
}

MscclAlgorithm Reader::read(const std::string& xml) {
  pugi::xml_document doc;
  const auto parsed = doc.load_buffer(xml.data(), xml.size(), pugi::parse_default | pugi::parse_doctype);
  if (!parsed) fail(fmt::format("byte {}", parsed.offset), fmt::format("not well-formed XML ({})", parsed.description()));
  for (const auto& child : doc.children()) {
    if (child.type() == pugi::node_doctype) fail("the DOCTYPE", "refused (starnet expands no entities)");
  }
  const auto algo = doc.child("algo");
  if (!algo) fail("the document", "has no <algo> element");
  Counts counts;
  counts.gpus = static_cast<std::uint32_t>(integer(algo, "ngpus", "<algo>", 1, 1L << 20));
  const std::string coll = algo.attribute("coll").value();
  const auto kind = coll == "gossip" ? std::nullopt : find_collective(coll);
  if (!kind) {
    fail("<algo>", fmt::format("coll=\"{}\": starnet checks {} (a custom collective has no result to check)", coll,
                               algorithms::collective_choices()));
  }
  const auto chunks = static_cast<std::uint32_t>(integer(algo, "nchunksperloop", "<algo>", 1, MAX_CHUNKS));
  buffers_.in_place = integer(algo, "inplace", "<algo>", 0, 1, 0) == 1;
  // The loader reads no root: starnet's files name it (root="r"), others are taken as rooted at GPU 0.
  const auto root = static_cast<std::uint32_t>(integer(algo, "root", "<algo>", 0, counts.gpus - 1, 0));
  const auto by_id = gpus_by_id(algo, counts.gpus);
  const ChunkRules rules(*kind, counts.gpus, chunks, root,
                         Layout{0, buffers_.in_place ? 0 : buffers_.input, buffers_.in_place});
  const std::uint32_t data = buffers_.in_place ? std::max({buffers_.input, buffers_.output, chunks})
                                               : buffers_.input + buffers_.output;
  const bool block_out = *kind == Collective::REDUCESCATTER || *kind == Collective::SCATTER;
  if (data < chunks || (!buffers_.in_place && buffers_.output < (block_out ? rules.block() : chunks))) {
    fail("<algo>", fmt::format("buffers of {} chunks (i_chunks {}, o_chunks {}) cannot hold a {} of nchunksperloop={} "
                               "on {} GPUs",
                               data, buffers_.input, buffers_.output, coll, chunks, counts.gpus));
  }
  buffers_.data = data;
  buffers_.shifted_input = buffers_.in_place && (*kind == Collective::ALLGATHER || *kind == Collective::GATHER);
  buffers_.shifted_output = buffers_.in_place && block_out;
  ScheduleBuilder builder(rules, buffers_.scratch + temporaries(algo), data - chunks, where_);
  // Messages name chunks as the file does; in place, i and o are one buffer, checked as o.
  builder.name_buffer(0, buffers_.in_place ? "o" : "i");
  if (!buffers_.in_place) builder.name_buffer(buffers_.input, "o");
  builder.name_buffer(data, "s");
  builder.name_buffer(data + buffers_.scratch, "temporary");
  for (std::uint32_t v = 0; v < counts.gpus; ++v) {
    buffers_.input_at = buffers_.shifted_input ? v * rules.block() : 0;
    buffers_.output_at = buffers_.shifted_output ? v * rules.block() : 0;
    read_gpu(builder, by_id[v], v, data + buffers_.scratch, counts);
  }
  return MscclAlgorithm{algo.attribute("name").value(), counts.gpus, buffers_.in_place, counts.threadblocks,
                        counts.steps, std::move(builder).build()};
}

}  // namespace

MscclAlgorithm read_msccl(const std::string& xml, const std::string& where) {
  try {
    check_nesting(xml, Nesting::XML, where);
  } catch (const InputError& e) {
    throw ScheduleError(e.what());  // the documented type of a bad schedule file
  }
  return Reader(where).read(xml);
}

}  // namespace starnet::algorithms::schedule

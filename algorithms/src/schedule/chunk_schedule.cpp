#include <starnet/core/interrupt.hpp>
#include <starnet/algorithms/schedule/chunk_schedule.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <numeric>
#include <tuple>

namespace starnet::algorithms::schedule {

namespace {

/// A tag holds the channel above the pair's ordinal.
constexpr std::uint32_t ORDINAL_BITS = 24;
constexpr std::uint32_t MAX_CHANNELS = 256;
constexpr std::uint32_t MAX_ORDINAL = (1U << ORDINAL_BITS) - 1;

int kind_rank(Action::Kind k) { return static_cast<int>(k); }  // LOCAL < SEND < RECV

}  // namespace

std::string to_string(ItemOp op) { return op == ItemOp::COPY ? "copy" : "reduce"; }

std::string Schedule::chunk_name(std::uint32_t slot) const {
  const auto after = std::upper_bound(buffers_.begin(), buffers_.end(), slot,
                                      [](std::uint32_t x, const auto& b) { return x < b.first; });
  if (after == buffers_.begin()) return fmt::format("chunk {}", slot);
  const auto& [first, buffer] = *std::prev(after);
  return fmt::format("{}[{}]", buffer, slot - first);
}

std::size_t Schedule::memory_bytes() const {
  return sizeof(*this) + actions_.capacity() * sizeof(Action) + items_.capacity() * sizeof(Item) +
         list_offsets_.capacity() * sizeof(std::uint32_t) + thread_offsets_.capacity() * sizeof(std::uint64_t) +
         node_threads_.capacity() * sizeof(std::uint32_t);
}

ScheduleBuilder::ScheduleBuilder(const ChunkRules& rules, std::uint32_t scratch, std::uint32_t extra, std::string where)
    : schedule_(rules), where_(std::move(where)) {
  schedule_.slots_ = rules.chunks() + extra + scratch;
  schedule_.extra_ = extra;
}

void ScheduleBuilder::check_node(std::uint32_t v, const std::string& context) const {
  if (v >= schedule_.nodes()) {
    throw ScheduleError(
        fmt::format("{}: {} names node {}, outside 0..{}", where_, context, v, schedule_.nodes() - 1));
  }
}

void ScheduleBuilder::check_slot(std::uint32_t slot, const std::string& context) const {
  if (slot >= schedule_.slots_) {
    throw ScheduleError(fmt::format("{}: {} names chunk {}, but a node has {} chunks (0..{}: {} data, {} scratch)",
                                    where_, context, slot, schedule_.slots_, schedule_.slots_ - 1,
                                    schedule_.rules_.chunks(), schedule_.slots_ - schedule_.rules_.chunks()));
  }
}

std::uint32_t ScheduleBuilder::intern(std::span<const Item> items) {
  std::string key(items.size() * sizeof(Item), '\0');
  for (std::size_t i = 0; i < items.size(); ++i) {
    // Field by field: the padding of Item is not part of the key.
    const std::uint32_t op = static_cast<std::uint32_t>(items[i].op);
    std::memcpy(key.data() + i * sizeof(Item), &items[i].a, 4);
    std::memcpy(key.data() + i * sizeof(Item) + 4, &items[i].b, 4);
    std::memcpy(key.data() + i * sizeof(Item) + 8, &op, 4);
  }
  const auto [it, fresh] = lists_.try_emplace(std::move(key), static_cast<std::uint32_t>(lists_.size()));
  if (fresh) {
    schedule_.items_.insert(schedule_.items_.end(), items.begin(), items.end());
    schedule_.list_offsets_.push_back(static_cast<std::uint32_t>(schedule_.items_.size()));
  }
  return it->second;
}

void ScheduleBuilder::add_transfer(std::uint32_t step, std::uint32_t from, std::uint32_t to,
                                   std::span<const TransferItem> items, const std::string& context) {
  throw_if_stopped_every(++transfers_added_);  // S_9's star all-reduce adds 1.6 million: Ctrl-C must reach it
  if (!threads_.empty()) throw ScheduleError(fmt::format("{}: has both steps and per-node programs", where_));
  check_node(from, context);
  check_node(to, context);
  if (items.empty()) throw ScheduleError(fmt::format("{}: {} moves no chunk (expected at least one)", where_, context));
  std::vector<Item> sent;
  std::vector<Item> received;
  const bool relayed = schedule_.rules_.relay(to);
  if (++epoch_ == 0) {  // after 2^32 messages: every mark is stale again
    std::fill(mention_epoch_.begin(), mention_epoch_.end(), 0);
    epoch_ = 1;
  }
  for (const auto& it : items) {
    check_slot(it.src, context);
    check_slot(it.dst, context);
    if (relayed && (from == to || it.op != ItemOp::COPY)) {
      // A relay forwards chunks whole: no reduction and no local operation at a router.
      throw ScheduleError(fmt::format("{}: {} would {} chunk {} at node {}, a relay (it only forwards: copies)",
                                      where_, context.empty() ? "a transfer" : context,
                                      from == to ? "compute" : to_string(it.op), it.dst, to));
    }
    if (from == to) {
      received.push_back({it.src, it.dst, it.op});
      continue;
    }
    // The message carries each source chunk once, in order of first mention.
    if (it.src >= mention_epoch_.size()) {
      mention_epoch_.resize(it.src + std::size_t{1}, 0);
      mention_at_.resize(it.src + std::size_t{1}, 0);
    }
    if (mention_epoch_[it.src] != epoch_) {
      mention_epoch_[it.src] = epoch_;
      mention_at_[it.src] = static_cast<std::uint32_t>(sent.size());
      sent.push_back(Item{it.src, 0, ItemOp::COPY});
    }
    received.push_back({mention_at_[it.src], it.dst, it.op});
  }
  const std::uint32_t send_list = from == to ? 0 : intern(sent);
  stepped_.push_back({step, from, to, send_list, intern(received)});
  if (from == to) {
    ++schedule_.locals_;
  } else {
    ++schedule_.transfers_;
    schedule_.chunks_moved_ += sent.size();
  }
}

std::uint32_t ScheduleBuilder::add_thread(std::uint32_t v) {
  if (!stepped_.empty()) throw ScheduleError(fmt::format("{}: has both steps and per-node programs", where_));
  check_node(v, "a thread");
  if (threads_.empty()) threads_.resize(schedule_.nodes());
  threads_[v].emplace_back();
  return static_cast<std::uint32_t>(threads_[v].size() - 1);
}

std::uint32_t ScheduleBuilder::add_send(std::uint32_t v, std::uint32_t t, std::uint32_t to,
                                        std::span<const std::uint32_t> chunks, std::uint32_t channel,
                                        const std::string& context) {
  check_node(to, context);
  if (to == v) throw ScheduleError(fmt::format("{}: {} sends to its own node {}", where_, context, v));
  if (chunks.empty()) throw ScheduleError(fmt::format("{}: {} sends no chunk (expected at least one)", where_, context));
  if (channel >= MAX_CHANNELS) {
    throw ScheduleError(fmt::format("{}: {} uses channel {} (expected 0..{})", where_, context, channel, MAX_CHANNELS - 1));
  }
  std::vector<Item> list;
  for (const auto c : chunks) {
    check_slot(c, context);
    list.push_back({c, 0, ItemOp::COPY});
  }
  auto& th = threads_[v][t];
  th.actions.push_back({Action::Kind::SEND, 0, to, intern(list), NO_DEP});
  th.channels.push_back(channel);
  th.contexts.push_back(context);
  ++schedule_.transfers_;
  schedule_.chunks_moved_ += chunks.size();
  return static_cast<std::uint32_t>(th.actions.size() - 1);
}

std::uint32_t ScheduleBuilder::add_receive(std::uint32_t v, std::uint32_t t, std::uint32_t from,
                                           std::span<const std::uint32_t> destinations, ItemOp op,
                                           std::uint32_t channel, const std::string& context) {
  check_node(from, context);
  if (from == v) throw ScheduleError(fmt::format("{}: {} receives from its own node {}", where_, context, v));
  if (destinations.empty()) {
    throw ScheduleError(fmt::format("{}: {} receives no chunk (expected at least one)", where_, context));
  }
  if (channel >= MAX_CHANNELS) {
    throw ScheduleError(fmt::format("{}: {} uses channel {} (expected 0..{})", where_, context, channel, MAX_CHANNELS - 1));
  }
  std::vector<Item> list;
  for (std::uint32_t i = 0; i < destinations.size(); ++i) {
    check_slot(destinations[i], context);
    list.push_back({i, destinations[i], op});
  }
  auto& th = threads_[v][t];
  th.actions.push_back({Action::Kind::RECV, 0, from, intern(list), NO_DEP});
  th.channels.push_back(channel);
  th.contexts.push_back(context);
  return static_cast<std::uint32_t>(th.actions.size() - 1);
}

std::uint32_t ScheduleBuilder::add_local(std::uint32_t v, std::uint32_t t, std::span<const TransferItem> items,
                                         const std::string& context) {
  if (items.empty()) throw ScheduleError(fmt::format("{}: {} names no chunk (expected at least one)", where_, context));
  std::vector<Item> list;
  for (const auto& it : items) {
    check_slot(it.src, context);
    check_slot(it.dst, context);
    list.push_back({it.src, it.dst, it.op});
  }
  auto& th = threads_[v][t];
  th.actions.push_back({Action::Kind::LOCAL, 0, v, intern(list), NO_DEP});
  th.channels.push_back(0);
  th.contexts.push_back(context);
  ++schedule_.locals_;
  return static_cast<std::uint32_t>(th.actions.size() - 1);
}

std::uint32_t ScheduleBuilder::add_nop(std::uint32_t v, std::uint32_t t, const std::string& context) {
  auto& th = threads_[v][t];
  th.actions.push_back({Action::Kind::LOCAL, 0, v, intern({}), NO_DEP});
  th.channels.push_back(0);
  th.contexts.push_back(context);
  return static_cast<std::uint32_t>(th.actions.size() - 1);
}

void ScheduleBuilder::depends_on(std::uint32_t v, std::uint32_t t, std::uint32_t index, std::uint32_t on_t,
                                 std::uint32_t on_index, const std::string& context) {
  deps_.push_back({v, t, index, on_t, on_index, context});
}

Schedule ScheduleBuilder::build() && {
  if (threads_.empty()) {
    build_stepped();
  } else {
    build_programmed();
  }
  lists_.clear();
  return std::move(schedule_);
}

void ScheduleBuilder::build_stepped() {
  auto& s = schedule_;
  s.form_ = Form::STEPPED;
  const std::uint32_t n = s.nodes();
  // One thread per node; actions in compressed rows, then ordered by (step, kind, peer).
  s.node_threads_.resize(n + 1);
  std::iota(s.node_threads_.begin(), s.node_threads_.end(), 0U);
  s.thread_offsets_.assign(n + 1, 0);
  for (const auto& t : stepped_) {
    ++s.thread_offsets_[t.from + 1];
    if (t.to != t.from) ++s.thread_offsets_[t.to + 1];
    s.steps_ = std::max(s.steps_, t.step + 1);
  }
  for (std::uint32_t v = 0; v < n; ++v) s.thread_offsets_[v + 1] += s.thread_offsets_[v];
  s.actions_.resize(s.thread_offsets_[n]);
  std::vector<std::uint64_t> next(s.thread_offsets_.begin(), s.thread_offsets_.end() - 1);
  for (const auto& t : stepped_) {
    if (t.from == t.to) {
      s.actions_[next[t.from]++] = {Action::Kind::LOCAL, t.step, t.from, t.recv_list, NO_DEP};
      continue;
    }
    s.actions_[next[t.from]++] = {Action::Kind::SEND, t.step, t.to, t.send_list, NO_DEP};
    s.actions_[next[t.to]++] = {Action::Kind::RECV, t.step, t.from, t.recv_list, NO_DEP};
  }
  stepped_ = {};
  const auto order = [](const Action& a, const Action& b) {
    const bool local = a.kind == Action::Kind::LOCAL;  // locals keep their file order
    return std::make_tuple(a.key, kind_rank(a.kind), local ? 0U : a.peer) <
           std::make_tuple(b.key, kind_rank(b.kind), local ? 0U : b.peer);
  };
  for (std::uint32_t v = 0; v < n; ++v) {
    const auto first = s.actions_.begin() + static_cast<std::ptrdiff_t>(s.thread_offsets_[v]);
    const auto last = s.actions_.begin() + static_cast<std::ptrdiff_t>(s.thread_offsets_[v + 1]);
    std::stable_sort(first, last, order);
    for (auto it = first; it != last && it + 1 != last; ++it) {
      const auto& a = *it;
      const auto& b = *(it + 1);
      if (a.kind != Action::Kind::LOCAL && a.kind == b.kind && a.key == b.key && a.peer == b.peer) {
        const auto [from, to] = a.kind == Action::Kind::SEND ? std::pair{v, a.peer} : std::pair{a.peer, v};
        throw ScheduleError(fmt::format("{}: step {} has two transfers from node {} to node {} (merge their chunks "
                                        "into one transfer)",
                                        where_, a.key, from, to));
      }
    }
  }
}

void ScheduleBuilder::build_programmed() {
  auto& s = schedule_;
  s.form_ = Form::PROGRAMMED;
  const std::uint32_t n = s.nodes();
  // Tags: the k-th message from u to v on channel c is tagged c·2^24 + k, on both sides.
  struct End {
    std::uint32_t u, v, tag, list;
    std::string context;
  };
  std::vector<End> sends;
  std::vector<End> recvs;
  std::unordered_map<std::uint64_t, std::uint32_t> ordinal;  // (u, v, channel, side) → next ordinal
  const auto next_tag = [&](std::uint32_t u, std::uint32_t v, std::uint32_t channel, bool receive,
                            const std::string& context) {
    const std::uint64_t key = ((static_cast<std::uint64_t>(u) * n + v) * MAX_CHANNELS + channel) * 2 + (receive ? 1 : 0);
    const std::uint32_t k = ordinal[key]++;
    if (k > MAX_ORDINAL) throw ScheduleError(fmt::format("{}: {}: more than {} messages on one channel between two "
                                                         "nodes", where_, context, MAX_ORDINAL + 1));
    return channel << ORDINAL_BITS | k;
  };
  for (std::uint32_t v = 0; v < n; ++v) {
    for (auto& th : threads_[v]) {
      for (std::size_t i = 0; i < th.actions.size(); ++i) {
        auto& a = th.actions[i];
        if (a.kind == Action::Kind::SEND) {
          a.key = next_tag(v, a.peer, th.channels[i], false, th.contexts[i]);
          sends.push_back({v, a.peer, a.key, a.items, th.contexts[i]});
        } else if (a.kind == Action::Kind::RECV) {
          a.key = next_tag(a.peer, v, th.channels[i], true, th.contexts[i]);
          recvs.push_back({a.peer, v, a.key, a.items, th.contexts[i]});
        }
      }
    }
  }
  const auto by_key = [](const End& a, const End& b) { return std::tie(a.u, a.v, a.tag) < std::tie(b.u, b.v, b.tag); };
  std::sort(sends.begin(), sends.end(), by_key);
  std::sort(recvs.begin(), recvs.end(), by_key);
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < sends.size() || j < recvs.size()) {
    if (j == recvs.size() || (i < sends.size() && by_key(sends[i], recvs[j]))) {
      throw ScheduleError(fmt::format("{}: {} sends to node {}, which never receives it (no matching receive on "
                                      "that channel)",
                                      where_, sends[i].context, sends[i].v));
    }
    if (i == sends.size() || by_key(recvs[j], sends[i])) {
      throw ScheduleError(fmt::format("{}: {} receives from node {}, which never sends it (no matching send on "
                                      "that channel)",
                                      where_, recvs[j].context, recvs[j].u));
    }
    const auto carried = s.items(sends[i].list).size();
    for (const auto& it : s.items(recvs[j].list)) {
      if (it.a >= carried) {
        throw ScheduleError(fmt::format("{}: {} reads {} chunks, but the message it meets ({}) carries {}", where_,
                                        recvs[j].context, s.items(recvs[j].list).size(), sends[i].context, carried));
      }
    }
    ++i, ++j;
  }
  // Flatten: node after node, thread after thread.
  s.node_threads_.assign(n + 1, 0);
  for (std::uint32_t v = 0; v < n; ++v) s.node_threads_[v + 1] = s.node_threads_[v] + static_cast<std::uint32_t>(threads_[v].size());
  s.thread_offsets_.assign(s.node_threads_[n] + 1, 0);
  std::uint32_t th_index = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    for (const auto& th : threads_[v]) {
      s.thread_offsets_[th_index + 1] = s.thread_offsets_[th_index] + th.actions.size();
      s.actions_.insert(s.actions_.end(), th.actions.begin(), th.actions.end());
      ++th_index;
    }
  }
  for (const auto& d : deps_) {
    const auto threads = static_cast<std::uint32_t>(threads_[d.v].size());
    if (d.t >= threads || d.on_t >= threads || d.index >= threads_[d.v][d.t].actions.size() ||
        d.on_index >= threads_[d.v][d.on_t].actions.size()) {
      throw ScheduleError(fmt::format("{}: {} depends on step {} of thread {} of node {}, which does not exist", where_,
                                      d.context, d.on_index, d.on_t, d.v));
    }
    const auto [on_begin, on_end] = s.thread_range(d.v, d.on_t);
    const auto [begin, end] = s.thread_range(d.v, d.t);
    const auto base = s.thread_offsets_[s.node_threads_[d.v]];
    s.actions_[base + begin + d.index].dep = on_begin + d.on_index;
    (void)on_end;
    (void)end;
  }
  threads_ = {};
  deps_ = {};
}

ScheduleVolume volume(const Schedule& s) {
  ScheduleVolume v;
  v.largest.assign(s.steps(), 0);
  std::vector<std::uint64_t> received(s.nodes(), 0);
  for (std::uint32_t node = 0; node < s.nodes(); ++node) {
    std::uint64_t sent = 0;
    for (const auto& a : s.actions(node)) {
      if (a.kind != Action::Kind::SEND) continue;
      const auto items = s.items(a.items).size();
      if (s.form() == Form::STEPPED) v.largest[a.key] = std::max<std::uint64_t>(v.largest[a.key], items);
      received[a.peer] += items;
      sent += items;
    }
    v.sent_max = std::max(v.sent_max, sent);
  }
  v.received_max = received.empty() ? 0 : *std::max_element(received.begin(), received.end());
  v.received_min = received.empty() ? 0 : *std::min_element(received.begin(), received.end());
  return v;
}

}  // namespace starnet::algorithms::schedule

#include <starnet/algorithms/collectives/block_collectives.hpp>
#include <starnet/algorithms/generic/bfs_tree.hpp>
#include <starnet/algorithms/generic/routed_tree.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <unordered_map>

namespace starnet::algorithms::collectives {

namespace sch = algorithms::schedule;
using sch::ItemOp;
using sch::TransferItem;

namespace {

std::uint32_t u32(NodeId v) { return static_cast<std::uint32_t>(v); }

void check_link(const topology::Topology& t, NodeId a, NodeId b, const char* what) {
  if (!t.port_to(a, b)) {
    throw ScheduleError(fmt::format("{} on {}: no link from {} to {}", what, t.name(), t.node_name(a), t.node_name(b)));
  }
}

/// Copies of the listed chunks into the same chunks.
std::vector<TransferItem> copies(const std::vector<std::uint32_t>& chunks) {
  std::vector<TransferItem> items;
  items.reserve(chunks.size());
  for (const auto c : chunks) items.push_back({c, c, ItemOp::COPY});
  return items;
}

}  // namespace

sch::Schedule ring_allgather(const topology::Topology& t, const std::vector<std::vector<std::vector<NodeId>>>& phases,
                             bool bidirectional) {
  const auto n = u32(t.num_nodes());
  sch::ScheduleBuilder b(sch::ChunkRules(Collective::ALLGATHER, n, n, 0), /*scratch=*/0);
  // group[v]: the blocks v stands for in the current phase (its own, then its row's, …).
  std::vector<std::vector<std::uint32_t>> group(n);
  for (std::uint32_t v = 0; v < n; ++v) group[v] = {v};
  std::uint32_t step = 0;
  for (const auto& rings : phases) {
    std::vector<int> covered(n, 0);
    std::uint32_t rounds = 0;
    for (const auto& ring : rings) {
      for (const auto v : ring) ++covered[v];
      const auto length = ring.size();
      if (length < 2) continue;
      for (std::size_t i = 0; i < length; ++i) check_link(t, ring[i], ring[(i + 1) % length], "ring all-gather");
      // Groups going right cover the ⌈(L−1)/2⌉ nearest predecessors, those going left the
      // ⌊(L−1)/2⌋ nearest successors: every group reaches every node once.
      const std::size_t right = bidirectional ? length / 2 : length - 1;
      const std::size_t left = length - 1 - right;
      // Round r: ring[i] passes to ring[i + 1] the group of ring[i − r] (and to ring[i − 1] that of
      // ring[i + r]), received in round r − 1.
      for (std::size_t r = 0; r < right; ++r) {
        for (std::size_t i = 0; i < length; ++i) {
          const auto at = step + static_cast<std::uint32_t>(r);
          b.add_transfer(at, u32(ring[i]), u32(ring[(i + 1) % length]), copies(group[ring[(i + length - r) % length]]));
          if (r < left) {
            b.add_transfer(at, u32(ring[i]), u32(ring[(i + length - 1) % length]), copies(group[ring[(i + r) % length]]));
          }
        }
      }
      rounds = std::max(rounds, static_cast<std::uint32_t>(right));
    }
    if (std::any_of(covered.begin(), covered.end(), [](int c) { return c != 1; })) {
      throw ScheduleError(fmt::format("ring all-gather on {}: a phase does not cover every node exactly once", t.name()));
    }
    // After the phase a node stands for the union of its ring's groups.
    std::vector<std::vector<std::uint32_t>> next(n);
    for (const auto& ring : rings) {
      std::vector<std::uint32_t> all;
      for (const auto v : ring) all.insert(all.end(), group[v].begin(), group[v].end());
      std::sort(all.begin(), all.end());
      for (const auto v : ring) next[v] = all;
    }
    group = std::move(next);
    step += rounds;
  }
  return std::move(b).build();
}

sch::Schedule recursive_doubling_allgather(const topology::Topology& t) {
  const auto n = u32(t.num_nodes());
  if (!std::has_single_bit(n)) {
    throw ScheduleError(fmt::format("recursive-doubling all-gather on {}: {} nodes is not a power of two", t.name(), n));
  }
  sch::ScheduleBuilder b(sch::ChunkRules(Collective::ALLGATHER, n, n, 0), /*scratch=*/0);
  std::vector<std::uint32_t> chunks;
  for (std::uint32_t bit = 1, step = 0; bit < n; bit <<= 1, ++step) {
    for (std::uint32_t x = 0; x < n; ++x) {
      check_link(t, x, x ^ bit, "recursive-doubling all-gather");
      chunks.clear();
      const std::uint32_t first = x & ~(bit - 1);  // x's aligned group of size bit
      for (std::uint32_t c = first; c < first + bit; ++c) chunks.push_back(c);
      b.add_transfer(step, x, x ^ bit, copies(chunks));
    }
  }
  return std::move(b).build();
}

namespace {

/// A spanning tree with each node's subtree as a sorted list.
struct Tree {
  NodeId root = 0;
  std::vector<NodeId> parent;
  std::vector<std::vector<std::uint32_t>> subtree;
  [[nodiscard]] bool contains(NodeId v, std::uint32_t u) const {
    const auto& s = subtree[v];
    return std::binary_search(s.begin(), s.end(), u);
  }
  /// Whether the transfer from → to goes towards the root.
  [[nodiscard]] bool up(NodeId from, NodeId to) const { return from != root && parent[from] == to; }
};

Tree tree_of(const generic::SpanningTree& spanning) {
  const auto n = spanning.parent.size();
  Tree tree{spanning.root, spanning.parent, std::vector<std::vector<std::uint32_t>>(n)};
  // Deepest first (the BFS order reversed): a node's subtree once its children's are known.
  for (auto it = spanning.order.rbegin(); it != spanning.order.rend(); ++it) {
    auto& s = tree.subtree[*it];
    s.push_back(u32(*it));
    std::sort(s.begin(), s.end());
    if (*it != spanning.root) {
      auto& p = tree.subtree[spanning.parent[*it]];
      p.insert(p.end(), s.begin(), s.end());
    }
  }
  return tree;
}

std::vector<std::uint32_t> complement(const std::vector<std::uint32_t>& sorted, std::uint32_t n) {
  std::vector<std::uint32_t> out;
  out.reserve(n - sorted.size());
  std::size_t i = 0;
  for (std::uint32_t c = 0; c < n; ++c) {
    if (i < sorted.size() && sorted[i] == c) {
      ++i;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

/// Where node v keeps packet (u, d) while it is in transit: chunk d for its own (before step 0's
/// move), a scratch chunk otherwise; chunk u at d itself.
class PacketSlots {
 public:
  explicit PacketSlots(std::uint32_t n) : n_(n), slots_(n) {}
  std::uint32_t at(std::uint32_t v, std::uint32_t u, std::uint32_t d) {
    if (d == v) return u;
    auto& m = slots_[v];
    const auto [it, fresh] = m.try_emplace(std::uint64_t{u} * n_ + d, n_ + static_cast<std::uint32_t>(m.size()));
    used_ = std::max(used_, static_cast<std::uint32_t>(m.size()));
    return it->second;
  }
  [[nodiscard]] std::uint32_t scratch() const { return used_; }

 private:
  std::uint32_t n_;
  std::vector<std::unordered_map<std::uint64_t, std::uint32_t>> slots_;
  std::uint32_t used_ = 0;
};

/// The tree all-to-all on the all-reduce plan's transfers (the file comment).
sch::Schedule tree_alltoall(const topology::Topology& t, const generic::Schedule& plan, const Tree& tree) {
  const auto n = u32(t.num_nodes());
  if (n > MAX_TREE_ALLTOALL_NODES) {
    throw ScheduleError(fmt::format("tree all-to-all on {}: {} nodes; built up to {} (a node may keep N²/4 packets in "
                                    "transit)",
                                    t.name(), n, MAX_TREE_ALLTOALL_NODES));
  }
  PacketSlots slots(n);
  struct Planned {
    std::uint32_t step, from, to;
    std::vector<TransferItem> items;
  };
  std::vector<Planned> planned;
  std::vector<std::vector<TransferItem>> own(n);  // step 0: own packets into scratch
  for (std::uint32_t v = 0; v < n; ++v) {
    for (std::uint32_t d = 0; d < n; ++d) {
      if (d != v) own[v].push_back({d, slots.at(v, v, d), ItemOp::COPY});
    }
  }
  for (const auto& tr : plan.transfers()) {
    const auto from = u32(tr.from);
    const auto to = u32(tr.to);
    const bool up = tree.up(from, to);
    const NodeId below = up ? from : to;  // the subtree the transfer enters or leaves
    Planned p{tr.step, from, to, {}};
    for (std::uint32_t u = 0; u < n; ++u) {
      for (std::uint32_t d = 0; d < n; ++d) {
        if (u == d || tree.contains(below, u) != up || tree.contains(below, d) == up) continue;
        p.items.push_back({slots.at(from, u, d), slots.at(to, u, d), ItemOp::COPY});
      }
    }
    planned.push_back(std::move(p));
  }
  sch::ScheduleBuilder b(sch::ChunkRules(Collective::ALLTOALL, n, n, 0), slots.scratch());
  for (std::uint32_t v = 0; v < n; ++v) {
    if (!own[v].empty()) b.add_transfer(0, v, v, own[v]);
  }
  for (const auto& p : planned) b.add_transfer(p.step, p.from, p.to, p.items);
  return std::move(b).build();
}

}  // namespace

sch::Schedule tree_collective(const topology::Topology& t, NodeId root, Collective c, unsigned ports,
                              generic::ParentRule* rule_out) {
  const auto n = u32(t.num_nodes());
  if (c != Collective::GATHER && c != Collective::SCATTER && c != Collective::ALLGATHER && c != Collective::ALLTOALL) {
    throw ScheduleError(fmt::format("tree {} on {}: the blocked tree collectives are gather, scatter, allgather and "
                                    "alltoall",
                                    to_string(c), t.name()));
  }
  const auto timing = c == Collective::GATHER    ? Collective::REDUCE
                      : c == Collective::SCATTER ? Collective::BROADCAST
                                                 : Collective::ALLREDUCE;
  // The tree and the greedy timing of the word collective with the same transfers (the shorter of
  // the two trees generic::bfs_tree_schedule() compares).
  const auto rule = generic::bfs_tree_schedule(t, root, timing, ports).rule;
  if (rule_out != nullptr) *rule_out = rule;
  const auto spanning = generic::bfs_tree(t, root, rule, ports);
  const auto plan = generic::tree_schedule(spanning, timing, ports);
  const Tree tree = tree_of(spanning);
  if (c == Collective::ALLTOALL) return tree_alltoall(t, plan, tree);
  const std::uint32_t block_root = is_rooted(c) ? u32(root) : 0;
  sch::ScheduleBuilder b(sch::ChunkRules(c, n, n, block_root), /*scratch=*/0);
  for (const auto& tr : plan.transfers()) {
    const bool up = tree.up(tr.from, tr.to);
    const auto& below = tree.subtree[up ? tr.from : tr.to];
    // Up: the sender's subtree. Down: scatter the receiver's subtree, all-gather what it lacks.
    const auto chunks = up || c == Collective::SCATTER ? below : complement(below, n);
    b.add_transfer(tr.step, u32(tr.from), u32(tr.to), copies(chunks));
  }
  return std::move(b).build();
}

namespace {

/// One transfer of a routed blocked collective: the word plan's, with the blocks (participant
/// numbers) its message carries.
struct RoutedHop {
  std::uint32_t step;
  std::uint32_t from;
  std::uint32_t to;
  std::uint32_t message;
  std::vector<std::uint32_t> blocks;
};

/// subtree[q]: the participant numbers of processor q's subtree of @p plan's processor tree,
/// sorted (empty for routers).
std::vector<std::vector<std::uint32_t>> processor_subtrees(const generic::Schedule& plan, NodeId root,
                                                           const std::vector<bool>& relays,
                                                           const sch::ChunkRules& rules) {
  const auto n = static_cast<NodeId>(relays.size());
  // Message q (up, reduce) or n + q (down) runs between processor q and its processor parent.
  std::vector<NodeId> parent(n, root);
  for (const auto& tr : plan.transfers()) {
    const NodeId q = tr.message % n;
    for (const NodeId end : {tr.from, tr.to}) {
      if (end != q && !relays[end]) parent[q] = end;
    }
  }
  // subtree[q]: the participant numbers (the blocks) of q's subtree of processors, sorted.
  std::vector<std::vector<std::uint32_t>> subtree(n);
  std::vector<std::uint32_t> depth(n, 0);
  std::vector<NodeId> order;
  for (NodeId v = 0; v < n; ++v) {
    if (relays[v]) continue;
    order.push_back(v);
    for (NodeId u = v; u != root; u = parent[u]) ++depth[v];
  }
  std::sort(order.begin(), order.end(), [&](NodeId a, NodeId b) { return depth[a] > depth[b]; });
  for (const NodeId v : order) {
    auto& s = subtree[v];
    s.push_back(rules.rank(u32(v)));
    std::sort(s.begin(), s.end());
    if (v != root) subtree[parent[v]].insert(subtree[parent[v]].end(), s.begin(), s.end());
  }
  return subtree;
}

/// The hops of @p c (gather, scatter or all-gather) on @p plan's processor tree (the file comment
/// of block_collectives.hpp, "routed tree").
std::vector<RoutedHop> routed_hops(const generic::Schedule& plan, NodeId root, Collective c,
                                   const std::vector<bool>& relays, const sch::ChunkRules& rules) {
  const auto n = static_cast<NodeId>(relays.size());
  const auto subtree = processor_subtrees(plan, root, relays, rules);
  std::vector<RoutedHop> hops;
  for (const auto& tr : plan.transfers()) {
    const NodeId q = tr.message % n;
    const bool up = tr.message < n;
    // Up: q's subtree. Down: scatter q's subtree, all-gather what it lacks.
    auto blocks = up || c == Collective::SCATTER ? subtree[q] : complement(subtree[q], rules.members());
    hops.push_back({tr.step, u32(tr.from), u32(tr.to), tr.message, std::move(blocks)});
  }
  return hops;
}

/// The reduce-scatter that runs the routed all-gather @p hops backwards (as reverse_allgather()):
/// a processor reduces into its chunk, a router copies each message into chunks of its own (its
/// scratch, one per message and block), so two partial sums of one block never meet there.
sch::Schedule reversed_hops(const std::vector<RoutedHop>& hops, const sch::ChunkRules& allgather,
                            const std::vector<bool>& relays, NodeId root) {
  const auto n = u32(relays.size());
  const std::uint32_t chunks = allgather.chunks();
  std::vector<std::unordered_map<std::uint64_t, std::uint32_t>> kept(n);  // (message, block) → scratch
  const auto slot = [&](std::uint32_t v, std::uint32_t message, std::uint32_t block) {
    if (!relays[v]) return block;
    auto& m = kept[v];
    return chunks + m.try_emplace(std::uint64_t{message} * chunks + block, static_cast<std::uint32_t>(m.size()))
                        .first->second;
  };
  std::uint32_t last = 0;
  for (const auto& h : hops) last = std::max(last, h.step);
  struct Planned {
    std::uint32_t step, from, to;
    std::vector<TransferItem> items;
  };
  std::vector<Planned> planned;
  for (const auto& h : hops) {
    Planned p{last - h.step, h.to, h.from, {}};
    for (const auto block : h.blocks) {
      p.items.push_back({slot(h.to, h.message, block), slot(h.from, h.message, block),
                         relays[h.from] ? ItemOp::COPY : ItemOp::REDUCE});
    }
    planned.push_back(std::move(p));
  }
  std::uint32_t scratch = 0;
  for (const auto& m : kept) scratch = std::max(scratch, static_cast<std::uint32_t>(m.size()));
  sch::ScheduleBuilder b(sch::ChunkRules(Collective::REDUCESCATTER, n, chunks, u32(root), relays), scratch);
  for (const auto& p : planned) b.add_transfer(p.step, p.from, p.to, p.items);
  return std::move(b).build();
}

/// The tree all-to-all (tree_alltoall()) on the routed all-reduce @p plan: each hop of processor
/// q's message carries the packets (u, d) leaving q's subtree (up) or entering it (down), every
/// node keeping packets in transit in scratch chunks (a router too: a packet is a copy, the same
/// wherever it is).
sch::Schedule routed_alltoall(const topology::Topology& t, const generic::Schedule& plan, NodeId root,
                              const std::vector<bool>& relays) {
  const auto n = u32(relays.size());
  const auto p = static_cast<std::uint32_t>(std::count(relays.begin(), relays.end(), false));
  if (p > MAX_TREE_ALLTOALL_NODES) {
    throw ScheduleError(fmt::format("tree all-to-all on {}: {} processors; built up to {} (a node may keep P²/4 "
                                    "packets in transit)",
                                    t.name(), p, MAX_TREE_ALLTOALL_NODES));
  }
  const sch::ChunkRules rules(Collective::ALLTOALL, n, /*chunks=*/p, u32(root), relays);
  const auto subtree = processor_subtrees(plan, root, relays, rules);
  const auto inside = [&](NodeId q, std::uint32_t u) {
    return std::binary_search(subtree[q].begin(), subtree[q].end(), u);
  };
  // Packet (u, d) at node v: chunk u at its destination d, a scratch chunk of v's elsewhere.
  std::vector<std::unordered_map<std::uint64_t, std::uint32_t>> kept(n);
  std::uint32_t scratch = 0;
  const auto at = [&](std::uint32_t v, std::uint32_t u, std::uint32_t d) {
    if (!relays[v] && rules.rank(v) == d) return u;
    auto& m = kept[v];
    const auto slot = m.try_emplace(std::uint64_t{u} * p + d, p + static_cast<std::uint32_t>(m.size())).first->second;
    scratch = std::max(scratch, static_cast<std::uint32_t>(m.size()));
    return slot;
  };
  std::vector<std::vector<TransferItem>> own(n);  // step 0: own packets into scratch
  for (std::uint32_t v = 0; v < n; ++v) {
    if (relays[v]) continue;
    for (std::uint32_t d = 0; d < p; ++d) {
      if (d != rules.rank(v)) own[v].push_back({d, at(v, rules.rank(v), d), ItemOp::COPY});
    }
  }
  // The items first: the builder needs the scratch they take.
  std::vector<std::vector<TransferItem>> items;
  for (const auto& tr : plan.transfers()) {
    const NodeId q = tr.message % n;
    const bool up = tr.message < n;
    auto& list = items.emplace_back();
    for (std::uint32_t u = 0; u < p; ++u) {
      for (std::uint32_t d = 0; d < p; ++d) {
        if (u == d || inside(q, u) != up || inside(q, d) == up) continue;
        list.push_back({at(u32(tr.from), u, d), at(u32(tr.to), u, d), ItemOp::COPY});
      }
    }
  }
  sch::ScheduleBuilder b(rules, scratch);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (!own[v].empty()) b.add_transfer(0, v, v, own[v]);
  }
  const auto transfers = plan.transfers();
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    b.add_transfer(transfers[i].step, u32(transfers[i].from), u32(transfers[i].to), items[i]);
  }
  return std::move(b).build();
}

}  // namespace

sch::Schedule routed_tree_collective(const topology::Topology& t, NodeId root, Collective c,
                                     const emulator::PortModel& ports, const std::vector<bool>& relays,
                                     std::string* variant) {
  if (!is_blocked(c)) {
    throw ScheduleError(fmt::format("routed tree {} on {}: the blocked collectives are gather, scatter, allgather, "
                                    "reducescatter and alltoall",
                                    to_string(c), t.name()));
  }
  const auto timing = c == Collective::GATHER    ? Collective::REDUCE
                      : c == Collective::SCATTER ? Collective::BROADCAST
                                                 : Collective::ALLREDUCE;
  const auto plan = generic::routed_tree_schedule(t, root, relays, timing, ports);
  if (variant != nullptr) *variant = plan.variant;
  if (c == Collective::ALLTOALL) return routed_alltoall(t, plan.schedule, root, relays);
  const auto n = u32(t.num_nodes());
  const auto processors = static_cast<std::uint32_t>(std::count(relays.begin(), relays.end(), false));
  const Collective moved = c == Collective::REDUCESCATTER ? Collective::ALLGATHER : c;
  const sch::ChunkRules rules(moved, n, /*chunks=*/processors, u32(root), relays);
  const auto hops = routed_hops(plan.schedule, root, moved, relays, rules);
  if (c == Collective::REDUCESCATTER) return reversed_hops(hops, rules, relays, root);
  sch::ScheduleBuilder b(rules, /*scratch=*/0);
  for (const auto& h : hops) b.add_transfer(h.step, h.from, h.to, copies(h.blocks));
  return std::move(b).build();
}

sch::Schedule reverse_allgather(const sch::Schedule& s) {
  if (s.rules().kind() != Collective::ALLGATHER || s.form() != sch::Form::STEPPED || s.local_operations() > 0) {
    throw ScheduleError(fmt::format("a reduce-scatter reverses a stepped all-gather without local operations, not a "
                                    "{} {} with {} local operations",
                                    s.form() == sch::Form::STEPPED ? "stepped" : "programmed", to_string(s.rules().kind()),
                                    s.local_operations()));
  }
  const auto n = s.nodes();
  // Each send's chunks, by (step, from, to), to check that its receive keeps them where they were.
  std::unordered_map<std::uint64_t, std::uint32_t> sent;
  const auto key = [n](std::uint32_t step, std::uint32_t from, std::uint32_t to) {
    return (std::uint64_t{step} * n + from) * n + to;
  };
  for (std::uint32_t v = 0; v < n; ++v) {
    for (const auto& a : s.actions(v)) {
      if (a.kind == sch::Action::Kind::SEND) sent.emplace(key(a.key, v, a.peer), a.items);
    }
  }
  sch::ScheduleBuilder b(sch::ChunkRules(Collective::REDUCESCATTER, n, s.rules().chunks(), 0), s.scratch());
  std::vector<TransferItem> items;
  const std::uint32_t last = s.steps() - 1;
  for (std::uint32_t v = 0; v < n; ++v) {
    for (const auto& a : s.actions(v)) {
      if (a.kind != sch::Action::Kind::RECV) continue;
      const auto send = sent.find(key(a.key, a.peer, v));
      if (send == sent.end()) {
        throw ScheduleError(fmt::format("all-gather to reverse: node {} receives from node {} at step {}, which sends it "
                                        "nothing then (expected a send for every receive)",
                                        v, a.peer, a.key));
      }
      const auto chunks = s.items(send->second);
      items.clear();
      for (const auto& item : s.items(a.items)) {
        if (item.op != ItemOp::COPY || chunks[item.a].a != item.b) {
          throw ScheduleError(fmt::format("a reduce-scatter reverses an all-gather that copies every chunk into the same "
                                          "chunk, not one whose node {} receives chunk {} of node {} at step {} into "
                                          "chunk {} by {}",
                                          v, chunks[item.a].a, a.peer, a.key, item.b, sch::to_string(item.op)));
        }
        items.push_back({item.b, item.b, ItemOp::REDUCE});
      }
      b.add_transfer(last - a.key, v, a.peer, items);
    }
  }
  return std::move(b).build();
}

}  // namespace starnet::algorithms::collectives

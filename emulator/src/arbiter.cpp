// Arbitrated checking: the transfers that start each round (arbiter.hpp).
#include "arbiter.hpp"

#include <starnet/core/error.hpp>

#include <algorithm>
#include <tuple>

namespace starnet::emulator {

void Arbiter::reset(NodeId nodes, const PortModel& ports, const topology::Network* network) {
  network_ = network;
  const std::size_t links = network == nullptr ? 0 : network->num_links();
  link_busy_.assign(links, 0);
  link_messages_.assign(links, 0);
  link_waiters_.assign(links, {});
  ports_ = ports;
  nodes_ = nodes;
  sending_.assign(nodes, 0);
  receiving_.assign(nodes, 0);
  dirty_.assign(nodes, 0);
  new_.clear();
  records_.clear();
  free_ = NIL;
  waiting_ = 0;
  lists_.clear();
  posts_.clear();
  posted_.reset(0);
  marked_.clear();
  next_order_ = 0;
}

std::optional<std::optional<NodeId>> Arbiter::posted(NodeId v) const {
  if (posts_.empty() || !posts_[v].used) return std::nullopt;
  const SlabList& p = posts_[v];
  return p.head == NIL ? std::optional<NodeId>() : std::optional<NodeId>(posted_[p.head]);
}

std::optional<std::pair<NodeId, NodeId>> Arbiter::first_unmet_post() const {
  for (NodeId v = 0; v < posts_.size(); ++v) {
    if (posts_[v].head != NIL) return std::pair{v, posted_[posts_[v].head]};
  }
  return std::nullopt;
}

void Arbiter::post(NodeId v, NodeId from) {
  if (posts_.empty()) posts_.resize(nodes_);
  posts_[v].push(posted_, posted_.add(from));
  mark(v, IN);
}

void Arbiter::route(NodeId from, NodeId to) const {
  route_.clear();
  if (network_ != nullptr) network_->route(from, to, route_);
}

Arbiter::Blocker Arbiter::blocker(NodeId from, NodeId to, bool occupies, topology::LinkId& link) const {
  if (!accepts(to, from)) return Blocker::POSTED;
  if (!occupies) return Blocker::NONE;
  if (!has_free_port(from, true)) return Blocker::SEND_PORT;
  if (!has_free_port(to, false)) return Blocker::RECEIVE_PORT;
  if (network_ == nullptr) return Blocker::NONE;
  route(from, to);
  for (const auto l : route_) {
    if (link_busy_[l] != 0) {
      link = l;
      return Blocker::LINK;
    }
  }
  return Blocker::NONE;
}

void Arbiter::hold_links(NodeId from, NodeId to, int delta) {
  if (network_ == nullptr) return;
  route(from, to);
  for (const auto l : route_) {
    if (delta > 0) {
      link_busy_[l] = 1;
      ++link_messages_[l];
      continue;
    }
    link_busy_[l] = 0;
    // The transfers that wait on it may start now; stale entries (started or reused) go.
    auto& waiters = link_waiters_[l];
    std::erase_if(waiters, [&](const std::pair<std::uint32_t, std::uint64_t>& w) {
      if (records_[w.first].order != w.second) return true;
      mark(records_[w.first].from, OUT);
      return false;
    });
  }
}

bool Arbiter::release(NodeId from, NodeId to) {
  if (from >= nodes_ || to >= nodes_ || sending_[from] == 0 || receiving_[to] == 0) return false;
  --sending_[from];
  --receiving_[to];
  hold_links(from, to, -1);
  const std::uint8_t both = IN | OUT;
  mark(from, ports_.half_duplex ? both : OUT);
  mark(to, ports_.half_duplex ? both : IN);
  return true;
}

void Arbiter::start(std::uint32_t message, NodeId from, NodeId to, bool occupies) {
  if (occupies) {
    ++sending_[from];
    ++receiving_[to];
    hold_links(from, to, 1);
  }
  if (!posts_.empty() && posts_[to].used) {
    SlabList& p = posts_[to];
    const auto used = p.head;
    p.unlink(posted_, NIL, used);
    posted_.release(used);
    // The next sender posted may have asked earlier than the transfers still to be looked at.
    if (p.head != NIL) mark(to, IN);
  }
  decisions_.push_back({message, from, to, true});
}

void Arbiter::wait(const New& r, std::uint64_t order) {
  if (lists_.empty()) lists_.resize(nodes_);
  std::uint32_t w = free_;
  if (w == NIL) {
    w = static_cast<std::uint32_t>(records_.size());
    if (records_.size() >= NIL) throw ScheduleError("more than 2^32 - 1 transfers waiting on one worker");
    records_.emplace_back();
  } else {
    free_ = records_[w].out_next;
  }
  Waiting& x = records_[w];
  x = Waiting{order, r.from, r.to, r.port, r.message, r.occupies, NIL, NIL, NIL, NIL};
  // Appended: every transfer already waiting was asked for earlier, so each list stays in order.
  Ends& out = lists_[r.from];
  x.out_prev = out.out_tail;
  (out.out_tail == NIL ? out.out_head : records_[out.out_tail].out_next) = w;
  out.out_tail = w;
  Ends& in = lists_[r.to];
  x.in_prev = in.in_tail;
  (in.in_tail == NIL ? in.in_head : records_[in.in_tail].in_next) = w;
  in.in_tail = w;
  ++waiting_;
  topology::LinkId link = 0;
  const Blocker why = blocker(r.from, r.to, r.occupies, link);
  if (network_ != nullptr && r.occupies) {
    route(r.from, r.to);
    for (const auto l : route_) link_waiters_[l].emplace_back(w, order);
  }
  decisions_.push_back({r.message, r.from, r.to, false, why, link});
}

void Arbiter::unlink(std::uint32_t w) {
  Waiting& x = records_[w];
  Ends& out = lists_[x.from];
  (x.out_prev == NIL ? out.out_head : records_[x.out_prev].out_next) = x.out_next;
  (x.out_next == NIL ? out.out_tail : records_[x.out_next].out_prev) = x.out_prev;
  Ends& in = lists_[x.to];
  (x.in_prev == NIL ? in.in_head : records_[x.in_prev].in_next) = x.in_next;
  (x.in_next == NIL ? in.in_tail : records_[x.in_next].in_prev) = x.in_prev;
  x.order = FREE;
  x.out_next = free_;
  free_ = w;
  --waiting_;
}

void Arbiter::collect() {
  candidates_.clear();
  if (marked_.empty()) return;
  // Each list is in order (wait() appends), so a few lists are merged in linear time — a root
  // that thousands of senders wait for is one run, not a sort every round; many are sorted.
  runs_.clear();
  for (const NodeId v : marked_) {
    if ((dirty_[v] & OUT) != 0) {
      runs_.push_back(candidates_.size());
      for (auto w = lists_[v].out_head; w != NIL; w = records_[w].out_next) candidates_.push_back(w);
    }
    if ((dirty_[v] & IN) != 0) {
      runs_.push_back(candidates_.size());
      for (auto w = lists_[v].in_head; w != NIL; w = records_[w].in_next) candidates_.push_back(w);
    }
    dirty_[v] = 0;
  }
  marked_.clear();
  const auto earlier = [&](std::uint32_t a, std::uint32_t b) { return records_[a].order < records_[b].order; };
  if (runs_.size() > MERGED_RUNS) {
    std::sort(candidates_.begin(), candidates_.end(), earlier);
  } else {
    for (std::size_t k = 1; k < runs_.size(); ++k) {
      const auto middle = candidates_.begin() + static_cast<std::ptrdiff_t>(runs_[k]);
      const auto end = k + 1 < runs_.size() ? candidates_.begin() + static_cast<std::ptrdiff_t>(runs_[k + 1])
                                            : candidates_.end();
      std::inplace_merge(candidates_.begin(), middle, end, earlier);
    }
  }
  // A transfer in the lists of both its ends appears twice, side by side once merged.
  candidates_.erase(std::unique(candidates_.begin(), candidates_.end()), candidates_.end());
}

void Arbiter::try_waiting(std::uint32_t w) {
  const Waiting& x = records_[w];
  if (x.order == FREE || !can_start(x.from, x.to, x.occupies)) return;
  const Waiting copy = x;
  unlink(w);
  start(copy.message, copy.from, copy.to, copy.occupies);
}

const std::vector<Arbiter::Decision>& Arbiter::arbitrate() {
  decisions_.clear();
  // A round's requests come from the workers in worker order, each sender's in the order it
  // started them: sorted by sender and receiver, stably, they are in the same order everywhere.
  const auto by_ends = [](const New& a, const New& b) { return std::tie(a.from, a.to) < std::tie(b.from, b.to); };
  if (new_.size() > 1 && !std::is_sorted(new_.begin(), new_.end(), by_ends)) {
    std::stable_sort(new_.begin(), new_.end(), by_ends);
  }
  // Transfers waiting from earlier rounds were asked for first.
  collect();
  for (const auto w : candidates_) try_waiting(w);
  for (const New& r : new_) {
    if (can_start(r.from, r.to, r.occupies)) {
      start(r.message, r.from, r.to, r.occupies);
    } else {
      wait(r, next_order_);
    }
    ++next_order_;
  }
  new_.clear();
  // Posted receives consumed above may let transfers through that were passed over.
  while (!marked_.empty()) {
    collect();
    for (const auto w : candidates_) try_waiting(w);
  }
  return decisions_;
}

}  // namespace starnet::emulator

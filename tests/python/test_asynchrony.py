"""Asynchrony and faults in starnet.emulate (delays, channels, loss, crash, fail_links, order, seed,
ctx.random): the classics of a course on distributed algorithms, checked by code of their own."""

from fractions import Fraction

import networkx as nx
import pytest

import starnet

RING = 16


def uid(node):
    """Chang–Roberts' identifiers: a permutation of 0..15 that is not the node order."""
    return (5 * node + 3) % RING


class ChangRoberts(starnet.NodeProgram):
    """Every node sends its uid on port 0 (toward i + 1); a larger uid goes on, a smaller one
    stops; the uid that comes back elects its node, which then sends ("leader", uid) round."""

    def __init__(self, node):
        self.uid = uid(node)
        self.leader = None

    def react(self, ctx):
        if ctx.starting:
            ctx.send(0, ("uid", self.uid))
        for m in ctx.received:
            kind, value = m.payload
            if kind == "uid" and value > self.uid:
                ctx.send(0, m.payload)
            elif kind == "uid" and value == self.uid:
                self.leader = self.uid
                ctx.send(0, ("leader", self.uid))
            elif kind == "leader" and value != self.uid:
                self.leader = value
                ctx.send(0, m.payload)


def chang_roberts_messages():
    """Each uid travels to the first larger one downstream (the largest all the way round), then
    the announcement goes round once: counted here from the uids alone."""
    total = RING
    for v in range(RING):
        hops = 1
        while uid((v + hops) % RING) < uid(v):
            hops += 1
        total += hops
    return total


@pytest.mark.parametrize("seed", [1, 2])
def test_chang_roberts_under_random_delays_elects_the_largest_uid_with_its_message_count(seed):
    r = starnet.emulate(ChangRoberts, f"ring:{RING}", delays="uniform:1:5", seed=seed)
    assert r.verified, r.problem
    assert {n.leader for n in r.nodes} == {RING - 1}
    assert r.messages == chang_roberts_messages()


def test_one_seed_gives_one_run_and_another_seed_another_makespan():
    runs = [starnet.emulate(ChangRoberts, f"ring:{RING}", delays="uniform:1:5", seed=s) for s in (1, 1, 2)]
    assert runs[0].makespan == runs[1].makespan
    assert runs[0].makespan != runs[2].makespan
    assert all(isinstance(r.makespan, Fraction) for r in runs)


class Echo(starnet.NodeProgram):
    """Echo (PIF) from node 0: a node's first message makes its sender the parent and the node sends
    to every other neighbour; once it heard from every neighbour it answers its parent."""

    def __init__(self, node):
        self.parent = None
        self.heard = 0
        self.pending = []

    def react(self, ctx):
        if ctx.starting and ctx.node == 0:
            self.pending = list(ctx.neighbours)
        for m in ctx.received:
            self.heard += 1
            if self.parent is None and ctx.node != 0:
                self.parent = m.source
                self.pending = [v for v in ctx.neighbours if v != m.source]
        for v in self.pending:
            ctx.send_to(v, "wave")
        self.pending = []
        if self.parent is not None and self.heard == ctx.degree:
            ctx.send_to(self.parent, "echo")
            self.heard = -1  # answered


def spanning_tree(nodes, graph):
    tree = nx.Graph()
    tree.add_nodes_from(range(len(nodes)))
    for v, n in enumerate(nodes):
        if v != 0:
            assert n.parent is not None and graph.has_edge(v, n.parent), (v, n.parent)
            tree.add_edge(v, n.parent)
    assert nx.is_tree(tree)
    return {v: n.parent for v, n in enumerate(nodes)}


@pytest.mark.parametrize("topology", ["hypercube:4", "torus:4x4"])
def test_an_echo_under_delays_builds_a_spanning_tree_that_differs_between_seeds(topology):
    graph = starnet.Topology(topology).to_networkx()
    trees = []
    for seed in (1, 2):
        r = starnet.emulate(Echo, topology, delays="exponential:3", seed=seed)
        assert r.verified, r.problem
        assert r.messages == 2 * graph.number_of_edges()
        trees.append(spanning_tree(r.nodes, graph))
    assert trees[0] != trees[1]


class Flood(starnet.NodeProgram):
    """Node 0's value to every neighbour; a node forwards it on its first receipt."""

    def __init__(self, node):
        self.got = node == 0

    def react(self, ctx):
        first = ctx.starting and ctx.node == 0
        for m in ctx.received:
            if not self.got:
                self.got = first = True
        if first:
            for v in ctx.neighbours:
                ctx.send_to(v, "news")


def test_a_flood_under_loss_loses_the_same_messages_for_one_seed():
    runs = [starnet.emulate(Flood, "torus:6x6", loss=0.3, seed=5, checking="arbitrated") for _ in range(2)]
    reach = [sum(n.got for n in r.nodes) for r in runs]
    assert runs[0].lost == runs[1].lost > 0
    assert reach[0] == reach[1]
    other = starnet.emulate(Flood, "torus:6x6", loss=0.3, seed=6, checking="arbitrated")
    assert (other.lost, sum(n.got for n in other.nodes)) != (runs[0].lost, reach[0])


def test_a_crash_is_routed_around_on_a_hypercube_and_named_in_the_result():
    r = starnet.emulate(Flood, "hypercube:4", crash={1: 0}, checking="arbitrated", trace=True)
    assert r.verified, r.problem
    assert [v for v, n in enumerate(r.nodes) if not n.got] == [1]
    assert r.crashed == [1]
    assert r.lost == 4  # node 1's four neighbours each sent it the news
    assert set(r.trace.event) >= {"crash", "lost"}
    assert int(r.transfers.lost.sum()) == 4
    steps = r.page.data["steps"]
    assert sum("lost" in m[3] for step in steps for m in step["messages"]) == 4
    assert steps[-1]["result"][1] == "crashed" and steps[0]["result"][1] == "crashed"  # it crashed at time 0
    assert "ctx.step 0" in steps[1]["explain"]
    svg = r.swimlane()
    assert svg.count('class="cross"') == 4 + 1  # the four lost messages and the crash
    assert svg.count("lost when due at") == 4 and "crashed at 0" in svg


def test_a_failed_link_is_named_and_loses_what_crosses_it():
    r = starnet.emulate(Flood, "mesh:3", fail_links=[(0, 1)], checking="arbitrated")
    assert r.failed_links == [[0, 1]]
    assert [n.got for n in r.nodes] == [True, False, False]
    late = starnet.emulate(Flood, "mesh:3", fail_links=[(1, 2, 5)], checking="arbitrated")
    assert late.failed_links == [] and all(n.got for n in late.nodes)  # the run ended before it failed


class Order(starnet.NodeProgram):
    seen = []

    def react(self, ctx):
        Order.seen.append(ctx.node)


def test_reactions_at_one_time_run_in_a_random_order_drawn_from_the_seed():
    orders = []
    for seed in (1, 1, 2):
        Order.seen = []
        starnet.emulate(Order, "ring:12", order="random", seed=seed)
        orders.append(list(Order.seen))
    assert sorted(orders[0]) == list(range(12)) and orders[0] != list(range(12))
    assert orders[0] == orders[1] != orders[2]


class RandomSleeper(starnet.NodeProgram):
    """Each node sleeps a time of its own generator's, then sends it on port 0."""

    def react(self, ctx):
        if ctx.starting:
            ctx.sleep(ctx.random.randint(1, 9))
        for c in ctx.completed:
            if c.kind == "timer":
                ctx.send(0, ctx.random.random())


def test_zmq_and_local_are_identical_under_delays_and_ctx_random():
    kw = dict(delays="uniform:1:5", seed=3, trace=True, loss=0.1, channels="nonfifo")
    local = starnet.emulate(RandomSleeper, "ring:8", **kw)
    zmq = starnet.emulate(RandomSleeper, "ring:8", engine="zmq", workers=3, **kw)
    assert (local.makespan, local.messages, local.lost) == (zmq.makespan, zmq.messages, zmq.lost)
    assert local.trace.equals(zmq.trace)
    other = starnet.emulate(RandomSleeper, "ring:8", **dict(kw, seed=4))
    assert other.makespan != local.makespan


def test_a_callable_gives_exact_transit_times_and_channels_may_reorder():
    class Two(starnet.NodeProgram):
        def __init__(self):
            self.got = []

        def react(self, ctx):
            if ctx.starting and ctx.node == 0:
                ctx.send(0, "slow")
                ctx.send(0, "fast")
            self.got += [m.payload for m in ctx.received]

    def law(source, target, payload):
        return Fraction(5, 3) if payload == "slow" else Fraction(1, 3)

    fifo = starnet.emulate(Two, "ring:3", delays=law)
    assert fifo.nodes[1].got == ["slow", "fast"] and fifo.makespan == Fraction(8, 3)
    nonfifo = starnet.emulate(Two, "ring:3", delays=law, channels="nonfifo")
    assert nonfifo.nodes[1].got == ["fast", "slow"] and nonfifo.makespan == Fraction(8, 3)


def test_bad_faults_and_laws_are_input_errors_naming_the_keyword():
    with pytest.raises(starnet.InputError, match="delays"):
        starnet.emulate(Flood, "ring:4", delays="normal:1")
    with pytest.raises(starnet.InputError, match="crash"):
        starnet.emulate(Flood, "ring:4", crash={7: 1})
    with pytest.raises(starnet.InputError, match="fail_links"):
        starnet.emulate(Flood, "ring:4", fail_links=[(0, 2)])
    with pytest.raises(starnet.InputError, match="fail_links"):
        starnet.emulate(Flood, "ring:4", fail_links=[(0,)])
    with pytest.raises(starnet.InputError, match="loss"):
        starnet.emulate(Flood, "ring:4", loss=2)
    with pytest.raises(starnet.InputError, match="delays"):
        starnet.emulate(Flood, "ring:4", delays=lambda s, t, p: -1)

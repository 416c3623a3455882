"""Node programs written in Python (starnet.NodeProgram, starnet.emulate; python/starnet/_programs.py)."""

import inspect
import os
import sys
import time
import textwrap
from fractions import Fraction

import networkx as nx
import pytest

import starnet

from conftest import SOURCE_DIR, interrupt_child

# The benchmark's program (python/benchmarks/node_programs.py): tested here, timed there.
sys.path.insert(0, os.path.join(SOURCE_DIR, "python", "benchmarks"))
from node_programs import RecursiveDoubling  # noqa: E402


class BinomialBroadcast(starnet.NodeProgram):
    """Node 0's value goes along dimension 1, then 2, …: a node that got it along port p sends it on
    along ports p + 1 .. D − 1, one a step (hypercube:D's port p flips bit p)."""

    def __init__(self, node):
        self.value = "hello" if node == 0 else None
        self.next_port = 0

    def react(self, ctx):
        for m in ctx.received:
            self.value = m.payload
            self.next_port = m.port + 1
        if self.value is not None and self.next_port < ctx.degree and ctx.free_ports:
            ctx.send(self.next_port, self.value)
            self.next_port += 1


def test_a_binomial_broadcast_reaches_every_node_in_d_steps():
    r = starnet.emulate(BinomialBroadcast, "hypercube:4")
    assert (r.verified, r.problem, r.steps, r.makespan, r.messages) == (True, None, 4, 4, 15)
    assert [n.value for n in r.nodes] == ["hello"] * 16


def test_recursive_doubling_gives_every_node_the_sum():
    r = starnet.emulate(RecursiveDoubling, "hypercube:5", check=lambda nodes: all(n.total == 32 * 33 // 2 for n in nodes))
    assert (r.verified, r.steps, r.messages) == (True, 5, 5 * 32)
    assert {n.total for n in r.nodes} == {528}


class Greedy(starnet.NodeProgram):
    """Node 0 sends on its first two ports at once."""

    def react(self, ctx):
        if ctx.starting and ctx.node == 0:
            ctx.send(0, "a")
            ctx.send(1, "b")


def test_two_sends_at_once_from_a_single_port_node_is_a_violation_naming_step_node_and_link():
    r = starnet.emulate(Greedy, "ring:4")
    assert r.verified is False
    assert "step 0" in r.problem and "node 0 " in r.problem and "busy" in r.problem, r.problem
    two_ports = starnet.emulate(Greedy, "ring:4", ports=2)
    assert two_ports.verified and two_ports.messages == 2


class SendsAtStart(starnet.NodeProgram):
    """Nodes 1 and 2 send to node 0 at once; node 0 posts a receive from POSTED, if any."""

    POSTED = None

    def react(self, ctx):
        if ctx.starting and ctx.node == 0 and self.POSTED is not None:
            ctx.accept(self.POSTED)
        if ctx.starting and ctx.node in (1, 2):
            ctx.send_to(0, "x")


class PostsFromTwo(SendsAtStart):
    POSTED = 2


class Swap(starnet.NodeProgram):
    """Both nodes of complete:2 send to each other at once."""

    def react(self, ctx):
        if ctx.starting:
            ctx.send(0, "x")


@pytest.mark.parametrize("program, topology, duplex, words, arbitrated", [
    (SendsAtStart, "complete:3", "full", "node 0 is sent a message by 2 via 2->0 while its receive port is busy",
     None),
    (PostsFromTwo, "complete:3", "full", "node 0 is sent a message by 1 via 1->0 but has not posted a receive from it",
     "deadlock at step 1 (time 1): node 1 waits to send to 0 via 1->0, but 0 has no posted receive left"),
    (Swap, "complete:2", "half", "while its receive port is busy (the single-port half-duplex model", None),
])
def test_every_kind_of_receive_side_violation_is_a_result_naming_it(program, topology, duplex, words, arbitrated):
    r = starnet.emulate(program, topology, duplex=duplex)
    assert r.verified is False and "step 0 (time 0)" in r.problem and words in r.problem, r.problem
    waits = starnet.emulate(program, topology, duplex=duplex, checking="arbitrated")
    if arbitrated is None:
        assert waits.verified, waits.problem  # the transfers take turns instead
    else:
        assert waits.verified is False and arbitrated in waits.problem, waits.problem


def test_a_problem_names_the_node_by_name_and_id_where_they_differ():
    r = starnet.emulate(Greedy, "star:3")
    assert "step 0" in r.problem and "node 123 starts a send to 321 via link 3" in r.problem, r.problem
    assert r.problem.endswith("(node 123 has id 0)"), r.problem


def test_a_send_that_no_link_carries_is_refused_naming_the_keyword():
    class Off(starnet.NodeProgram):
        def react(self, ctx):
            if ctx.starting and ctx.node == 0:
                ctx.send(5, "x")

    with pytest.raises(starnet.InputError, match=r"port=5: .*ports 0\.\.1"):
        starnet.emulate(Off, "ring:4")


def test_an_exception_in_react_propagates_as_itself_naming_node_and_step():
    class Boom(starnet.NodeProgram):
        def react(self, ctx):
            if ctx.step == 2:
                raise ZeroDivisionError("boom")
            if ctx.node == 0 or ctx.received:
                ctx.send(0, ctx.step)

    with pytest.raises(ZeroDivisionError, match="boom") as info:
        starnet.emulate(Boom, "ring:5")
    assert any("at step 2" in note and "node " in note for note in info.value.__notes__), info.value.__notes__


def test_payloads_are_python_objects_held_by_reference():
    sent = {"list": [1, 2], "fraction": Fraction(1, 3)}

    class Pass(starnet.NodeProgram):
        def __init__(self):
            self.got = None

        def react(self, ctx):
            if ctx.starting and ctx.node == 0:
                ctx.send_to(1, sent, size=Fraction(5, 2), tag=7)
            for m in ctx.received:
                self.got = m

    r = starnet.emulate(Pass, "complete:3")
    m = r.nodes[1].got
    assert m.payload is sent and (m.source, m.tag, m.size) == (0, 7, Fraction(5, 2))


def test_timed_runs_are_exact_on_topology_costs_and_on_alpha_beta():
    g = nx.path_graph(3)
    g.edges[0, 1]["weight"] = Fraction(1, 3)
    g.edges[1, 2]["weight"] = Fraction(2, 7)
    r = starnet.emulate(Relay, starnet.Topology.from_networkx(g), costs="topology")
    assert r.verified and r.makespan == Fraction(1, 3) * 2 + Fraction(2, 7) * 2, r.makespan
    ab = starnet.emulate(Relay, "ring:3", latency=Fraction(1, 10), bandwidth=4)
    assert ab.verified and ab.makespan == 2 * (Fraction(1, 10) + Fraction(2, 4)), ab.makespan


class Relay(starnet.NodeProgram):
    """Node 0 sends a message of size 2 to node 1, which sends it on to node 2."""

    def react(self, ctx):
        if ctx.starting and ctx.node == 0:
            ctx.send_to(1, "m", size=2)
        for m in ctx.received:
            if ctx.node == 1:
                ctx.send_to(2, m.payload, size=2)


def test_graphs_built_in_networkx_run_like_specs():
    flood = starnet.emulate(BinomialBroadcast, starnet.Topology.from_networkx(nx.hypercube_graph(3)))
    assert flood.verified and flood.messages == 7


def test_a_directed_platform_file_runs_timed_with_its_node_names(tmp_path):
    dot = tmp_path / "chain.dot"
    dot.write_text('digraph chain { node [role=processor]; s; a; b; s -> a [cost=1]; a -> b [cost="2/3"]; }\n')

    class Forward(starnet.NodeProgram):
        def __init__(self):
            self.heard = None

        def react(self, ctx):
            if ctx.starting and ctx.name == "s":
                ctx.send(0, "go")
            for m in ctx.received:
                self.heard = (ctx.name, ctx.time)
                if ctx.degree:  # b has no link out
                    ctx.send(0, m.payload)

    r = starnet.emulate(Forward, str(dot), costs="topology")
    assert r.verified and r.makespan == Fraction(5, 3) and r.messages == 2, r
    assert sorted(n.heard for n in r.nodes if n.heard) == [("a", 1), ("b", Fraction(5, 3))]


def test_zmq_worker_threads_give_the_local_result_and_trace():
    local = starnet.emulate(RecursiveDoubling, "hypercube:4", trace=True)
    zmq = starnet.emulate(RecursiveDoubling, "hypercube:4", trace=True, engine="zmq", workers=3)
    assert (zmq.steps, zmq.messages, zmq.verified) == (local.steps, local.messages, local.verified)
    assert [n.total for n in zmq.nodes] == [n.total for n in local.nodes]
    assert zmq.trace.equals(local.trace)


def test_max_steps_stops_a_run_that_never_ends():
    class PingPong(starnet.NodeProgram):
        def react(self, ctx):
            if (ctx.starting and ctx.node == 0) or ctx.received:
                ctx.send(0, "ball")

    r = starnet.emulate(PingPong, "complete:2", max_steps=50)
    assert r.verified is False and "max_steps = 50" in r.problem and "step 51" in r.problem, r.problem


def test_a_posted_receive_never_satisfied_is_a_deadlock_under_arbitration():
    class Waits(starnet.NodeProgram):
        def react(self, ctx):
            if ctx.starting and ctx.node == 1:
                ctx.accept(2)  # from node 2, which never sends
            if ctx.starting and ctx.node == 0:
                ctx.send_to(1, "x")

    r = starnet.emulate(Waits, "complete:3", checking="arbitrated")
    assert r.verified is False and "deadlock" in r.problem, r.problem


@pytest.mark.parametrize("checking", ["strict", "arbitrated"])
@pytest.mark.parametrize("engine", ["local", "zmq"])
def test_a_posted_receive_no_message_meets_is_a_deadlock_when_the_run_ends(checking, engine):
    class Waits(starnet.NodeProgram):
        def react(self, ctx):
            if ctx.starting and ctx.node == 1:
                ctx.accept(0)
                ctx.accept(2)  # node 2 never sends
            if ctx.starting and ctx.node == 0:
                ctx.send_to(1, "x")

    r = starnet.emulate(Waits, "complete:3", checking=checking, engine=engine,
                        workers=None if engine == "local" else 2)
    assert r.verified is False, r
    assert "deadlock at step 1" in r.problem and "node 1 posted a receive from 2 that no message satisfied" in r.problem


def test_ctx_time_is_the_exact_event_time():
    class Clock(starnet.NodeProgram):
        def __init__(self):
            self.times = []

        def react(self, ctx):
            self.times.append(ctx.time)
            if ctx.starting and ctx.node == 0:
                ctx.send_to(1, "m", size=2)
            if ctx.received:
                ctx.sleep(Fraction(1, 3))

    timed = starnet.emulate(Clock, "ring:3", latency=Fraction(1, 10), bandwidth=4)
    # the message takes 1/10 + 2/4 = 3/5; node 1 then sleeps 1/3
    assert timed.nodes[1].times == [0, Fraction(3, 5), Fraction(14, 15)]
    assert all(isinstance(t, Fraction) for t in timed.nodes[1].times)
    unit = starnet.emulate(Clock, "ring:3")
    assert unit.nodes[1].times == [0, 1, Fraction(4, 3)]  # a transfer takes 1, a timer its delay


class Summing(RecursiveDoubling):
    """Recursive doubling that shows its running sum on the page."""

    def show(self):
        return str(self.total)


def test_a_traced_run_has_its_page_with_the_nodes_shown_states():
    r = starnet.emulate(Summing, "hypercube:3", trace=True)
    page = r.page
    assert page.verified and page.steps == 3
    data = page.data
    assert data["steps"][-1]["result"] == ["36"] * 8  # every node's show() after its last reaction
    assert data["steps"][0]["result"] == [str(v + 1) for v in range(8)]
    assert sum(len(s["messages"]) for s in data["steps"]) == r.messages == 24
    assert data["steps"][1]["messages"][0][3] == "1"  # repr of node 0's payload
    assert "Your node program on hypercube:3" in page.html
    plain = starnet.emulate(RecursiveDoubling, "star:3", trace=True).page  # no show(): messages counted
    assert plain.verified and plain.data["result_name"] == "messages received"


@pytest.fixture(scope="module")
def notebook_star_allreduce():
    """The namespace after the your_algorithm notebook's cell that defines StarAllReduce and runs
    it on star:7 (``mine``, with its trace)."""
    import json
    with open(os.path.join(SOURCE_DIR, "docs", "notebooks", "your_algorithm.ipynb"), encoding="utf-8") as f:
        cells = json.load(f)["cells"]
    source = next("".join(c["source"]) for c in cells if "class StarAllReduce" in "".join(c["source"]))
    namespace = {"starnet": starnet}
    exec(compile(source, "your_algorithm.ipynb", "exec"), namespace)
    return namespace


def test_the_python_star_allreduce_on_s7_matches_the_built_in_message_for_message(notebook_star_allreduce):
    mine = notebook_star_allreduce["mine"]
    builtin = starnet.allreduce("star:7", trace=True)
    assert (mine.verified, mine.steps, mine.messages) == (True, builtin.steps, builtin.messages) == (True, 21, 105840)
    columns = ["step", "event", "node", "peer", "port", "tag", "size"]
    assert mine.trace[columns].reset_index(drop=True).equals(builtin.trace[columns].reset_index(drop=True))
    assert {n.result for n in mine.nodes} == {5040 * 5041 // 2}


def test_the_python_star_allreduce_page_shows_what_the_built_ins_shows_at_every_step(notebook_star_allreduce):
    class Shown(notebook_star_allreduce["StarAllReduce"]):
        def show(self):
            return str(self.result)

    mine = starnet.emulate(Shown, "star:4", trace=True).page.data["steps"]
    builtin = starnet.allreduce("star:4", trace=True).page.data["steps"]
    assert [s["result"] for s in mine] == [s["result"] for s in builtin]
    assert [[m[:4] for m in s["messages"]] for s in mine] == [[m[:4] for m in s["messages"]] for s in builtin]
    assert mine[-1]["result"] == ["300"] * 24


def test_a_page_says_when_the_users_check_failed_and_is_refused_beyond_its_size():
    failed = starnet.emulate(Summing, "hypercube:2", trace=True, check=lambda nodes: False)
    assert failed.page.verified is False and "NOT VERIFIED: check(nodes)" in failed.page.html
    assert starnet.emulate(Summing, "hypercube:2").page is None  # no trace
    with pytest.raises(starnet.InputError, match="topology.*at most 256 nodes"):
        starnet.emulate(Summing, "hypercube:9", trace=True).page


def test_a_check_that_fails_makes_the_run_not_verified():
    r = starnet.emulate(RecursiveDoubling, "hypercube:2", check=lambda nodes: False)
    assert r.verified is False and "check" in r.problem


@pytest.mark.parametrize("kwargs, keyword", [
    ({"ports": 0}, "ports"), ({"ports": "2"}, "ports"), ({"duplex": "double"}, "duplex"),
    ({"checking": "lenient"}, "checking"), ({"costs": "free"}, "costs"), ({"max_steps": -1}, "max_steps"),
    ({"bandwidth": 0}, "bandwidth"), ({"trace": "yes"}, "trace"), ({"check": 5}, "check"),
])
def test_bad_keywords_are_input_errors_naming_them(kwargs, keyword):
    with pytest.raises(starnet.InputError, match=rf"\b{keyword}="):
        starnet.emulate(RecursiveDoubling, "hypercube:2", **kwargs)


def test_a_program_must_be_a_node_program_class():
    with pytest.raises(starnet.InputError, match="program="):
        starnet.emulate(lambda ctx: None, "ring:3")


def test_ctrl_c_stops_a_long_python_run_within_a_second():
    script = textwrap.dedent("""
        import time, starnet
        class Forever(starnet.NodeProgram):
            def react(self, ctx):
                if (ctx.starting and ctx.node == 0) or ctx.received:
                    ctx.send(0, "ball")
        print("ready", flush=True)
        try:
            starnet.emulate(Forever, "complete:2", max_steps=None)
            print("finished", flush=True)
        except KeyboardInterrupt:
            print(f"interrupted {time.time():.6f}", flush=True)
    """)
    out, took = interrupt_child(script)
    assert took is not None and took < 1.0, out


def test_a_results_repr_shows_its_headline_fields():
    r = starnet.emulate(RecursiveDoubling, "hypercube:2")
    assert repr(r) == "<EmulateResult topology='hypercube:2' steps=2 makespan=2 messages=8 verified=True>"


class LateTwoSends(starnet.NodeProgram):
    """A token around the ring along port 0 until step 3, where its holder sends on both ports."""

    def __init__(self):
        self.seen = 0

    def react(self, ctx):
        if (ctx.starting and ctx.node == 0) or ctx.received:
            self.seen += len(ctx.received)
            ctx.send(0, f"t{ctx.step}")
            if ctx.step == 3:
                ctx.send(1, "u")

    def show(self):
        return str(self.seen)


@pytest.mark.parametrize("engine", ["local", "zmq"])
def test_a_failed_run_keeps_its_trace_counts_and_a_page_marking_where_it_failed(engine):
    r = starnet.emulate(LateTwoSends, "ring:8", trace=True, engine=engine)
    assert r.verified is False and "step 3" in r.problem, r.problem
    assert (r.steps, r.messages, r.failed_step, r.failed_node) == (3, 3, 3, 3)
    # The three that arrived, and the send of step 3 that started before the second one broke the model.
    assert list(r.transfers["to"]) == [1, 2, 3, 4] and list(r.transfers["finished"]) == [True] * 3 + [False]
    assert set(r.trace["event"]) >= {"send", "receive"}
    page = r.page
    assert page.verified is False and "NOT VERIFIED: strict port-model check" in page.html
    failing = page.data["steps"][-1]
    assert failing["failed_node"] == 3 and "failed at step 3, node 3" in failing["explain"], failing
    assert failing["result"][:4] == ["0", "1", "1", "1"]
    assert failing["outgoing"][3:5] == ["'t2'", "–"]  # the send to node 4 never arrived


def test_a_failed_run_is_saved_with_its_trace_and_page(tmp_path):
    r = starnet.emulate(LateTwoSends, "ring:8", trace=True)
    r.page.save(tmp_path / "failed.html")
    r.save_trace(tmp_path / "failed.jsonl", "jsonl")
    assert "NOT VERIFIED" in (tmp_path / "failed.html").read_text()
    events = (tmp_path / "failed.jsonl").read_text().splitlines()
    assert len(events) == len(r.trace) == 10
    assert any('"step":3' in e and '"event":"send"' in e and '"node":"3"' in e for e in events), events
    reopened = starnet.Page.load(tmp_path / "failed.html")
    assert (reopened.verified, reopened.steps, reopened.title) == (False, r.page.steps, r.page.title)
    assert reopened.data == r.page.data and reopened.data["steps"][-1]["failed_node"] == 3
    (tmp_path / "other.html").write_text("<html>not a page</html>")
    with pytest.raises(starnet.InputError, match="other.html"):
        starnet.Page.load(tmp_path / "other.html")


def test_a_run_stopped_by_max_steps_keeps_its_counts_and_page():
    r = starnet.emulate(PingPong, "complete:2", max_steps=50, trace=True)
    assert (r.verified, r.steps, r.messages, r.failed_step) == (False, 51, 51, 51), r.problem
    assert "max_steps = 50" in r.page.data["steps"][-1]["explain"]


def test_an_exception_keeps_the_run_up_to_it_on_the_exception():
    class Boom(starnet.NodeProgram):  # a token from node 0; its holder at step 2 raises
        def react(self, ctx):
            if (ctx.starting and ctx.node == 0) or ctx.received:
                if ctx.step == 2:
                    raise ZeroDivisionError("boom")
                ctx.send(0, ctx.step)

    with pytest.raises(ZeroDivisionError) as info:
        starnet.emulate(Boom, "ring:5", trace=True)
    r = info.value.starnet_result
    assert (r.verified, r.messages, r.failed_step, r.failed_node) == (False, 2, 2, 2)
    assert "node 2 raised an exception at step 2" in r.problem and "boom" in r.problem
    assert r.page.data["steps"][-1]["failed_node"] == 2
    assert info.value.__traceback__ is not None


class PingPong(starnet.NodeProgram):
    def react(self, ctx):
        if (ctx.starting and ctx.node == 0) or ctx.received:
            ctx.send(0, "ball")


def test_a_runaway_program_stops_by_itself_at_the_default_limit_naming_it():
    assert inspect.signature(starnet.emulate).parameters["max_steps"].default == 1_000_000
    started = time.monotonic()
    r = starnet.emulate(PingPong, "complete:2")
    took = time.monotonic() - started
    assert r.verified is False and "max_steps = 1000000" in r.problem and r.messages == 1_000_001, r.problem
    assert took < 30, took


def test_max_steps_none_is_no_limit():
    class Bounded(starnet.NodeProgram):
        def react(self, ctx):
            if ((ctx.starting and ctx.node == 0) or ctx.received) and ctx.step < 60:
                ctx.send(0, "ball")

    assert starnet.emulate(Bounded, "complete:2", max_steps=50).verified is False
    r = starnet.emulate(Bounded, "complete:2", max_steps=None)
    assert r.verified and r.steps == 60, r.problem


class Arrivals(starnet.NodeProgram):
    """Every node sends its id on port 0 and keeps (source, port, arrival_port) of what it gets."""

    def __init__(self):
        self.got = []
        self.messages = []

    def react(self, ctx):
        if ctx.starting:
            ctx.send(0, ctx.node)
        self.messages += ctx.received
        self.got += [(m.source, m.port, m.arrival_port) for m in ctx.received]


def test_messages_say_the_port_they_arrived_on_and_ring_ports_go_one_way():
    r = starnet.emulate(Arrivals, "ring:6")
    # Port 0 leads to i + 1 at every node, so each message comes from i − 1 and in on port 1.
    assert [node.got for node in r.nodes] == [[((v - 1) % 6, 0, 1)] for v in range(6)]
    assert "arrival_port=1" in repr(r.nodes[0].messages[0])
    # On a torus port 0 leads to i + 1 along the first side and port 1 back, at every node.
    t = starnet.emulate(Arrivals, "torus:3x4")
    assert {node.got[0][2] for node in t.nodes} == {1}, [node.got for node in t.nodes]
    assert {node.got[0][0] for node in t.nodes} == set(range(12))


@pytest.mark.parametrize("keyword, nearest", [
    ("max_step", "max_steps"), ("chek", "check"), ("progres", "progress"), ("topolgy", "topology"),
    ("programm", "program"),
])
def test_a_misspelt_keyword_is_an_input_error_naming_it_and_the_nearest(keyword, nearest):
    kwargs = {"program": RecursiveDoubling, "topology": "hypercube:2"}
    kwargs.pop(nearest, None)
    kwargs[keyword] = kwargs.get(keyword, 1)
    with pytest.raises(starnet.InputError, match=rf"{keyword}=.*did you mean {nearest}="):
        starnet.emulate(**kwargs)


def test_exceptions_in_show_and_init_name_the_node():
    class BadShow(starnet.NodeProgram):
        def react(self, ctx):
            pass

        def show(self):
            raise ValueError("no show")

    with pytest.raises(ValueError) as info:
        starnet.emulate(BadShow, "ring:3", trace=True)
    assert any(note.startswith("in show() of node 0") for note in info.value.__notes__), info.value.__notes__

    class BadInit(starnet.NodeProgram):
        def __init__(self, node):
            if node == 2:
                raise KeyError("no init")

        def react(self, ctx):
            pass

    with pytest.raises(KeyError) as info:
        starnet.emulate(BadInit, "ring:3")
    assert any("__init__() of BadInit for node 2" in note for note in info.value.__notes__), info.value.__notes__


def test_payloads_are_let_go_once_received_without_a_trace():
    import gc
    import weakref

    class Payload:
        pass

    refs = []

    class Sends(starnet.NodeProgram):
        def react(self, ctx):
            if (ctx.starting and ctx.node == 0) or ctx.received:
                p = Payload()
                refs.append(weakref.ref(p))
                ctx.send(0, p)

    starnet.emulate(Sends, "complete:2", max_steps=100)
    gc.collect()
    alive = sum(r() is not None for r in refs)
    assert alive == 0, alive


def test_a_pages_title_is_the_title_it_shows():
    class Once(starnet.NodeProgram):
        def react(self, ctx):
            if ctx.starting and ctx.node == 0:
                ctx.send(0, "x")

    page = starnet.emulate(Once, "ring:4", trace=True).page
    assert page.title == "Your node program on ring:4"
    assert f"<title>{page.title} — starnet</title>" in page.html
    assert repr(page) == "<Page Your node program on ring:4: 1 steps, verified>"

"""Benchmark: a node program written in Python — recursive doubling on hypercube:D (2^D nodes,
D·2^D messages) — run by starnet.emulate on the local engine, one core.

    PYTHONPATH=build/python /usr/bin/python3 python/benchmarks/node_programs.py [D] [REPEATS] [WORKERS]

Prints the median of REPEATS runs: seconds, messages a second and reactions a second (with
WORKERS, also on that many threads of the zmq engine, which the GIL serialises); then where
a reaction's time goes: the same reactions replayed in plain Python on a stand-in context (what
the program itself costs, Python's share), the rest being the engine and the binding (the GIL
taken, the context and messages made, each send checked and recorded).
"""

import statistics
import sys
import time

import starnet


class RecursiveDoubling(starnet.NodeProgram):
    """At step k every node trades its running sum along dimension k (port k)."""

    def __init__(self, node):
        self.total = node + 1

    def react(self, ctx):
        for m in ctx.received:
            self.total += m.payload
        if ctx.step < ctx.degree:
            ctx.send(ctx.step, self.total)


class StandIn:
    """What react() reads and calls, in plain Python: the replay's context."""

    def __init__(self, degree):
        self.degree = degree
        self.step = 0
        self.received = []
        self.sent = 0

    def send(self, port, payload):
        self.sent += 1


class Message:
    def __init__(self, payload):
        self.payload = payload


def replay(d):
    """The run's reactions in plain Python: every node at every step 0..d, each with one message
    after step 0 (the sums are not the run's: the cost is)."""
    nodes = [RecursiveDoubling(v) for v in range(1 << d)]
    ctx = StandIn(d)
    one = [Message(1)]
    for step in range(d + 1):
        ctx.step = step
        ctx.received = one if step else []
        for node in nodes:
            node.react(ctx)
    return ctx.sent


def median(f, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def main():
    d = int(sys.argv[1]) if len(sys.argv) > 1 else 14
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    nodes = 1 << d
    want = nodes * (nodes + 1) // 2
    seconds, r = median(lambda: starnet.emulate(RecursiveDoubling, f"hypercube:{d}",
                                                check=lambda ns: all(n.total == want for n in ns)), repeats)
    assert r.verified and r.messages == d * nodes, (r.verified, r.problem, r.messages)
    reactions = (d + 1) * nodes  # one a node at its start and at each of the d steps that follow
    print(f"recursive doubling on hypercube:{d}: {nodes} nodes, {r.messages} messages, {r.steps} steps, verified")
    print(f"  {seconds:.3f} s: {r.messages / seconds:,.0f} messages/s, {reactions / seconds:,.0f} reactions/s, "
          f"{seconds / reactions * 1e6:.2f} µs a reaction")
    if len(sys.argv) > 3:
        workers = int(sys.argv[3])
        threaded, t = median(lambda: starnet.emulate(RecursiveDoubling, f"hypercube:{d}", engine="zmq",
                                                     workers=workers), repeats)
        assert t.verified and t.messages == r.messages and [n.total for n in t.nodes] == [want] * nodes
        print(f"  on {workers} zmq worker threads: {threaded:.3f} s, {t.messages / threaded:,.0f} messages/s")
    python, sent = median(lambda: replay(d), repeats)
    assert sent == r.messages
    print(f"  the program alone, its reactions replayed in plain Python: {python:.3f} s "
          f"({python / reactions * 1e6:.2f} µs a reaction)")
    rest = seconds - python
    print(f"  the engine and the binding: {rest:.3f} s ({rest / reactions * 1e6:.2f} µs a reaction, "
          f"{rest / seconds:.0%} of the run)")


if __name__ == "__main__":
    main()

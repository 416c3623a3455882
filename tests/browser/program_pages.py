"""Writes the pages of node programs written in Python (starnet.emulate's result.page) for
program_pages_test.mjs: a flood on hypercube:4 under random delays and a crash, an echo on
torus:4x4 under delays, Chang–Roberts on ring:8, and a run that breaks the port model. Usage:
python3 program_pages.py OUTPUT_DIR (the module on PYTHONPATH); writes OUTPUT_DIR/pages.json."""

import json
import os
import sys

import starnet


class Flood(starnet.NodeProgram):
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

    def show(self):
        return "got it" if self.got else "-"


class Echo(starnet.NodeProgram):
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
            self.heard = -1

    def show(self):
        return f"parent {self.parent}"


class ChangRoberts(starnet.NodeProgram):
    def __init__(self, node):
        self.uid = (3 * node + 1) % 8
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

    def show(self):
        return f"uid {self.uid}, leader {self.leader}"


class Greedy(starnet.NodeProgram):
    def react(self, ctx):
        if ctx.starting and ctx.node == 0:
            ctx.send(0, "a")
            ctx.send(1, "b")


RUNS = {
    "hypercube_flood": (Flood, "hypercube:4", dict(delays="uniform:1:3", crash={5: 0}, seed=2)),
    "torus_echo": (Echo, "torus:4x4", dict(delays="uniform:1:3", seed=1)),
    "ring_chang_roberts": (ChangRoberts, "ring:8", {}),
    "ring_violation": (Greedy, "ring:8", {}),
}


def main(out):
    os.makedirs(out, exist_ok=True)
    summary = {}
    for name, (program, topology, keywords) in RUNS.items():
        r = starnet.emulate(program, topology, trace=True, **keywords)
        path = r.page.save(os.path.join(out, f"program_{name}.html"))
        summary[name] = {"file": path, "verified": r.verified, "steps": len(r.page.data["steps"]) - 1,
                         "nodes": len(r.nodes), "crashed": r.crashed, "lost": r.lost}
    with open(os.path.join(out, "pages.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])

"""Writes the pages of node programs written in Python (starnet.emulate's result.page) for
program_pages_test.mjs: a flood on hypercube:4 under random delays and a crash, an echo on
torus:4x4 under delays, Chang–Roberts on ring:8, and a run that breaks the port model. Usage:
python3 program_pages.py OUTPUT_DIR (the module on PYTHONPATH); writes OUTPUT_DIR/pages.json."""

import json
import os
import sys

import starnet


# The classics of tests/python/test_asynchrony.py, each showing its state on the page.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import test_asynchrony as classics  # noqa: E402


class Flood(classics.Flood):
    def show(self):
        return "got it" if self.got else "-"


class Echo(classics.Echo):
    def show(self):
        return f"parent {self.parent}"


class ChangRoberts(classics.ChangRoberts):
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

"""Results' pictures (python/starnet/_results.py): the space-time diagram, the command line's own."""

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

import starnet

from conftest import run_cli

SVG = "{http://www.w3.org/2000/svg}"


def classes(element):
    return set(element.get("class", "").split())


def elements(svg, tag, cls):
    return [e for e in ET.fromstring(svg).iter(SVG + tag) if cls in classes(e)]


def test_the_swimlane_is_the_command_lines(tmp_path):
    """Both faces draw one diagram (api/swimlane.hpp): the module's SVG is the file --swimlane writes."""
    path = tmp_path / "s.svg"
    code, _, err = run_cli("allreduce", "--topology", "star:4", "--swimlane", path)
    assert code == 0, err
    run = starnet.allreduce("star:4", trace=True)
    assert run.swimlane() == path.read_text()
    # An arrow per message, from the trace: every receive event is one.
    receives = int((run.trace["event"] == "receive").sum())
    assert receives == 24 * 6
    assert len(elements(run.swimlane(), "line", "arrow")) == receives
    assert len(elements(run.swimlane(), "line", "lifeline")) == 24
    written = tmp_path / "again.svg"
    assert run.swimlane(path=written) == written.read_text()


class Hello(starnet.NodeProgram):
    """Node 0 greets its first neighbour with a long dict; the neighbour answers with a tuple."""

    def react(self, ctx):
        if ctx.starting and ctx.node == 0:
            ctx.send(0, {"greeting": "hello, neighbour", "numbers": list(range(12))})
        for m in ctx.received:
            if ctx.node != 0:
                ctx.send_to(m.source, ("ack", ctx.node))


def test_a_python_programs_arrows_are_labelled_with_the_payloads_repr():
    r = starnet.emulate(Hello, "ring:4", trace=True)
    svg = r.swimlane()
    messages = elements(svg, "g", "message")
    assert len(messages) == r.messages == 2
    tooltips = [m.find(SVG + "title").text for m in messages]
    sent = {"greeting": "hello, neighbour", "numbers": list(range(12))}
    assert tooltips[0].endswith(repr(sent)), "the whole repr on hover"
    assert tooltips[1].endswith(repr(("ack", 1)))
    labels = [t.text for t in elements(svg, "text", "message-label")]
    assert labels and all(len(t) <= 24 for t in labels)
    assert labels[0].endswith("…") and repr(sent).startswith(labels[0][:-1])


def test_a_swimlane_needs_the_trace_and_a_small_enough_run():
    with pytest.raises(ValueError, match="trace=True"):
        starnet.allreduce("star:3").swimlane()
    big = starnet.emulate(Hello, "ring:300", trace=True)
    with pytest.raises(starnet.InputError, match="swimlane.*ring:300 has 300 nodes.*at most 256"):
        big.swimlane()


class AllPorts(starnet.NodeProgram):
    """Every node sends on all its ports at once."""

    def react(self, ctx):
        if ctx.starting:
            for port in range(ctx.degree):
                ctx.send(port, ctx.node)


def test_the_gantt_chart_gives_each_concurrent_send_a_sub_row_and_joins_sends_to_receives():
    import matplotlib
    from matplotlib.collections import LineCollection

    matplotlib.use("Agg")
    r = starnet.emulate(AllPorts, "star:4", ports=3, trace=True)
    ax = r.gantt().axes[0]
    bars = [p for p in ax.patches if p.get_width() > 0]
    assert len(bars) == 2 * len(r.transfers) == 2 * 24 * 3
    # Three sends at once a node: three sub-rows of sends on each row, none overprinting another.
    sends = [p for p in bars if p.get_edgecolor()[3] > 0]  # outlined
    heights = {round(p.get_y(), 6) for p in sends}
    assert len(heights) == 3 * 24
    (flows,) = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(flows.get_segments()) == len(r.transfers), "a line from each send to its receive"
    # Each line starts at a send bar's start and ends at a receive's end.
    for (x0, _), (x1, _) in flows.get_segments():
        assert (x0, x1) == (0, 1)


class Sized(starnet.NodeProgram):
    """Node 0 sends three messages of sizes 1 (the default), 3 and 5/2, one a step."""

    SIZES = [None, 3, Fraction(5, 2)]

    def react(self, ctx):
        if ctx.node == 0 and ctx.step < len(self.SIZES):
            size = self.SIZES[ctx.step]
            payload = ["a list", "of any", "objects"]
            if size is None:
                ctx.send(0, payload)
            else:
                ctx.send(0, payload, size=size)


def test_a_python_programs_trace_counts_the_size_it_gave_in_bytes():
    """A Python payload travels by reference: the trace's bytes are the size the program gave,
    rounded up, in the DataFrame and in the trace file alike."""
    import json

    r = starnet.emulate(Sized, "complete:2", trace=True, latency=0, bandwidth=1)
    sends = r.trace[r.trace["event"] == "send"]
    receives = r.trace[r.trace["event"] == "receive"]
    assert list(sends["bytes"]) == [1, 3, 3]
    assert list(receives["bytes"]) == [1, 3, 3]
    assert set(r.trace[~r.trace["event"].isin(["send", "receive"])]["bytes"]) == {0}
    lines = [json.loads(line) for line in r.trace_text().splitlines()]
    assert [e["bytes"] for e in lines if e["event"] == "send"] == [1, 3, 3]

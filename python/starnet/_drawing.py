"""Pictures as matplotlib figures, each the last step of an api call both faces share: the Gantt
chart of a run (api/gantt.hpp) and the drawing of a topology (api/drawing.hpp)."""

from ._dependencies import optional

__all__ = ["gantt", "draw_topology"]

# Up to this many nodes a drawing writes each node's name in it (more would not read).
_LABELLED_NODES = 64
# Up to this many bars a Gantt chart writes each message's peer in its bar (more would not read).
_MAX_LABELLED_BARS = 400


def _figure(ax, width, height):
    optional("matplotlib")
    import matplotlib.pyplot as plt

    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=(width, height))
    return fig, ax


# The chart's lanes (api/gantt.hpp's GanttLane): a row's sends above its receives, computations below,
# each lane as many sub-rows (slots) as the node had bars of it at once, a bar a slot high less this.
_SLOT_GAP = 0.2
_SEND_LANE = 0
_COMPUTE_LANE = 2
# The lines that join each send to its receive, as the SVG's (class "flow").
_FLOW_STYLE = dict(color="#555555", alpha=0.35, linewidth=0.8, zorder=1)


def gantt(chart, ax=None, max_rows=None):
    """The run's Gantt chart (api/gantt.hpp: the bars the command line's ``--gantt`` SVG draws),
    drawn with matplotlib: one row per node, its sends (upper sub-rows, outlined), receives (middle)
    and computations (lower, grey), a sub-row for each bar of a lane the node had at once (several
    ports), a bar a message coloured by the sender's port and labelled with its peer where there is
    room, a thin line from each send to its receive; the makespan as a dashed line. ``max_rows``:
    the first rows only (None: all)."""
    import numpy as np
    import matplotlib.patches as mpatches
    from matplotlib.collections import LineCollection

    from . import _core

    rows = chart["rows"] if max_rows is None else chart["rows"][:max_rows]
    row_slots = np.asarray(chart["row_slots"][: len(rows)], dtype=float)
    row_top = np.concatenate(([0.0], np.cumsum(row_slots)))  # in slots, top to bottom
    bars = chart["bars"]
    keep = bars["row"] < len(rows)
    fig, ax = _figure(ax, 10, 0.1 * row_top[-1] + 1.5)
    palette = _core.LINK_PALETTE
    lane = bars["lane"][keep]
    start = bars["start"][keep]
    width = bars["end"][keep] - start
    row = bars["row"][keep]
    port = bars["port"][keep]
    labels = [label for label, kept in zip(bars["label"], keep) if kept]
    compute = lane == _COMPUTE_LANE
    colours = ["#999999" if c else palette[int(p) % len(palette)] for c, p in zip(compute, port)]
    centre = row_top[:-1][row.astype(int)] + bars["slot"][keep] + 0.5 if len(row) else np.zeros(0)
    ax.barh(centre, width, left=start, height=1 - _SLOT_GAP, color=colours,
            edgecolor=["black" if k == _SEND_LANE else "none" for k in lane], linewidth=0.4)
    if len(labels) <= _MAX_LABELLED_BARS:
        for yy, x, w, label in zip(centre, start, width, labels):
            ax.text(x + w / 2, yy, label, ha="center", va="center", fontsize=5, color="white")
    flows = chart["flows"]
    all_rows = bars["row"]
    both = (all_rows[flows["send"]] < len(rows)) & (all_rows[flows["receive"]] < len(rows))
    send, receive = flows["send"][both], flows["receive"][both]
    if len(send):
        y_of = row_top[:-1][np.minimum(all_rows, len(rows) - 1).astype(int)] + bars["slot"] + 0.5
        segments = np.stack([np.column_stack([bars["start"][send], y_of[send]]),
                             np.column_stack([bars["end"][receive], y_of[receive]])], axis=1)
        ax.add_collection(LineCollection(segments, **_FLOW_STYLE))
    ports = sorted(set(int(p) for p, c in zip(port, compute) if not c))
    handles = [mpatches.Patch(color=palette[p % len(palette)], label=f"port {p}") for p in ports]
    handles.append(mpatches.Patch(facecolor="white", edgecolor="black", label="send (upper, outlined), receive (middle)"))
    handles.append(mpatches.Patch(color="#999999", label="computation (lower)"))
    ax.axvline(chart["makespan"], color="#c00", linestyle="--", linewidth=1)
    ax.set_yticks((row_top[:-1] + row_top[1:]) / 2)
    ax.set_yticklabels(rows)
    ax.set_ylim(row_top[-1], 0)
    ax.set_xlabel("time")
    ax.set_title(chart["title"])
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    fig.tight_layout()
    return fig


def draw_topology(topology, ax=None, labels=None, layout="auto"):
    """The drawing of ``starnet topo draw`` (api/drawing.hpp) as a matplotlib Figure: Graphviz's
    positions for the same DOT graph (star graphs at their sub-star layout, links bent around the
    nodes they do not join), links coloured by dimension with their legend, routers as grey squares."""
    layout = topology._ref.layout(layout)
    nodes, links = layout["nodes"], layout["links"]
    fig, ax = _figure(ax, 7, 7 * layout["height"] / max(layout["width"], 1))
    show = labels if labels is not None else len(nodes) <= _LABELLED_NODES
    for u, v, colour, path in links:
        points = path or [nodes[u][1:3], nodes[v][1:3]]
        ax.plot([p[0] for p in points], [p[1] for p in points], color=colour, linewidth=1.2, zorder=1)
    for router in (False, True):
        chosen = [n for n in nodes if n[3] == router]
        if chosen:
            ax.scatter([n[1] for n in chosen], [n[2] for n in chosen], s=420 if show else 60, zorder=2,
                       marker="s" if router else "o", color="#dddddd" if router else "#ffffff", edgecolors="#333333")
    if show:
        for name, x, y, _ in nodes:
            ax.text(x, y, name, ha="center", va="center", fontsize=7, zorder=3)
    for colour, text in layout["legend"]:
        ax.plot([], [], color=colour, label=text)
    if layout["legend"]:
        ax.legend(loc="upper right", fontsize="small")
    ax.set_xlim(0, layout["width"])
    ax.set_ylim(layout["height"], 0)
    ax.set_aspect("equal")
    ax.set_title(layout["title"])
    ax.set_axis_off()
    fig.tight_layout()
    return fig

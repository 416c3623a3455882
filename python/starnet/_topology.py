"""Topologies: a spec or file, or a networkx graph."""

import os
from fractions import Fraction

from . import _core
from ._objects import without_init
from ._progress import progress_bar
from ._results import Result

__all__ = ["Topology", "topology_ref", "spec_of"]


def _exact_text(value, keyword):
    """An exact number as text for the extension: ints, Fractions, decimal strings, floats as written."""
    if isinstance(value, bool):
        raise TypeError(f"{keyword}={value!r}: expected a number")
    if isinstance(value, (int, Fraction)):
        return str(Fraction(value))
    if isinstance(value, float):
        # A float is read as the decimal it prints as (0.1 means 1/10), never as its binary expansion.
        return repr(value)
    if isinstance(value, str):
        return value
    try:
        return str(Fraction(value))
    except (TypeError, ValueError):
        raise TypeError(f"{keyword}={value!r}: expected a number") from None


# The fields of ``starnet topo info --json`` a Topology offers as attributes (tests/python/test_topology.py
# checks them against the document).
_INFO_FIELDS = ("average_distance", "bisection", "degree_max", "degree_min", "diameter", "directed", "distance_histogram",
                "hosts", "links", "method", "model", "name", "network_notes", "nodes", "processors", "unreachable_pairs",
                "verified")


class Topology:
    """A topology: a spec (``"star:5"``, ``"hypercube:7"``, ``"torus:4x4"``, …), a DOT, GraphML or
    SimGrid file, or a networkx graph (:meth:`from_networkx`).

    Its attributes are those of ``starnet topo info --json``: ``nodes``, ``links``, ``diameter``,
    ``degree_min``, ``degree_max``, ``processors``, ``directed``, ``average_distance`` (a Fraction),
    ``distance_histogram``, ``unreachable_pairs``, ``method``, ``bisection`` (links, exact or an upper
    bound, and the argument: the family's formula or cut, else a balanced partition's bound by METIS
    for files, graphs and other families; None above 65,536 nodes), ``hosts`` (with routers: the diameter,
    average distance and histogram among the hosts over routes through routers; None otherwise),
    ``network_notes`` (what a fat-tree's or dragonfly's links offer its hosts). They are computed once, when first
    asked for. Wherever starnet asks for a topology, a Topology or a spec string will do.

    >>> t = starnet.Topology("star:4")
    >>> t.nodes, t.diameter
    (24, 4)
    """

    def __init__(self, spec_or_path):
        if isinstance(spec_or_path, Topology):
            self._ref = spec_or_path._ref
        else:
            if not isinstance(spec_or_path, (str, os.PathLike)):
                raise _core.InputError(
                    f"topology={spec_or_path!r}: expected a spec such as 'star:5', a file path, or a Topology")
            self._ref = _core.TopologyRef(os.fspath(spec_or_path))
            self._ref.check()
        self._info = None

    @classmethod
    def _of(cls, ref):
        return without_init(cls, _ref=ref, _info=None)

    @classmethod
    def from_networkx(cls, graph, weight="weight", latency=None, name=None):
        """A topology from a networkx graph: nodes by their names (the ``name`` attribute where every
        node has one, as ``to_networkx`` writes them; else ``str(node)``), one link per edge.

        ``weight`` names the edge attribute holding a link's cost: the time one unit of message takes
        on it (default 1 where absent); ``latency`` the one holding its latency α (default 0), so
        that m units take latency + m·weight. Numbers are
        read exactly (a float as the decimal it prints as). A ``networkx.Graph`` gives undirected
        links, a ``DiGraph`` arcs.
        """
        import networkx as nx

        if not isinstance(graph, nx.Graph):
            raise TypeError(f"graph={graph!r}: expected a networkx Graph or DiGraph")
        if graph.is_multigraph():
            raise ValueError("graph: a multigraph has parallel links; starnet's platforms have at most one per pair")
        nodes = list(graph.nodes)
        index = {node: i for i, node in enumerate(nodes)}
        edges = []
        for u, v, data in graph.edges(data=True):
            cost = data.get(weight, 1) if weight is not None else 1
            alpha = data.get(latency, 0) if latency is not None else 0
            edges.append((index[u], index[v], _exact_text(cost, "weight"), _exact_text(alpha, "latency")))
        title = name if name is not None else (graph.graph.get("name") or "networkx")
        named = bool(nodes) and all("name" in graph.nodes[n] for n in nodes)
        names = [str(graph.nodes[n]["name"]) if named else str(n) for n in nodes]
        return cls._of(_core.TopologyRef.from_edges(str(title), names, edges, graph.is_directed()))

    def to_networkx(self):
        """The topology as a networkx graph: a ``Graph`` when every link goes both ways, else a
        ``DiGraph``; nodes by id (0..nodes − 1, as node programs and traces speak of them), each
        with its ``name`` as an attribute, each edge with ``weight`` (its cost) and ``latency``,
        Fractions. ``Topology.from_networkx`` reads the names back."""
        import networkx as nx

        both_ways = self._ref.links_both_ways()
        graph = nx.Graph() if both_ways else nx.DiGraph()
        graph.graph["name"] = self._ref.spec
        graph.add_nodes_from((v, {"name": name}) for v, name in enumerate(self._ref.node_names()))
        for u, v, cost, alpha in self._ref.edges():
            graph.add_edge(u, v, weight=Fraction(cost), latency=Fraction(alpha))
        return graph

    @property
    def spec(self):
        """The spec or file this topology came from (a networkx graph's name otherwise)."""
        return self._ref.spec

    @property
    def info(self):
        """``starnet topo info --json`` as a :class:`Result` (computed once)."""
        if self._info is None:
            self._info = Result(self._ref.info())
        return self._info

    def node_names(self):
        """The names of the nodes, in index order (permutation labels on a star graph)."""
        return self._ref.node_names()

    def export(self, format="dot", path=None):
        """The topology as a ``dot``, ``graphml`` or ``simgrid`` file's text, checked by reading it
        back; written to ``path`` too when given."""
        text, verified, problem = self._ref.export(format)
        if not verified:
            raise _core.VerificationFailure(problem)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return text

    def svg(self, layout="auto", path=None, link_loads=None, load_by=None):
        """The drawing of ``starnet topo draw`` (Graphviz, SVG text): links coloured by dimension,
        star graphs at their sub-star layout; ``layout``: ``"auto"`` or a Graphviz engine (``dot``,
        ``neato``, ``circo``, ``fdp``, ``twopi``); written to ``path`` too when given.
        ``link_loads``: a link report — a DataFrame (``ScheduleResult.link_report``, a what-if
        frame's ``attrs["link_report"]``) or its CSV file — colours the links by load instead
        (``topo draw --link-loads``), ``load_by`` ``"busy"`` (the default), ``"units"`` or
        ``"messages"``; ``load_by`` without ``link_loads`` is an InputError."""
        loads_path = loads_csv = None
        if link_loads is not None and hasattr(link_loads, "to_csv"):
            loads_csv = _report_csv(link_loads)
        elif link_loads is not None:
            if not isinstance(link_loads, (str, os.PathLike)):
                raise _core.InputError(f"link_loads={link_loads!r}: expected a link report, a DataFrame or a file path")
            loads_path = os.fspath(link_loads)
        text = self._ref.svg(layout, loads_path, loads_csv, load_by)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return text

    def draw(self, ax=None, labels=None, layout="auto"):
        """The drawing of :meth:`svg` (``starnet topo draw``: the same Graphviz layout) as a
        matplotlib Figure. ``labels``: show node names (default: up to 64 nodes); ``layout``: as
        :meth:`svg`."""
        from ._drawing import draw_topology

        return draw_topology(self, ax=ax, labels=labels, layout=layout)

    def __dir__(self):
        # The fields of ``topo info --json``, offered before the first is asked for (computing them
        # can take seconds).
        return sorted(set(super().__dir__()) | set(_INFO_FIELDS))

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        info = self.info
        if name in info:
            return getattr(info, name)
        raise AttributeError(f"Topology has no attribute {name!r}")

    def __repr__(self):
        return f"Topology({self.spec!r})"

    def __eq__(self, other):
        """The same topology by structure (nodes, names, links, costs), wherever each came from."""
        if not isinstance(other, Topology):
            return NotImplemented
        return self._ref.same_as(other._ref)

    def __hash__(self):
        return self._ref.structure_hash()


def topology_ref(topology, keyword="topology"):
    """The extension's handle of a Topology or a spec string."""
    if isinstance(topology, Topology):
        return topology._ref
    if isinstance(topology, (str, os.PathLike)):
        return _core.TopologyRef(os.fspath(topology))
    raise TypeError(f"{keyword}={topology!r}: expected a Topology or a spec such as 'star:5'")


def spec_of(topology, keyword="topology"):
    """The spec of a Topology or a spec string (for calls that take families by name)."""
    if isinstance(topology, Topology):
        if not topology._ref.from_spec:
            raise ValueError(f"{keyword}: a topology built in memory has no spec; this call takes a spec or a file")
        return topology.spec
    if isinstance(topology, (str, os.PathLike)):
        return os.fspath(topology)
    raise TypeError(f"{keyword}={topology!r}: expected a Topology or a spec such as 'star:5'")


def _report_csv(frame):
    """A link report's DataFrame as the CSV the command line writes, exact values as their text."""
    columns = {}
    for key in ("row", "topology", "link", "messages", "units", "busy"):
        if key not in frame:
            raise _core.InputError(f"link_loads: the DataFrame has no column {key!r} (expected a link report)")
        exact = key + "_exact"
        columns[exact if key in ("units", "busy") else key] = [str(v) for v in (frame[exact] if exact in frame else frame[key])]
    import pandas as pd

    return pd.DataFrame(columns).to_csv(index=False)

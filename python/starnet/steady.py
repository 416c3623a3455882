"""Steady-state series of collectives (Legrand, Marchal, Robert 2004): ``starnet steady``.

The optimal throughput of a series of scatters, personalised all-to-alls ("gossip") or reduces on
a weighted platform, as an exact Fraction certified by an LP dual; the periodic schedule of
one-port matchings that achieves it; with ``emulate=K`` its run on the emulator for K time units.
"""

from . import _core
from ._progress import progress_bar
from ._results import RunResult
from ._topology import Topology, topology_ref

__all__ = ["scatter", "gossip", "reduce"]


def _names(value):
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v) for v in value]


def _run(collective, topology, source="", sources=(), targets=(), participants=(), target="", message_size=None,
         task_work=None, period=None, emulate=None, iteration_limit=0, whole_messages=False, trace=False, progress=False):
    with progress_bar(progress, f"steady {collective}") as bar:
        doc, columns, intervals = _core.steady(
            collective, topology_ref(topology), str(source), _names(sources), _names(targets), _names(participants),
            str(target), message_size, task_work, period, emulate, iteration_limit, whole_messages, trace, bar)
    shown = topology if isinstance(topology, Topology) else Topology._of(topology_ref(topology))
    return RunResult(doc, columns, intervals, shown)


def scatter(topology, source, targets, period=None, emulate=None, iteration_limit=0, whole_messages=False,
            trace=False, progress=False):
    """A series of scatters: ``source`` sends a distinct message to each of ``targets``.

    topology: a weighted platform (a DOT/GraphML/SimGrid file, ``tiers:SEED``, or a Topology).
    period: also the fixed-period schedule of this period (exact). emulate: run the schedule for
    this horizon K and count the operations completed against TP·K.
    Returns a :class:`RunResult`: ``throughput`` (a Fraction), ``period``, ``certified``,
    ``matchings``, ``routes``, ``emulated`` (with ``emulate``), ``verified``; ``trace`` with
    ``trace=True``.
    """
    return _run("scatter", topology, source=source, targets=targets, period=period, emulate=emulate,
                iteration_limit=iteration_limit, whole_messages=whole_messages, trace=trace, progress=progress)


def gossip(topology, sources, targets, period=None, emulate=None, iteration_limit=0, whole_messages=False,
           trace=False, progress=False):
    """A series of personalised all-to-alls (the paper's "gossip"): every source sends a distinct
    message to every other target. Arguments and result as :func:`scatter`."""
    return _run("alltoall", topology, sources=sources, targets=targets, period=period, emulate=emulate,
                iteration_limit=iteration_limit, whole_messages=whole_messages, trace=trace, progress=progress)


def reduce(topology, participants, target, message_size=None, task_work=None, period=None, emulate=None,
           iteration_limit=0, whole_messages=False, trace=False, progress=False):
    """A series of reduces v_0 ⊕ … ⊕ v_N (⊕ associative, not commutative) of the values held by
    ``participants`` (in that order) to ``target``; every partial result has size ``message_size``,
    every task work ``task_work`` (exact, > 0; left out: 1). Result as :func:`scatter` (``trees``
    instead of ``routes``)."""
    return _run("reduce", topology, participants=participants, target=target, message_size=message_size,
                task_work=task_work, period=period, emulate=emulate, iteration_limit=iteration_limit,
                whole_messages=whole_messages, trace=trace, progress=progress)

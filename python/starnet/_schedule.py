"""Collective schedules as data (docs/schedules.md): built in Python, loaded, saved, run."""

import os

from . import _core
from ._engine import engine_choice
from ._objects import without_init
from ._page import Page
from ._progress import progress_bar
from ._results import RunResult
from ._topology import Topology, topology_ref

__all__ = ["Schedule", "ScheduleResult"]


class ScheduleResult(RunResult):
    """A schedule run: the fields of ``starnet schedule run --json`` (``steps``, ``makespan`` when
    timed, ``lower_bound``, ``chunks_correct``, ``verified``, and ``problem`` — the command line's
    text — when not verified), and ``trace`` when kept."""

    @property
    def problem(self):
        """Why the run is not verified (the first wrong chunk, a port-model violation, a deadlock),
        or None when it is."""
        return self._fields.get("problem")

    @property
    def link_report(self):
        """With ``run(link_report=True)``: what each directed link carried, a DataFrame (row,
        topology, algorithm, ports, duplex, link, messages, packets — chunks —, units — chunks ×
        ``chunk_size`` —, busy; the command line's ``--link-report FILE``, whatif's columns), the
        busiest link first; None without it."""
        if "link_report" not in self._fields:
            return None
        from ._studies import _frame

        return _frame(self._doc["link_report"], self._doc)


class Schedule:
    """A collective schedule: who sends which chunks to whom at each step.

    Build one step by step::

        s = starnet.Schedule(collective="allgather", topology="ring:4", chunks=4)
        for step in range(3):
            for v in range(4):
                s.send(step, v, (v + 1) % 4, [(v - step) % 4])
        s.run().verified

    or read one (:meth:`load`: starnet JSON or MSCCL XML), or export a built-in algorithm
    (:meth:`export`). Attributes: ``collective``, ``topology``, ``nodes``, ``chunks``, ``scratch``,
    ``root``, ``steps`` (planned), ``transfers``, ``chunks_moved``, ``format``.
    """

    def __init__(self, collective="allreduce", topology=None, chunks=None, scratch=0, root=None):
        if topology is None:
            raise _core.InputError("topology=None: a schedule needs its topology (a Topology or a spec such as 'ring:8')")
        self._collective = collective
        self._topology = topology if isinstance(topology, Topology) else Topology(topology)
        # None: what the collective needs, one block a node where it splits the data (api/schedule.hpp).
        self._chunks = _core.default_chunks(collective, topology_ref(self._topology)) if chunks is None else chunks
        self._scratch = scratch
        self._root = root
        self._steps = []
        self._loaded = None

    @classmethod
    def _of(cls, loaded):
        return without_init(cls, _loaded=loaded, _steps=None, _topology=Topology._of(loaded.topology_ref()))

    @classmethod
    def load(cls, path, topology=None):
        """Reads a schedule file: starnet JSON (``.json``) or MSCCL XML (``.xml``). ``topology``
        overrides the one the file names (relative paths in the file are relative to its folder)."""
        return cls._of(_core.LoadedSchedule.load(str(path), None if topology is None else topology_ref(topology)))

    @classmethod
    def export(cls, algorithm, topology, collective=None, root=0, ports=1, duplex="full"):
        """A built-in algorithm as a schedule: ``star-allreduce``, ``star-broadcast``,
        ``recursive-doubling``, ``ring`` or ``bfs-tree`` (``collective`` and ``root`` for bfs-tree).
        ``topology``: a spec, a file, or a :class:`Topology` (one built from networkx too)."""
        ref = topology_ref(topology)
        return cls._of(_core.LoadedSchedule.export(algorithm, ref, collective, str(root), ports, duplex))

    def send(self, step, src, dst, chunks, op="copy"):
        """Adds a transfer at ``step`` from node ``src`` to node ``dst`` (names or indices).

        ``chunks``: chunk indices (chunk c of the sender into chunk c of the receiver), or pairs
        ``(src_chunk, dst_chunk)``, or triples ``(src_chunk, dst_chunk, "copy"|"reduce")``. ``op``:
        whether the receiver copies or reduces (⊕) what arrives. ``src == dst`` is a local
        operation. Returns the schedule, so that calls chain.
        """
        if self._steps is None:
            raise ValueError("send(): this schedule was loaded or exported; build a new Schedule to add transfers")
        self._steps.append(_core.draft_transfer(step, src, dst, chunks, op))
        self._loaded = None
        return self

    def _built(self):
        if self._loaded is None:
            self._loaded = _core.build_schedule(self._collective, self._topology._ref, self._chunks, self._scratch,
                                                self._root, self._steps)
        return self._loaded

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        summary = self._built().summary()
        if name in summary:
            return summary[name]
        raise AttributeError(f"Schedule has no attribute {name!r}")

    @property
    def topology(self):
        """The topology the schedule runs on."""
        return self._topology

    def to_json(self, comment=""):
        """The schedule in starnet's JSON format (docs/schedules.md); on a topology built in memory
        it names none (:meth:`save` writes one beside the file)."""
        return self._built().to_json(comment, "")

    def to_msccl(self, name="starnet", protocol="Simple"):
        """The schedule as an MSCCL algorithm file (XML) that GPU runtimes load (msccl-executor,
        RCCL; docs/gpu.md): in place, every size, ``protocol`` ``"Simple"``, ``"LL128"`` or
        ``"LL"``; read back and compared transfer for transfer before it is returned. Raises
        InputError naming what MSCCL cannot express (a message of 72 chunks or more, …)."""
        return self._built().to_msccl(name, protocol)

    def save(self, path, comment=""):
        """Writes the schedule: MSCCL XML when ``path`` ends in ``.xml`` (:meth:`to_msccl`,
        ``comment`` its name; the topology is not in the file), otherwise starnet's JSON format (a
        topology file named relative to ``path``). On a topology built in memory
        (``Topology.from_networkx``) the JSON's topology is written beside it,
        ``<stem>.topology.graphml``, which the schedule names: :meth:`load` reads both back."""
        for file, text in self._built().files(os.fspath(path), comment):
            with open(file, "w", encoding="utf-8") as f:
                f.write(text)
        return path

    def run(self, ports=1, duplex="full", checking=None, costs="unit", chunk_size=1, op="sum", values="random",
            seed=1, engine="local", workers=None, trace=False, force=False, progress=False, link_report=False):
        """Runs the schedule on the emulator and checks the collective on every node and chunk.

        Arguments as ``starnet schedule run``'s options: ``ports``/``duplex`` (the port model),
        ``checking`` (``"strict"`` or ``"arbitrated"``; default strict for stepped schedules in unit
        time), ``costs`` (``"unit"`` or ``"topology"``: timed, α–β), ``chunk_size`` (timed runs),
        ``op``, ``values`` (``"random"`` or ``"index"``), ``seed``, ``engine`` (``"local"`` or
        ``"zmq"`` with ``workers`` threads), ``trace``, ``link_report`` (what each directed link
        carried: :attr:`ScheduleResult.link_report`). A failed check is a result: ``verified`` is
        False and ``problem`` says why.
        """
        choice = engine_choice(engine=engine, workers=workers, force=force)
        with progress_bar(progress, "schedule run") as bar:
            doc, columns, intervals = self._built().run(
                ports, duplex, checking, costs, str(chunk_size), op, values, seed, choice, trace, link_report, bar)
        return ScheduleResult(doc, columns, intervals, self._topology)

    def page(self):
        """The :class:`Page` that steps through this schedule's run on S_n, n = 2..5, the paper's
        step count beside it (``starnet viz --schedule``): for a stepped all-gather, such as a
        uniform gossip from :func:`starnet.optimal` with ``method="uniform"``. Raises InputError for
        another schedule."""
        html, verified, steps = _core.schedule_page(self._built())
        return Page(html, verified, steps)

    def __repr__(self):
        built = self._built().summary()
        return f"<Schedule {built['collective']} on {built['topology']}: {built['steps']} steps, {built['transfers']} transfers>"

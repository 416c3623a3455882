"""starnet — an emulator of processor interconnects centred on the star graph S_n.

Collective-communication algorithms run message by message on a single-port, step-synchronous
emulator, every node's result verified; exact numbers come back as Fractions, traces as pandas
DataFrames, pictures as matplotlib figures. The same capabilities as the ``starnet`` command, with
the same names: an option ``--max-n`` is a keyword ``max_n``, a field of ``--json`` an attribute.

>>> import starnet
>>> r = starnet.allreduce("star:5")
>>> r.steps, r.verified
(10, True)

Bad input raises :class:`InputError` (a ValueError) naming the keyword; a failed verification is a
result (``verified`` False); a runtime failure raises :class:`RuntimeFailure`; Ctrl-C stops a
long call within a second (KeyboardInterrupt). See docs/python.md.
"""

from ._dependencies import require_packages as _require_packages

_require_packages()  # an ImportError naming numpy, pandas or networkx, not the extension's

try:
    from . import _core  # noqa: E402 (after the check above)
except ImportError as _error:
    import sys as _sys

    raise ImportError(f"starnet's extension (starnet._core) does not load in this Python ({_sys.executable}, "
                      f"{_sys.version.split()[0]}): it is built for one interpreter — Debian's /usr/bin/python3 in "
                      f"build/python; `pip install .` from a starnet clone builds it for the Python that runs pip "
                      f"({_error})") from _error
from ._core import InputError, RuntimeFailure, VerificationFailure
from ._engine import engine_choice as _engine_choice
from ._page import Page
from ._programs import EmulateResult, NodeProgram, emulate
from ._progress import progress_bar as _progress_bar
from ._results import Result, RunResult
from ._schedule import Schedule, ScheduleResult
from ._studies import OptimalResult, markov, montecarlo, optimal, optimal_study, reduce, whatif
from ._topology import Topology
from ._topology import spec_of as _spec_of
from . import steady

__version__ = _core.__version__

__all__ = [
    "InputError", "RuntimeFailure", "VerificationFailure", "Result", "RunResult", "StarResult", "ScheduleResult",
    "Topology", "Schedule", "OptimalResult", "allreduce", "broadcast", "table1", "table2", "optimal",
    "optimal_study", "whatif", "montecarlo", "reduce", "markov", "steady", "keygen", "worker", "Page",
    "NodeProgram", "EmulateResult", "emulate",
]


class StarResult(RunResult):
    """A star collective's run: the fields of ``starnet allreduce --json`` (``steps``,
    ``expected_steps``, ``messages``, ``levels``, ``nodes_verified``, ``verified``, …) and
    ``trace`` when kept. In Jupyter, a run on S_2..S_5 with ``trace=True`` shows its step-by-step
    page (``starnet viz``) inline."""

    def __init__(self, doc, columns, intervals, topology, page):
        super().__init__(doc, columns, intervals, topology)
        self._page = None if page is None else Page(page, self.verified, self.steps)

    @property
    def page(self):
        """The :class:`Page` that steps through the run (S_2..S_5 with ``trace=True``; None
        otherwise): what ``starnet viz`` writes (``page.html``, ``page.save(path)``)."""
        return self._page

    def _repr_html_(self):
        return None if self._page is None else self._page._repr_html_()


def _star(topology, collective, op, values, seed, engine, workers, processes, address, port, listen, key_file,
          peer_timeout, timeout, force, threads, trace, progress, what):
    spec = _spec_of(topology)
    choice = _engine_choice(engine, workers, processes, address, port, listen, key_file, peer_timeout, timeout, force,
                           threads)
    with _progress_bar(progress, what) as bar:
        doc, columns, intervals, page = _core.run_star(spec, collective, op, values, seed, choice, trace, bar)
    return StarResult(doc, columns, intervals, topology if isinstance(topology, Topology) else Topology(spec), page)


def allreduce(topology, engine="local", workers=None, trace=False, op="sum", values="index", seed=1, processes=False,
              address=None, port=None, listen=None, key_file=None, peer_timeout=None, timeout=None, force=False,
              threads=None, progress=False):
    """The all-reduce of Oh, Choi and Primeaux on the star graph S_n in n(n−1)/2 single-port steps,
    every node's final value verified (``starnet allreduce``).

    topology: ``"star:N"`` (N in 1..12) or a Topology of one.
    engine: ``"local"`` (one process) or ``"zmq"`` (``workers`` threads, default 2; with
        ``processes=True`` worker processes, over ``address``/``port``; ``listen="HOST:PORT"`` with
        ``key_file`` for workers that join from other hosts; ``peer_timeout`` seconds; ``timeout``
        seconds a worker waits at a step's barrier, and worker processes to join or answer).
    trace: keep every event: ``result.trace`` (a DataFrame), ``result.transfers``, ``result.gantt()``.
    op: ``"sum"`` (mod 2^64), ``"min"``, ``"max"`` or ``"xor"``.
    values: ``"index"`` (node r holds r + 1) or ``"random"`` (seeded by ``seed``).
    force: run even when the memory estimate exceeds what the process may use.
    threads: the local engine's threads (None or 0: every core; ``--threads``); the same trace,
        counters and values whatever the number.
    progress: show a tqdm bar on anything that runs longer than a second.

    Returns a :class:`StarResult` (``steps``, ``messages``, ``verified``, ``to_dict()`` …).
    Raises InputError for bad input, RuntimeFailure when a worker fails.
    """
    return _star(topology, "allreduce", op, values, seed, engine, workers, processes, address, port, listen, key_file,
                 peer_timeout, timeout, force, threads, trace, progress, "allreduce")


def broadcast(topology, engine="local", workers=None, trace=False, processes=False, address=None, port=None,
              listen=None, key_file=None, peer_timeout=None, timeout=None, force=False, threads=None, schedule=None,
              progress=False):
    """The all-to-all broadcast of Oh, Choi and Primeaux on S_n (NODUP, meta messages) in n(n−1)/2
    steps: every node ends with every node's item exactly once, verified (``starnet broadcast
    --all-to-all``). Arguments as :func:`allreduce`. Returns a :class:`StarResult`.

    ``schedule``: a stepped all-gather schedule file (e.g. ``optimal(…, method="uniform").schedule``
    saved) run beside the paper's broadcast on the same S_n, both verified (``starnet broadcast
    --all-to-all --schedule FILE``): a :class:`Result` with ``paper``, ``schedule`` (steps,
    transfers, largest_message_items, items_received_per_node, no_duplicates) and ``verified``."""
    if schedule is not None:
        choice = _engine_choice(engine, workers, processes, address, port, listen, key_file, peer_timeout, timeout,
                                force, threads)
        with _progress_bar(progress, "broadcast") as bar:
            return Result(_core.broadcast_beside(_spec_of(topology), schedule, choice, bar))
    return _star(topology, "allgather", "sum", "index", 1, engine, workers, processes, address, port, listen, key_file,
                 peer_timeout, timeout, force, threads, trace, progress, "broadcast")


def table2(max_n=8, engine="local", workers=None, op="sum", values="index", seed=1, progress=False):
    """Table 2 of Oh, Choi and Primeaux (2005), n = 3..``max_n`` (≤ 10): Tseng's and Sheu's step
    counts by formula and as printed, beside the all-reduce's steps measured on the emulator
    (``starnet allreduce --compare``). Returns a :class:`Result` with ``rows``, ``notes`` (where the
    paper's printed numbers differ) and ``verified``."""
    choice = _engine_choice(engine, workers)
    with _progress_bar(progress, "table 2") as bar:
        return Result(_core.star_table2(max_n, choice, op, values, seed, bar))


def table1():
    """Table 1 of Oh, Choi and Primeaux (2005): the paper's networks beside their measured size,
    degree and diameter, with a note where they differ (``starnet topo compare --paper table1``)."""
    return Result(_core.table1())


def keygen(path):
    """Writes a run's key file (ZeroMQ CURVE, mode 0600; never replaces an existing file) for the
    workers that join a run started with ``listen=`` (``starnet keygen -o PATH``). Copy it to the
    coordinator's and every worker's host. Returns ``path``."""
    _core.keygen(path)
    return path


def worker(join, key_file, index=None, address=None, timeout=60, peer_timeout=5, progress=False):
    """Joins a run whose coordinator listens at ``join`` (``"HOST:PORT"``, the ``listen=`` of
    :func:`allreduce` or ``--listen`` of the command line) and works its partition until the
    coordinator has the result (``starnet worker --join``); blocks meanwhile (Ctrl-C stops it).

    key_file: the run's key file (:func:`keygen`). index: this worker's index (None: any free one).
    address: where this worker listens for its peers (None: this host's address that reaches the
    coordinator). timeout: seconds to wait for the coordinator's first answer; peer_timeout: seconds
    without its heartbeat before giving up.

    Returns 0 when the coordinator got the result. Raises InputError for bad input, RuntimeFailure
    when the coordinator cannot be reached or ends the run."""
    with _progress_bar(progress, "worker") as bar:
        return _core.worker(join, str(key_file), index, address or "", float(timeout), float(peer_timeout), bar)


"""Searches and studies: optimal, whatif, montecarlo, reduce, markov (the steady-state series are
in :mod:`starnet.steady`)."""

from fractions import Fraction

from . import _core
from ._progress import progress_bar
from ._results import Result, RunResult, cli_form, pythonic
from ._schedule import Schedule
from ._settings import settings_call
from ._topology import Topology, topology_ref

__all__ = ["OptimalResult", "optimal", "optimal_study", "whatif", "montecarlo", "reduce", "markov"]


def _plottable(row):
    """A document row as columns that plot: an exact value's ``KEY`` stays the JSON number (a float
    or an int) and its exact twin ``KEY_exact`` becomes a Fraction; other values as pythonic()."""
    out = {}
    for key, value in row.items():
        exact = row.get(key + "_exact")
        if key.endswith("_exact") and key[: -len("_exact")] in row:
            continue
        if isinstance(exact, str):
            out[key] = value
            out[key + "_exact"] = Fraction(exact)
        else:
            out[key] = pythonic(value)
    return out


def _frame(rows, doc):
    """A DataFrame of document rows — numbers in numeric columns, each exact one with its Fraction
    twin ``KEY_exact`` — and the command line's document in ``attrs["document"]``."""
    import pandas as pd

    frame = pd.DataFrame([_plottable(row) for row in rows])
    frame.attrs["verified"] = doc.get("verified")
    frame.attrs["document"] = cli_form(doc)
    return frame


def _figure(figure):
    """The table a study's figure draws (api/figures.hpp): the data of the command line's
    ``--plot``, a row per point with its ``block`` (an algorithm's curve, or a CV's scan of a grid),
    a categorical column by its names; the figure's ``name`` and ``title`` in ``attrs``."""
    import pandas as pd

    frame = pd.DataFrame(figure["columns"])
    categories = figure["categories"]
    if categories:
        last = frame.columns[-1]
        codes = frame[last].fillna(-1).astype(int)
        frame[last] = pd.Categorical.from_codes(codes, categories=categories)
    frame.attrs["name"] = figure["name"]
    frame.attrs["title"] = figure["title"]
    return frame


def _whatif_figure(figure):
    """whatif's figure (api::whatif_figure), what ``--plot`` draws: a bar per row — ``group``
    (topology, port model, faults), ``algorithm``, ``value`` (what the table ranks by; NaN: the
    row did not run), ``mark`` and the group's lower ``bound`` — with ``quantity``, ``axis`` and
    ``log_scale`` in ``attrs``."""
    import pandas as pd

    frame = pd.DataFrame(figure["columns"])
    for key in ("quantity", "axis", "log_scale"):
        frame.attrs[key] = figure[key]
    return frame


def _list(value, keyword):
    """A keyword that takes a list: a list, a comma-separated string or one value."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return str(value)
    try:
        return ",".join(str(v) for v in value)
    except TypeError:
        raise TypeError(f"{keyword}={value!r}: expected a list or a comma-separated string") from None


def _exact(value, keyword):
    from ._topology import _exact_text

    return _exact_text(value, keyword)


class OptimalResult(Result):
    """The answer of :func:`optimal`: the fields of ``starnet optimal --json`` — ``optimum``,
    ``proved``, ``lower_bound``, ``upper_bound`` (and its ``upper_source``), ``bounds``, ``solver``
    (SAT); ``steps``, ``moves`` (each step's generator or coset map), ``uniform_proved_minimal``
    (uniform); and
    ``verified`` — with the schedule found as :attr:`schedule` (or ``schedule_note``: why there is
    none)."""

    def __init__(self, doc, schedule):
        super().__init__(doc)
        self._schedule = Schedule._of(schedule) if schedule is not None else None

    @property
    def schedule(self):
        """The optimum's schedule (or, when a time limit left a bracket, the best known, unproved)
        as a :class:`Schedule`, in the collective asked for; None when there is none, and then
        ``schedule_note`` says why (``starnet optimal --json``'s field)."""
        return self._schedule

    @property
    def steps(self):
        """The steps of the schedule found: the optimum (SAT) or the class search's length."""
        fields = self._fields
        if "optimum" in fields:
            return fields["optimum"]
        return fields.get("steps")


def optimal(topology, collective="gossip", method="sat", root=0, ports=1, duplex="full", time_limit=None,
            beam_width=None, max_steps=None, anytime=False, proof=None, progress=False):
    """The shortest schedule of a collective (``starnet optimal``).

    method: ``"sat"`` — the exact minimum number of steps in the port model, proved both ways (the
        optimum's schedule runs verified; every shorter T is refuted, by a named bound or by UNSAT
        confirmed by a second solver; with ``proof=DIR`` DRAT proofs are checked); ``"uniform"`` —
        the shortest uniform schedule on a Cayley graph (star, pancake, bubblesort, transposition,
        hypercube, ring, torus, complete);
        ``"coset"`` — on S_3..S_6; ``"auto"`` — SAT up to 256 nodes, uniform beyond.
    collective: ``"gossip"`` (= ``"allgather"``), ``"allreduce"`` (messages of several values: the
        same search, the schedule given as an all-reduce), ``"broadcast"`` (from ``root``), or
        ``"alltoall"`` with ``method="uniform"``: the total exchange's Pareto front of steps and
        volume, as ``pareto`` (a list of points: ``steps``, ``volume``, ``dimensions``, ``moves``,
        ``packets``, ``exhaustive``, ``verified``, ``crossover``), beside ``status``.
    time_limit: seconds (default 60; 0: none); a time limit leaves the proven bracket and the best
        schedule known.
    beam_width, max_steps, anytime: the class searches' beam, longest schedule, widening beams.

    Returns an :class:`OptimalResult`: ``optimum``, ``proved``, ``lower_bound``, ``upper_bound``,
    ``steps``, ``verified`` and ``schedule`` (a :class:`Schedule`).
    """
    with progress_bar(progress, "optimal") as bar:
        doc, schedule, _ = _core.optimal(topology_ref(topology), collective, str(root), ports, duplex, time_limit,
                                         method, beam_width, max_steps, anytime, "" if proof is None else str(proof),
                                         bar)
    return OptimalResult(doc, schedule)


def optimal_study(study="star", time_limit=None, progress=False):
    """``starnet optimal --study star|star-beyond``: the gossip optimum of small networks (full and
    half duplex), or uniform gossips on S_3..S_10 beside the paper. A DataFrame, one row per
    instance; ``attrs["verified"]``."""
    with progress_bar(progress, f"optimal study {study}") as bar:
        doc = _core.optimal_study(study, time_limit, bar)
    return _frame(doc["rows"], doc)


def _whatif(given, link_report=False, progress=False):
    with progress_bar(progress, "whatif") as bar:
        doc, figure = _core.whatif(given, link_report, bar)
    frame = _frame(doc["rows"], doc)
    frame.attrs["figure"] = _whatif_figure(figure)
    if "link_report" in doc:
        frame.attrs["link_report"] = _frame(doc["link_report"], doc)
    return frame


_WHATIF_DOC = """What if the machine were another topology, had more ports, other link costs, failed links?
    (``starnet whatif``). Runs ``collective`` on each topology under each port model and fault
    scenario with every algorithm that applies, every node verified on the emulator, beside a lower
    bound.

    The keywords are the command line's options (``message_size`` is ``--message-size``), read and
    checked by the library for both; a list is a list or a comma-separated string, a topology a
    spec or a :class:`Topology`, an exact number an int, a Fraction or a decimal string such as
    ``"1e-6"``:

{settings}
    link_report: True for every directed link's load in each row run among the hosts of a network
        (``attrs["link_report"]``, a DataFrame: row, topology, algorithm, ports, duplex, link,
        messages, packets, units, busy; the command line's ``--link-report FILE``).
    progress: True for a progress bar (tqdm) once the call has run for a second.

    Returns a pandas DataFrame, one row per row of the command line's table (its JSON rows: each
    exact value a numeric column that plots, ``makespan``, and its Fraction twin,
    ``makespan_exact``); ``attrs["verified"]``, ``attrs["document"]``, and ``attrs["figure"]``,
    the bars of the command line's ``--plot`` as a DataFrame.
    """
whatif = settings_call("whatif", _core.whatif_settings(), _whatif, after=[("link_report", False), ("progress", False)],
                       doc=_WHATIF_DOC)


def montecarlo(algorithms=None, n=None, dist=None, cv=None, mu_d=None, mu_c=None, runs=None, seed=None, threads=None,
               study=None, points=None, ratio_points=None, worst_case=False, run=None, fast_path=None, progress=False):
    """Non-clairvoyant reductions (Benoit, Canon, Marchal, CCPE 2014) under random costs
    (``starnet montecarlo``), every run verified; the same seed gives the same numbers whatever the
    thread count.

    One scenario: ``algorithms``, ``n`` processors, cost law ``dist`` (bernoulli, beta0.01, beta1,
    beta100, binomial, exponential, gamma, poisson, triangle, uniform) with coefficient of variation
    ``cv``, means ``mu_d`` (transfers) and ``mu_c`` (computations), ``runs`` runs (left out: the
    library's defaults, as the command line's: all four algorithms, n = 64, gamma, CV 1, mu_d = 1,
    mu_c = 0, 10,000 runs, seed 1, every core) — a DataFrame, one
    row per algorithm (mean, stddev, sem, min, q10, q50, q90, max, verified_runs); every run's
    makespan is in ``attrs["makespans"]`` (a numpy array per algorithm). ``run=I`` (one algorithm):
    run I re-emulated with its events kept — a :class:`RunResult` with ``run`` (its index and makespan), ``trace``,
    ``transfers``, ``computations`` and ``gantt()`` (``starnet montecarlo --run I --gantt``).
    ``study="figure4"|"figure5"|"figure6"``: the paper's figure (one row per point or cell; the
    paper's statements checked in ``attrs["document"]["notes"]``; what the command line's ``--plot``
    draws in ``attrs["figure"]``, a DataFrame). ``worst_case=True``: the
    instances of Section 4 (one row per instance and algorithm, ratios as floats, exact in ``ratio_exact`` as Fractions).
    ``fast_path=False`` runs a scenario or study on the general engine instead of the fast path
    (``--fast-path off``): the same makespans bit for bit, slower.
    """
    with progress_bar(progress, "montecarlo") as bar:
        if worst_case:
            doc = _core.worst_cases(bar)
            return _frame(doc["worst_case"], doc)
        if study is not None:
            doc, figure = _core.montecarlo_study(study, n, runs, seed, threads, points, ratio_points,
                                                  fast_path, bar)
            rows = doc.get("cells") or [dict(point_algo, cv=point["cv"]) for point in doc["points"]
                                        for point_algo in point["algorithms"]]
            frame = _frame(rows, doc)
            frame.attrs["figure"] = _figure(figure)
            return frame
        doc, makespans, columns, intervals = _core.montecarlo(None if algorithms is None else _list(algorithms, "algorithms"),
                                                              n, dist, cv, mu_d, mu_c, runs, seed, threads, run, fast_path,
                                                              bar)
    if run is not None:
        return RunResult(doc, columns, intervals, None)
    frame = _frame(doc["algorithms"], doc)
    frame.attrs["makespans"] = makespans
    return frame


def reduce(algorithm=None, n=None, d=None, c=None, k=None, op=None, trace=False, study=None, max_n=None,
           progress=False):
    """Reduction trees with transfers (cost d) overlapping computations (cost c), Canon and Antoniu
    (RR-7898, 2012) (``starnet reduce``): the plan of ``algorithm`` (greedy, greedy-transfers,
    greedy-reducers, binomial, fibonacci, binomial-strategy, fibonacci-strategy) for ``n`` elements,
    checked against the model, folded with ``op`` (sum, or concat: not commutative) and run on the
    emulator at its planned times. d, c: exact numbers (ints, Fractions, "3/2", 0.5). Left out
    (None): the library's defaults, greedy on 10 elements with d = c = 1 and sum, Figure 2 up to
    n = 10,000.

    Returns a :class:`RunResult` (``length``, ``lower_bound``, ``upper_bound``, ``parents``,
    ``transfers``, ``verified``, and ``trace`` with ``trace=True``). ``study="figure2"``: Figure 2's
    ratios for n = 2..``max_n``, a DataFrame of exact lengths (Fractions), with what the command
    line's ``--plot`` draws in ``attrs["figure"]``, a DataFrame.
    """
    with progress_bar(progress, "reduce") as bar:
        if study is not None:
            if study != "figure2":
                raise _core.InputError(f"study={study!r}: expected 'figure2'")
            doc, rows, figure = _core.figure2(max_n, bar)
            exact = [{key: (value if key == "n" else Fraction(value)) for key, value in row.items()} for row in rows]
            frame = _frame(exact, doc)
            frame.attrs["figure"] = _figure(figure)
            return frame
        doc, columns, intervals = _core.reduce(algorithm, n, d, c, k, op, trace, bar)
    # The plan runs on n machines, all linked (api/src/reduce.cpp).
    return RunResult(doc, columns, intervals, Topology(f"complete:{doc['n']}"))


def markov(n, rate=1, progress=False):
    """Exact E[T] and Var[T] of Tree-dyn's completion time with exponential transfer times (rate L)
    and free computation, by the Markov chain of Benoit, Canon and Marchal (HeteroPar 2013), checked
    against the closed form (``starnet markov``). Returns a :class:`Result` with ``expected`` and
    ``variance`` as Fractions, ``states`` and ``verified``."""
    with progress_bar(progress, "markov") as bar:
        return Result(_core.markov(n, _exact(rate, "rate"), bar))

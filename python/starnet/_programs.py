"""Your own algorithm: node programs written in Python, run on the emulator (docs/python.md)."""

import inspect

from . import _core
from ._page import Page
from ._progress import progress_bar
from ._results import RunResult
from ._settings import settings_call
from ._topology import Topology

__all__ = ["NodeProgram", "EmulateResult", "emulate"]


class NodeProgram:
    """A node's program: subclass it and write ``react(self, ctx)``.

    :func:`emulate` makes one instance per node (with no arguments, or with the node's id when
    ``__init__`` takes one); its attributes are the node's state. ``react`` is called at the
    node's first step (``ctx.starting``) and whenever messages arrived (``ctx.received``) or its
    sends, computations or timers ended (``ctx.completed``). In it the node may ``ctx.send(port,
    payload, size=1, tag=0)``, ``ctx.send_to(node, payload, …)``, ``ctx.compute(work)``,
    ``ctx.sleep(delay)`` and ``ctx.accept(source)``; it sees ``ctx.node``, ``ctx.name``,
    ``ctx.step``, ``ctx.time`` (the event time, an exact Fraction; in unit time a transfer takes 1),
    ``ctx.degree``, ``ctx.neighbours`` (port → node id), ``ctx.free_ports`` and ``ctx.random``
    (the node's own ``random.Random``, seeded from ``emulate``'s ``seed`` and the node: the same
    draws under every engine). The emulator checks the port model on every send.

    Optionally ``show(self)``: what the run's page (``result.page``, with ``trace=True``) shows
    of the node after each of its reactions, e.g. ``return str(self.value)``.

    >>> class Flood(starnet.NodeProgram):
    ...     def __init__(self):
    ...         self.value = None
    ...     def react(self, ctx):
    ...         if ctx.starting and ctx.node == 0:
    ...             self.value = "hello"
    ...         for m in ctx.received:
    ...             self.value = m.payload
    """

    def react(self, ctx):
        raise NotImplementedError(f"{type(self).__name__}.react(self, ctx) is not written")


def _instances(program, nodes):
    try:
        takes_id = len(inspect.signature(program).parameters) >= 1
    except (TypeError, ValueError):
        takes_id = False
    made = []
    for v in range(nodes):
        try:
            made.append(program(v) if takes_id else program())
        except Exception as e:
            e.add_note(f"in __init__() of {program.__name__} for node {v}")
            raise
    return made


class EmulateResult(RunResult):
    """The run of a user's node programs: ``steps``, ``makespan`` (a Fraction), ``messages``,
    ``verified`` and ``problem`` (the port-model violation, deadlock, step limit, exception or
    failed check that made it not verified, else None), ``lost`` (messages that did not arrive),
    ``crashed`` (nodes) and ``failed_links`` (pairs) that failed during the run, ``failed_step`` and ``failed_node`` (where
    a failed run stopped, else None), ``nodes`` (the program objects after the run, in node
    order) and, with ``trace=True``, ``trace``, ``transfers``, ``gantt()`` and ``page``. A failed
    run keeps all of these up to where it stopped."""

    def __init__(self, doc, columns, intervals, topology, nodes, page_of):
        super().__init__(doc, columns, intervals, topology)
        self.nodes = nodes
        self._page_of = page_of
        self._page = None

    @property
    def page(self):
        """The step-by-step page of a run with ``trace=True`` (None otherwise), as ``starnet viz``
        draws the built-ins: a star graph up to star:5 as theirs, another topology of up to 256
        nodes as ``starnet topo draw`` lays it out (on a circle when built in memory); each step
        names the ``ctx.step`` whose sends it shows; each node's box shows what its ``show()``
        returns (else how many messages it received) and the last message it received (``repr``
        of the payload); a lost message is marked, a crashed node says so. A failed run's page
        ends with the step it failed at, the node at fault marked, and says NOT VERIFIED. Raises
        InputError naming ``topology`` for a larger one."""
        if self._page is None and self._page_of is not None:
            html, verified, steps = self._page_of(self.problem or "")
            self._page = Page(html, verified, steps)
        return self._page

    def _fail(self, problem):
        self._doc = dict(self._doc, verified=False, problem=problem)
        self._fields = dict(self._fields, verified=False, problem=problem)


def _crash_items(crash):
    """``crash={node: time}`` as the api spells it: ["NODE@TIME", ...]."""
    if not isinstance(crash, dict):
        return crash
    return [f"{node}@{time}" for node, time in crash.items()]


def _link_items(links):
    """``fail_links=[(a, b), (a, b, time)]`` as the api spells it: ["A-B", "A-B@TIME", ...]."""
    if isinstance(links, str) or not isinstance(links, (list, tuple)):
        return links
    items = []
    for link in links:
        if isinstance(link, str):
            items.append(link)
        elif isinstance(link, (list, tuple)) and len(link) in (2, 3):
            items.append(f"{link[0]}-{link[1]}" + (f"@{link[2]}" if len(link) == 3 else ""))
        else:
            raise _core.InputError(f"fail_links={links!r}: expected pairs (a, b) or triples (a, b, time) of node ids")
    return items


def _emulate(given, program, check=None, progress=False):
    if not (isinstance(program, type) and issubclass(program, NodeProgram)):
        raise _core.InputError(f"program={program!r}: expected a subclass of starnet.NodeProgram")
    if check is not None and not callable(check):
        raise _core.InputError(f"check={check!r}: expected a callable taking the list of node objects")
    if not isinstance(progress, bool):
        raise _core.InputError(f"progress={progress!r}: expected True or False")
    made = []

    def make_nodes(count):
        made.extend(_instances(program, count))
        return made

    given = dict(given)
    law = given.pop("delays") if callable(given.get("delays")) else None
    if "crash" in given:
        given["crash"] = _crash_items(given["crash"])
    if "fail_links" in given:
        given["fail_links"] = _link_items(given["fail_links"])
    with progress_bar(progress, "emulate") as bar:
        doc, columns, intervals, page_of, ref, error = _core.emulate(given, make_nodes, bar, law)
    topology = given["topology"]
    shown = topology if isinstance(topology, Topology) else Topology._of(ref)
    result = EmulateResult(doc, columns, intervals, shown, made, page_of)
    if error is not None:
        # The program's own exception, raised as itself; the run up to there rides along.
        error.starnet_result = result
        error.add_note("the run up to here: this exception's starnet_result (trace, counts, page)")
        raise error
    if check is not None and result.verified and not check(made):
        result._fail("check(nodes) returned a false value")
    return result


_EMULATE_DOC = """Runs ``program`` (a subclass of :class:`NodeProgram`) on every node of ``topology``.

    The keywords are read and checked by the library (api/emulate.hpp); a topology is a spec, a
    file or a :class:`Topology` (``Topology.from_networkx(G)`` too), an exact number an int, a
    Fraction or a decimal string:

{settings}
    check: a callable taking the list of node objects after the run; ``verified`` also means that
        it returned a true value.
    progress: True for a progress bar (tqdm) once the run has taken a second.

    A port-model violation, a deadlock or a run past ``max_steps`` is a result with ``verified``
    False, ``problem`` naming step, node and link, and ``failed_step``/``failed_node``; the run
    keeps its counts, trace and page up to there. An exception raised in ``react`` or ``show``
    propagates as itself, with a note naming the node and step, and the run up to there as its
    ``starnet_result``. Returns an :class:`EmulateResult`.
    """
emulate = settings_call("emulate", _core.emulate_settings(), _emulate, before=["program"],
                        after=[("check", None), ("progress", False)], doc=_EMULATE_DOC)

"""Results of starnet's calls: the command line's JSON document as attributes.

Every result holds the document ``starnet SUBCOMMAND --json`` prints for the same input. Its
fields are the result's attributes; an exact rational (a field ``KEY`` with its exact text in
``KEY_exact``) is a :class:`fractions.Fraction`; ``to_dict()`` gives the document itself.
"""

from fractions import Fraction

from . import _core

__all__ = ["Result", "RunResult", "cli_form", "pythonic"]


def _exact(text):
    return Fraction(text)


def pythonic(value):
    """A document's value with every ``KEY``/``KEY_exact`` pair merged into one Fraction."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key.endswith("_exact") and key[: -len("_exact")] in value:
                continue
            exact = value.get(key + "_exact")
            out[key] = _exact(exact) if isinstance(exact, str) else pythonic(item)
        return out
    if isinstance(value, list):
        return [pythonic(item) for item in value]
    return value


def cli_form(value):
    """The document as the command line prints it: KEY_exact only beside a non-integer."""
    if isinstance(value, dict):
        return {
            key: cli_form(item)
            for key, item in value.items()
            if not (key.endswith("_exact") and isinstance(item, str) and "/" not in item)
        }
    if isinstance(value, list):
        return [cli_form(item) for item in value]
    return value


# What a result's repr shows first, when it has them, and how many fields it shows at least.
_HEADLINE = ("topology", "collective", "algorithm", "steps", "makespan", "messages", "optimum", "length", "verified",
             "problem")
_REPR_FIELDS = 4


def _shown(value):
    """A field as a repr shows it: exact numbers as 7/2, not Fraction(7, 2)."""
    return str(value) if isinstance(value, Fraction) else repr(value)


class Result:
    """A result whose attributes are the fields of its JSON document (``dir(result)`` lists them).

    Exact rationals are :class:`fractions.Fraction`; ``to_dict()`` returns the document exactly as
    the command line's ``--json`` prints it.
    """

    def __init__(self, doc):
        self._doc = doc
        self._fields = pythonic(doc)

    def __getattr__(self, name):
        fields = self.__dict__.get("_fields", {})
        if name in fields:
            return fields[name]
        raise AttributeError(f"{type(self).__name__} has no field {name!r} (fields: {', '.join(sorted(fields))})")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._fields))

    def __contains__(self, name):
        return name in self._fields

    def to_dict(self):
        """The command line's JSON document for the same input (``starnet ... --json``), as a dict."""
        return cli_form(self._doc)

    def __repr__(self):
        fields = self._fields
        keys = [key for key in _HEADLINE if fields.get(key) is not None]
        if len(keys) < _REPR_FIELDS:  # a result of another kind: its first plain fields
            keys += [key for key, value in fields.items() if key not in keys and key != "version"
                     and isinstance(value, (bool, int, float, str, Fraction))][: _REPR_FIELDS - len(keys)]
        shown = " ".join(f"{key}={_shown(fields[key])}" for key in keys)
        return f"<{type(self).__name__} {shown}>"


class RunResult(Result):
    """The result of a run on the emulator: the document's fields, and ``trace`` when one was kept.

    ``trace`` is a pandas DataFrame, one row per event, built from numpy columns of the narrowest
    dtype that holds them: step, round, time, event (categorical), node, peer, port, tag, size,
    bytes. Exact times of timed runs are ``time_num``/``time_den`` (int64) beside ``time``.
    """

    def __init__(self, doc, trace_columns=None, intervals=None, topology=None):
        super().__init__(doc)
        self._columns = trace_columns
        self._intervals = intervals
        self._trace = None
        self._topology = topology

    @property
    def trace(self):
        """The events of the run as a pandas DataFrame (None when the run kept no trace)."""
        if self._columns is None:
            return None
        if self._trace is None:
            import pandas as pd

            columns = dict(self._columns)
            columns["event"] = pd.Categorical.from_codes(columns["event"], categories=_core.EVENT_NAMES)
            self._trace = pd.DataFrame(columns, copy=False)
        return self._trace

    @property
    def transfers(self):
        """The transfers of the run (each "send" paired with its "receive") as a DataFrame: from,
        to, port, tag, start, end, finished (None when the run kept no trace)."""
        if self._intervals is None:
            return None
        import pandas as pd

        return pd.DataFrame(self._intervals["transfers"], copy=False)

    @property
    def computations(self):
        """The computations of the run as a DataFrame: node, tag, start, end, finished."""
        if self._intervals is None:
            return None
        import pandas as pd

        return pd.DataFrame(self._intervals["computations"], copy=False)

    @property
    def topology(self):
        """The topology the run was on (a :class:`starnet.Topology`)."""
        return self._topology

    def trace_text(self, format="jsonl"):
        """The trace as the command line's ``--trace FILE --trace-format FORMAT`` writes it: ``"jsonl"``
        (one JSON object per event, docs/emulator.md) or ``"chrome"`` (Chrome's trace-event JSON,
        which Perfetto opens). Needs the trace (``trace=True``)."""
        if self._intervals is None:
            raise ValueError("trace_text() writes the trace: run with trace=True")
        return self._intervals["trace_text"](format)

    def save_trace(self, path, format="jsonl"):
        """Writes :meth:`trace_text` to ``path``."""
        text = self.trace_text(format)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def gantt(self, ax=None, max_rows=None):
        """A Gantt chart of the run as a matplotlib Figure: the chart of the command line's
        ``--gantt`` (one row per node, a bar per message on its sender's and its receiver's row,
        coloured by port; computations; the makespan).

        Needs the trace (``trace=True``). ``max_rows``: the first rows only (None: every row, up to
        the api's limit of rows a chart shows).
        """
        from ._drawing import gantt

        if self._intervals is None:
            raise ValueError("gantt() draws the trace: run with trace=True")
        if self._intervals["gantt"] is None:
            _core.require_gantt_rows(self._intervals["nodes"], self._intervals["topology_name"])
        return gantt(self._intervals["gantt"], ax=ax, max_rows=max_rows)

    def swimlane(self, path=None):
        """The space-time (swim-lane) diagram of the run as SVG text, the picture of the command line's
        ``--swimlane FILE.svg`` (api/swimlane.hpp): a line per node with time to the right, an arrow per
        message from its sending to its arrival labelled with its payload (a Python program's: its
        ``repr``; whole in the arrow's tooltip), computations as bars, timers as circles. Written to
        ``path`` too when given.

        Needs the trace (``trace=True``); at most 256 nodes and 10,000 messages
        (:class:`starnet.InputError` naming ``swimlane`` beyond).
        """
        if self._intervals is None:
            raise ValueError("swimlane() draws the trace: run with trace=True")
        text = self._intervals["swimlane"]()
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return text

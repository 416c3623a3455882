"""Calls declared by the api's tables of settings (api/setting_table.hpp): a call's keywords, their
defaults and their lines in its docstring come from the rows; the objects given go to the extension,
which converts each by its row's type, and the api reads and checks them (docs/python.md)."""

import inspect
import re
import textwrap

from . import _core

__all__ = ["settings_call"]

_KIND = inspect.Parameter.POSITIONAL_OR_KEYWORD
_WIDTH = 100


def _spelled(help_text):
    """A row's help with the settings it names «like_this» written as ``like_this``."""
    return re.sub(r"«(\w+)»", r"``\1``", help_text)


def _line(row):
    kind = ("list of " if row["list"] else "") + row["type"]
    if row["choices"]:
        kind += " (" + ", ".join(row["choices"]) + ")"
    if row["unit"]:
        kind += ", " + row["unit"]
    if not row["required"]:
        kind += f"; default {row['default']!r}"
    text = f"{row['name']} ({kind}): {_spelled(row['help'])}"
    # Words stay whole: "store-and-forward" is one choice, not three.
    return textwrap.fill(text, _WIDTH, initial_indent="    ", subsequent_indent="        ", break_on_hyphens=False)


def settings_lines(rows):
    """The docstring's lines of the rows, one keyword each."""
    return "\n".join(_line(row) for row in rows)


def settings_call(name, rows, run, before=(), after=(), doc=""):
    """The function ``name``: parameters ``before`` (no default), then a keyword per row of
    ``rows`` (``_core.X_settings()``) with its default, then ``after`` ((name, default) pairs); its
    docstring ``doc`` with ``{settings}`` replaced by the rows' lines. A call hands ``run`` the
    rows' keywords given (a dict: only those given, so that the api knows what was asked for)
    and the other parameters as keywords; a keyword it does not take goes to the api, which
    refuses it naming the nearest of all the call's keywords."""
    table = [row["name"] for row in rows]
    parameters = [inspect.Parameter(p, _KIND) for p in before]
    for row in rows:
        default = inspect.Parameter.empty if row["required"] else row["default"]
        parameters.append(inspect.Parameter(row["name"], _KIND, default=default))
    parameters += [inspect.Parameter(p, _KIND, default=d) for p, d in after]
    signature = inspect.Signature(parameters)

    def call(*args, **kwargs):
        unknown = {k: v for k, v in kwargs.items() if k not in signature.parameters}
        if unknown:  # before binding: a misspelt required keyword is named, not reported missing
            _core.check_setting_names(name, list(signature.parameters), unknown)
        bound = signature.bind(*args, **{k: v for k, v in kwargs.items() if k not in unknown})
        given = {k: v for k, v in bound.arguments.items() if k in table}
        given.update(unknown)
        own = {p.name: bound.arguments.get(p.name, p.default) for p in parameters if p.name not in table}
        return run(given, **own)

    call.__name__ = call.__qualname__ = name
    call.__module__ = run.__module__
    call.__signature__ = signature
    call.__doc__ = doc.replace("{settings}", settings_lines(rows))
    return call

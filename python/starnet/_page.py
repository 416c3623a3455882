"""Teaching pages (``starnet viz``) as notebook objects."""

import html as _html
import json
import re
from dataclasses import dataclass

from . import _core

__all__ = ["Page"]

# The height of the inline frame: the page's drawing and its controls without a scroll bar.
_FRAME_HEIGHT_PX = 760
# Where the page keeps its data (api/src/viz.cpp writes it).
_TITLE_SUFFIX = " — starnet"
_DATA_OPEN = '<script type="application/json" id="starnet-data">'


@dataclass(eq=False, repr=False)
class Page:
    """A self-contained HTML page (no network) that steps through a run on a small topology, drawn from the
    emulator's trace: what ``starnet viz`` writes. Shown inline in Jupyter; ``html`` is its text,
    ``save(path)`` writes it, ``verified`` says the run was verified and the page's replay of the
    trace ends as it should, ``steps`` is the run's step count, ``title`` names the run."""

    html: str
    verified: bool
    steps: int
    title: str = None

    def __post_init__(self):
        if self.title is None:  # the page's own <title>, less the " — starnet" every page ends it with
            found = re.search(r"<title>(.*?)</title>", self.html, re.S)
            self.title = _html.unescape(found.group(1)).removesuffix(_TITLE_SUFFIX) if found else "starnet page"

    @property
    def data(self):
        """What the page shows, as its script reads it (a dict): ``steps``, each with its
        ``messages`` ([from, to, link, text]) and every node's two lines (``result``,
        ``outgoing``), and the drawing's ``nodes``."""
        start = self.html.index(_DATA_OPEN) + len(_DATA_OPEN)
        return json.loads(self.html[start:self.html.index("</script>", start)])  # JSON reads back the "<\/" the page writes for "</"

    @classmethod
    def load(cls, path):
        """The page ``save`` wrote (or ``starnet viz -o``), opened again: a failed run's evidence kept
        in a file shows as it did. Raises InputError naming ``path`` for a file that is not a
        starnet page."""
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if _DATA_OPEN not in text:
            raise _core.InputError(f"path={path!r}: not a starnet page (it has no starnet-data script)")
        page = cls(text, False, 0)
        data = page.data
        page.verified = bool(data.get("verified", False))
        page.steps = len(data["steps"]) - 1
        return page

    def save(self, path):
        """Writes the page to ``path`` (UTF-8). Returns ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html)
        return path

    def __str__(self):
        return self.html

    def __repr__(self):
        return f"<Page {self.title}: {self.steps} steps, {'verified' if self.verified else 'NOT verified'}>"

    def _repr_html_(self):
        return (f'<iframe srcdoc="{_html.escape(self.html, quote=True)}" style="width: 100%; '
                f'height: {_FRAME_HEIGHT_PX}px; border: 0" title="{_html.escape(self.title)}"></iframe>')

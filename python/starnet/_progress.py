"""Progress of long calls as a tqdm bar (``progress=True``)."""

from ._dependencies import optional

__all__ = ["progress_bar"]


class _Bar:
    """Called by the extension with (done, total, unit, detail) once a call has run for a second."""

    def __init__(self, what):
        self._what = what
        self._bar = None

    def __call__(self, done, total, unit, detail):
        if self._bar is None:
            optional("tqdm")
            from tqdm.auto import tqdm

            self._bar = tqdm(total=total or None, desc=self._what, unit=f" {unit}" if unit else "it", leave=False)
        if total and self._bar.total != total:
            self._bar.total = total
        self._bar.n = done
        if detail:
            self._bar.set_postfix_str(detail, refresh=False)
        self._bar.refresh()

    def close(self):
        if self._bar is not None:
            self._bar.close()


class progress_bar:
    """``with progress_bar(progress, "allreduce") as callback:`` — a bar when ``progress`` is True."""

    def __init__(self, progress, what):
        if not isinstance(progress, bool):
            raise TypeError(f"progress={progress!r}: expected True or False")
        self._bar = _Bar(what) if progress else None

    def __enter__(self):
        return self._bar

    def __exit__(self, *exc):
        if self._bar is not None:
            self._bar.close()
        return False

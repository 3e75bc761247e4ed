"""Known defects (``tenbou verify --expect-defects``): hands of real records known to contradict
themselves, listed with the mismatches they show and why, so that a run over a corpus tells them
apart from tenbou's own mistakes.

>>> d = Defect("mjlog/a.xml", 3, frozenset({"deltas"}), "the record pays twice")
>>> d.names("corpus/mjlog/a.xml"), d.names("corpus/mjlog/b.xml")
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import TenbouError
from ..io.files import shown_path
from .compare import MISMATCH_KINDS

__all__ = ["Defect", "load_defects", "mark_defects"]


@dataclass(frozen=True, slots=True)
class Defect:
    """A hand known to contradict itself (``--expect-defects``): the end of its record's path,
    its index in the game, the mismatch kinds it shows, and why the record is defective."""

    path: str
    hand: int
    kinds: frozenset[str]
    reason: str

    def names(self, source: str) -> bool:
        """Whether ``source`` is this defect's record (its path ends with :attr:`path`)."""
        text = Path(source).as_posix()
        return text == self.path or text.endswith("/" + self.path)


def load_defects(path: str) -> list[Defect]:
    """The known defects of a file: one a line, ``PATH<TAB>HAND<TAB>KINDS<TAB>REASON`` (KINDS
    comma-separated mismatch kinds, PATH the end of the record's path); ``#`` starts a comment.
    A malformed line raises :class:`~tenbou.errors.TenbouError` naming it."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise TenbouError(
            f"--expect-defects {shown_path(path)}: cannot be read ({e.strerror})", "request"
        ) from None
    except UnicodeDecodeError as e:
        raise TenbouError(
            f"--expect-defects {shown_path(path)}: not UTF-8 text ({e.reason} at byte {e.start})", "request"
        ) from None
    out: list[Defect] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split("\t")
        kinds = frozenset(k.strip() for k in parts[2].split(",")) if len(parts) == 4 else frozenset()
        if len(parts) != 4 or not parts[1].strip().isdigit() or not kinds or not kinds <= set(MISMATCH_KINDS):
            raise TenbouError(
                f"{shown_path(path)}:{n}: a known defect is PATH<TAB>HAND<TAB>KINDS<TAB>REASON, with "
                f"mismatch kinds of {', '.join(MISMATCH_KINDS)}; not {line[:80]!r}",
                "request",
            )
        out.append(Defect(parts[0].strip(), int(parts[1]), kinds, parts[3].strip()))
    return out


def mark_defects(lines: Sequence[dict[str, Any]], defects: Sequence[Defect]) -> list[str]:
    """Mark the hand lines that show exactly a known defect (``expected_defect``: its reason; they
    stay ``match: false``, and :func:`summarize` counts them apart); returns what does not hold
    of the list: a listed hand of a verified record that matches, or differs otherwise."""
    seen: dict[Defect, bool] = {}
    for line in lines:
        if "kind" not in line:
            continue
        for d in defects:
            if d.hand == line["hand"] and d.names(str(line["source"])):
                kinds = frozenset(m["kind"] for m in line.get("mismatches", []))
                seen[d] = kinds == d.kinds
                if kinds == d.kinds:
                    line["expected_defect"] = d.reason
                break
    return [
        f"{d.path} hand {d.hand}: listed as a known defect ({', '.join(sorted(d.kinds))}) but "
        + ("it shows other mismatches" if d in seen else "no such hand was verified")
        for d in defects
        if not seen.get(d, False) and (d in seen or _verified(d, lines))
    ]


def _verified(d: Defect, lines: Sequence[Mapping[str, Any]]) -> bool:
    return any(d.names(str(line.get("source", ""))) for line in lines)

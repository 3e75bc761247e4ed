"""Verifying files and folders: in this process, over local processes (``jobs``) or on a Dask
cluster, with the same output in the same order whichever way it runs.

:func:`verify_paths` finds the record files (:func:`find_record_files`), verifies each
(:func:`verify_file`: read, detect, parse, and :func:`~tenbou.verify.verifier.verify_record` each
game) and yields each file's lines in the order of the files. Nothing a file holds stops the run:
a file that cannot be read or parsed is a ``skipped`` line with its error.

>>> from tenbou.engine.events import events_to_lines
>>> from tenbou.engine.table import play_game
>>> from tenbou.rules import get_rules
>>> text = "\\n".join(events_to_lines(play_game(get_rules("tenhou"), seed=3, length="tonpuu")))
>>> result = verify_data(text.encode(), "self.jsonl")
>>> result["error"], all(line["match"] for line in result["lines"])
(None, True)
>>> verify_data(b"<not a record>", "x.txt")["lines"][0]["skipped"].startswith("not a record: x.txt")
True
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..errors import LogFormatError, TenbouError
from ..io.files import shown_path
from ..io.read import detect_format, parse_records
from ..io.source import MAX_RECORD_BYTES, inflate, read_source
from .verifier import verify_record

__all__ = [
    "DASK_CONNECT_SECONDS",
    "dask_client",
    "find_record_files",
    "in_order",
    "in_processes",
    "local_cores",
    "verify_data",
    "verify_file",
    "verify_paths",
]

#: how long ``--dask ADDRESS`` waits for the scheduler to answer
DASK_CONNECT_SECONDS = 10


def find_record_files(paths: Iterable[str]) -> list[tuple[str, bool]]:
    """The files to read: (path, named) for each file given, and each file under a
    folder given (sorted, hidden ones left out); ``named`` is whether it was given
    by name (a folder's file that is not a record is skipped, a named one is an error).
    A folder's entry that cannot even be looked at (a link into ``/proc`` of another
    process, a folder tenbou may not enter) is listed as a file, to be reported as unreadable
    with the reason when read, never a traceback nor passed over in silence.
    A file is read once however often it is given (``F F ./F``, a folder and a file in it):
    where it first comes, by the name it first has, and named if it is named anywhere."""
    out: list[tuple[str, bool]] = []
    where: dict[str, int] = {}  # the resolved path of each file, and its place in ``out``
    for raw in paths:
        p = Path(raw)
        if raw and p.is_dir():  # an empty name names no file (Path("") is ".")
            found = sorted(
                q
                for q in p.rglob("*")
                if _is_file(q) and not any(part.startswith(".") for part in q.relative_to(p).parts)
            )
            files = [(str(q), False) for q in found]
        else:
            files = [(str(p) if raw else raw, True)]
        for path, named in files:
            key = os.path.realpath(path)
            if key not in where:
                where[key] = len(out)
                out.append((path, named))
            elif named:
                out[where[key]] = (out[where[key]][0], True)
    return out


def _is_file(path: Path) -> bool:
    """Whether a folder's entry is a file to read: a file, or an entry that cannot be looked at
    (``Path.is_file`` raises ``PermissionError`` for it: it is read, and reported, as a file)."""
    try:
        return path.is_file()
    except OSError:
        return True


def _error_line(source: str, game: int | None, error: TenbouError, category: str) -> dict[str, Any]:
    """A record tenbou refuses (the run's exit status 2): skipped, with the error object."""
    line: dict[str, Any] = {"source": source}
    if game is not None:
        line["game"] = game
    line["skipped"] = f"{category}: {error}"
    line["error"] = {"code": error.code, "message": str(error)}
    return line


def verify_file(
    path: str, named: bool = True, rules: Any = None, max_bytes: int = MAX_RECORD_BYTES
) -> dict[str, Any]:
    """Verify every game of one file: ``{"lines": [...], "error": message or None}``.

    Nothing a file holds stops the run: a file that cannot be read, is past
    ``max_bytes`` or is malformed gives one ``skipped`` line with its ``error``; a
    game tenbou cannot replay at all (unknown rules) the same, and the file's other
    games are still verified. A file that is not a record gives a ``skipped`` line,
    with an ``error`` only when it was ``named`` (a file found in a folder may be
    anything). A record whose file name is not UTF-8 is refused the same way (see
    :func:`verify_data`). Any ``error`` makes the run's exit status 2."""
    source = shown_path(path)
    try:
        data = read_source(path, source, max_bytes)
    except TenbouError as e:
        return {"lines": [_error_line(source, None, e, "unreadable")], "error": str(e)}
    return verify_data(data, path, named, rules, max_bytes)


def verify_data(
    data: bytes, path: str, named: bool = True, rules: Any = None, max_bytes: int = MAX_RECORD_BYTES
) -> dict[str, Any]:
    """:func:`verify_file` of a record's bytes (``path`` names it).

    A record whose name is not UTF-8 (bytes that Python holds as surrogate escapes) is refused,
    named with backslash escapes (:func:`~tenbou.files.shown_path`): the lines name each
    record by its path in UTF-8 JSON and text, which such a name cannot be."""
    source = shown_path(path)
    try:
        data = inflate(data, source, max_bytes)
    except TenbouError as e:
        return {"lines": [_error_line(source, None, e, "unreadable")], "error": str(e)}
    try:
        fmt = detect_format(data, source)
    except TenbouError as e:
        if named:
            return {"lines": [_error_line(source, None, e, "not a record")], "error": str(e)}
        return {"lines": [{"source": source, "skipped": f"not a record: {e}"}], "error": None}
    try:
        if source != path:
            raise LogFormatError(
                f"{source}: the file name is not UTF-8 (a record is named by its path: rename it)"
            )
        games = parse_records(data, path, fmt, rules=rules, max_bytes=max_bytes)
    except TenbouError as e:
        return {"lines": [_error_line(source, None, e, "unreadable")], "error": str(e)}
    lines: list[dict[str, Any]] = []
    errors: list[str] = []
    for rec in games:
        try:
            lines.extend(verify_record(rec))
        except TenbouError as e:
            lines.append(_error_line(path, rec.index, e, "not replayed"))
            errors.append(f"game {rec.index}: {e}")
    return {"lines": lines, "error": "; ".join(errors) or None}


def _verify_chunk(
    items: Sequence[tuple[str, bool]], rules: Any = None, max_bytes: int = MAX_RECORD_BYTES
) -> list[dict[str, Any]]:
    return [verify_file(path, named, rules, max_bytes) for path, named in items]


def _chunks(items: Sequence[tuple[str, bool]], workers: int) -> list[list[tuple[str, bool]]]:
    size = max(1, min(16, len(items) // max(1, workers * 8)))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def verify_paths(
    paths: Iterable[str],
    *,
    jobs: int = 1,
    dask: str | None = None,
    rules: Any = None,
    progress: Callable[[int, int, int], None] | None = None,
    max_bytes: int = MAX_RECORD_BYTES,
) -> Generator[dict[str, Any], None, None]:
    """Verify files and folders; yields each file's result (:func:`verify_file`)
    in the order of the files, whichever way the work runs: in this process
    (``jobs=1``), over ``jobs`` local processes, or on the Dask cluster at
    ``dask`` (``"local"`` starts a LocalCluster of ``jobs`` workers).
    ``progress(files_done, files, hands_done)`` is called as files finish; no
    file records larger than ``max_bytes`` (stored or inflated) are read.

    ``jobs`` below 1 is refused; no more processes are started than there are files or
    cores this process may use (``--dask local`` the same), so ``jobs`` is an upper bound."""
    if jobs < 1:
        raise TenbouError(f"--jobs {jobs}: the number of processes is 1 or more", "request")
    items = find_record_files(paths)
    total = len(items)
    hands = 0
    done = 0

    def note(result: dict[str, Any]) -> None:
        nonlocal hands, done
        done += 1
        hands += sum(1 for line in result["lines"] if "kind" in line)
        if progress is not None:
            progress(done, total, hands)

    workers = min(jobs, total, local_cores())
    if dask is None and workers <= 1:
        for path, named in items:
            result = verify_file(path, named, rules, max_bytes)
            note(result)
            yield result
        return
    if dask is not None:  # a remote cluster's workers are its own: the chunks are cut for ``jobs`` of them
        chunks = _chunks(items, max(1, min(jobs, total)))
        yield from _run_dask(chunks, dask, max(1, workers), rules, note, max_bytes)
        return
    chunks = _chunks(items, workers)
    yield from in_processes(_verify_chunk, [(chunk, rules, max_bytes) for chunk in chunks], workers, note)


def in_processes(
    work: Callable[..., list[dict[str, Any]]],
    tasks: Sequence[tuple[Any, ...]],
    workers: int,
    note: Callable[[dict[str, Any]], None],
) -> Iterator[dict[str, Any]]:
    """``work(*task)`` for each of ``tasks`` in up to ``workers`` local processes (``tenbou
    verify``'s chunks of files, ``tenbou match``'s games); the results of each task, in the order
    of the tasks (:func:`in_order`). Stopped early (an output lost, an interruption), the tasks not
    begun are not run."""
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(work, *task): i for i, task in enumerate(tasks)}
        try:
            yield from in_order(((futures[f], f.result()) for f in as_completed(futures)), note)
        finally:
            for f in futures:
                f.cancel()


def local_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it, else
    :func:`os.cpu_count`): the most processes ``--jobs`` starts."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no sched_getaffinity (macOS, Windows)
        return os.cpu_count() or 1


def in_order(
    finished: Iterable[tuple[int, list[dict[str, Any]]]], note: Callable[[dict[str, Any]], None]
) -> Iterator[dict[str, Any]]:
    """Results of chunks finishing in any order, yielded in chunk order."""
    waiting: dict[int, list[dict[str, Any]]] = {}
    nxt = 0
    for index, results in finished:
        for r in results:
            note(r)
        waiting[index] = results
        while nxt in waiting:
            yield from waiting.pop(nxt)
            nxt += 1


def _run_dask(
    chunks: list[list[tuple[str, bool]]],
    address: str,
    jobs: int,
    rules: Any,
    note: Callable[[dict[str, Any]], None],
    max_bytes: int = MAX_RECORD_BYTES,
) -> Iterator[dict[str, Any]]:
    with dask_client(address, jobs) as (distributed, client):
        futures = client.map(_verify_chunk, chunks, rules=rules, max_bytes=max_bytes, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        yield from in_order(((index[f.key], f.result()) for f in distributed.as_completed(futures)), note)


@contextlib.contextmanager
def dask_client(address: str, jobs: int) -> Iterator[tuple[Any, Any]]:
    """The ``distributed`` module and a client of the Dask scheduler at ``address`` (``"local"``: a
    LocalCluster of ``jobs`` worker processes, closed at the end), for ``--dask`` (``tenbou verify``
    and ``tenbou match``); a clear :class:`TenbouError` when the extra is missing or no scheduler
    answers."""
    import importlib

    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError as e:
        raise TenbouError(
            f"--dask needs the optional extra 'dask': pip install 'tenbou[dask]' ({e})", "missing_extra"
        ) from None
    cluster = None
    try:
        if address == "local":
            cluster = distributed.LocalCluster(
                n_workers=max(1, jobs), threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(address, timeout=DASK_CONNECT_SECONDS)
    except (OSError, ValueError) as e:  # no scheduler answers (a timeout is an OSError), a bad address
        if cluster is not None:
            cluster.close()
        raise TenbouError(f"--dask {address}: no Dask scheduler to run on: {e}", "dask") from None
    try:
        yield distributed, client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

"""A gaming day of one casino as one archive, verifiable offline and alone.

``day_archive`` writes a zip (``docs/event-hash.md`` § A day's archive) that holds the casino's
events the day's seal covers (its chain's events ``first_sequence`` to ``last_sequence``, as
JSON Lines with their hashes), the seal event, the casino's public key, the day's results as CSV
(the rows the day's close recorded), the close report whose digest the seal signs, the day's
regulator file (``reporting.regulator_file``) and a manifest with every file's SHA-256. Every
file is there or there is no archive: a file that cannot be produced is a refusal naming it. The hash
before the first event is in the manifest, and the seal signs it, so the archive verifies with
``python3 tools/verify_events.py ARCHIVE`` without the casino's earlier days or any other
casino's events. Nothing of another casino goes in: every event is read from the casino's own
chain. Reads only: no command, nothing recorded.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import hashlib
import io
import json
import zipfile
from collections.abc import Iterable, Mapping
from typing import IO, Any

from casino.errors import Conflict, NotFound, gettext_noop
from casino.models import Casino, GamingDaySeal
from eventstore import export_chain, read_stream
from eventstore.hashing import canonical_json
from reporting.seals import seal_public_key

from .close_report import close_report
from .regulator_file import regulator_file

FORMAT = "casino-day-archive/1"
# The columns of results.csv, one row a table (tools/verify_events.py writes the same bytes from
# the day's close event to check it: keep ``RESULT_COLUMNS`` and ``results_csv`` in step).
RESULT_COLUMNS = ("table", "game", "sessions", "rounds", "handle", "drop", "win")

NOT_SEALED = gettext_noop("gaming day {day} of casino {casino} is not sealed: a day's archive is made once "
                          "the day is closed")
FILE_MISSING = gettext_noop("the archive of gaming day {day} of casino {casino} cannot be made: {name} cannot be "
                            "produced ({why}); an archive never leaves a file out")
GLOBAL_SEAL = gettext_noop("gaming day {day} of casino {casino} was sealed before one chain per casino: "
                           "verify it on a whole export (verify_events.py --global)")


@dataclasses.dataclass(frozen=True)
class ArchiveSummary:
    casino: str
    gaming_day: dt.date
    events: int
    first_sequence: int
    last_sequence: int
    files: dict[str, str]  # name -> SHA-256

    @property
    def filename(self) -> str:
        return archive_name(self.casino, self.gaming_day)


def archive_name(casino: str, gaming_day: dt.date) -> str:
    return f"{casino}-{gaming_day.isoformat()}-archive.zip"


def results_csv(results: Iterable[Mapping[str, Any]]) -> bytes:
    """The day's results, one row a table, from the close's recorded rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RESULT_COLUMNS)
    for row in results:
        writer.writerow([row.get(column, "") for column in RESULT_COLUMNS])
    return out.getvalue().encode("utf-8")


def _line(export: Mapping[str, Any]) -> str:
    return json.dumps(export, ensure_ascii=False, sort_keys=True) + "\n"


def sealed_day(casino: str, gaming_day: dt.date) -> GamingDaySeal:
    """The day's seal, or a refusal that says why there is no archive of the day."""
    if not Casino.objects.filter(code=casino).exists():
        raise NotFound("there is no casino {casino!r}", params={"casino": casino}, field="casino")
    seal = GamingDaySeal.objects.filter(casino_id=casino, gaming_day=gaming_day).first()
    if seal is None:
        raise NotFound(NOT_SEALED, params=dict(day=gaming_day, casino=casino), field="gaming_day")
    if not seal.payload.get("first_sequence"):
        raise Conflict(GLOBAL_SEAL, params=dict(day=gaming_day, casino=casino),
                       code="sealed_on_the_global_chain", field="gaming_day")
    return seal


def day_archive(*, casino: str, gaming_day: dt.date, out: IO[bytes]) -> ArchiveSummary:
    """Write the archive of ``casino``'s sealed ``gaming_day`` to ``out`` (a binary file)."""
    seal = sealed_day(casino, gaming_day)
    payload = seal.payload
    first, last = int(payload["first_sequence"]), int(payload["last_sequence"])
    files: dict[str, str] = {}
    closes: list[Mapping[str, Any]] = []
    count = 0
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        digest = hashlib.sha256()
        with archive.open("events.jsonl", "w", force_zip64=True) as events:
            for page in export_chain(casino, first, last):
                for event_type, line in page:
                    if event_type == "GamingDayClosed":
                        closes.append(json.loads(line)["data"])
                chunk = ("\n".join(line for _, line in page) + "\n").encode("utf-8")
                digest.update(chunk)
                events.write(chunk)
                count += len(page)
        files["events.jsonl"] = digest.hexdigest()

        def add(name: str, content: bytes) -> None:
            archive.writestr(name, content)
            files[name] = hashlib.sha256(content).hexdigest()

        # the seal event as the chain exports it (at the position its hash covers)
        (seal_event,) = read_stream(f"seal/{casino}.{gaming_day.isoformat()}")
        ((_, seal_line),) = next(export_chain(casino, seal_event.sequence, seal_event.sequence))
        add("seal.json", _line(json.loads(seal_line)).encode("utf-8"))
        add("public-key.pem", seal_public_key(casino).public_key.encode("ascii"))
        day_closes = [c for c in closes if c.get("gaming_day") == gaming_day.isoformat()]
        if not day_closes:
            raise _missing(casino, gaming_day, "results.csv",
                           "the day's close is not among the events its seal covers")
        add("results.csv", results_csv(day_closes[0].get("results", [])))
        add("close-report.json",
            _close_report(casino, gaming_day, str(payload.get("report_digest", ""))))
        add("regulator.xml", regulator_file(casino, gaming_day))
        manifest = {
            "format": FORMAT, "casino": casino, "gaming_day": gaming_day.isoformat(),
            "first_sequence": first, "last_sequence": last,
            "first_position": payload["first_position"], "last_position": payload["last_position"],
            "prev_hash": payload["prev_hash"], "last_hash": payload["last_hash"],
            "key_id": payload["key_id"], "events": count, "files": files,
        }
        archive.writestr("manifest.json", json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return ArchiveSummary(casino, gaming_day, count, first, last, dict(files))


def _missing(casino: str, gaming_day: dt.date, name: str, why: str) -> Conflict:
    return Conflict(FILE_MISSING, params=dict(casino=casino, day=gaming_day, name=name, why=why),
                    code="archive_file_missing", file=name)


def _close_report(casino: str, gaming_day: dt.date, signed_digest: str) -> bytes:
    """The close report's canonical JSON, the one the seal signed: never left out (issue 34),
    a report that no longer gives the seal's digest is a refusal naming the file."""
    content = canonical_json(close_report(casino=casino, gaming_day=gaming_day).as_data())
    if hashlib.sha256(content).hexdigest() != signed_digest:
        raise _missing(casino, gaming_day, "close-report.json",
                       "the close report no longer gives the digest its seal signed")
    return content



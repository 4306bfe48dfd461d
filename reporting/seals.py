"""The seal of a gaming day: one signed event that the regulator checks offline.

``gaming_day_seal`` is called by the gaming-day close once the day's ledger period is closed (a
person never seals by hand). It records ``GamingDaySealed`` on ``seal/<casino>.<day>``: the
casino's events after the previous seal up to the last one now (their first and last sequence in
the casino's chain and global position, the hash before the first and the last one's hash), the
totals and the close report's digest the close passes, the key id
and the Ed25519 signature (``casino.seal``: the pure part; ``docs/event-hash.md``: the format).

The private key never touches the database or an event: it is read from the environment when a
seal is made (``seal_key``). The public key is published (``seal_public_key``: the API's
``/api/v1/casinos/<code>/seal-key/`` and ``manage.py export_seal_key``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings

from casino import seal as rules
from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound, gettext_noop
from casino.events import GamingDaySealed
from casino.models import Casino, GamingDaySeal, Role
from eventstore import store
from eventstore.commands import command
from eventstore.models import StoredEvent
from eventstore.records import Metadata

# The ledger sits above the core: its period and closed days are read here, by their models.
from ledger.models import DayClose, Period
from reporting.answers import DaySealAnswer, SealPublicKey
from reporting.close_report import close_report, report_digest

log = logging.getLogger(__name__)

# Who seals: the scheduled close (system) and the people who may run a close by hand.
SEALING_ROLES = ("system", Role.ADMINISTRATOR, Role.ACCOUNTANT, Role.CAGE_SUPERVISOR)

# Messages tests and screens rely on.
NO_KEY = gettext_noop("casino {casino} has no seal key: set {variable} to its Ed25519 private key (PEM) or "
                      "{variable}_FILE to the PEM file's path (docs/deployment.md); nothing was sealed")
BAD_KEY = gettext_noop("the seal key of casino {casino} ({source}) cannot be used: {problem}")
PERIOD_OPEN = gettext_noop("gaming day {day} cannot be sealed: its ledger period is still open; the "
                           "gaming-day close closes it first")
NOT_AFTER_LAST = gettext_noop("gaming day {day} cannot be sealed: {last} is sealed already and a seal "
                              "follows the one before it")
NO_KEY_YET = gettext_noop("casino {casino} has no seal key yet: in development one is made at its first "
                          "seal (the close of a gaming day), not before")
NOTHING_TO_SEAL = gettext_noop("casino {casino} has recorded nothing since its last seal")


@dataclasses.dataclass(frozen=True)
class SealKey:
    private: Ed25519PrivateKey
    source: str  # where it came from, for the messages (never the key)

    @property
    def key_id(self) -> str:
        return rules.key_id(self.private.public_key())

    @property
    def public_pem(self) -> str:
        return rules.public_pem(self.private)


def key_variable(casino: str) -> str:
    """``CASINO_SEAL_KEY_<CODE>``: the code upper-cased, every other character than a letter or
    a digit as ``_`` (``casino-x`` reads ``CASINO_SEAL_KEY_CASINO_X``)."""
    return "CASINO_SEAL_KEY_" + re.sub(r"[^A-Z0-9]", "_", casino.upper())


def seal_key(casino: str, *, sealing: bool = False) -> SealKey:
    """The casino's private key, from the environment; in DEBUG (the demo) a development key,
    generated into ``settings.SEAL_DEV_KEY_DIR`` by the casino's first seal (``sealing``) and
    only then: reading or publishing the key makes none. Conflict when there is none."""
    variable = key_variable(casino)
    pem = os.environ.get(variable, "").strip()
    source = variable
    if not pem and os.environ.get(f"{variable}_FILE"):
        source = f"{variable}_FILE"
        path = Path(os.environ[f"{variable}_FILE"])
        try:
            pem = path.read_text(encoding="ascii")
        except OSError as error:
            raise Conflict(BAD_KEY, params=dict(casino=casino, source=source,
                                          problem=f"{path} cannot be read ({error.strerror})"),
                           code="seal_key_unusable", field="casino") from None
    if not pem:
        if not settings.DEBUG:
            raise Conflict(NO_KEY, params=dict(casino=casino, variable=variable),
                           code="seal_key_missing", field="casino")
        return _development_key(casino, make=sealing)
    try:
        return SealKey(rules.private_key_from_pem(pem.encode("ascii")), source)
    except (rules.SealKeyError, UnicodeEncodeError) as error:
        raise Conflict(BAD_KEY, params=dict(casino=casino, source=source, problem=str(error)),
                       code="seal_key_unusable", field="casino") from None


def _development_key(casino: str, *, make: bool) -> SealKey:
    folder = Path(settings.SEAL_DEV_KEY_DIR)
    path = folder / f"{casino}.pem"
    if not path.exists() and not make:
        raise Conflict(NO_KEY_YET, params=dict(casino=casino), code="seal_key_missing",
                       field="casino")
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(rules.private_pem(rules.new_key()))
        path.chmod(0o600)
        log.warning("DEVELOPMENT SEAL KEY generated for casino %s in %s: DEBUG is on and %s is "
                    "not set. Seals signed with it prove nothing; never use it in production.",
                    casino, path, key_variable(casino))
    return SealKey(rules.private_key_from_pem(path.read_bytes()), f"development key {path}")


def seal_public_key(casino: str) -> SealPublicKey:
    """What the regulator is given: the casino's public key (PEM) and its key id."""
    if not Casino.objects.filter(code=casino).exists():
        raise NotFound("there is no casino {casino!r}", params={"casino": casino}, field="casino")
    key = seal_key(casino)
    return SealPublicKey(casino=casino, algorithm=rules.ALGORITHM, key_id=key.key_id,
            public_key=key.public_pem)


def _totals(totals: Mapping[str, object]) -> dict[str, Any]:
    if not isinstance(totals, Mapping):
        raise InvalidCommand("the totals are a mapping of figure names to amounts",
                             field="totals")
    missing = [name for name in rules.TOTALS if name not in totals]
    if missing:
        raise InvalidCommand("the day's totals lack {missing}",
                             params={"missing": ', '.join(missing)}, field="totals")
    for name, value in totals.items():
        problem = rules.total_problem(str(name), value)
        if problem:
            raise InvalidCommand(problem, field=f"totals.{name}")
    return rules.figures({str(k): v for k, v in totals.items()})


def _answer(found: GamingDaySeal, *, already_sealed: bool) -> DaySealAnswer:
    return DaySealAnswer(casino=found.casino_id, gaming_day=found.gaming_day.isoformat(),
                         first_position=found.first_position, last_position=found.last_position,
                         first_sequence=found.payload.get("first_sequence", 0),
                         last_sequence=found.payload.get("last_sequence", 0),
                         prev_hash=found.payload.get("prev_hash", ""), last_hash=found.last_hash,
                         key_id=found.key_id, signature=found.signature,
                         position=found.position, already_sealed=already_sealed)


@command("gaming_day_seal")
def gaming_day_seal(*, casino: str, gaming_day: dt.date, totals: Mapping[str, object],
                    report_digest: str, metadata: Metadata) -> DaySealAnswer:
    """Seal ``gaming_day`` of ``casino`` (its ledger period closed): one ``GamingDaySealed``.

    Idempotent by state: a day sealed already is left as it is and its seal returned
    (``already_sealed``). Refuses a day whose ledger period is open, a day not after the last
    sealed one, and a casino without a seal key; a refusal records nothing.
    """
    if metadata.role not in SEALING_ROLES:
        raise NotAllowed("a gaming day is sealed by its close, not in the {role} role",
                         params={"role": metadata.role})
    if metadata.casino != casino:
        raise InvalidCommand("acting in casino {casino!r}, not {casino_2!r}",
                             params={"casino": metadata.casino, "casino_2": casino},
                             field="casino")
    if not isinstance(gaming_day, dt.date) or isinstance(gaming_day, dt.datetime):
        raise InvalidCommand("the gaming day is a date such as 2025-03-01", field="gaming_day")
    if not Casino.objects.filter(code=casino).exists():
        raise NotFound("there is no casino {casino!r}", params={"casino": casino}, field="casino")
    sealed = GamingDaySeal.objects.filter(casino_id=casino, gaming_day=gaming_day).first()
    if sealed is not None:
        return _answer(sealed, already_sealed=True)
    figures = _totals(totals)
    digest = str(report_digest or "").strip()
    if not rules.is_digest(digest):
        raise InvalidCommand("the close report's digest is its SHA-256 in lower-case "
                             "hexadecimal (64 digits)", field="report_digest")
    last_seal = GamingDaySeal.objects.filter(casino_id=casino).order_by("-gaming_day").first()
    if last_seal is not None and last_seal.gaming_day >= gaming_day:
        raise Conflict(NOT_AFTER_LAST, params=dict(day=gaming_day, last=last_seal.gaming_day),
                       code="seal_out_of_order", field="gaming_day")
    if not Period.objects.filter(casino_id=casino, day=gaming_day).exists():
        raise Conflict(PERIOD_OPEN, params=dict(day=gaming_day), code="period_open",
                       field="gaming_day")
    key = seal_key(casino, sealing=True)
    # Under the casino's append lock every command takes first: nothing of the casino is
    # appended meanwhile, so its last event read here is the last one before the seal.
    # after the last seal by the casino's chain (its sequence): a casino moved from another
    # cell sealed its days there at that cell's positions (docs/cells.md, § Moving a casino)
    covered = StoredEvent.objects.filter(casino_id=casino)
    if last_seal is not None and last_seal.payload.get("last_sequence"):
        covered = covered.filter(sequence__gt=last_seal.payload["last_sequence"])
    elif last_seal is not None:
        covered = covered.filter(position__gt=last_seal.last_position)
    first = covered.order_by("sequence").values("position", "sequence", "prev_hash").first()
    last = covered.order_by("-sequence").values("position", "sequence", "hash").first()
    if first is None or last is None:
        raise Conflict(NOTHING_TO_SEAL, params=dict(casino=casino), code="nothing_to_seal")
    last_hash = last["hash"]
    unsigned = GamingDaySealed(casino=casino, gaming_day=gaming_day,
                               first_position=first["position"], last_position=last["position"],
                               first_sequence=first["sequence"], last_sequence=last["sequence"],
                               prev_hash=first["prev_hash"], last_hash=last_hash, totals=figures,
                               report_digest=digest, key_id=key.key_id)
    event = dataclasses.replace(unsigned, signature=rules.sign(unsigned.to_data(), key.private))
    recorded = store.append(f"seal/{casino}.{gaming_day.isoformat()}", [event],
                            expected_version=0, metadata=metadata)
    return DaySealAnswer(casino=casino, gaming_day=gaming_day.isoformat(),
                         first_position=event.first_position, last_position=event.last_position,
                         first_sequence=event.first_sequence, last_sequence=event.last_sequence,
                         prev_hash=event.prev_hash, last_hash=last_hash, key_id=event.key_id, signature=event.signature,
                         position=recorded[0].position, already_sealed=False)


@dataclasses.dataclass(frozen=True)
class SealCheck:
    casino: str
    gaming_day: dt.date
    problem: str = ""  # empty: the seal holds

    @property
    def ok(self) -> bool:
        return not self.problem


def seal_check(*, casino: str) -> list[SealCheck]:
    """Check each seal of ``casino`` against the events stored now (``manage.py verify_events
    --seals``): the event at its last position still has the hash it signed, and its signature
    is the casino's key's (a seal signed by an earlier key names that key). The standalone
    verifier does the same from an export, without this system. The day's close report must
    still give the digest the seal signed (issue 34: a sealed day is frozen)."""
    seals = list(GamingDaySeal.objects.filter(casino_id=casino).order_by("gaming_day"))
    if not seals:
        return []
    public = seal_key(casino).private.public_key()
    # the days the gaming-day close closed (a seal made by hand has no close report)
    closed = set(DayClose.objects.filter(casino_id=casino).values_list("day", flat=True))
    checks = []
    for found in seals:
        stored = StoredEvent.objects.filter(position=found.position).values_list(
            "data", flat=True).first()
        first_sequence = found.payload.get("first_sequence", 0)
        last_sequence = found.payload.get("last_sequence", 0)
        # the sealed day's last event by the casino's chain where the seal names it (a casino
        # moved from another cell: its seals name that cell's positions)
        last = (StoredEvent.objects.filter(casino_id=casino, sequence=last_sequence)
                if last_sequence else StoredEvent.objects.filter(position=found.last_position)
                ).values_list("hash", "casino_id").first()
        before = StoredEvent.objects.filter(casino_id=casino, sequence=first_sequence).values_list(
            "prev_hash", flat=True).first() if first_sequence else None
        problem = ""
        if stored is None or stored != found.payload:
            problem = "the seal's event differs from the seal on record"
        elif first_sequence and before != found.payload.get("prev_hash"):
            problem = (f"the casino's event {first_sequence} does not follow the hash the seal "
                       "signed before it: an event before the day was altered")
        elif last is None or last[0] != found.last_hash:
            problem = (f"the event at position {found.last_position} does not have the hash it "
                       "signed: an event it covers was altered")
        elif last[1] != casino:
            problem = f"position {found.last_position} is not an event of {casino}"
        elif found.key_id != rules.key_id(public):
            problem = f"signed with key {found.key_id}, not the casino's key now"
        elif not rules.verify(found.payload, found.signature, public):
            problem = "the signature does not match the seal (forged or altered)"
        elif found.gaming_day in closed and report_digest(close_report(
                casino=casino, gaming_day=found.gaming_day)) != found.report_digest:
            problem = "the day's close report no longer gives the digest the seal signed"
        checks.append(SealCheck(casino, found.gaming_day, problem))
    return checks

"""Table configuration and the casino's drop definition. Each change is an event."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from casino.context import require_role
from casino.errors import Conflict, InvalidCommand, NotFound, choice_words, gettext_noop
from casino.models import ChipSet
from casino.money import parse_amount
from eventstore import store
from eventstore.records import Metadata
from games import limits as table_limits
from games.answers import DropDefinitionAnswer, TableAnswer, TableTaxClassAnswer
from games.engine import GAMES
from games.engine.errors import RoundError
from games.events import (
    DropDefinitionSet,
    TableCapitalApproved,
    TableConfigured,
    TableLimitsChanged,
    TableOptionsChanged,
    TableTaxClassChanged,
)
from games.models import DropDefinition, Table
from games.roles import CAPITAL_ROLES

from ._common import casino_get, check_casino, command, engine_error, table_get

_CODE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")

# Seats the layout has, where the regulation fixes them.
MAX_SEATS = {"blackjack": 7, "stud_poker": 7}

DROP_BASES = ("counted", "recorded")


JACKPOT_FROM_POOL = gettext_noop("a table's jackpot is not typed in its options: it is derived from the "
                                 "pool the table feeds (set the pool up, and the tables that feed it, under "
                                 "Jackpots)")


def _check_options(game: str, options: object) -> dict[str, Any]:
    """The game's options as the engine checks them, without ``jackpot``: the pool the table
    feeds is the one source of truth for it (``games.services.jackpot_bets.round_options``);
    ``"jackpot": null`` is accepted and dropped."""
    if game not in GAMES:
        raise InvalidCommand("there is no game {game!r} (games: {games})",
                             params={"game": game, "games": ', '.join(sorted(GAMES))},
                             code="unknown_game", field="game")
    if not isinstance(options, dict):
        raise InvalidCommand("options must be an object", field="options")
    if options.get("jackpot") is not None:
        raise InvalidCommand(JACKPOT_FROM_POOL, code="jackpot_from_pool", field="options")
    checked = {k: v for k, v in options.items() if k != "jackpot"}
    try:
        GAMES[game].check_options(dict(checked))
    except RoundError as error:
        raise engine_error(error, field="options") from None
    return checked


def _check_seats(game: str, seats: object) -> int:
    if isinstance(seats, bool) or not isinstance(seats, int) or seats < 1:
        raise InvalidCommand("a table has one seat or more", field="seats")
    most = MAX_SEATS.get(game)
    if most is not None and seats > most:
        raise InvalidCommand("a {game} table has at most {most} seats",
                             params={"game": game, "most": most}, field="seats")
    return seats


def _check_limits(game: str, options: dict[str, Any], limits: object) -> dict[str, dict[str, str]]:
    try:
        parsed = table_limits.parse_limits(game, options, limits)
    except table_limits.LimitError as error:
        raise InvalidCommand(error.template, params=error.params, code="limits_refused",
                             field="limits", article=error.article, group=error.group) from None
    return table_limits.limits_as_data(parsed)


def _check_prize_cap(game: str, cap: object) -> Decimal | None:
    if cap is None or cap == "":
        return None
    if game not in table_limits.PRIZE_CAP_ARTICLE:
        raise InvalidCommand(
            "the regulation provides no cap on the prizes of one coup at {game}",
            params={"game": game},
            field="max_prize_per_coup",
        )
    return parse_amount(cap, field="max_prize_per_coup")


@command("table_configure")
def table_configure(
    *,
    casino: str,
    code: str,
    name: str,
    game: str,
    options: dict[str, Any] | None = None,
    seats: int,
    chip_set: str,
    limits: dict[str, Any],
    max_prize_per_coup: object = None,
    metadata: Metadata,
) -> TableAnswer:
    """Put a table into service (``TableConfigured`` on ``table/<casino>.<code>``)."""
    check_casino(metadata, casino)
    casino_get(casino)
    if not _CODE.match(code):
        raise InvalidCommand("table code {code!r} must be lower-case letters, digits and dashes",
                             params={"code": code},
                             field="code")
    checked_options = _check_options(game, options or {})
    checked_seats = _check_seats(game, seats)
    checked_limits = _check_limits(game, checked_options, limits)
    cap = _check_prize_cap(game, max_prize_per_coup)
    if not ChipSet.objects.filter(casino_id=casino, code=chip_set).exists():
        raise NotFound("there is no chip set {chip_set!r} in {casino}",
                       params={"chip_set": chip_set, "casino": casino}, field="chip_set")
    if not name.strip():
        raise InvalidCommand("the table needs a name", field="name")

    if Table.objects.filter(casino_id=casino, code=code).exists():
        raise Conflict("table {code!r} already exists in {casino}",
                       params={"code": code, "casino": casino}, field="code")
    event = TableConfigured(casino=casino, code=code, name=name.strip(), game=game,
                            options=checked_options, seats=checked_seats, chip_set=chip_set,
                            limits=checked_limits, max_prize_per_coup=cap)
    store.append(f"table/{casino}.{code}", [event], expected_version=0, metadata=metadata)
    return TableAnswer(casino=casino, table=code, version=1)


@command("table_change_limits")
def table_change_limits(
    *,
    casino: str,
    code: str,
    limits: dict[str, Any],
    max_prize_per_coup: object = None,
    reason: str = "",
    metadata: Metadata,
) -> TableAnswer:
    """New limits for a table (``TableLimitsChanged``): the regulator sees when and who."""
    check_casino(metadata, casino)
    table = table_get(casino, code, lock=True)
    checked = _check_limits(table.game, table.options, limits)
    cap = _check_prize_cap(table.game, max_prize_per_coup)

    store.append(table.stream,
                 [TableLimitsChanged(limits=checked, max_prize_per_coup=cap,
                                     reason=reason.strip())],
                 expected_version=table.version, metadata=metadata)
    return TableAnswer(casino=casino, table=code, version=table.version + 1)


@command("table_change_options")
def table_change_options(
    *, casino: str, code: str, options: dict[str, Any], seats: int, reason: str = "",
    metadata: Metadata,
) -> TableAnswer:
    """New options or seats; refused while a session is open (the rounds use the old ones)."""
    check_casino(metadata, casino)
    table = table_get(casino, code, lock=True)
    if table.open_session_id is not None:
        raise Conflict("table {code} has an open session: close it before changing its options",
                       params={"code": code})
    checked = _check_options(table.game, options)
    checked_seats = _check_seats(table.game, seats)
    # The limit groups may depend on the options (the series exist on the French wheel only).
    _check_limits(table.game, checked, table.limits)
    store.append(table.stream,
                 [TableOptionsChanged(options=checked, seats=checked_seats, reason=reason.strip())],
                 expected_version=table.version, metadata=metadata)
    return TableAnswer(casino=casino, table=code, version=table.version + 1)


BANKS = ("simples", "dupla")


@command("table_change_tax_class")
def table_change_tax_class(*, casino: str, code: str, bank: str, vip: bool = False,
                           reason: str = "", metadata: Metadata) -> TableTaxClassAnswer:
    """Banca simples or dupla, VIP or not (``TableTaxClassChanged``): what the gaming tax reads
    of the table from the next close on (``docs/gaming-tax.md``)."""
    check_casino(metadata, casino)
    table = table_get(casino, code, lock=True)
    if bank not in BANKS:
        raise InvalidCommand("a table is a banca {banks}, not {bank!r}",
                             params={"banks": ' or '.join(BANKS), "bank": bank},
                             field="bank")
    if not isinstance(vip, bool):
        raise InvalidCommand("vip is true or false", field="vip")
    store.append(table.stream, [TableTaxClassChanged(bank=bank, vip=vip, reason=reason.strip())],
                 expected_version=table.version, metadata=metadata)
    return TableTaxClassAnswer(casino=casino, table=code, bank=bank, vip=vip,
                               version=table.version + 1)


@command("table_approve_capital")
def table_approve_capital(*, casino: str, code: str, capital: object, reference: str,
                          reason: str = "", metadata: Metadata) -> TableAnswer:
    """Record the table's capital em giro inicial as the gaming inspection approved it
    (``TableCapitalApproved``, citing the approval in ``reference``): the least base of the
    table's IEJ on every day from now on, whatever its first session opens with
    (``docs/gaming-tax.md``, § The capital em giro inicial)."""
    require_role(metadata, CAPITAL_ROLES, "recording a table's approved capital")
    check_casino(metadata, casino)
    table = table_get(casino, code, lock=True)
    amount = parse_amount(capital, field="capital")
    if amount <= 0:
        raise InvalidCommand("the approved capital is an amount above zero", field="capital")
    if not str(reference or "").strip():
        raise InvalidCommand("cite the inspection's approval of the capital (its act, letter "
                             "or order)", field="reference")
    store.append(table.stream, [TableCapitalApproved(capital=amount,
                                                     reference=str(reference).strip(),
                                                     reason=reason.strip())],
                 expected_version=table.version, metadata=metadata)
    return TableAnswer(casino=casino, table=code, version=table.version + 1)


@command("drop_definition_set")
def drop_definition_set(*, casino: str, basis: str, reason: str, metadata: Metadata) -> DropDefinitionAnswer:
    """A new version of what the casino counts as drop (``DropDefinitionSet``)."""
    check_casino(metadata, casino)
    casino_get(casino)
    if basis not in DROP_BASES:
        raise InvalidCommand("the drop is {drop_bases}, not {basis!r}",
                             params={"drop_bases": choice_words(DROP_BASES, "drop basis"), "basis": basis},
                             field="basis")
    if not reason.strip():
        raise InvalidCommand("say why the drop definition changes", field="reason")
    version = DropDefinition.objects.filter(casino_id=casino).count()
    store.append(f"drop_definition/{casino}",
                 [DropDefinitionSet(casino=casino, basis=basis, reason=reason.strip())],
                 expected_version=version, metadata=metadata)
    return DropDefinitionAnswer(casino=casino, basis=basis, version=version + 1)


def drop_definition_current(casino: str) -> tuple[str, int]:
    """The basis in force and its version (version 0: the default, the drop as counted)."""
    latest = DropDefinition.objects.filter(casino_id=casino).order_by("-version").first()
    if latest is None:
        return "counted", 0
    return latest.basis, latest.version

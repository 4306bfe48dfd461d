"""Cash tables of póquer não bancado (hold'em, omaha, póquer sintético) and chemin de fer
tables: opening with the approved charge, seats, buy-ins and top-ups, hands with their pot and
rake (by the dealer's terminal or in batches), the time charge, the rake box counted by two.

Every refusal names its rule; nothing is recorded when any hand of a batch is refused."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from casino.context import require_role
from casino.errors import Conflict, InvalidCommand, choice_words
from casino.money import Money, fmt, parse_amount
from eventstore import store
from eventstore.commands import command
from eventstore.records import Metadata
from pokerroom.events import (
    PokerChipsBought,
    PokerHandRecorded,
    PokerPlayerLeft,
    PokerPlayerSeated,
    PokerTableOpened,
    PokerTimeCharged,
    PokerWaitlistJoined,
    PokerWaitlistLeft,
    RakeBoxCounted,
)
from pokerroom.models import PokerHand, PokerSeat, PokerTable, PokerWaitlistTicket
from pokerroom.rules import rake as rake_rules
from pokerroom.rules.errors import RuleError

from ..answers import HandsAnswer, RakeCountAnswer, TableAnswer
from ._common import (
    CASH_GAMES,
    CHEMIN_DE_FER,
    FLOOR_ROLES,
    GAME_NAMES,
    GAMES,
    code,
    identification_threshold,
    patron_reference,
    percent,
    refused,
    same_casino,
    seat_number,
    table_get,
)

ZERO = Money(Decimal("0.00"))


def stream(casino: str, table: str) -> str:
    return f"poker_table/{casino}.{table}"


def rule_of(table: PokerTable) -> rake_rules.RakeRule:
    return rake_rules.RakeRule(percent=table.rake_percent, cap=table.rake_cap,
                               minimum_pot=table.minimum_pot,
                               no_flop_no_drop=table.no_flop_no_drop)


@command("poker_table_open")
def poker_table_open(
    *, casino: str, table: str, game: str, seats: int, min_buy_in: Money, max_buy_in: Money,
    approval_reference: str, charge: str = "rake", rake_percent: object = "0",
    rake_cap: Money = ZERO, minimum_pot: Money = ZERO, no_flop_no_drop: bool = True,
    time_rate: Money = ZERO, period_minutes: int = 60, commission_percent: object = "0",
    metadata: Metadata,
) -> TableAnswer:
    """Open a table of the poker room with its approved charge (PR-1, PR-2; chemin de fer: the
    commission, CF-6), each figure a parameter under ``approval_reference``."""
    require_role(metadata, FLOOR_ROLES, "opening a poker room table")
    same_casino(metadata, casino)
    code(table, field="table")
    if game not in GAMES:
        raise InvalidCommand("the poker room plays {games}, not {game!r} (Portaria 217/2007, 2.º)",
                             params={"games": choice_words(GAMES, "poker game", GAME_NAMES),
                                     "game": game}, field="game")
    if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 10:
        raise InvalidCommand("a table has 2 to 10 seats", field="seats")
    if min_buy_in > max_buy_in:
        raise InvalidCommand("the least buy-in {low} is above the most {high}",
                             params={"low": fmt(min_buy_in), "high": fmt(max_buy_in)},
                             field="min_buy_in")
    if not isinstance(approval_reference, str) or not approval_reference.strip():
        raise InvalidCommand("the charge's figures need the inspection's approval reference "
                             "(PR-1)", field="approval_reference")
    if game == CHEMIN_DE_FER:
        charge = "commission"
    elif charge not in rake_rules.CHARGES:
        raise InvalidCommand("a cash table's charge is {charges}, not {charge!r}",
                             params={"charges": choice_words(rake_rules.CHARGES, "poker charge"),
                                     "charge": charge}, field="charge")
    rake = percent(rake_percent, field="rake_percent")
    commission = percent(commission_percent, field="commission_percent")
    try:
        rake_rules.RakeRule(rake, rake_cap, minimum_pot, bool(no_flop_no_drop))
        if charge == rake_rules.TIME_CHARGE:
            rake_rules.time_charge(time_rate, minutes=0, period_minutes=period_minutes)
    except RuleError as error:
        raise refused(error) from None
    if PokerTable.objects.filter(casino_id=casino, code=table).exists():
        raise Conflict("table {table!r} is already open in {casino}",
                       params={"table": table, "casino": casino}, code="table_exists")
    version = store.append(stream(casino, table), [PokerTableOpened(
        casino=casino, table=table, game=game, seats=seats, min_buy_in=min_buy_in,
        max_buy_in=max_buy_in, charge=charge, rake_percent=rake, rake_cap=rake_cap,
        minimum_pot=minimum_pot, no_flop_no_drop=bool(no_flop_no_drop), time_rate=time_rate,
        period_minutes=period_minutes, commission_percent=commission,
        approval_reference=approval_reference.strip())], expected_version=0,
        metadata=metadata)[-1].version
    return TableAnswer(casino=casino, table=table, version=version)


@command("poker_player_seat")
def poker_player_seat(*, casino: str, table: str, seat: int, patron: str = "",
                      ticket: int | None = None, metadata: Metadata) -> TableAnswer:
    """A player takes a free seat: a seat number and, if identified, a patron reference; from
    the waiting list when ``ticket`` is given (the ticket's patron, its ticket closed)."""
    require_role(metadata, FLOOR_ROLES, "seating a player")
    same_casino(metadata, casino)
    found = table_get(casino, table, lock=True)
    number = seat_number(seat, seats=found.seats)
    reference = patron_reference(patron)
    if PokerSeat.objects.filter(casino_id=casino, table=table, seat=number,
                                occupied=True).exists():
        raise Conflict("seat {seat} of {table} is taken", params={"seat": number, "table": table},
                       code="seat_taken")
    events: list[PokerPlayerSeated | PokerWaitlistLeft] = []
    if ticket is not None:
        waiting = _waiting(found, ticket)
        reference = reference or waiting.patron
        events.append(PokerWaitlistLeft(table=table, ticket=waiting.ticket, seated=True))
    events.append(PokerPlayerSeated(table=table, seat=number, patron=reference))
    version = store.append(stream(casino, table), events, expected_version=found.version,
                           metadata=metadata)[-1].version
    return TableAnswer(casino=casino, table=table, version=version)


def _waiting(table: PokerTable, ticket: object) -> PokerWaitlistTicket:
    if isinstance(ticket, bool) or not isinstance(ticket, int):
        raise InvalidCommand("ticket is a ticket number", field="ticket")
    found = PokerWaitlistTicket.objects.filter(casino_id=table.casino_id, table=table.code,
                                               ticket=ticket, waiting=True).first()
    if found is None:
        raise Conflict("ticket {ticket} is not waiting for {table}", code="not_waiting",
                       params={"ticket": ticket, "table": table.code}, field="ticket")
    return found


@command("poker_waitlist_join")
def poker_waitlist_join(*, casino: str, table: str, patron: str = "", metadata: Metadata
                        ) -> TableAnswer:
    """A player joins the table's waiting list: the next ticket number."""
    require_role(metadata, FLOOR_ROLES, "the waiting list")
    same_casino(metadata, casino)
    found = table_get(casino, table, lock=True)
    reference = patron_reference(patron)
    ticket = PokerWaitlistTicket.objects.filter(casino_id=casino, table=table).count() + 1
    version = store.append(stream(casino, table), [PokerWaitlistJoined(
        table=table, ticket=ticket, patron=reference)], expected_version=found.version,
        metadata=metadata)[-1].version
    return TableAnswer(casino=casino, table=table, version=version)


@command("poker_waitlist_leave")
def poker_waitlist_leave(*, casino: str, table: str, ticket: int, metadata: Metadata
                         ) -> TableAnswer:
    require_role(metadata, FLOOR_ROLES, "the waiting list")
    same_casino(metadata, casino)
    found = table_get(casino, table, lock=True)
    waiting = _waiting(found, ticket)
    version = store.append(stream(casino, table), [PokerWaitlistLeft(
        table=table, ticket=waiting.ticket, seated=False)], expected_version=found.version,
        metadata=metadata)[-1].version
    return TableAnswer(casino=casino, table=table, version=version)


@command("poker_player_leave")
def poker_player_leave(*, casino: str, table: str, seat: int, cashed_out: Money = ZERO,
                       metadata: Metadata) -> TableAnswer:
    """A player leaves, cashing out ``cashed_out`` (never more than the players' money at the
    table: what was bought in less the house's charges and what others cashed out)."""
    require_role(metadata, FLOOR_ROLES, "a player leaving")
    same_casino(metadata, casino)
    found = table_get(casino, table, lock=True)
    number = _occupied(found, seat)
    if cashed_out > found.players_money:
        raise InvalidCommand(
            "a cash-out of {amount} is more than the players' money at the table, {held}",
            params={"amount": fmt(cashed_out), "held": fmt(found.players_money)},
            code="cash_out_above_table", field="cashed_out")
    version = store.append(stream(casino, table), [PokerPlayerLeft(
        table=table, seat=number, cashed_out=cashed_out)], expected_version=found.version,
        metadata=metadata)[-1].version
    return TableAnswer(casino=casino, table=table, version=version)


def _occupied(table: PokerTable, seat: object) -> int:
    number = seat_number(seat, seats=table.seats)
    if not PokerSeat.objects.filter(casino_id=table.casino_id, table=table.code, seat=number,
                                    occupied=True).exists():
        raise Conflict("seat {seat} of {table} has no player", code="seat_empty",
                       params={"seat": number, "table": table.code}, field="seat")
    return number


@command("poker_chips_buy")
def poker_chips_buy(*, casino: str, table: str, seat: int, amount: Money, where: str = "table",
                    metadata: Metadata) -> TableAnswer:
    """A buy-in (the seat's first) or a top-up, within the table's limits: a first buy-in from
    the least to the most, a top-up bringing the seat's chips bought to at most the most."""
    require_role(metadata, FLOOR_ROLES, "a buy-in at a poker room table")
    same_casino(metadata, casino)
    found = table_get(casino, table, lock=True)
    number = _occupied(found, seat)
    if where not in ("table", "cage"):
        raise InvalidCommand("chips are bought at the table or at the cage", field="where")
    taken = PokerSeat.objects.get(casino_id=casino, table=table, seat=number)
    bought = taken.bought
    top_up = bought > 0
    if not top_up and amount < found.min_buy_in:
        raise InvalidCommand("a buy-in of {amount} is below the table's least, {low}",
                             params={"amount": fmt(amount), "low": fmt(found.min_buy_in)},
                             code="buy_in_below_limit", field="amount")
    if bought + amount > found.max_buy_in:
        raise InvalidCommand(
            "a buy-in of {amount} takes the seat's chips bought to {total}, above the table's "
            "most, {high}",
            params={"amount": fmt(amount), "total": fmt(bought + amount),
                    "high": fmt(found.max_buy_in)},
            code="buy_in_above_limit", field="amount")
    threshold = identification_threshold(casino)
    if where == "table" and threshold is not None and amount >= threshold[0] and not taken.patron:
        raise InvalidCommand(
            "a buy-in of {amount} is at or above {threshold}: seat an identified patron first "
            "({citation})",
            params={"amount": fmt(amount), "threshold": fmt(threshold[0]),
                    "citation": threshold[1]}, code="identification_required", field="amount")
    version = store.append(stream(casino, table), [PokerChipsBought(
        table=table, seat=number, amount=amount, top_up=top_up, where=where)],
        expected_version=found.version, metadata=metadata)[-1].version
    return TableAnswer(casino=casino, table=table, version=version)


def _amounts(lines: object, *, field: str, seats: int) -> dict[int, Decimal]:
    if not isinstance(lines, Mapping) or not lines:
        raise InvalidCommand("{field} is a seat -> amount object", params={"field": field},
                             field=field)
    out: dict[int, Decimal] = {}
    for seat, amount in lines.items():
        try:
            number = int(seat)
        except (TypeError, ValueError):
            number = -1
        out[seat_number(number, seats=seats, field=field)] = parse_amount(
            amount, field=field, allow_zero=True)
    return out


def _lines(amounts: Mapping[int, Decimal]) -> tuple[dict[str, str], ...]:
    return tuple({"seat": str(seat), "amount": fmt(amount)}
                 for seat, amount in sorted(amounts.items()))


@command("poker_hands_record")
def poker_hands_record(*, casino: str, table: str, hands: Sequence[Mapping[str, Any]],
                       source: str = "terminal", metadata: Metadata) -> HandsAnswer:
    """Record one hand (the dealer's terminal) or a batch: each ``{"contributions": {seat:
    amount}, "awards": {seat: amount}, "rake": amount, "flop_dealt": bool}``. Each must add up
    and take the approved rake (PR-1); one refused hand refuses the batch, naming its index."""
    require_role(metadata, FLOOR_ROLES, "recording hands")
    same_casino(metadata, casino)
    found = table_get(casino, table, lock=True)
    if found.game not in CASH_GAMES:
        raise InvalidCommand("table {table} plays {game}: its coups are recorded as coups",
                             params={"table": table, "game": found.game}, field="table")
    if source not in ("terminal", "batch"):
        raise InvalidCommand("hands come from the terminal or a batch", field="source")
    if not isinstance(hands, Sequence) or not hands:
        raise InvalidCommand("record one hand or more", field="hands")
    seated = set(PokerSeat.objects.filter(casino_id=casino, table=table, occupied=True)
                 .values_list("seat", flat=True))
    rule = rule_of(found)
    last = (PokerHand.objects.filter(casino_id=casino, table=table)
            .order_by("-hand").values_list("hand", flat=True).first() or 0)
    events: list[PokerHandRecorded] = []
    total = ZERO
    for index, given in enumerate(hands):
        if not isinstance(given, Mapping):
            raise InvalidCommand("hand {index} is not an object", params={"index": index},
                                 field="hands", hand=index)
        contributions = _amounts(given.get("contributions"), field="contributions",
                                 seats=found.seats)
        awards = _amounts(given.get("awards"), field="awards", seats=found.seats)
        rake = parse_amount(given.get("rake", "0"), field="rake", allow_zero=True)
        flop = given.get("flop_dealt", True)
        if not isinstance(flop, bool):
            raise InvalidCommand("flop_dealt is true or false", field="flop_dealt")
        empty = sorted(set(contributions) - seated)
        if empty:
            raise Conflict("hand {index}: seat {seat} has no player", code="seat_empty",
                           params={"index": index, "seat": empty[0]}, hand=index)
        try:
            pot = rake_rules.check_hand(rule, rake_rules.Hand(contributions, awards, rake, flop))
        except RuleError as error:
            raise refused(error, hand=index) from None
        events.append(PokerHandRecorded(
            table=table, hand=last + index + 1, contributions=_lines(contributions),
            awards=_lines(awards), pot=pot, rake=rake, flop_dealt=flop, source=source))
        total = Money(total + rake)
    version = store.append(stream(casino, table), events, expected_version=found.version,
                           metadata=metadata)[-1].version
    return HandsAnswer(casino=casino, table=table, hands=[e.hand for e in events],
                       rake=fmt(total), version=version)


@command("poker_time_charge")
def poker_time_charge(*, casino: str, table: str, seat: int, minutes: int,
                      metadata: Metadata) -> TableAnswer:
    """Collect the charge per time of play from a seat (PR-2), at a table that charges so."""
    require_role(metadata, FLOOR_ROLES, "a time charge")
    same_casino(metadata, casino)
    found = table_get(casino, table, lock=True)
    if found.charge != rake_rules.TIME_CHARGE:
        raise InvalidCommand("table {table} takes a {charge}, not a time charge (PR-2)",
                             params={"table": table, "charge": found.charge}, field="table")
    number = _occupied(found, seat)
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise InvalidCommand("minutes is a whole number", field="minutes")
    try:
        amount = rake_rules.time_charge(found.time_rate, minutes=minutes,
                                        period_minutes=found.period_minutes)
    except RuleError as error:
        raise refused(error) from None
    version = store.append(stream(casino, table), [PokerTimeCharged(
        table=table, seat=number, minutes=minutes, amount=amount)],
        expected_version=found.version, metadata=metadata)[-1].version
    return TableAnswer(casino=casino, table=table, version=version)


@command("rake_box_count")
def rake_box_count(*, casino: str, table: str, counted: Money, second_counter: str,
                   metadata: Metadata) -> RakeCountAnswer:
    """The rake box dropped and counted by two counters (the one acting and ``second_counter``,
    another person) against the rake (and time charges) recorded since the last count."""
    require_role(metadata, FLOOR_ROLES, "counting a rake box")
    same_casino(metadata, casino)
    found = table_get(casino, table, lock=True)
    second = second_counter.strip() if isinstance(second_counter, str) else ""
    if not second or second == metadata.actor:
        raise InvalidCommand("a rake box is counted by two people: name the second counter, "
                             "another than you", code="four_eyes", field="second_counter")
    recorded = found.rake_uncounted
    variance = counted - recorded
    version = store.append(stream(casino, table), [RakeBoxCounted(
        table=table, recorded=recorded, counted=counted, variance=variance,
        counted_by=(metadata.actor, second))], expected_version=found.version,
        metadata=metadata)[-1].version
    return RakeCountAnswer(casino=casino, table=table, recorded=fmt(recorded),
                           counted=fmt(counted), variance=fmt(variance), version=version)

"""Chemin de fer at the pit: a coup recorded with its cards, settled by the pure rules
(``pokerroom.rules.chemin_de_fer``, CF-1..CF-6), the house's commission on the banker's
winnings recorded with it. A coup whose cards break the drawing rules is refused, naming the
rule, and nothing is recorded."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from casino.context import require_role
from casino.errors import Conflict, InvalidCommand
from casino.money import Money, fmt
from eventstore import store
from eventstore.commands import command
from eventstore.records import Metadata
from pokerroom.events import ChemmyCoupSettled
from pokerroom.models import ChemmyCoup, PokerSeat
from pokerroom.rules import chemin_de_fer as rules
from pokerroom.rules.errors import RuleError

from ..answers import CoupAnswer
from ._common import CHEMIN_DE_FER, FLOOR_ROLES, refused, same_casino, seat_number, table_get
from .tables import _amounts, _lines, stream


@command("chemmy_coup_record")
def chemmy_coup_record(
    *, casino: str, table: str, banker_seat: int, bank: Money, stakes: Mapping[str, object],
    punter_cards: Sequence[str], banker_cards: Sequence[str], punter_option: str | None = None,
    metadata: Metadata,
) -> CoupAnswer:
    """Record and settle one coup: the banker's seat and bank, the stakes against it by seat,
    the cards in dealing order and the punter's option at five (CF-2)."""
    require_role(metadata, FLOOR_ROLES, "recording a chemin de fer coup")
    same_casino(metadata, casino)
    found = table_get(casino, table, lock=True)
    if found.game != CHEMIN_DE_FER:
        raise InvalidCommand("table {table} plays {game}, not chemin de fer",
                             params={"table": table, "game": found.game}, field="table")
    banker = seat_number(banker_seat, seats=found.seats, field="banker_seat")
    against = _amounts(stakes, field="stakes", seats=found.seats)
    if banker in against:
        raise InvalidCommand("the banker does not stake against their own bank (CF-5)",
                             field="stakes")
    seated = set(PokerSeat.objects.filter(casino_id=casino, table=table, occupied=True)
                 .values_list("seat", flat=True))
    empty = sorted(({banker} | set(against)) - seated)
    if empty:
        raise Conflict("seat {seat} has no player", params={"seat": empty[0]}, code="seat_empty")
    for cards, field in ((punter_cards, "punter_cards"), (banker_cards, "banker_cards")):
        if not isinstance(cards, Sequence) or isinstance(cards, str) or not all(
                isinstance(card, str) for card in cards):
            raise InvalidCommand("{field} is a list of cards", params={"field": field},
                                 field=field)
    try:
        result = rules.settle_coup(rules.Coup(
            punter_cards=list(punter_cards), banker_cards=list(banker_cards), bank=bank,
            stakes=against, commission_percent=found.commission_percent,
            punter_option=punter_option))
    except RuleError as error:
        raise refused(error) from None
    number = (ChemmyCoup.objects.filter(casino_id=casino, table=table).count()) + 1
    version = store.append(stream(casino, table), [ChemmyCoupSettled(
        table=table, coup=number, banker_seat=banker, punter_cards=tuple(punter_cards),
        banker_cards=tuple(banker_cards), punter_option=punter_option, bank=bank,
        stakes=_lines(against), punter_total=result.punter_total,
        banker_total=result.banker_total, winner=result.winner,
        banker_result=result.banker_result, commission=result.commission,
        bank_after=result.bank_after)], expected_version=found.version,
        metadata=metadata)[-1].version
    return CoupAnswer(casino=casino, table=table, coup=number, winner=result.winner,
                      commission=fmt(result.commission), bank_after=fmt(result.bank_after),
                      version=version)

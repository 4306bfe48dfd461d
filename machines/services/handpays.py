"""Hand pays: a jackpot over the machine's limit, cancelled credits, or a progressive hit,
recorded against the machine's own event (``HandPayRecorded``), paid at the cage with a slip
(``HandPayPaid``): a second person above the four-eyes threshold (``machines.law``), the patron
identified at the anti-money-laundering threshold for payouts (``compliance.thresholds``, a
named coupling). Machine progressives: a pool's hit becomes a hand pay and the pool resets."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from casino.context import require_role
from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound, choice_words
from casino.money import Money, fmt
from compliance.services.screening import alerts_raise, movement_check
from compliance.thresholds import PAYOUT
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata
from machines.answers import HandPayAnswer, ProgressiveAnswer
from machines.events import HandPayPaid, HandPayRecorded, SlotProgressiveCreated, SlotProgressiveHit
from machines.models import HandPay, SlotProgressive
from machines.parameters import parameter
from machines.roles import CONFIGURE_ROLES, FLOOR_ROLES, PAY_ROLES, SUPERVISOR_ROLES

from ._common import casino_get, code, machine_get, second_person, text

KINDS = ("jackpot", "cancelled_credits")


def _stream(casino: str, handpay_id: str) -> str:
    return f"handpay/{casino}.{handpay_id}"


@command("hand_pay_record")
def hand_pay_record(*, casino: str, machine: str, handpay_id: str, kind: str, amount: Money,
                    machine_event: str, metadata: Metadata) -> HandPayAnswer:
    """The machine locked up for a hand pay (its slot system's event ``machine_event``)."""
    require_role(metadata, FLOOR_ROLES, "recording a hand pay")
    casino_get(metadata, casino)
    found = machine_get(casino, machine)
    ident = code(handpay_id, field="handpay_id")
    if kind not in KINDS:
        raise InvalidCommand("a hand pay is for {kinds}, not {kind!r}",
                             params={"kinds": choice_words(KINDS, "hand pay kind"), "kind": kind},
                             field="kind")
    if kind == "jackpot" and amount <= found.hand_pay_limit:
        raise InvalidCommand("a jackpot of {amount} is within machine {machine}'s limit of "
                             "{limit}: the machine pays it", params={
                                 "amount": fmt(amount), "machine": machine,
                                 "limit": fmt(found.hand_pay_limit)},
                             code="within_machine_limit", field="amount")
    event = text(machine_event, field="machine_event")
    if HandPay.objects.filter(casino_id=casino, handpay_id=ident).exists():
        raise Conflict("hand pay {handpay_id} is already recorded",
                       params={"handpay_id": ident}, field="handpay_id")
    store.append(_stream(casino, ident), [HandPayRecorded(
        handpay_id=ident, machine=machine, kind=kind, amount=amount, machine_event=event,
        pool="")], expected_version=0, metadata=metadata)
    return HandPayAnswer(casino=casino, handpay_id=ident, machine=machine, kind=kind,
                         amount=fmt(amount), status="recorded")


@command("hand_pay_pay")
def hand_pay_pay(*, casino: str, handpay_id: str, window: str, slip: str,
                 witnessed_by: str = "", patron: str = "", metadata: Metadata) -> HandPayAnswer:
    """Pay a recorded hand pay at the cage, once."""
    require_role(metadata, PAY_ROLES, "paying a hand pay")
    place = casino_get(metadata, casino)
    pay = HandPay.objects.filter(casino_id=casino, handpay_id=handpay_id).first()
    if pay is None:
        raise NotFound("there is no hand pay {handpay_id!r}: a hand pay is paid against the "
                       "machine's recorded event", params={"handpay_id": handpay_id},
                       code="unknown_hand_pay", field="handpay_id")
    if pay.status == "paid":
        raise Conflict("hand pay {handpay_id} is already paid", params={"handpay_id": handpay_id},
                       code="hand_pay_already_paid")
    limit = parameter(place, "hand_pay_four_eyes", place.gaming_day(clock.now()))
    witness = ""
    if pay.amount > limit.value:
        if not witnessed_by:
            raise NotAllowed("a hand pay above {limit} needs a second person (witnessed_by)",
                             params={"limit": fmt(limit.value)}, code="four_eyes",
                             field="witnessed_by")
        witness = second_person(metadata, casino, witnessed_by, SUPERVISOR_ROLES,
                                what="a hand pay")
    # the patron: a reference of the compliance registry (unknown: refused), identified and
    # verified at the law's threshold for a payment of winnings (Lei n.º 83/2017, art. 76.º;
    # Macau: Instrução da DICJ n.º 1/2016), as the cage's payouts are
    checked = movement_check(casino=place, patron=patron or None,
                             gaming_day=place.gaming_day(clock.now()), kind=PAYOUT,
                             amount=pay.amount, cash=pay.amount, where=window)
    store.append(_stream(casino, handpay_id), [HandPayPaid(
        handpay_id=handpay_id, machine=pay.machine, kind=pay.kind, amount=pay.amount,
        window=code(window, field="window"), slip=text(slip, field="slip"),
        witnessed_by=witness, patron=checked.patron_id)], expected_version=pay.version,
        metadata=metadata)
    alerts_raise(checked, event_type="HandPayPaid", reference=handpay_id, where=window,
                 metadata=metadata)
    return HandPayAnswer(casino=casino, handpay_id=handpay_id, machine=pay.machine,
                         kind=pay.kind, amount=fmt(pay.amount), status="paid", slip=slip)


# --- machine progressives ------------------------------------------------------------------------


def _rate(value: object) -> Decimal:
    try:
        rate = Decimal(str(value))
    except InvalidOperation:
        rate = Decimal(-1)
    if isinstance(value, float | bool) or not rate.is_finite() or not 0 < rate <= 100 \
            or rate != rate.quantize(Decimal("0.0001")):
        raise InvalidCommand("rate is a percentage of coin in above 0, at most 100, such as "
                             "\"1.5\", not {value!r}", params={"value": value}, field="rate")
    return rate


@command("slot_progressive_create")
def slot_progressive_create(*, casino: str, pool: str, name: str, machines: Sequence[str],
                            rate: object, start: Money, approval_reference: str,
                            metadata: Metadata) -> ProgressiveAnswer:
    """A linked pool, funded at its start value by the casino."""
    require_role(metadata, CONFIGURE_ROLES, "setting up a progressive pool")
    casino_get(metadata, casino)
    ident = code(pool, field="pool")
    if SlotProgressive.objects.filter(casino_id=casino, pool=ident).exists():
        raise Conflict("pool {pool} already exists", params={"pool": ident}, field="pool")
    store.append(f"slot-progressive/{casino}.{ident}", [SlotProgressiveCreated(
        pool=ident, casino=casino, name=text(name, field="name"),
        machines=tuple(code(x, field="machines") for x in machines), rate=_rate(rate),
        start=start, approval_reference=text(approval_reference, field="approval_reference"))],
        expected_version=0, metadata=metadata)
    return ProgressiveAnswer(casino=casino, pool=ident, amount=fmt(start), version=1)


@command("slot_progressive_hit")
def slot_progressive_hit(*, casino: str, pool: str, machine: str, handpay_id: str,
                         machine_event: str, metadata: Metadata) -> ProgressiveAnswer:
    """The pool won at ``machine``: its whole amount becomes a hand pay; it resets to start."""
    require_role(metadata, FLOOR_ROLES, "recording a progressive hit")
    casino_get(metadata, casino)
    found = machine_get(casino, machine)
    pot = SlotProgressive.objects.filter(casino_id=casino, pool=pool).first()
    if pot is None:
        raise NotFound("there is no progressive pool {pool!r}", params={"pool": pool},
                       field="pool")
    if found.progressive_pool != pool:
        raise InvalidCommand("machine {machine} does not feed pool {pool}",
                             params={"machine": machine, "pool": pool}, field="machine")
    ident = code(handpay_id, field="handpay_id")
    if HandPay.objects.filter(casino_id=casino, handpay_id=ident).exists():
        raise Conflict("hand pay {handpay_id} is already recorded",
                       params={"handpay_id": ident}, field="handpay_id")
    store.append(f"slot-progressive/{casino}.{pool}", [SlotProgressiveHit(
        pool=pool, machine=machine, amount=pot.amount, handpay_id=ident, reset_to=pot.start)],
        expected_version=pot.version, metadata=metadata)
    store.append(_stream(casino, ident), [HandPayRecorded(
        handpay_id=ident, machine=machine, kind="progressive", amount=pot.amount,
        machine_event=text(machine_event, field="machine_event"), pool=pool)],
        expected_version=0, metadata=metadata)
    return ProgressiveAnswer(casino=casino, pool=pool, amount=fmt(pot.start),
                             version=pot.version + 1, handpay_id=ident, prize=fmt(pot.amount))

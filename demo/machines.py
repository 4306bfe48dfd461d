"""The demo's slot floor: one gaming day of a casino's machines (Lisbon 120 in euros, Macau 200
in patacas), played by a simulator that spins each machine's pay table (so returns are
realistic), through the machines' public services only.

Each machine is visited by players who put in notes (or a ticket printed elsewhere), spin at the
machine's bet while their credits last, and cash out a ticket; one machine locks up for a
jackpot paid by hand at the slot cashier; a machine of the linked progressive hits it; the slot
data system reads every machine's meters at midday and at the end; the count room counts every
box (two counters); the cashier redeems some tickets. Everything is drawn from one
``random.Random``: the same seed on the same floor plays the same day. The floor is set up on
first use (banks of ten, four certified pay tables, one progressive link of ten machines).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from casino.context import system_metadata
from casino.models import Casino, Membership, Role
from casino.money import CASH_DENOMINATIONS, parse_amount
from eventstore import clock
from eventstore.records import Metadata
from machines import meters as m
from machines.models import HandPay, Machine, SlotProgressive, SlotShift, SlotWindow
from machines.parameters import parameter
from machines.services.counts import machine_box_confirm, machine_box_count
from machines.services.handpays import (
    hand_pay_pay,
    hand_pay_record,
    slot_progressive_create,
    slot_progressive_hit,
)
from machines.services.machines import machine_add
from machines.services.readings import contribution, meter_readings_record
from machines.services.shifts import (
    shift_expected,
    slot_shift_close,
    slot_shift_count,
    slot_shift_open,
    slot_shift_variance_explain,
)
from machines.services.tickets import ticket_issue, ticket_redeem

if TYPE_CHECKING:
    from demo.day import DemoDay

JOB = "demo_day"
FLOORS = {"lisboa": 120, "macau": 200}
# Certified pay tables (weights out of 1,000; pays times the bet): 90 %, 95 %, 87 %, 87 %.
PAYTABLES = (
    ({"weight": 800, "pays": 0}, {"weight": 150, "pays": 2}, {"weight": 40, "pays": 10},
     {"weight": 10, "pays": 20}),
    ({"weight": 850, "pays": 0}, {"weight": 100, "pays": 3}, {"weight": 35, "pays": 10},
     {"weight": 15, "pays": 20}),
    ({"weight": 700, "pays": 0}, {"weight": 250, "pays": 2}, {"weight": 38, "pays": 5},
     {"weight": 12, "pays": 15}),
    ({"weight": 900, "pays": 0}, {"weight": 60, "pays": 5}, {"weight": 30, "pays": 10},
     {"weight": 10, "pays": 27}),
)
GAMES = ("Triple Sevens", "Golden Dragon", "Fruit Fiesta", "Lucky Stars")
# casino -> (denomination, bet, hand pay limit, notes players put in, the jackpot hand paid,
#            the progressive's start and rate)
MONEY = {
    "EUR": (Decimal("0.10"), Decimal("1.00"), Decimal("500.00"), ("5", "10", "20", "50"),
            Decimal("800.00"), Decimal("500.00"), "1.5"),
    "MOP": (Decimal("1.00"), Decimal("10.00"), Decimal("5000.00"), ("20", "50", "100", "500"),
            Decimal("8000.00"), Decimal("5000.00"), "1.5"),
}
WINDOW = "SLOT"
# the slot cashier's float on the window's first day (cash brought from the bank)
FLOAT = {"EUR": Decimal("5000.00"), "MOP": Decimal("50000.00")}
POOL = "link-1"
CENT = Decimal("0.01")


def _as(casino: str, role: str, who: str) -> Metadata:
    meta = system_metadata(casino, job=JOB)
    return Metadata(actor=f"{meta.actor}:{who}", role=role, casino=casino,
                    request_id=meta.request_id, correlation_id=meta.correlation_id)


def _sds(casino: str) -> Metadata:
    return system_metadata(casino, job="slot-data-system")


@dataclass
class _Play:
    """A machine's meters as the simulator runs them (cumulative, as the machine keeps them)."""

    number: str
    meters: dict[str, Decimal]
    games: int
    bills: dict[str, int]
    table: tuple[m.PayLine, ...]
    pool: str
    notes_in: dict[str, int] = field(default_factory=dict)

    def reading(self, reading_id: str, at: str) -> dict[str, object]:
        values: dict[str, object] = {k: str(v) for k, v in self.meters.items()}
        values["games_played"] = self.games
        values["bills"] = dict(self.bills)
        return {"machine": self.number, "reading_id": reading_id, "read_at": at,
                "meters": values}


def ensure_floor(casino: Casino, count: int) -> list[Machine]:
    """The casino's floor, set up on first use: ``count`` machines in banks of ten, the first
    ten linked to a progressive pool."""
    if Machine.objects.filter(casino_id=casino.code).exists():
        return list(Machine.objects.filter(casino_id=casino.code, retired=False)
                    .order_by("number"))
    denomination, _bet, limit, _notes, _jackpot, start, rate = MONEY[casino.currency]
    admin = _as(casino.code, Role.ADMINISTRATOR, "config")
    slot_progressive_create(casino=casino.code, pool=POOL, name="Link 1",
                            machines=[f"M{i:03d}" for i in range(1, 11)], rate=rate,
                            start=parse_amount(str(start)), approval_reference="DEMO-PROG-1",
                            metadata=admin)
    for i in range(1, count + 1):
        machine_add(casino=casino.code, machine=f"M{i:03d}", bank=f"B{(i - 1) // 10 + 1:02d}",
                    position=f"P{i:03d}", manufacturer=("IGT", "Aristocrat", "Novomatic")[i % 3],
                    model="Demo", serial=f"DEMO-{casino.code}-{i:03d}",
                    game=GAMES[i % len(GAMES)], paytable=list(PAYTABLES[i % len(PAYTABLES)]),
                    denomination=parse_amount(str(denomination)),
                    hand_pay_limit=parse_amount(str(limit)), approved_on="2026-01-15",
                    approval_reference=f"DEMO-{i:03d}", progressive_pool=POOL if i <= 10 else "",
                    metadata=admin)
    return list(Machine.objects.filter(casino_id=casino.code).order_by("number"))


def _witness(casino: str) -> str:
    """A supervisor of the casino who may witness (the seeded demo's), or ''."""
    found = (Membership.objects.filter(casino_id=casino, role=Role.CAGE_SUPERVISOR)
             .select_related("user").first())
    return found.user.username if found else ""


def _pay(casino: str, handpay_id: str, rng: random.Random) -> None:
    pay = HandPay.objects.get(casino_id=casino, handpay_id=handpay_id)
    place = Casino.objects.get(code=casino)
    limit = parameter(place, "hand_pay_four_eyes", place.gaming_day(clock.now())).value
    witness = _witness(casino) if pay.amount > limit else ""
    if pay.amount > limit and not witness:
        return  # left to pay: the reconciliation shows it recorded, not yet paid
    hand_pay_pay(casino=casino, handpay_id=handpay_id, window=WINDOW,
                 slip=f"HP-{rng.randrange(10**6):06d}", witnessed_by=witness,
                 patron="", metadata=_as(casino, Role.CASHIER, "caixa"))


def play_floor(casino: str, *, seed: int, machines: int | None = None, visits: int = 1,
               spins: int = 40) -> dict[str, Decimal]:
    """One gaming day of ``casino``'s floor on the platform's clock (the demo's, on a past day,
    which stands still while the floor plays: the slot data system's reads are stamped a
    millisecond apart, each later than the last, inside the day); answers the simulated win,
    the tickets out and in. Each machine is visited ``visits`` times: the first visits of half
    the floor before the midday reading, of the other half after it (one visit a machine shows
    every flow: notes and tickets in, a ticket out; issue 36 wants the three days in under a
    minute)."""
    place = Casino.objects.get(code=casino)
    floor = ensure_floor(place, machines or FLOORS.get(casino, 20))
    run = Machine.objects.filter(casino_id=casino).values_list("readings", flat=True)
    rng = random.Random(f"{seed}:{casino}:{sum(run)}")
    _denomination, bet, _limit, notes, jackpot, _start, _rate = MONEY[place.currency]
    plays = {x.number: _Play(x.number, {k: v for k, v in m.from_data(x.meters).__dict__.items()
                                        if k in m.MONEY_METERS},
                             m.from_data(x.meters).games_played,
                             dict(m.from_data(x.meters).bills),
                             m.parse_paytable(x.paytable), x.progressive_pool)
             for x in floor}
    tag = f"{clock.now():%Y%m%d%H%M%S}{rng.randrange(10**4):04d}"
    outstanding: list[tuple[str, Decimal]] = []
    simulated = Decimal("0.00")
    counter = 0

    def visit(play: _Play) -> None:
        nonlocal simulated, counter
        credits = Decimal("0.00")
        if outstanding and rng.random() < 0.3:
            validation, amount = outstanding.pop(rng.randrange(len(outstanding)))
            ticket_redeem(casino=casino, validation=validation, place="machine",
                          machine=play.number, metadata=_sds(casino))
            play.meters["tickets_in"] += amount
            credits += amount
        else:
            note = rng.choice(notes)
            count = rng.randint(1, 3)
            key = f"{Decimal(note):.2f}"
            play.bills[key] = play.bills.get(key, 0) + count
            play.notes_in[key] = play.notes_in.get(key, 0) + count
            play.meters["bills_in"] += Decimal(note) * count
            credits += Decimal(note) * count
        for _ in range(spins):
            if credits < bet:
                break
            credits -= bet
            won = bet * m.spin(play.table, rng)
            play.meters["coin_in"] += bet
            play.meters["coin_out"] += won
            play.games += 1
            credits += won
            simulated += bet - won
        if credits > 0:
            counter += 1
            validation = f"{tag}{counter:05d}"
            ticket_issue(casino=casino, validation=validation, machine=play.number,
                         amount=parse_amount(str(credits)), issued_at=clock.now().isoformat(),
                         metadata=_sds(casino))
            play.meters["tickets_out"] += credits
            outstanding.append((validation, credits))

    reads = 0

    def read(step: str) -> None:
        nonlocal reads
        reads += 1
        at = (clock.now() + dt.timedelta(milliseconds=reads)).isoformat()
        readings = []
        # the floor's meters as last read, and the pools' rates: one query each, not one a
        # machine
        before = {x.number: m.from_data(x.meters).coin_in
                  for x in Machine.objects.filter(casino_id=casino).only("number", "meters")}
        rates = dict(SlotProgressive.objects.filter(casino_id=casino)
                     .values_list("pool", "rate"))
        for play in plays.values():
            diff = play.meters["coin_in"] - before[play.number]
            if play.pool:
                play.meters["progressive_contributions"] += contribution(diff, rates[play.pool])
            readings.append(play.reading(f"{tag}-{step}", at))
        meter_readings_record(casino=casino, readings=readings, source="sds",
                              metadata=_sds(casino))

    ordered = list(plays.values())
    shift = _shift_open(place)
    half = len(ordered) // 2
    for play in ordered[:half]:
        visit(play)
    read("midday")
    for play in ordered[half:]:
        visit(play)
    for _ in range(visits - 1):
        for play in ordered:
            visit(play)
    # a jackpot over the machine's limit, locked up and paid by hand
    lucky = ordered[rng.randrange(len(ordered))]
    lucky.meters["coin_in"] += bet
    lucky.meters["jackpots"] += jackpot
    lucky.games += 1
    simulated += bet - jackpot
    hand_pay_record(casino=casino, machine=lucky.number, handpay_id=f"{tag}-J",
                    kind="jackpot", amount=parse_amount(str(jackpot)),
                    machine_event=f"SAS-51-{tag}", metadata=_sds(casino))
    _pay(casino, f"{tag}-J", rng)
    # the progressive, hit at a machine of its link (its prize on the jackpots meter)
    linked = [p for p in ordered if p.pool]
    if linked:
        winner = linked[rng.randrange(len(linked))]
        read("before-hit")  # the pool as its machines' coin in left it
        hit = slot_progressive_hit(casino=casino, pool=winner.pool, machine=winner.number,
                                   handpay_id=f"{tag}-P", machine_event=f"SAS-PROG-{tag}",
                                   metadata=_sds(casino))
        winner.meters["jackpots"] += Decimal(hit.prize)
        simulated -= Decimal(hit.prize)
        _pay(casino, f"{tag}-P", rng)
    # the cashier pays some tickets; the rest stay outstanding (the liability)
    for validation, _amount in outstanding[: len(outstanding) // 3]:
        ticket_redeem(casino=casino, validation=validation, place="cage", window=WINDOW,
                      metadata=_as(casino, Role.CASHIER, "caixa"))
    read("close")
    # the count room: every box with notes, counted by one and confirmed by another
    boxes = dict(Machine.objects.filter(casino_id=casino).values_list("number", "box_metered"))
    for play in ordered:
        box = boxes[play.number]
        if not box:
            continue
        drop = f"{tag}-{play.number}"
        counted = {d: n for d, n in play.notes_in.items() if n}
        if sum(Decimal(d) * n for d, n in counted.items()) != box:
            counted = _notes_for(box, notes)
        machine_box_count(casino=casino, machine=play.number, drop_id=drop, notes=counted,
                          window=WINDOW, metadata=_as(casino, Role.CASHIER, "caixa"))
        machine_box_confirm(casino=casino, drop_id=drop,
                            metadata=_as(casino, Role.CASHIER, "caixa2"))
    _shift_close(place, shift)
    return {"simulated_win": simulated.quantize(CENT), "machines": Decimal(len(ordered))}


def _shift_open(place: Casino) -> str:
    """The slot cashier opens the day's shift on a blind count of the drawer: what the last
    shift closed on, or on the window's first day a float brought from the bank."""
    live = SlotShift.objects.filter(casino_id=place.code, window=WINDOW).exclude(
        status="closed").first()
    if live is not None:  # left counted, waiting for a supervisor: the day goes on in it
        return live.shift_id
    book = SlotWindow.objects.filter(casino_id=place.code, window=WINDOW).first()
    cash = book.cash if book is not None else Decimal("0.00")
    if book is None or not book.shifts:  # the window's first shift: a float brought in too
        cash += FLOAT[place.currency]
    return slot_shift_open(casino=place.code, window=WINDOW, notes=_cash_for(place, cash),
                           metadata=_as(place.code, Role.CASHIER, "caixa")).shift_id


def _shift_close(place: Casino, shift_id: str) -> None:
    """At the day's end the drawer holds what it should, but for what the currency's smallest
    coin cannot pay (a progressive prize in patacas to the cent): counted blind, a difference
    explained and approved by a cage supervisor, closed."""
    row = SlotShift.objects.get(casino_id=place.code, shift_id=shift_id)
    cashier = _as(place.code, Role.CASHIER, "caixa")
    counted = slot_shift_count(casino=place.code, shift_id=shift_id,
                               notes=_cash_for(place, shift_expected(row)), metadata=cashier)
    if Decimal(counted.variance):
        supervisor = _witness(place.code)
        if not supervisor:
            return  # left counted: it holds its day's close up until a supervisor approves it
        slot_shift_variance_explain(
            casino=place.code, shift_id=shift_id, approved_by=supervisor, metadata=cashier,
            explanation="cents the currency's smallest coin cannot pay, rounded at the window")
    slot_shift_close(casino=place.code, shift_id=shift_id, metadata=cashier)


def _cash_for(place: Casino, value: Decimal) -> dict[str, int]:
    """``value`` in the currency's notes and coins, largest first."""
    return _notes_for(value, tuple(str(d) for d in CASH_DENOMINATIONS[place.currency]))


def _notes_for(value: Decimal, notes: tuple[str, ...]) -> dict[str, int]:
    """``value`` in the largest notes first (a box holding more than this run put in it)."""
    out: dict[str, int] = {}
    for note in sorted((Decimal(n) for n in notes), reverse=True):
        count, value = divmod(value, note)
        if count:
            out[f"{note:.2f}"] = int(count)
    return out


def play_floors(*, seed: int, full: bool = True) -> None:
    """The day's machines in every demo casino that exists (the demo's day calls this): the
    whole floor, or ten machines a casino for a short day (the tests' few rounds)."""
    for casino in FLOORS:
        if Casino.objects.filter(code=casino).exists():
            play_floor(casino, seed=seed, machines=None if full else 10)


def play_day(d: DemoDay) -> None:
    """The slot floor's part of one demo casino's gaming day (``demo.days.DAY_PLAYERS``), on the
    demo's clock: the whole floor (ten machines on the tests' short days), read, its jackpots
    paid, a third of its tickets redeemed at the slot cashier, every box dropped, counted and
    confirmed before the day ends; the rest of the tickets stay outstanding, as they would."""
    if d.casino in FLOORS:
        play_floor(d.casino, seed=d.rng.randrange(10**9),
                   machines=None if d.rounds >= 20 else 10)

"""The cage's side of the demo gaming day, through the cage's own services.

A believable day: the vault opens on a blind count of notes and coins, the casino's chip stock is
put into service there (a delivery note), and the vault sends cash and chips to the main cage.
The main cage issues each table's first float and its fills, receives its credits and its drop
boxes, sells chips to players and redeems them; at the end of the day the cashier counts blind,
finds a note missing, explains it, and a cage supervisor (another person) approves the variance
before the shift closes. A stud poker table of Lisbon feeds a progressive jackpot; a flush wins
its prize, which the cage pays against the recorded hit. Every figure then reconciles with the
ledger (``reconcile``).
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from cage import services as cage
from cage.models import Cage, ChipsInService, Shift, ShiftLine
from cage.selectors import expected_count, foreign_expected
from casino.context import system_metadata
from casino.models import Casino, ChipSet, Role
from casino.money import CASH_DENOMINATIONS, fmt, parse_amount
from compliance.services import patron_register
from eventstore.records import Metadata
from games.models import Slip
from jackpots.models import JackpotPool, JackpotPrize
from jackpots.services import jackpot_pool_create, jackpot_prize_pay

JOB = "demo_day"
VAULT, MAIN = "vault", "main"

# The vault's notes and coins at its first (blind) count, by currency.
VAULT_CASH = {
# Every note and coin of the currency, so that the main cage's float (half of it) gives change
# for any sale from the first one: 2.50 chips need coins down to 0.50, change of a card-sized
# amount down to the cent.
    "EUR": {"500.00": 40, "200.00": 100, "100.00": 600, "50.00": 800, "20.00": 1500,
            "10.00": 1500, "5.00": 1000, "2.00": 500, "1.00": 500, "0.50": 400,
            "0.20": 400, "0.10": 400, "0.05": 200, "0.02": 200, "0.01": 200},
    "MOP": {"1000.00": 100, "500.00": 300, "100.00": 1500, "50.00": 1000, "20.00": 1500,
            "10.00": 1500, "5.00": 500, "2.00": 400, "1.00": 500, "0.50": 400, "0.20": 400,
            "0.10": 400},
}
CHIP_STOCK = 3000  # pieces of each denomination put into service at the vault
STUD_PAYTABLE = [
    {"combination": "royal_flush", "pays": "jackpot"},
    {"combination": "straight_flush", "pays": "10%"},
    {"combination": "four_of_a_kind", "pays": "500x"},
    {"combination": "full_house", "pays": "100x"},
    {"combination": "flush", "pays": "50x"},
]


def _as(casino: str, role: str, who: str) -> Metadata:
    meta = system_metadata(casino, job=JOB)
    return Metadata(actor=f"{meta.actor}:{who}", role=role, casino=casino,
                    request_id=meta.request_id, correlation_id=meta.correlation_id)


def _cash_in(value: Decimal, currency: str) -> dict[str, int]:
    """Notes and coins making ``value`` (largest first)."""
    out: dict[str, int] = {}
    rest = value
    for d in CASH_DENOMINATIONS[currency]:
        if d > 100 * Decimal(5):
            continue  # players rarely bring 500 or 1000 notes
        pieces = int(rest // d)
        if pieces:
            out[str(d)] = pieces
            rest -= d * pieces
    return out


class DemoCage:
    """One main cage and the vault per casino, their shifts opened on first use."""

    def __init__(self) -> None:
        self.shifts: dict[tuple[str, str], str] = {}
        self.patrons: dict[str, str] = {}
        # today's jackpots are left owed (the cashier's home shows them); a past day pays its
        self.pay_now = True

    def patron(self, casino: str) -> str:
        """The demo's one identified patron of a casino (a fictional regular, registered and
        verified at the cage on first use): the big buy-ins and the jackpots are theirs, as the
        law asks for an identified patron at the threshold (``docs/patrons.md``)."""
        if casino not in self.patrons:

            self.patrons[casino] = str(patron_register(
                metadata=self.cashier(casino), window=MAIN, verified=True,
                name="Demo Regular", document_type="passport",
                document_number=f"DEMO-{casino.upper()}", document_country="PT",
                date_of_birth="1970-01-01", nationality="PT", address="Demo street 1",
                pep=False, document_image="demo/passport.png").patron_id)
        return self.patrons[casino]

    def cashier(self, casino: str) -> Metadata:
        return _as(casino, Role.CASHIER, "caixa")

    def supervisor(self, casino: str) -> Metadata:
        return _as(casino, Role.CAGE_SUPERVISOR, "supervisor")

    def shift(self, casino: str, cage: str = MAIN) -> str:
        if (casino, cage) not in self.shifts:
            self._open(casino)
        return self.shifts[(casino, cage)]

    def _open(self, casino: str) -> None:
        config = _as(casino, Role.ADMINISTRATOR, "config")
        for code, name, kind, minimum in ((VAULT, "Vault", "vault", "0.00"),
                                          (MAIN, "Main cage", "main", "20000.00")):
            if not Cage.objects.filter(casino_id=casino, code=code).exists():
                cage.cage_configure(code=code, name=name, kind=kind,
                                    minimum_cash=parse_amount(minimum, allow_zero=True),
                                    metadata=config)
        currency = Casino.objects.get(code=casino).currency
        chip_set = ChipSet.objects.get(casino_id=casino, code="main")
        for code in (VAULT, MAIN):
            live = Shift.objects.filter(casino_id=casino, cage=code).exclude(
                status="closed").first()
            if live is not None:
                self.shifts[(casino, code)] = str(live.id)
                continue
            where = Cage.objects.get(casino_id=casino, code=code)
            meta = self.supervisor(casino) if code == VAULT else self.cashier(casino)
            if where.last_shift_id is not None:  # the next day: on the last closing count
                opened = cage.shift_open(cage=code, accept_previous=str(where.last_shift_id),
                                         metadata=meta)
            else:  # the first day: a blind count (nothing at the main cage yet)
                cash = VAULT_CASH[currency] if code == VAULT else {}
                opened = cage.shift_open(cage=code, cash=cash, chips={}, metadata=meta)
            self.shifts[(casino, code)] = opened.shift_id
        if not ChipsInService.objects.filter(casino_id=casino).exists():
            stock = {d: CHIP_STOCK for d in chip_set.denominations}
            cage.chips_put_into_service(
                shift_id=self.shifts[(casino, VAULT)], chip_set="main", chips=stock,
                reference="delivery note DEMO-0001 (chip manufacturer)",
                metadata=self.supervisor(casino))
            half = {d: CHIP_STOCK // 2 for d in chip_set.denominations}
            cash = {d: n // 2 for d, n in VAULT_CASH[currency].items()}
            cage.transfer_send(shift_id=self.shifts[(casino, VAULT)], to_cage=MAIN, cash=cash,
                               chips={"main": half}, metadata=self.supervisor(casino))

    # --- the day's movements ------------------------------------------------------------------

    def issue(self, casino: str, slip: str) -> None:
        """The main cage issues the fill; short of chips (a day of many tables), it first asks
        the vault for more, and the vault puts a new delivery into service if it must."""

        wanted = Slip.objects.get(casino_id=casino, kind="fill", number=slip)
        self._ensure(casino, wanted.chips, wanted.chip_set or "main")
        cage.fill_issue(shift_id=self.shift(casino), slip=slip, metadata=self.cashier(casino))

    def _ensure(self, casino: str, wanted: dict[str, int], chip_set: str = "main") -> None:
        held = {fmt(line.denomination): line.expected for line in ShiftLine.objects.filter(
            shift_id=self.shift(casino), kind="chips", chip_set=chip_set)}
        short = {d: n for d, n in wanted.items() if held.get(fmt(Decimal(d)), 0) < n}
        if short:
            self._top_up(casino, {d: n * 50 for d, n in short.items()}, chip_set)

    def _top_up(self, casino: str, chips: dict[str, int], chip_set: str = "main") -> None:
        """The vault sends chips of ``chip_set`` (a HKD table's are its own set's, demo/
        currencies.py), putting a delivery into service first if it must."""
        vault = self.shift(casino, VAULT)
        held = {fmt(line.denomination): line.expected for line in ShiftLine.objects.filter(
            shift_id=vault, kind="chips", chip_set=chip_set)}
        missing = {d: n for d, n in chips.items() if held.get(fmt(Decimal(d)), 0) < n}
        if missing:
            cage.chips_put_into_service(
                shift_id=vault, chip_set=chip_set, chips=missing,
                reference="delivery note DEMO-0002 (a busy day)",
                metadata=self.supervisor(casino))
        cage.transfer_send(shift_id=vault, to_cage=MAIN, chips={chip_set: chips},
                           metadata=self.supervisor(casino))

    def receive_credit(self, casino: str, slip: str) -> None:
        cage.credit_receive(shift_id=self.shift(casino), slip=slip,
                            metadata=self.cashier(casino))

    def receive_drop(self, casino: str, session_id: str, cash: dict[str, int]) -> None:
        """The cage takes a drop box the count room counted, its notes as counted."""

        if not any(cash.values()):
            return
        # a HKD table's box too, in HKD notes: they go to the cage's HKD (docs/currencies.md)
        cage.drop_box_receive(shift_id=self.shift(casino), session_id=session_id, cash=cash,
                              metadata=self.cashier(casino))

    def jackpot_pool(self, table: Any) -> str | None:
        """The progressive pool ``table`` feeds, set up (approved by the regulator, in the
        demo's story) the first time a stud poker table of Lisbon plays."""

        if table.casino_id != "lisboa":
            return None
        pool = JackpotPool.objects.filter(casino_id=table.casino_id,
                                          tables__contains=[table.code]).first()
        if pool is not None:
            return str(pool.pool_id)
        pool_id = f"stud-{table.code}"
        jackpot_pool_create(
            casino=table.casino_id, pool_id=pool_id, name=f"Stud poker progressive {table.code}",
            game="stud_poker", tables=[table.code], bet=parse_amount("1.00"),
            increment_percent="70", start=parse_amount("10000.00"), paytable=STUD_PAYTABLE, approved_on="2026-01-15",
            approval_reference="SRIJ demo 1/2026",
            metadata=_as(table.casino_id, Role.ADMINISTRATOR, "config"))
        return pool_id

    def pay_jackpots(self, casino: str, round_id: str) -> None:
        """The cage pays what the round's coup won, in cash, against each recorded hit."""

        if not self.pay_now:
            return
        currency = Casino.objects.get(code=casino).currency
        for prize in JackpotPrize.objects.filter(casino_id=casino, round_id=round_id,
                                                 amount__gt=0):
            jackpot_prize_pay(prize_id=prize.prize_id, shift_id=self.shift(casino),
                              cash=_cash_in(prize.amount, currency),
                              patron=self.patron(casino), metadata=self.cashier(casino))

    def sell_and_redeem(self, casino: str, rng: random.Random, unit: Decimal) -> None:
        """A player buys chips at the cage; another changes some back."""

        currency = Casino.objects.get(code=casino).currency
        chip = unit * 10
        pieces = rng.randint(2, 10)
        amount = chip * pieces
        chips = {str(chip): pieces}
        self._ensure(casino, chips)
        cage.chips_sell(shift_id=self.shift(casino), amount=parse_amount(amount), chips=chips,
                        cash=_cash_in(amount, currency), chip_set="main",
                        metadata=self.cashier(casino))
        back = max(1, pieces // 2)
        cage.chips_redeem(shift_id=self.shift(casino), amount=parse_amount(chip * back),
                          chips={str(chip): back}, cash=_cash_in(chip * back, currency),
                          chip_set="main", metadata=self.cashier(casino))

    def close(self, casino: str) -> None:
        """The cashier counts blind, one note short; the variance is explained and approved by
        a supervisor, and the shift closes on the count."""

        shift_id = self.shift(casino)
        cash, chips = expected_count(Shift.objects.get(id=shift_id))
        short = next(d for d in ("20.00", "50.00", "10.00") if cash.get(d))
        cash[short] -= 1  # a note missing
        # the foreign notes the window received (Macau's HKD boxes) counted beside, as received
        cage.shift_count(shift_id=shift_id, cash=cash, chips=chips, metadata=self.cashier(casino),
                         foreign=foreign_expected(Shift.objects.get(id=shift_id)))
        cage.variance_explain(shift_id=shift_id, metadata=self.cashier(casino),
                              explanation=f"one {short} note short: change given twice to a "
                                          "player at the end of the night (CCTV reviewed)")
        cage.variance_approve(shift_id=shift_id, metadata=self.supervisor(casino),
                              note="reviewed the CCTV of the window")
        cage.shift_close(shift_id=shift_id, metadata=self.cashier(casino))
        del self.shifts[(casino, MAIN)]


    def close_vault(self, casino: str) -> None:
        """The vault's shift closes at the end of the day on a blind count that agrees (the
        next day's opens on it)."""
        shift_id = self.shift(casino, VAULT)
        cash, chips = expected_count(Shift.objects.get(id=shift_id))
        cage.shift_count(shift_id=shift_id, cash=cash, chips=chips,
                         metadata=self.supervisor(casino))
        cage.shift_close(shift_id=shift_id, metadata=self.supervisor(casino))
        del self.shifts[(casino, VAULT)]

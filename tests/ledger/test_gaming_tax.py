"""Gaming tax and the monthly returns (issue 15, ``docs/gaming-tax.md``). Every expected figure
is worked out by hand here from the formula of the law, never by the code under test.

The first tests run a real gaming day of Lisbon through the services and its close, then build
the month's return, accrue it in the ledger and pay it; the others build months from small
registers of closed days (what a close fixes) and read them through the rules in force.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from decimal import Decimal as D

import pytest
from django.core.management import call_command

import eventstore
from casino.errors import Conflict, InvalidCommand, NotAllowed
from casino.models import Casino, Role
from eventstore.models import StoredEvent
from eventstore.records import Metadata
from games.services import table_change_tax_class
from ledger import reports, tax_rules, taxes
from ledger.models import DayClose, TaxParameterChange
from ledger.tax_rules import Change, DayRevenue, RegisterLine, Rules, YearToDate
from reporting.closes import gaming_day_close

from .conftest import CASINO, Clock, Floor, act, make_floor, pit_boss, system
from .test_day_close import DAY, at, finish, session_of


def accountant() -> Metadata:
    return act("rita", Role.ACCOUNTANT)


@pytest.fixture
def day(db: None, clock: Clock) -> Floor:
    """10 March 2026 in Lisbon: chips sold, roulette r1 opened with 3,600.00, the house wins
    50.00 on red, the table closed on its count and its box counted (as in test_day_close)."""
    clock.set(at(DAY, 20))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    floor.sell({"100.00": 2, "25.00": 4}, {"100.00": 3})
    floor.open_table("r1")
    floor.buy_in("r1", "200.00")
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)
    floor.close_table("r1", {"100.00": 10, "25.00": 34, "5.00": 100, "1.00": 100}, "200.00")
    return floor


def closed_day(day: Floor, clock: Clock) -> None:
    finish(day, session_of(day))
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())


# --- a real day of Lisbon, closed, then its month -------------------------------------------


def test_the_close_fixes_the_register_and_the_month_is_taxed_on_it(day: Floor,
                                                                    clock: Clock) -> None:
    table_change_tax_class(casino=CASINO, code="r1", bank="dupla", reason="two croupiers",
                           metadata=pit_boss())
    closed_day(day, clock)
    close = DayClose.objects.get(day=DAY)
    # r1 opened with its float of 2,600.00 (100×10 + 25×40 + 5×100 + 1×100), won 50.00
    assert close.register == [{"table": "r1", "game": "french_roulette", "bank": "dupla",
                               "vip": False, "opening": "2600.00", "capital": "2600.00",
                               "capital_source": "the first session's opening: no approved "
                                                 "capital recorded",
                               "drop": "200.00", "win": "50.00", "commission": "0.00"}]
    assert close.revenue == {"table_win": "50.00", "jackpot_retained": "0.00",
                             "jackpot_funding": "0.00", "jackpot_funding_deducted": "0.00"}
    the_return = taxes.monthly_return(CASINO, "2026-03")
    assert the_return.days_closed == (DAY,)
    assert the_return.complete
    lines = {t.code: t for t in the_return.lines}
    # DL 422/89 art. 85.º: 0.35 % of the capital (banca dupla) = 2,600 × 0.0035 = 9.10;
    # art. 87.º: presumed gross profit, Estoril, dupla, 35 % of 2,600 = 910.00, at 20 % = 182.00
    assert (lines["pt-iej-capital"].base, lines["pt-iej-capital"].amount) == (D("2600.00"),
                                                                              D("9.10"))
    assert (lines["pt-iej-profit"].base, lines["pt-iej-profit"].amount) == (D("910.00"),
                                                                            D("182.00"))
    # the contrapartida to March: max(50 % of 50.00, 1,000,000 × 3/12 = 250,000.00) less the
    # year's IEJ 191.10 = 249,808.90; to February it was 1,000,000 × 2/12 = 166,666.67 (the
    # minimum accrues month by month): March accrues 249,808.90 − 166,666.67 = 83,142.23
    assert lines["pt-contrapartida"].to_date == D("249808.90")
    assert lines["pt-contrapartida"].amount == D("83142.23")
    assert the_return.total == D("83333.33")  # 9.10 + 182.00 + 83,142.23
    out = io.StringIO()
    call_command("gaming_tax", casino=CASINO, month="2026-03", format="json", stdout=out)
    printed = json.loads(out.getvalue())
    assert printed["tax"][-1] == {"code": "total", "name": "Total of the month", "base": "",
                                  "rate_percent": "", "rates_from": "", "amount": "83333.33",
                                  "annual": "", "year_to_date": "", "legal_source": ""}
    assert printed["register"][0]["bank"] == "dupla"
    assert printed["register"][0]["zone"] == "estoril"


def test_a_finished_month_is_accrued_as_a_liability_and_posted_when_paid(day: Floor,
                                                                          clock: Clock) -> None:
    closed_day(day, clock)
    with pytest.raises(Conflict) as early:
        taxes.gaming_tax_accrue(casino=CASINO, month="2026-03", metadata=accountant())
    assert early.value.code == "month_not_over"
    clock.set(at(dt.date(2026, 4, 1), 7))
    done = taxes.gaming_tax_accrue(casino=CASINO, month="2026-03", metadata=accountant())
    # the capital part at 0.25 % (banca simples) of 2,600 = 6.50; presumed 21 % = 546.00,
    # at 20 % = 109.20; the contrapartida to March 250,000.00 − 115.70 = 249,884.30, less
    # 166,666.67 to February: 83,217.63; the month's total 6.50 + 109.20 + 83,217.63
    assert done.total == "83333.33"
    with pytest.raises(Conflict):
        taxes.gaming_tax_accrue(casino=CASINO, month="2026-03", metadata=accountant())
    balance = reports.account_balance(casino=CASINO, code="2431.pt-iej-capital")
    assert balance == D("-6.50")  # a credit: owed to the State
    with pytest.raises(Conflict):
        taxes.gaming_tax_pay(casino=CASINO, month="2026-03", code="pt-iej-capital",
                             amount=D("6.51"), reference="guia 1", metadata=accountant())
    taxes.gaming_tax_pay(casino=CASINO, month="2026-03", code="pt-iej-capital",
                         amount=D("6.50"), reference="guia 2026/03-1", metadata=accountant())
    assert reports.account_balance(casino=CASINO, code="2431.pt-iej-capital") == D("0.00")
    assert reports.account_balance(casino=CASINO, code="1210") == D("-6.50")
    assert taxes.monthly_return(CASINO, "2026-03").paid == D("6.50")
    assert eventstore.check(["tax_accruals", "tax_rules", "ledger", "day_closes"]) == []


def test_a_month_with_a_day_not_closed_is_not_accrued(day: Floor, clock: Clock) -> None:
    clock.set(at(dt.date(2026, 4, 1), 7))
    with pytest.raises(Conflict) as refused:
        taxes.gaming_tax_accrue(casino=CASINO, month="2026-03",
                                metadata=act("rita", Role.ACCOUNTANT))
    assert refused.value.extra["days"] == ["2026-03-10"]


def test_a_rate_change_is_an_event_with_its_author_and_source(day: Floor, clock: Clock) -> None:
    with pytest.raises(NotAllowed):
        taxes.tax_parameter_set(code="pt.profit_rate", value="25",
                                effective_from=dt.date(2026, 3, 15), legal_source="x",
                                metadata=pit_boss())
    with pytest.raises(InvalidCommand):
        taxes.tax_parameter_set(code="pt.profit_rate", value="25",
                                effective_from=dt.date(2026, 3, 15), legal_source=" ",
                                metadata=accountant())
    with pytest.raises(InvalidCommand):
        taxes.tax_parameter_set(code="mo.special_gaming_tax", value="36",
                                effective_from=dt.date(2026, 3, 15), legal_source="Lei",
                                metadata=accountant())
    taxes.tax_parameter_set(code="pt.profit_rate", value="25",
                            effective_from=dt.date(2026, 3, 15),
                            legal_source="Lei n.º 99/2026, art. 2.º", metadata=accountant())
    (change,) = TaxParameterChange.objects.all()
    assert (change.code, change.value, change.effective_from, change.set_by,
            change.legal_source) == ("pt.profit_rate", "25", dt.date(2026, 3, 15), "rita",
                                     "Lei n.º 99/2026, art. 2.º")
    assert StoredEvent.objects.filter(event_type="TaxParameterSet").count() == 1
    closed_day(day, clock)
    # a change cannot reach back into a closed (sealed) day
    with pytest.raises(Conflict) as refused:
        taxes.tax_parameter_set(code="pt.profit_rate", value="30", effective_from=DAY,
                                legal_source="Lei", metadata=accountant())
    assert refused.value.code == "day_closed"
    # 10 March is before the change: the profit part at 20 %, as in force that day
    rules = taxes.rules_for(Casino.objects.get(code=CASINO))
    assert rules.number("pt.profit_rate", DAY) == D("20")
    assert rules.number("pt.profit_rate", dt.date(2026, 3, 15)) == D("25")
    profit = {t.code: t for t in taxes.monthly_return(CASINO, "2026-03").lines}["pt-iej-profit"]
    # presumed profit 21 % of 2,600.00 = 546.00, at 20 % = 109.20
    assert (profit.rate, profit.base, profit.amount) == (D("20"), D("546.00"), D("109.20"))


def test_a_change_in_force_on_the_day_taxes_that_day(day: Floor, clock: Clock) -> None:
    taxes.tax_parameter_set(code="pt.profit_rate", value="25", effective_from=DAY,
                            legal_source="Lei n.º 99/2026, art. 2.º", metadata=accountant())
    closed_day(day, clock)
    profit = {t.code: t for t in taxes.monthly_return(CASINO, "2026-03").lines}["pt-iej-profit"]
    # 546.00 of presumed profit at 25 % = 136.50
    assert (profit.rate, profit.amount) == (D("25"), D("136.50"))
    page = taxes.monthly_return(CASINO, "2026-03").parameters
    in_force = next(p for p in page if p.code == "pt.profit_rate")
    assert (in_force.value, in_force.set_by, in_force.legal_source) == (
        "25", "rita", "Lei n.º 99/2026, art. 2.º")


# --- months built from closed days' registers ------------------------------------------------


def register(day: dt.date, opening: str, win: str, bank: str = "simples", table: str = "r1",
             vip: bool = False) -> RegisterLine:
    return RegisterLine(day=day, table=table, game="french_roulette", bank=bank, vip=vip,
                        opening=D(opening), drop=D("0.00"), win=D(win))


def revenue(day: dt.date, win: str, retained: str = "0.00", funding: str = "0.00") -> DayRevenue:
    return DayRevenue(day=day, table_win=D(win), jackpot_retained=D(retained),
                      jackpot_funding=D(funding))


def d(day: int, month: int = 3) -> dt.date:
    return dt.date(2026, month, day)


def test_a_portuguese_month_each_day_at_the_rate_in_force() -> None:
    """Three days of two tables; the profit rate rises from 20 % to 25 % on 15 March."""
    rules = Rules("PT", "lisboa", [Change("pt.profit_rate", "25", d(15), "Lei n.º 99/2026",
                                          set_by="rita")])
    lines = [register(d(2), "10000.00", "500.00"), register(d(2), "20000.00", "-300.00",
                                                            bank="dupla", table="r2"),
             register(d(20), "10000.00", "900.00")]
    month = tax_rules.month_figures(rules=rules, month=d(1), register=lines,
                                    revenue=[revenue(d(2), "200.00"), revenue(d(20), "900.00")])
    by = {t.code: t for t in month.lines}
    # capital: 10,000 × 0.25 % + 20,000 × 0.35 % + 10,000 × 0.25 % = 25 + 70 + 25 = 120.00
    assert (by["pt-iej-capital"].base, by["pt-iej-capital"].amount) == (D("40000.00"),
                                                                        D("120.00"))
    # presumed profit: 21 % of 10,000 = 2,100 and 35 % of 20,000 = 7,000 on the 2nd (at 20 %:
    # 1,820.00), 21 % of 10,000 = 2,100 on the 20th (at 25 %: 525.00): 2,345.00
    assert (by["pt-iej-profit"].base, by["pt-iej-profit"].amount) == (D("11200.00"),
                                                                      D("2345.00"))
    assert by["pt-iej-profit"].rate is None
    assert by["pt-iej-profit"].rates == ((d(2), D("20")), (d(20), D("25")))
    assert month.gross_revenue == D("1100.00")


def test_a_macau_month_and_a_losing_month() -> None:
    rules = Rules("MO", "macau")
    march = tax_rules.month_figures(rules=rules, month=d(1), register=[],
                                    revenue=[revenue(d(3), "10000.00"),
                                             revenue(d(4), "-2422.00")])
    # 7,578.00 of gross gaming revenue: 35 % = 2,652.30; 2 % = 151.56; 3 % = 227.34
    assert [(t.code, t.base, t.amount) for t in march.lines] == [
        ("mo-special-gaming-tax", D("7578.00"), D("2652.30")),
        ("mo-public-foundation", D("7578.00"), D("151.56")),
        ("mo-development-contribution", D("7578.00"), D("227.34"))]
    losing = tax_rules.month_figures(rules=rules, month=d(1, 4), register=[],
                                     revenue=[revenue(d(7, 4), "-2422.00")])
    assert losing.negative_base == D("-2422.00")
    assert [t.amount for t in losing.lines] == [D("0.00")] * 3  # never −847.70
    # carried forward (parameter changed): May's 10,000 is taxed on 10,000 − 2,422 = 7,578
    carry = Rules("MO", "macau", [Change("mo.negative_base_carry", "forward", d(1, 1), "x")])
    may = tax_rules.month_figures(rules=carry, month=d(1, 5), register=[],
                                  revenue=[revenue(d(5, 5), "10000.00")],
                                  earlier_bases=[D("-2422.00")])
    assert (may.carried_in, may.taxable_revenue) == (D("-2422.00"), D("7578.00"))
    assert may.lines[0].amount == D("2652.30")
    # by default nothing is carried: May pays 35 % of 10,000
    plain = tax_rules.month_figures(rules=rules, month=d(1, 5), register=[],
                                    revenue=[revenue(d(5, 5), "10000.00")],
                                    earlier_bases=[D("-2422.00")])
    assert plain.lines[0].amount == D("3500.00")


def test_a_macau_year_below_the_minimum_per_table_owes_the_special_premium() -> None:
    rules = Rules("MO", "macau")
    ytd = YearToDate(months=12, taxable_revenue=D("10000000.00"), iej=D("0"),
                     tables=frozenset({"b1", "b2"}), vip_tables=frozenset({"b1"}),
                     table_win=D("10000000.00"))
    figures = tax_rules.annual_to_date(rules=rules, day=d(31, 12), ytd=ytd)
    # two tables, 14,000,000 minimum, 10,000,000 won: 35 % of the 4,000,000 shortfall
    assert figures["mo-special-premium"] == D("1400000.00")
    # the premium: 30,000,000 + 300,000 (VIP b1) + 150,000 (mass b2)
    assert figures["mo-premium"] == D("30450000.00")
    above = tax_rules.annual_to_date(rules=rules, day=d(31, 12), ytd=YearToDate(
        months=12, taxable_revenue=D("15000000.00"), iej=D("0"), tables=frozenset({"b1", "b2"}),
        vip_tables=frozenset(), table_win=D("15000000.00")))
    assert above["mo-special-premium"] == D("0.00")


def test_the_seeded_jackpot_under_both_settings() -> None:
    """A pool seeded with a start value of 5,000.00 the casino funded, on a day the tables won
    2,000.00 and the casino retained 300.00 of the jackpot bets."""
    day = [revenue(d(9), "2000.00", retained="300.00", funding="5000.00")]
    by_default = tax_rules.month_figures(rules=Rules("MO", "macau"), month=d(1), register=[],
                                         revenue=day)
    # not deducted: 2,300.00 taxed, 35 % = 805.00; the start value on its own line
    assert (by_default.gross_revenue, by_default.jackpot_funding,
            by_default.jackpot_funding_deducted) == (D("2300.00"), D("5000.00"), False)
    assert by_default.lines[0].amount == D("805.00")
    deducted = Rules("MO", "macau", [Change("mo.jackpot_start_deducted", "yes", d(1, 1), "x")])
    with_it = tax_rules.month_figures(rules=deducted, month=d(1), register=[], revenue=day)
    # deducted: 2,300 − 5,000 = −2,700.00, a negative base: no tax
    assert (with_it.gross_revenue, with_it.negative_base) == (D("-2700.00"), D("-2700.00"))
    assert with_it.lines[0].amount == D("0.00")


def test_every_parameter_cites_its_source_and_refuses_bad_values() -> None:
    assert all(p.legal_source for p in tax_rules.CATALOGUE)
    with pytest.raises(tax_rules.ParameterError):
        tax_rules.parameter("pt.profit_rate").parse("101")
    with pytest.raises(tax_rules.ParameterError):
        tax_rules.parameter("pt.zone").parse("lisboa")
    assert tax_rules.parameter("mo.premium_fixed").parse("30000000.00") == "30000000.00"


def test_a_macau_casino_changes_its_own_parameter(db: None, clock: Clock) -> None:
    clock.set(at(DAY, 12))
    make_floor("macau", currency="MOP", time_zone="Asia/Macau")
    taxes.tax_parameter_set(code="mo.machines", value="40", effective_from=dt.date(2026, 1, 1),
                            legal_source="licence 12/2026",
                            metadata=act("lei", Role.ACCOUNTANT, "macau"))
    rules = taxes.rules_for(Casino.objects.get(code="macau"))
    assert rules.number("mo.machines", DAY) == D("40")
    the_return = taxes.monthly_return("macau", "2026-03")
    # 40 machines: the premium's 40 × 1,000 and 40 × 300,000 × 3/12 of minimum revenue unmet
    lines = {t.code: t for t in the_return.lines}
    assert lines["mo-premium"].to_date == D("7510000.00")  # (30,000,000 + 40,000) × 3/12
    assert lines["mo-special-premium"].to_date == D("1050000.00")  # 35 % of 3,000,000


@pytest.mark.parametrize("deducted", ["no", "yes"])
def test_a_pool_seeded_on_a_closed_day_under_both_settings(day: Floor, clock: Clock,
                                                           deducted: str) -> None:
    """A blackjack pool set up on 10 March with its start value of 10,000.00, all of it funded
    by the casino (no reserve yet), through the jackpot services, then the day closed."""
    from games.limits import default_limits
    from games.services import tables
    from jackpots.services import jackpot_pool_create

    from ..jackpots.conftest import BLACKJACK

    if deducted == "yes":
        taxes.tax_parameter_set(code="pt.jackpot_start_deducted", value="yes",
                                effective_from=dt.date(2026, 3, 1),
                                legal_source="the concession contract, cl. 9", metadata=accountant())
    tables.table_configure(casino=CASINO, code="bj1", name="BJ1", game="blackjack", seats=7,
                           chip_set="main", limits=default_limits("blackjack", D("5")),
                           metadata=pit_boss())
    admin = act("gestor", Role.ADMINISTRATOR)
    jackpot_pool_create(casino=CASINO, pool_id="bj", name="Pool bj", game="blackjack",
                        tables=["bj1"], bet=D(BLACKJACK["bet"]),
                        increment_percent=BLACKJACK["increment_percent"],
                        start=D(BLACKJACK["start"]), paytable=BLACKJACK["paytable"],
                        approved_on="2024-03-01", approval_reference="IGJ 123/2024",
                        metadata=admin)
    closed_day(day, clock)
    close = DayClose.objects.get(day=DAY)
    assert close.revenue["jackpot_funding"] == "10000.00"  # on its own line either way
    figures = taxes.monthly_return(CASINO, "2026-03").figures
    assert figures.jackpot_funding == D("10000.00")
    if deducted == "no":
        # only the table's 50.00 won counts: the start value does not reduce the base
        assert close.totals["gaming_tax_base"] == "50.00"
        assert (figures.gross_revenue, figures.negative_base) == (D("50.00"), D("0.00"))
    else:
        # 50.00 − 10,000.00: a negative base of −9,950.00, on its own line, taxed at zero
        assert close.totals["gaming_tax_base"] == "-9950.00"
        assert (figures.gross_revenue, figures.negative_base,
                figures.taxable_revenue) == (D("-9950.00"), D("-9950.00"), D("0.00"))


def test_a_macau_day_recorded_and_closed_then_its_month(db: None, clock: Clock) -> None:
    """Macau, 10 March 2026: VIP roulette b1 opens with 2,600.00, a player changes 1,000.00 at
    the table and loses 500.00 on black; the box is counted and received, the day closed."""
    import zoneinfo

    from cage import services as cage
    from games.limits import default_limits
    from games.services import count_room, rounds, sessions, tables

    from .conftest import TABLE_FLOAT
    from .test_day_close import close_shift

    macau = zoneinfo.ZoneInfo("Asia/Macau")
    clock.set(dt.datetime.combine(DAY, dt.time(20), tzinfo=macau))
    floor = make_floor("macau", currency="MOP", time_zone="Asia/Macau")
    boss, cashier = act("lei", Role.PIT_BOSS, "macau"), act("ana", Role.CASHIER, "macau")
    boss2 = act("wong", Role.CAGE_SUPERVISOR, "macau")
    tables.table_configure(casino="macau", code="b1", name="B1", game="french_roulette",
                           seats=8, chip_set="main",
                           limits=default_limits("french_roulette", D("1.00")), metadata=boss)
    table_change_tax_class(casino="macau", code="b1", bank="simples", vip=True, metadata=boss)
    sid = str(sessions.table_session_open(casino="macau", table="b1", opening=TABLE_FLOAT,
                                          metadata=boss).session_id)
    sessions.drop_record(session_id=sid, amount="1000.00", metadata=boss)
    rounds.round_record(session_id=sid, bets=[{"seat": 1, "type": "red", "amount": "500"}],
                        outcome={"number": 2}, metadata=boss)
    # the tray: 2,600.00 − 1,000.00 changed (10 × 100.00) + 500.00 won (5 × 100.00 back) =
    # 2,100.00, in the chips it holds
    sessions.table_session_close(session_id=sid, closing={"100.00": 5, "25.00": 40,
                                                          "5.00": 100, "1.00": 100},
                                 metadata=boss)
    count_room.drop_box_count(session_id=sid, cash={"1000.00": 1}, metadata=cashier)
    count_room.drop_box_count_confirm(session_id=sid, cash={"1000.00": 1}, metadata=boss2)
    cage.drop_box_receive(shift_id=floor.window, session_id=sid, cash={"1000.00": 1},
                          metadata=cashier)
    close_shift(floor.window, cashier, boss2)
    close_shift(floor.vault, act("carla", Role.CAGE_SUPERVISOR, "macau"), boss2)
    clock.set(dt.datetime.combine(DAY + dt.timedelta(days=1), dt.time(6, 5), tzinfo=macau))
    gaming_day_close(casino="macau", gaming_day=DAY, metadata=system("macau"))
    the_return = taxes.monthly_return("macau", "2026-03")
    assert [(r.table, r.vip, r.opening, r.drop, r.win) for r in the_return.register] == [
        ("b1", True, D("2600.00"), D("1000.00"), D("500.00"))]
    lines = {t.code: t for t in the_return.lines}
    # art. 27.º: 35 % of 500.00; art. 22.º: 2 % and 3 %
    assert [(c, lines[c].amount) for c in ("mo-special-gaming-tax", "mo-public-foundation",
                                           "mo-development-contribution")] == [
        ("mo-special-gaming-tax", D("175.00")), ("mo-public-foundation", D("10.00")),
        ("mo-development-contribution", D("15.00"))]
    # art. 20.º premium to March: (30,000,000 + 300,000 for one VIP table) × 3/12 = 7,575,000;
    # to February (no table yet): 30,000,000 × 2/12 = 5,000,000; March accrues 2,575,000.00
    assert (lines["mo-premium"].to_date, lines["mo-premium"].amount) == (
        D("7575000.00"), D("2575000.00"))
    # special premium: 7,000,000 × 3/12 = 1,750,000 minimum to date, 500.00 won: 35 % of the
    # 1,749,500.00 shortfall = 612,325.00 (none to February)
    assert (lines["mo-special-premium"].to_date, lines["mo-special-premium"].amount) == (
        D("612325.00"), D("612325.00"))
    assert the_return.total == D("3187525.00")
    table, csv_text = io.StringIO(), io.StringIO()
    call_command("gaming_tax", casino="macau", month="2026-03", stdout=table)
    assert "mo-special-premium" in table.getvalue()
    assert "3187525.00" in table.getvalue()
    call_command("gaming_tax", casino="macau", month="2026-03", format="csv", stdout=csv_text)
    rows = [line.split(",") for line in csv_text.getvalue().splitlines() if line]
    assert ["register", "2026-03-10", "b1", "french_roulette", "simples", "yes", "",
            "2600.00", "2600.00", "the first session's opening: no approved capital recorded",
            "1000.00", "500.00", "0.00"] in rows

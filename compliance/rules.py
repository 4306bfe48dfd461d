"""What a movement at the cage or a table asks of anti-money-laundering law: whether the patron
must be identified and verified first, and which alerts it raises. Pure: no Django.

The service (``compliance.services.screening``) passes the threshold version in force, the
movement, and what the patron did earlier in the same gaming day (``Earlier``: nothing for an
anonymous player, who cannot be linked); this module answers (``Screening``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from .thresholds import ThresholdRule

LINKED = "linked_threshold"      # several movements of one patron in a day reach the threshold
STRUCTURING = "structuring"      # several movements of one patron in a day just below it
LARGE = "large_transaction"      # one cash movement at or above the threshold (Macau's report)
# several anonymous movements just below it at one cage window or one table in a day
ANONYMOUS_STRUCTURING = "anonymous_structuring"  # (within the linking period: issue 34)
ALERT_KINDS = (LINKED, STRUCTURING, LARGE, ANONYMOUS_STRUCTURING)


@dataclass(frozen=True)
class Movement:
    kind: str  # thresholds.PURCHASE, REDEMPTION, PAYOUT or BUY_IN
    amount: Decimal
    cash: Decimal  # the part of it in cash (all of a purchase; a jackpot may be paid in chips)


@dataclass(frozen=True)
class Earlier:
    """The patron's movements earlier in the same gaming day, as the rule counts them."""

    total: Decimal = Decimal("0.00")
    count: int = 0
    just_below: int = 0  # how many of them fell in [structuring_floor, identify_at)


@dataclass(frozen=True)
class Screening:
    counted: Decimal  # what of the movement the rule counts
    identify: str  # "" (no need), "single" or "linked": why the patron must be identified
    alerts: tuple[str, ...]
    total_after: Decimal  # the day's linked total with this movement

    @property
    def needs_identification(self) -> bool:
        return bool(self.identify)


def in_law_currency(amount: Decimal, rate: Decimal | None) -> Decimal:
    """``amount`` of a table playing in another currency, in the currency the law's thresholds
    are in (the book currency: MOP in Macau) at its session's rate (book currency per unit,
    ``TableSessionOpened.rate``), rounded half up to the cent as the ledger books it
    (``ledger.currency_postings.book_value``); ``rate`` None: the book currency already (issue
    39: an HKD table's buy-in was compared with MOP thresholds as if it were patacas)."""
    if rate is None:
        return amount
    return (amount * rate).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def counted(rule: ThresholdRule, movement: Movement) -> Decimal:
    if movement.kind not in rule.identify_kinds:
        return Decimal("0.00")
    return movement.cash if rule.cash_only else movement.amount


def just_below(rule: ThresholdRule, amount: Decimal) -> bool:
    return rule.structuring_floor <= amount < rule.identify_at


def screen(rule: ThresholdRule, movement: Movement, earlier: Earlier | None,
           anonymous_just_below: int = 0) -> Screening:
    """``earlier`` is None for an anonymous player (no patron named); then
    ``anonymous_just_below`` is how many anonymous movements of the linking period at the same
    cage window or table fell just below the threshold before this one (the only link there
    is)."""
    value = counted(rule, movement)
    threshold = rule.identify_at
    single = value >= threshold
    alerts: list[str] = []
    before = earlier.total if earlier is not None and rule.linked else Decimal("0.00")
    after = before + value
    identify = "single" if single else ""
    if earlier is not None and rule.linked and value and not single and after >= threshold:
        identify = "linked"
        if before < threshold and earlier.count >= 1:
            alerts.append(LINKED)
    if (earlier is not None and just_below(rule, value)
            and earlier.just_below + 1 == rule.structuring_count):
        alerts.append(STRUCTURING)
    if (earlier is None and just_below(rule, value)
            and anonymous_just_below + 1 >= rule.anonymous_structuring_count):
        # from the count on, every further one: the service grows the one alert of the pattern
        alerts.append(ANONYMOUS_STRUCTURING)
    if (rule.large_transaction_report and single) or (
            rule.large_review_at is not None and value >= rule.large_review_at):
        alerts.append(LARGE)
    return Screening(counted=value, identify=identify, alerts=tuple(alerts), total_after=after)


def casino_cheque_allowed(*, identified: bool, bought_by_card_or_cheque: Decimal,
                          cheques_issued: Decimal, amount: Decimal) -> str:
    """Lei n.º 83/2017, art. 76.º, n.º 3, a): a casino cheque for chips only to an identified
    patron, and only up to what they bought by card or cheque (less cheques issued to them
    already). "" when allowed, else why not. The cage's redemption by casino cheque calls it
    (``compliance.services.screening.cheque_check``)."""
    if not identified:
        return "a casino cheque is issued only to an identified patron"
    room = bought_by_card_or_cheque - cheques_issued
    if amount > room:
        return (f"a casino cheque may not exceed what the patron bought by card or cheque "
                f"({room} left)")
    return ""


def prize_cheque_allowed(*, identified: bool) -> str:
    """Lei n.º 83/2017, art. 76.º, n.º 3, b) and n.º 4: a prize paid by cheque only to an
    identified winner, the cheque nominative and crossed. "" when allowed, else why not."""
    if not identified:
        return "a prize is paid by cheque only to an identified and verified winner"
    return ""

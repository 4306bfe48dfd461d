"""The chart of accounts, as data.

Each casino gets its own accounts, made from the templates below the first time a posting needs
one: a cage window, a table or a jackpot pool brings its own accounts with it (``1110.W1`` is
the cash of window W1). The codes are ours; every template carries its mapping to the Portuguese
SNC (Código de Contas, Portaria n.º 218/2015) and to Macau's official chart (Plano Oficial de
Contabilidade, classes as in the Portuguese POC it derives from), so an accountant can map a
trial balance onto the ERP's own chart line by line. ``docs/ledger.md`` lists every account and
every event's entry.

Class 0 is memorandum (contas de ordem): the casino's own chips at face value, wherever they are
(cage, tables, in transit), against one contra account. Chips are not an asset of the casino
that issued them; they are tracked at face value so that a cage's or a table's chip balance can
be checked against its count, and every movement of chips between the casino and its players is
posted twice: once in class 0 (where the chips went) and once in the real accounts (the liability
for chips in players' hands). Classes 0 and "real" each balance on their own in every entry.

Pure: no Django (``ledger.postings`` imports it).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    MEMORANDUM = "memorandum"
    ASSET = "asset"
    LIABILITY = "liability"
    REVENUE = "revenue"
    OTHER_RESULT = "other_result"  # over/short: an expense or an income by its sign


class Scope(StrEnum):
    CASINO = "casino"
    WINDOW = "window"  # a cage, a cashier window or the vault (the cage's code)
    TABLE = "table"
    POOL = "pool"  # a progressive jackpot pool
    TAX = "tax"  # a gaming tax or contribution, by its code (docs/gaming-tax.md)
    CURRENCY = "currency"  # a foreign currency held (docs/currencies.md)
    MACHINE = "machine"  # a slot machine, by its number (docs/machines.md)


@dataclass(frozen=True)
class Template:
    key: str
    code: str
    name: str  # with {scope} (and {game} for revenue) filled in
    name_pt: str
    kind: Kind
    normal: str  # "debit" or "credit": the side its balance is normally on
    scope: Scope
    snc: str
    macau: str
    meaning: str

    @property
    def memorandum(self) -> bool:
        return self.kind is Kind.MEMORANDUM


T = Template
# The poker room's accounts (docs/poker-room.md § The books): the players' money and the prize
# pools are liabilities, never revenue; the rake, time charges, entry fees and the chemin de fer
# commission are revenue; an overlay on a guarantee is an expense. A tournament's accounts are
# scoped by its code as a table's are by its own.
POKER_ROOM: tuple[Template, ...] = (
    T("poker_cash", "1140", "Poker room cash — table {scope}", "Caixa da sala de póquer — {scope}",
      Kind.ASSET, "debit", Scope.TABLE, "11 Caixa", "11 Caixa",
      "Cash players paid for chips at a poker room table (or its desk), until counted out."),
    T("tournament_cash", "1155", "Tournament desk cash — tournament {scope}",
      "Caixa de torneio — {scope}", Kind.ASSET, "debit", Scope.TABLE, "11 Caixa", "11 Caixa",
      "Buy-ins, re-buys, add-ons and their fees taken at a tournament's desk, less prizes "
      "paid."),
    T("poker_players_money", "2786", "Players' money at the poker table — {scope}",
      "Dinheiro dos jogadores na mesa de póquer — {scope}", Kind.LIABILITY, "credit",
      Scope.TABLE, "278 Outros devedores e credores", "26 Outros devedores e credores",
      "Buy-ins less the house's rake, time charges and commission, less what players cashed "
      "out: the players' own, never revenue."),
    T("prize_pool", "2787", "Tournament prize pool — {scope}",
      "Prémios de torneio a pagar — {scope}", Kind.LIABILITY, "credit", Scope.TABLE,
      "278 Outros devedores e credores", "26 Outros devedores e credores",
      "Buy-ins, re-buys and add-ons (and any overlay) owed to the finishers until paid."),
    T("poker_rake", "7215", "Poker rake and time charges — table {scope}",
      "Comissão de póquer (rake e tempo) — mesa {scope}", Kind.REVENUE, "credit", Scope.TABLE,
      "72 Prestações de serviços", "72 Prestações de serviços",
      "The house's commission at a cash table of póquer não bancado (Portaria 217/2007, 1.º)."),
    T("tournament_fees", "7216", "Tournament entry fees — tournament {scope}",
      "Taxas de inscrição de torneio — {scope}", Kind.REVENUE, "credit", Scope.TABLE,
      "72 Prestações de serviços", "72 Prestações de serviços",
      "Entry fees of a tournament (taxa de inscrição, Portaria 401/2015)."),
    T("chemmy_commission", "7217", "Chemin de fer commission — table {scope}",
      "Comissão de chemin de fer — mesa {scope}", Kind.REVENUE, "credit", Scope.TABLE,
      "72 Prestações de serviços", "72 Prestações de serviços",
      "The house's share of the banker's winnings at chemin de fer."),
    T("tournament_overlay", "7885", "Tournament overlay — tournament {scope}",
      "Garantia de torneio suportada pelo casino — {scope}", Kind.OTHER_RESULT, "credit",
      Scope.TABLE, "688 Outros gastos / 788 Outros rendimentos",
      "65 Outros custos operacionais / 76 Outros proveitos operacionais",
      "What the casino added to reach a tournament's guaranteed prize pool: an expense."),
    T("rake_box_difference", "7886", "Rake box count differences — table {scope}",
      "Diferenças de contagem da caixa de comissão — mesa {scope}", Kind.OTHER_RESULT, "credit",
      Scope.TABLE, "688 Outros gastos / 788 Outros rendimentos",
      "65 Outros custos operacionais / 76 Outros proveitos operacionais",
      "The rake box as counted by two less the rake and time charges recorded."),
)
TEMPLATES: tuple[Template, ...] = (
    # --- class 0: chips at face value (memorandum) ------------------------------------------
    T("cage_chips", "0110", "Chips in the cage — {scope}", "Fichas em caixa — {scope}",
      Kind.MEMORANDUM, "debit", Scope.WINDOW, "0 (contas de ordem)", "0 (contas de ordem)",
      "The casino's chips held at a cage, window or vault, at face value."),
    T("table_float", "0120", "Table float — table {scope}", "Banca (fichas na mesa) — {scope}",
      Kind.MEMORANDUM, "debit", Scope.TABLE, "0 (contas de ordem)", "0 (contas de ordem)",
      "The chips in a table's tray (banca), at face value: opening float, fills, credits, "
      "chips exchanged for cash and round results."),
    T("chips_in_transit", "0130", "Chips in transit", "Fichas em trânsito",
      Kind.MEMORANDUM, "debit", Scope.CASINO, "0 (contas de ordem)", "0 (contas de ordem)",
      "Chips on their way: a credit slip requested at the table and not yet received by the "
      "cage, a transfer between cages."),
    T("jackpot_chips", "0140", "Jackpot bet chips collected — table {scope}",
      "Fichas do acumulado recolhidas — mesa {scope}",
      Kind.MEMORANDUM, "debit", Scope.TABLE, "0 (contas de ordem)", "0 (contas de ordem)",
      "Jackpot bet chips collected into the table's jackpot slot (ranhura, BJ n.º 41), "
      "outside the table's float."),
    T("chips_held", "0190", "Chips held by the casino (contra)",
      "Fichas detidas pelo casino (contrapartida)",
      Kind.MEMORANDUM, "credit", Scope.CASINO, "0 (contas de ordem)", "0 (contas de ordem)",
      "Contra account of class 0: equals the face value of every chip the casino holds."),
    # --- class 1: cash --------------------------------------------------------------------------
    T("cage_cash", "1110", "Cage cash — {scope}", "Caixa — {scope}",
      Kind.ASSET, "debit", Scope.WINDOW, "11 Caixa", "11 Caixa",
      "Notes and coins at a cage, window or vault."),
    T("drop", "1120", "Drop box — table {scope}", "Caixa de depósito — mesa {scope}",
      Kind.ASSET, "debit", Scope.TABLE, "11 Caixa", "11 Caixa",
      "Cash players exchanged for chips at the table, in the drop box until the cage receives "
      "it."),
    T("cash_in_transit", "1130", "Cash in transit between cages",
      "Numerário em trânsito entre caixas",
      Kind.ASSET, "debit", Scope.CASINO, "11 Caixa", "11 Caixa",
      "Cash sent by one cage and not yet received by another (nets to zero: both sides of a "
      "transfer are recorded together)."),
    # --- class 2: liabilities -------------------------------------------------------------------
    T("chips_in_circulation", "2781", "Chips in circulation (players' hands)",
      "Fichas em circulação", Kind.LIABILITY, "credit", Scope.CASINO,
      "278 Outros devedores e credores", "26 Outros devedores e credores",
      "What the casino owes for the chips its players hold: chips sold, won and exchanged at "
      "the tables, less chips redeemed and lost."),
    T("jackpot_liability", "2782", "Jackpot liability — pool {scope}",
      "Prémio acumulado (responsabilidade) — {scope}", Kind.LIABILITY, "credit", Scope.POOL,
      "278 Outros devedores e credores", "26 Outros devedores e credores",
      "The meter of a progressive jackpot pool: what it would pay now."),
    T("jackpot_payable", "2783", "Jackpot prizes won, not yet paid — pool {scope}",
      "Prémios acumulados a pagar — {scope}", Kind.LIABILITY, "credit", Scope.POOL,
      "278 Outros devedores e credores", "26 Outros devedores e credores",
      "Prizes a jackpot hit awarded, until the cage pays them."),
    T("jackpot_reserve", "2784", "Jackpot reserve — pool {scope}",
      "Reserva do prémio acumulado — {scope}", Kind.LIABILITY, "credit", Scope.POOL,
      "278 Outros devedores e credores", "26 Outros devedores e credores",
      "The part of the jackpot bets not added to the meter, set aside to fund the next start "
      "value; the start value is drawn from it (a debit balance is what the casino advanced)."),
    T("opening_counts", "2789", "Opening counts taken over (transitory)",
      "Contagens iniciais assumidas (conta transitória)", Kind.LIABILITY, "credit",
      Scope.CASINO, "278 Outros devedores e credores", "26 Outros devedores e credores",
      "The cash counted when a cage opened its first shift: funding from outside the platform, "
      "to be settled by the accountant against the bank or capital account."),
    T("bank", "1210", "Bank", "Depósitos à ordem",
      Kind.ASSET, "debit", Scope.CASINO, "12 Depósitos à ordem", "12 Depósitos à ordem",
      "The casino's bank account, outside the platform: gaming taxes paid, casino cheques the "
      "bank paid, card and cheque receipts it credited. The accountant reconciles it with the "
      "bank statement."),
    T("card_and_cheque_receipts", "1220", "Card and cheque receipts to clear",
      "Recebimentos por cartão e cheque a compensar",
      Kind.ASSET, "debit", Scope.CASINO, "12 Depósitos à ordem", "12 Depósitos à ordem",
      "Chips bought by card or by the patron's own cheque: money on its way to the bank, "
      "never in a cashier's drawer; the accountant clears it against the bank statement."),
    T("casino_cheques_issued", "2785", "Casino cheques issued, not yet presented",
      "Cheques do casino emitidos por apresentar", Kind.LIABILITY, "credit", Scope.CASINO,
      "278 Outros devedores e credores", "26 Outros devedores e credores",
      "Redemptions and jackpot prizes paid by casino cheque (nominative, crossed): what the "
      "casino owes until the bank pays the cheque; never out of a cashier's drawer."),
    T("gaming_tax_payable", "2431", "Gaming tax payable — {scope}",
      "Imposto especial de jogo / contribuições a pagar — {scope}", Kind.LIABILITY, "credit",
      Scope.TAX, "24 Estado e outros entes públicos", "24 Sector público administrativo",
      "A month's gaming tax or contribution, accrued from its return, until it is paid."),
    # --- class 6: the gaming taxes ---------------------------------------------------------------
    T("gaming_tax_expense", "6812", "Gaming tax — {scope}",
      "Imposto especial de jogo / contribuições — {scope}", Kind.OTHER_RESULT, "debit",
      Scope.TAX, "681 Impostos indiretos", "62 Impostos",
      "A month's gaming tax or contribution, as its return accrues it."),
    # --- class 7: gaming revenue ----------------------------------------------------------------
    T("gaming_revenue", "7211", "Gaming revenue — {game} — table {scope}",
      "Receita de jogo — {game} — mesa {scope}", Kind.REVENUE, "credit", Scope.TABLE,
      "72 Prestações de serviços", "72 Prestações de serviços",
      "The round results of a table (stakes lost less prizes paid), booked as rounds settle."),
    T("table_variance", "7212", "Table win variance — table {scope}",
      "Diferença da banca (ganho por inventário) — mesa {scope}", Kind.REVENUE, "credit",
      Scope.TABLE, "72 Prestações de serviços", "72 Prestações de serviços",
      "At each session close, the inventory table win less the round results: revenue + "
      "variance = table win."),
    T("jackpot_retained", "7213", "Jackpot bets retained by the casino — pool {scope}",
      "Apostas no acumulado retidas pelo casino — {scope}", Kind.REVENUE, "credit", Scope.POOL,
      "72 Prestações de serviços", "72 Prestações de serviços",
      "The casino's share of the jackpot bets: what neither the meter nor the reserve takes."),
    T("jackpot_funding", "7214", "Jackpot start values funded by the casino — pool {scope}",
      "Valores de arranque do acumulado suportados pelo casino — {scope}", Kind.REVENUE,
      "debit", Scope.POOL, "72 Prestações de serviços (dedução)",
      "72 Prestações de serviços (dedução)",
      "The part of a pool's start value (valor de arranque) the reserve did not cover: a "
      "deduction from gaming revenue."),
    T("drop_difference", "7883", "Drop count differences — table {scope}",
      "Diferenças de contagem da caixa de depósito — mesa {scope}", Kind.OTHER_RESULT,
      "credit", Scope.TABLE, "688 Outros gastos / 788 Outros rendimentos",
      "65 Outros custos operacionais / 76 Outros proveitos operacionais",
      "Counted drop less recorded drop, where the casino's drop definition is the recorded "
      "drop (with the counted definition, the difference is part of the table win); and, under "
      "either definition, cash the cage received less the count room's count (the drop "
      "variance)."),
    T("float_difference", "7882", "Table float differences between sessions — table {scope}",
      "Diferenças de banca entre partidas — mesa {scope}", Kind.OTHER_RESULT, "credit",
      Scope.TABLE, "688 Outros gastos / 788 Outros rendimentos",
      "65 Outros custos operacionais / 76 Outros proveitos operacionais",
      "The float counted at a session's opening less the previous session's closing count."),
    T("jackpot_corrections", "7884", "Jackpot meter corrections — pool {scope}",
      "Correções do contador do acumulado — {scope}", Kind.OTHER_RESULT, "credit", Scope.POOL,
      "688 Outros gastos / 788 Outros rendimentos",
      "65 Outros custos operacionais / 76 Outros proveitos operacionais",
      "Approved corrections of a pool's meter or reserve."),
    T("cage_over_short", "7881", "Cage over/short — {scope}", "Quebras e sobras de caixa — {scope}",
      Kind.OTHER_RESULT, "credit", Scope.WINDOW, "688 Outros gastos / 788 Outros rendimentos",
      "65 Outros custos operacionais / 76 Outros proveitos operacionais",
      "Counted less expected at a shift's close or a blind opening, and approved adjustments."),
    # --- the tips (gratificações, docs/tips.md): held for the staff, never revenue ---------------
    T("tips_cash", "1150", "Tip boxes' cash", "Numerário das caixas de gratificações",
      Kind.ASSET, "debit", Scope.CASINO, "11 Caixa", "11 Caixa",
      "The cash of the tip boxes, counted and confirmed in the count room, kept apart from the "
      "drop and the cage until the staff and the fund are paid."),
    T("tips_held", "2791", "Tips held for the staff", "Gratificações por distribuir",
      Kind.LIABILITY, "credit", Scope.CASINO, "278 Outros devedores e credores",
      "26 Outros devedores e credores",
      "Tips counted and not yet distributed (Decreto-Lei 422/89, art. 79.º): the staff's, "
      "never the casino's revenue."),
    T("tips_staff_payable", "2792", "Tips distributed, payable to the staff",
      "Gratificações distribuídas a pagar aos trabalhadores", Kind.LIABILITY, "credit",
      Scope.CASINO, "278 Outros devedores e credores", "26 Outros devedores e credores",
      "The staff's shares of a period's tips, by category and person, until paid."),
    T("tips_fund_payable", "2793", "Tips: the fund's contribution payable",
      "Gratificações: contribuição para o Fundo Especial de Segurança Social a pagar",
      Kind.LIABILITY, "credit", Scope.CASINO, "278 Outros devedores e credores",
      "26 Outros devedores e credores",
      "The share of a period's tips owed to the Fundo Especial de Segurança Social dos "
      "Profissionais de Banca dos Casinos (or the fund a casino's policy names), until paid."),
    T("tips_misplaced", "7291", "Tips found in the drop box, drop in the tip box — table {scope}",
      "Gratificações na caixa de depósito e drop na caixa de gratificações — mesa {scope}",
      Kind.REVENUE, "credit", Scope.TABLE, "72 Prestações de serviços (dedução)",
      "72 Prestações de serviços (dedução)",
      "Corrections confirmed by a second person: a tip found in a table's drop box is taken "
      "out of the table's win and held for the staff (debit); a drop found in a tip box the "
      "other way (credit)."),
    # --- the exchange at the cage (docs/currencies.md), in the book currency ---------------------
    T("exchange_desk_cash", "1161", "Exchange desk cash (book currency)",
      "Caixa do câmbio (moeda de contabilização)", Kind.ASSET, "debit", Scope.CASINO,
      "11 Caixa", "11 Caixa",
      "The exchange desk's notes and coins of the book currency: its float, less what it paid "
      "for foreign notes, plus what it received for them."),
    T("foreign_cash", "1171", "Foreign notes held — {scope}", "Moeda estrangeira — {scope}",
      Kind.ASSET, "debit", Scope.CURRENCY, "11 Caixa", "11 Caixa",
      "Foreign notes held at the exchange desk, at their book value: bought at the middle rate "
      "of the moment, revalued at each gaming day's closing rate."),
    T("exchange_result", "7891", "Exchange result (spread)", "Resultado do câmbio",
      Kind.OTHER_RESULT, "credit", Scope.CASINO, "688 Outros gastos / 788 Outros rendimentos",
      "65 Outros custos operacionais / 76 Outros proveitos operacionais",
      "What the desk earns on its spread: the book value of the notes bought less what it "
      "paid, what it received for notes sold less their book value."),
    T("revaluation_result", "7892", "Foreign currency revaluation", "Diferenças de câmbio",
      Kind.OTHER_RESULT, "credit", Scope.CASINO, "686 / 786 Diferenças de câmbio",
      "66 / 76 Diferenças de câmbio",
      "The foreign holdings' book value brought to the gaming day's closing middle rate."),
    *POKER_ROOM,
)
TEMPLATES += (  # the slot floor's accounts (docs/machines.md § The books)
    T("machine_box", "1145", "Bill validator box — machine {scope}",
      "Caixa do noteiro — máquina {scope}", Kind.ASSET, "debit", Scope.MACHINE, "11 Caixa",
      "11 Caixa", "Notes the meters put in a machine's box, until the count room counts it."),
    T("slot_cash", "1146", "Slot cashier's cash — {scope}", "Caixa das máquinas — {scope}",
      Kind.ASSET, "debit", Scope.WINDOW, "11 Caixa", "11 Caixa",
      "The cash of the slot floor's cashier (caixa das máquinas): boxes counted in, tickets and "
      "hand pays paid out. Apart from the table cage's windows, whose shifts count their own."),
    T("machine_credits", "2794", "Credits on the machines (players' credit meters)",
      "Créditos nas máquinas", Kind.LIABILITY, "credit", Scope.CASINO,
      "278 Outros devedores e credores", "26 Outros devedores e credores",
      "What the casino owes for the credits on the machines' credit meters: bills and tickets "
      "put in, less play, tickets printed and credits cancelled."),
    T("ticket_liability", "2795", "Tickets outstanding (TITO)", "Talões em circulação",
      Kind.LIABILITY, "credit", Scope.CASINO, "278 Outros devedores e credores",
      "26 Outros devedores e credores",
      "Tickets printed and not yet redeemed nor expired: what the casino owes for them."),
    T("hand_pays_payable", "2788", "Hand pays to pay", "Pagamentos manuais a pagar",
      Kind.LIABILITY, "credit", Scope.CASINO, "278 Outros devedores e credores",
      "26 Outros devedores e credores",
      "Jackpots, cancelled credits and progressive prizes a machine locked up for, until the "
      "cage pays them."),
    T("slot_progressive", "2796", "Machine progressive — pool {scope}",
      "Progressivo de máquinas — {scope}", Kind.LIABILITY, "credit", Scope.POOL,
      "278 Outros devedores e credores", "26 Outros devedores e credores",
      "A machines' progressive pool: what its display shows."),
    T("machine_revenue", "7218", "Machine revenue — machine {scope}",
      "Receita de jogo — máquina {scope}", Kind.REVENUE, "credit", Scope.MACHINE,
      "72 Prestações de serviços", "72 Prestações de serviços",
      "Coin in less coin out, less the progressive contributions and the jackpots paid by "
      "hand."),
    T("slot_progressive_funding", "7219", "Progressive start values funded — pool {scope}",
      "Valores de arranque do progressivo de máquinas — {scope}", Kind.REVENUE, "debit",
      Scope.POOL, "72 Prestações de serviços (dedução)", "72 Prestações de serviços (dedução)",
      "A machines' progressive pool's start value (and each reset), funded by the casino."),
    T("tickets_expired", "7887", "Tickets expired", "Talões prescritos", Kind.OTHER_RESULT,
      "credit", Scope.CASINO, "788 Outros rendimentos", "76 Outros proveitos operacionais",
      "Tickets nobody redeemed before they expired."),
    T("slot_cash_over_short", "7870", "Slot cashier over/short — {scope}",
      "Quebras e sobras da caixa das máquinas — {scope}", Kind.OTHER_RESULT, "credit",
      Scope.WINDOW, "688 Outros gastos / 788 Outros rendimentos",
      "65 Outros custos operacionais / 76 Outros proveitos operacionais",
      "A slot cashier's shift: counted less expected at its close, and its opening count less "
      "the window's book."),
    T("machine_drop_difference", "7888", "Machine drop count differences — machine {scope}",
      "Diferenças de contagem do noteiro — máquina {scope}", Kind.OTHER_RESULT, "credit",
      Scope.MACHINE, "688 Outros gastos / 788 Outros rendimentos",
      "65 Outros custos operacionais / 76 Outros proveitos operacionais",
      "Notes counted less notes metered into a machine's box."),
    # --- tables playing in a foreign currency (docs/currencies.md) --------------------------------
    T("foreign_chips_in_circulation", "2797", "Chips in circulation — {scope}, at book value",
      "Fichas em circulação — {scope}, ao valor contabilístico", Kind.LIABILITY, "credit",
      Scope.CURRENCY, "278 Outros devedores e credores", "26 Outros devedores e credores",
      "What the casino owes for the chips of a foreign currency its players hold, at the rate "
      "of each table session that moved them (2781 is the book currency's chips)."),
    T("foreign_figures", "0900", "{scope} in its own currency, at face value",
      "{scope} na sua moeda, ao valor facial", Kind.MEMORANDUM, "debit", Scope.CURRENCY,
      "0 (contas de ordem)", "0 (contas de ordem)",
      "A foreign-currency table's figures as counted, in its currency: the scope is the "
      "currency and the account the line would be in the book currency (0900.HKD.7211.B1 is "
      "table B1's win in HKD); what the pit and the cage count of that currency is "
      "reconciled against these."),
)
del T

BY_KEY: dict[str, Template] = {t.key: t for t in TEMPLATES}
BY_CODE: dict[str, Template] = {t.code: t for t in TEMPLATES}


@dataclass(frozen=True, order=True)
class AccountRef:
    """An account as a posting names it: a template and, for scoped ones, the scope's code."""

    key: str
    scope: str = ""
    game: str = ""  # revenue accounts only: named after their game

    @property
    def template(self) -> Template:
        return BY_KEY[self.key]

    @property
    def code(self) -> str:
        t = self.template
        return f"{t.code}.{self.scope}" if t.scope is not Scope.CASINO else t.code

    @property
    def name(self) -> str:
        return self.template.name.format(scope=self.scope, game=_game_name(self.game))

    @property
    def name_pt(self) -> str:
        return self.template.name_pt.format(scope=self.scope, game=_game_name(self.game))


def account(key: str, scope: str = "", game: str = "") -> AccountRef:
    template = BY_KEY[key]  # KeyError: an unknown account is a programming error
    if (template.scope is Scope.CASINO) != (scope == ""):
        raise ValueError(f"account {key} is scoped by {template.scope}: got scope {scope!r}")
    return AccountRef(key, scope, game)


def template_of_code(code: str) -> Template:
    return BY_CODE[code.partition(".")[0]]


def _game_name(game: str) -> str:
    return game.replace("_", " ") if game else "table game"

"""The pit's rules on plain values (no Django, no clock, no I/O): what the services ask before
they append.

- ``bets``: the stake tables, a bet as the rules read it (``BetView``), new bets checked against
  the table's seats, the rules engine and the table's limits (odds, per-player maxima).
- ``outcomes``: an outcome prepared against what was recorded as the round was played.
- ``decisions``: the deal and the decisions of the hand in play (blackjack, stud poker).
- ``settlement``: the engine's settlement of a round, and the plan of what it books (prize cap,
  carried bets, handle, the hold check's stakes).
- ``money``: amounts as the commands write them, cents rounded down.
- ``errors``: ``RuleError``, the one refusal of this package; the services turn it into the
  platform's error family (``games.services.rounds``).

The table and the round travel as plain values (``bets.TableRules``, a round's ``play`` dict),
never as model instances. Kept pure by an import-linter contract (``pyproject.toml``).
"""

"""Django admin for jackpot pools: the administrator sets a pool up and changes its parameters
(each change approved: date and reference) and its tables. Saving calls the services, which
record events; nothing here edits events or projections. Prizes, coups and meter history are
shown read-only.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from casino.context import person_metadata
from casino.errors import DomainError
from casino.models import Role
from casino.money import Money, parse_amount
from jackpots.models import (
    JackpotPool,
)
from jackpots.rules import number_text
from jackpots.services import (
    jackpot_pool_change,
    jackpot_pool_create,
    jackpot_pool_set_tables,
)

PARAMETERS = ("bet", "increment_percent", "start", "paytable", "reserve_percent", "cap")


def _cap(value: object) -> Money | None:
    """The cap as the form gave it, parsed (none: no cap)."""
    return None if value in (None, "") else parse_amount(value, field="cap")


def _meta(request: HttpRequest, casino: str) -> Any:
    return person_metadata(username=request.user.get_username(), role=Role.ADMINISTRATOR,
                           casino=casino)


class JackpotPoolForm(forms.ModelForm):  # type: ignore[type-arg]
    reason = forms.CharField(required=False, help_text="why the parameters or tables change")

    class Meta:
        model = JackpotPool
        fields = ["casino", "pool_id", "name", "game", "tables", "bet", "increment_percent",
                  "start", "paytable", "reserve_percent", "cap", "approved_on",
                  "approval_reference"]
        help_texts = {
            "tables": 'codes of the tables that feed the pool, e.g. ["bj-1", "bj-2"]',
            "paytable": '[{"combination": "four_aces_suited", "pays": "jackpot"}, ...]',
            "start": "at least 10,000 times the bet (blackjack n.º 44, stud poker n.º 10)",
            "approved_on": "the Inspecção-Geral de Jogos' approval of these parameters",
        }


@admin.register(JackpotPool)
class JackpotPoolAdmin(admin.ModelAdmin[JackpotPool]):
    form = JackpotPoolForm
    list_display = ("casino", "pool_id", "name", "game", "amount", "reserve", "hits", "resets",
                    "config_version")
    list_filter = ("casino", "game")
    meters = ("amount", "reserve", "coups", "contributions", "hits", "wins", "prizes_unpaid",
              "resets", "seeded", "reserve_draws", "corrections", "last_hit_at",
              "paytable_approved_on", "paytable_approval_reference", "config_version",
              "version")

    def get_readonly_fields(self, request: HttpRequest, obj: JackpotPool | None = None
                            ) -> tuple[str, ...]:
        if obj is None:
            return ()
        return ("casino", "pool_id", "name", "game", *self.meters)

    def save_model(self, request: HttpRequest, obj: JackpotPool, form: Any, change: bool
                   ) -> None:
        meta = _meta(request, obj.casino_id)
        data = form.cleaned_data
        reason = data.get("reason", "")
        try:
            if not change:
                jackpot_pool_create(
                    casino=obj.casino_id, pool_id=obj.pool_id, name=obj.name, game=obj.game,
                    tables=list(obj.tables or []), bet=parse_amount(obj.bet, field="bet"),
                    increment_percent=number_text(obj.increment_percent),
                    start=parse_amount(obj.start, field="start"),
                    paytable=obj.paytable, reserve_percent=number_text(obj.reserve_percent),
                    cap=_cap(obj.cap), approved_on=obj.approved_on,
                    approval_reference=obj.approval_reference, metadata=meta)
                return
            current = JackpotPool.objects.get(pk=obj.pk)
            changed: dict[str, Any] = {}
            for name in PARAMETERS:
                if getattr(current, name) != getattr(obj, name):
                    value = getattr(obj, name)
                    if name.endswith("percent"):
                        value = number_text(value)
                    elif name == "cap":
                        value = _cap(value)
                    elif name in ("bet", "start"):
                        value = parse_amount(value, field=name)
                    changed[name] = value
            if changed:
                jackpot_pool_change(casino=obj.casino_id, pool_id=obj.pool_id,
                                    approved_on=obj.approved_on,
                                    approval_reference=obj.approval_reference, reason=reason,
                                    metadata=meta, **changed)
            if list(current.tables) != list(obj.tables or []):
                jackpot_pool_set_tables(casino=obj.casino_id, pool_id=obj.pool_id,
                                        tables=list(obj.tables or []), reason=reason,
                                        metadata=meta)
        except DomainError as error:
            self.message_user(request, error.message, level="error")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

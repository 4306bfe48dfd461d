"""Django admin for the pit's configuration: tables (game, options, seats, limits, prize cap) and
the casino's drop definition. Saving records an event through the services (the regulator sees
when a limit changed and who changed it); nothing here edits events or projections. Sessions,
rounds and slips are shown read-only.

A table's jackpot is not typed here: it is derived from the pool the table feeds (the pool is
the one source of truth, set up in the jackpots admin) and shown read-only.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html

from casino.context import person_metadata
from casino.errors import DomainError
from casino.models import Role
from edge.web.refusals import refusal_text
from games import limits as table_limits
from games.engine import GAMES
from games.engine.errors import RoundError
from games.models import DropDefinition, Table
from games.services import (
    drop_definition_set,
    table_change_currency,
    table_change_limits,
    table_change_options,
    table_change_tax_class,
    table_configure,
)
from games.services.tables import JACKPOT_FROM_POOL
from jackpots.selectors import table_pool_at


def _meta(request: HttpRequest, casino: str) -> Any:
    return person_metadata(username=request.user.get_username(), role=Role.ADMINISTRATOR,
                           casino=casino)


class TableForm(forms.ModelForm):  # type: ignore[type-arg]
    game = forms.ChoiceField(choices=[])
    bank = forms.ChoiceField(choices=[("simples", "banca simples"), ("dupla", "banca dupla")],
                             initial="simples", required=False,
                             help_text="for the gaming tax (Decreto-Lei n.º 422/89, art. 87.º)")
    reason = forms.CharField(required=False, help_text="why the limits or options change")

    class Meta:
        model = Table
        fields = ["casino", "code", "name", "game", "options", "seats", "chip_set", "currency",
                  "limits", "max_prize_per_coup", "bank", "vip"]
        help_texts = {"currency": "the currency the table plays in, with a chip set of that "
                                  "currency (empty: the casino's book currency; "
                                  "docs/currencies.md)"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "game" in self.fields:  # read-only once the table exists
            self.fields["game"].choices = [(g, g) for g in sorted(GAMES)]  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["bank"] = data.get("bank") or (self.instance.bank if self.instance.pk else "simples")
        self.instance.bank = data["bank"]
        game = data.get("game") or (self.instance.game if self.instance.pk else None)
        options = data.get("options") or {}
        if isinstance(options, dict) and options.get("jackpot") is not None:
            self.add_error("options", JACKPOT_FROM_POOL)
            return data
        if isinstance(options, dict):
            options = {k: v for k, v in options.items() if k != "jackpot"}
            data["options"] = options
        if game:
            try:
                GAMES[game].check_options(dict(options))
            except RoundError as error:
                self.add_error("options", refusal_text(error))
            try:
                table_limits.parse_limits(game, options, data.get("limits"))
            except table_limits.LimitError as error:
                self.add_error("limits", refusal_text(error) + (
                    f" [{error.article}]" if error.article else ""))
        return data


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    form = TableForm
    list_display = ("casino", "code", "name", "game", "seats", "open_session_id", "version")
    list_filter = ("casino", "game")

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None
                            ) -> tuple[str, ...]:
        if obj:
            return ("casino", "code", "game", "jackpot_from_pool", "version")
        return ("jackpot_from_pool", "version")

    @admin.display(description="jackpot (derived from its pool)")
    def jackpot_from_pool(self, obj: Table | None) -> str:
        """The table's ``options.jackpot`` as the pool it feeds sets it (read-only)."""
        if obj is None or obj.pk is None:
            return "set by the jackpot pool the table will feed"

        found = table_pool_at(obj.casino_id, obj.code)
        if found is None:
            return "none: the table feeds no jackpot pool"
        pool_id, version = found
        return format_html("pool <b>{}</b> (configuration {}): {}", pool_id, version.version,
                           json.dumps(version.config["jackpot"], ensure_ascii=False))

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        meta = _meta(request, obj.casino_id)
        reason = form.cleaned_data.get("reason", "")
        try:
            if not change:
                table_configure(casino=obj.casino_id, code=obj.code, name=obj.name, game=obj.game,
                                options=obj.options, seats=obj.seats, chip_set=obj.chip_set,
                                limits=obj.limits, max_prize_per_coup=obj.max_prize_per_coup,
                                metadata=meta)
                if obj.bank != "simples" or obj.vip:
                    table_change_tax_class(casino=obj.casino_id, code=obj.code, bank=obj.bank,
                                           vip=obj.vip, metadata=_meta(request, obj.casino_id))
                if obj.currency:
                    table_change_currency(casino=obj.casino_id, code=obj.code,
                                          currency=obj.currency, chip_set=obj.chip_set,
                                          metadata=_meta(request, obj.casino_id))
                return
            current = Table.objects.get(pk=obj.pk)
            if current.currency != obj.currency or current.chip_set != obj.chip_set:
                table_change_currency(casino=obj.casino_id, code=obj.code,
                                      currency=obj.currency or obj.casino.currency,
                                      chip_set=obj.chip_set, reason=reason,
                                      metadata=_meta(request, obj.casino_id))
            if current.bank != obj.bank or current.vip != obj.vip:
                table_change_tax_class(casino=obj.casino_id, code=obj.code, bank=obj.bank,
                                       vip=obj.vip, reason=reason,
                                       metadata=_meta(request, obj.casino_id))
            if current.options != obj.options or current.seats != obj.seats:
                table_change_options(casino=obj.casino_id, code=obj.code, options=obj.options,
                                     seats=obj.seats, reason=reason, metadata=meta)
            if (current.limits != obj.limits
                    or current.max_prize_per_coup != obj.max_prize_per_coup):
                table_change_limits(casino=obj.casino_id, code=obj.code, limits=obj.limits,
                                    max_prize_per_coup=obj.max_prize_per_coup, reason=reason,
                                    metadata=_meta(request, obj.casino_id))
        except DomainError as error:
            self.message_user(request, refusal_text(error), level="error")

    def has_delete_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False


class DropDefinitionForm(forms.ModelForm):  # type: ignore[type-arg]
    basis = forms.ChoiceField(choices=[("counted", "the drop box as counted at the close"),
                                       ("recorded", "the cash recorded at the table")])

    class Meta:
        model = DropDefinition
        fields = ["casino", "basis", "reason"]


@admin.register(DropDefinition)
class DropDefinitionAdmin(admin.ModelAdmin[DropDefinition]):
    form = DropDefinitionForm
    list_display = ("casino", "version", "basis", "set_by", "set_at")

    def save_model(self, request: HttpRequest, obj: DropDefinition, form: Any, change: bool
                   ) -> None:
        try:
            drop_definition_set(casino=obj.casino_id, basis=obj.basis, reason=obj.reason,
                                metadata=_meta(request, obj.casino_id))
        except DomainError as error:
            self.message_user(request, refusal_text(error), level="error")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

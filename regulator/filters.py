"""The regulator's filters (django-filter): each collection's, by the names of its fields."""

from __future__ import annotations

import datetime as dt

import django_filters as df
from django import forms
from django_filters.fields import IsoDateTimeField

from access.models import AccessLogEntry
from cage.models import Shift
from eventstore.models import StoredEvent
from games.models import Round, Slip, Table, TableSession
from jackpots.models import JackpotPool
from ledger.models import DayClose


class CharIn(df.BaseInFilter, df.CharFilter):
    """Several values, comma separated: ``?type=RoundOpened,BetPlaced``."""


class PositionFilter(df.NumberFilter):
    """A whole number (django-filter's number is a decimal, checked against a float bound)."""

    field_class = forms.IntegerField


class InstantField(IsoDateTimeField):
    """An ISO 8601 instant, turned to UTC (PostgreSQL takes offsets up to 15:59 only); one
    that UTC cannot hold is refused."""

    def to_python(self, value: object) -> dt.datetime | None:
        moment: dt.datetime | None = super().to_python(value)
        if moment is None:
            return None
        try:
            return moment.astimezone(dt.UTC)
        except OverflowError:
            raise forms.ValidationError(f"{value} is out of range", code="invalid") from None


class InstantFilter(df.IsoDateTimeFilter):
    field_class = InstantField


class EventFilter(df.FilterSet):
    stream = df.CharFilter(help_text="one stream, e.g. round/<id>")
    stream_type = df.CharFilter(field_name="stream", lookup_expr="startswith",
                                help_text="streams of one kind, e.g. round/")
    type = CharIn(field_name="event_type", help_text="event types, comma separated")
    recorded_after = InstantFilter(field_name="recorded_at", lookup_expr="gte")
    recorded_before = InstantFilter(field_name="recorded_at", lookup_expr="lt")
    # This database's positions (an event carried from another cell with its casino: its
    # cell_position); a casino's own numbers, the same in every cell, are its sequence.
    position_after = PositionFilter(field_name="position", lookup_expr="gt",
                                    help_text="this database's positions after this one")
    position_to = PositionFilter(field_name="position", lookup_expr="lte",
                                 help_text="this database's positions up to this one")
    sequence_from = PositionFilter(field_name="sequence", lookup_expr="gte",
                                   help_text="the casino's chain from its event of this number "
                                             "(a seal's first_sequence)")
    sequence_to = PositionFilter(field_name="sequence", lookup_expr="lte",
                                 help_text="the casino's chain up to its event of this number "
                                           "(a seal's last_sequence)")

    class Meta:
        model = StoredEvent
        fields: list[str] = []


class GamingDayFilter(df.FilterSet):
    day_from = df.DateFilter(field_name="day", lookup_expr="gte")
    day_to = df.DateFilter(field_name="day", lookup_expr="lte")

    class Meta:
        model = DayClose
        fields: list[str] = []


class TableFilter(df.FilterSet):
    class Meta:
        model = Table
        fields = ["game"]


class SessionFilter(df.FilterSet):
    class Meta:
        model = TableSession
        fields = ["table", "gaming_day", "status", "game"]


class RoundFilter(df.FilterSet):
    session = df.UUIDFilter(field_name="session_id")
    opened_after = InstantFilter(field_name="opened_at", lookup_expr="gte")
    opened_before = InstantFilter(field_name="opened_at", lookup_expr="lt")

    class Meta:
        model = Round
        fields = ["table", "status", "game"]


class SlipFilter(df.FilterSet):
    session = df.UUIDFilter(field_name="session_id")

    class Meta:
        model = Slip
        fields = ["kind", "status", "table"]


class ShiftFilter(df.FilterSet):
    class Meta:
        model = Shift
        fields = ["cage", "gaming_day", "status"]


class PoolFilter(df.FilterSet):
    class Meta:
        model = JackpotPool
        fields = ["game"]


class AccessLogFilter(df.FilterSet):
    username = df.CharFilter()
    since = InstantFilter(field_name="at", lookup_expr="gte")
    until = InstantFilter(field_name="at", lookup_expr="lt")

    class Meta:
        model = AccessLogEntry
        fields: list[str] = []

"""What the casino's own commands answer (the four-eyes approvals, ``casino.services``): frozen
dataclasses, JSON-native. Kept as JSON by the idempotency record and rebuilt from it on a retry
(``eventstore.commands``); the API publishes its schema (``edge.api.schema.answer_serializer``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ApprovalAnswer:
    """An approval asked, granted, refused or withdrawn. ``summary`` when asked; ``applied``
    when granted: what the approved change recorded (its kind's own answer)."""

    approval_id: str
    status: str
    kind: str
    subject: str
    summary: str | None = None
    applied: dict[str, Any] | None = None


@dataclass(frozen=True)
class CasinoSettingsAnswer:
    """A casino's settings changed: the names of those that changed (none: nothing recorded)."""

    casino: str
    changed: list[str]


@dataclass(frozen=True)
class CasinoRegisterAnswer:
    casino: str


@dataclass(frozen=True)
class ChipSetAnswer:
    """A chip set registered (``denominations`` when they were changed)."""

    casino: str
    chip_set: str
    denominations: list[str] | None = None

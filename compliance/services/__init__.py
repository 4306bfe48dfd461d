"""The compliance commands (``docs/patrons.md``)."""

from .linking import linking_period_set
from .patrons import patron_register, patron_shred, patron_verify
from .reports import suspicious_report_draft, suspicious_report_review, suspicious_report_send
from .screening import alerts_raise, movement_check

__all__ = [
    "alerts_raise", "linking_period_set", "movement_check", "patron_register", "patron_shred", "patron_verify",
    "suspicious_report_draft", "suspicious_report_review", "suspicious_report_send",
]

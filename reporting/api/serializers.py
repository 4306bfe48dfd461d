"""Serializers the ledger's API shares with the regulator's."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from cage.models import CasinoCheque
from ledger.models import CardSettlement, ChequePresentation


class _ChequeOutstandingSerializer(serializers.ModelSerializer[CasinoCheque]):
    class Meta:
        model = CasinoCheque
        fields = ["number", "kind", "amount", "window", "issued_at"]  # no patron


class _ChequePresentedSerializer(serializers.ModelSerializer[ChequePresentation]):
    class Meta:
        model = ChequePresentation
        fields = ["number", "amount", "bank_reference", "paid_on", "recorded_by", "recorded_at"]


class _BatchCreditedSerializer(serializers.ModelSerializer[CardSettlement]):
    class Meta:
        model = CardSettlement
        fields = ["bank_reference", "amount", "credited_on", "recorded_by", "recorded_at"]


class BankClearingOutput(serializers.Serializer[Any]):
    """A casino's clearing against the bank (``ledger.bank.Clearing``)."""

    cheques_outstanding = _ChequeOutstandingSerializer(source="outstanding_cheques",
                                                       many=True)
    cheques_outstanding_total = serializers.DecimalField(max_digits=18, decimal_places=2)
    cheques_outstanding_ledger = serializers.DecimalField(
        max_digits=18, decimal_places=2,
        help_text="what the ledger owes on 2785, read at the same instant")
    card_outstanding = serializers.DecimalField(
        max_digits=18, decimal_places=2,
        help_text="card and cheque receipts the bank has still to credit (1220)")
    presented = _ChequePresentedSerializer(many=True)
    credited = _BatchCreditedSerializer(source="settlements", many=True)

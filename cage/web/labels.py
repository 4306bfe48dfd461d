"""The cage's codes as the screens say them, marked for translation.

The cage's models and events keep their English labels and stable names; the templates pass
them through ``{% translate %}`` (event types with the context "cage event"), so these marks
put them in the catalogue (``makemessages``). Nothing imports this module.
"""

from django.utils.translation import gettext_noop, pgettext_lazy

CHOICES = [
    gettext_noop("Main cage"), gettext_noop("Cashier window"), gettext_noop("Vault"),
    gettext_noop("Open"), gettext_noop("Counted, waiting to close"), gettext_noop("Closed"),
    gettext_noop("Opening disputed, waiting for a cage supervisor"),
    gettext_noop("Waiting for a cage supervisor"), gettext_noop("Resolved"),
    gettext_noop("Waiting for approval"), gettext_noop("Approved"), gettext_noop("Rejected"),
    gettext_noop("cash"),
    pgettext_lazy("adjustment direction", "in"), pgettext_lazy("adjustment direction", "out"),
    pgettext_lazy("shift status", "open"), pgettext_lazy("shift status", "counted"),
    pgettext_lazy("shift status", "closed"),
]

EVENT_TYPES = [
    pgettext_lazy("cage event", "CageConfigured"),
    pgettext_lazy("cage event", "CageMinimumCashChanged"),
    pgettext_lazy("cage event", "ShiftOpened"),
    pgettext_lazy("cage event", "ShiftOpeningDisputed"),
    pgettext_lazy("cage event", "ShiftOpeningDisputeResolved"),
    pgettext_lazy("cage event", "ChipsSold"),
    pgettext_lazy("cage event", "ChipsRedeemed"),
    pgettext_lazy("cage event", "FillIssued"),
    pgettext_lazy("cage event", "CreditReceived"),
    pgettext_lazy("cage event", "SlipRefused"),
    pgettext_lazy("cage event", "TransferSent"),
    pgettext_lazy("cage event", "TransferReceived"),
    pgettext_lazy("cage event", "JackpotPaid"),
    pgettext_lazy("cage event", "DropBoxReceived"),
    pgettext_lazy("cage event", "AdjustmentRequested"),
    pgettext_lazy("cage event", "AdjustmentApproved"),
    pgettext_lazy("cage event", "AdjustmentRejected"),
    pgettext_lazy("cage event", "ChipsPutIntoService"),
    pgettext_lazy("cage event", "ChipsTakenOutOfService"),
    pgettext_lazy("cage event", "CageCashFellBelowMinimum"),
    pgettext_lazy("cage event", "CageCashRestoredAboveMinimum"),
    pgettext_lazy("cage event", "ShiftCounted"),
    pgettext_lazy("cage event", "VarianceExplained"),
    pgettext_lazy("cage event", "VarianceApproved"),
    pgettext_lazy("cage event", "VarianceRefused"),
    pgettext_lazy("cage event", "ShiftClosed"),
]

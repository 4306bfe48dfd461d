"""What reporting keeps of its own: the files of a sealed gaming day as its close made them.

Not a projection (nothing is folded from events into it, and a rebuild leaves it alone): the
regulator file of a day holds the day's seal, so it can only be made after the seal, outside
what the seal covers; the close makes it in its own unit of work and keeps it here, and it is
served as stored ever after (issue 34: a sealed day is frozen). Written once, never changed.
"""

from __future__ import annotations

from django.db import models

from casino.models import Casino


class SealedFile(models.Model):
    """One file of a sealed gaming day (``regulator.xml``), its bytes and their SHA-256."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    gaming_day = models.DateField()
    name = models.CharField(max_length=64)
    content = models.BinaryField()
    sha256 = models.CharField(max_length=64)
    made_at = models.DateTimeField()

    class Meta:
        db_table = "reporting_sealed_file"
        ordering = ["casino", "gaming_day", "name"]
        constraints = [models.UniqueConstraint(fields=["casino", "gaming_day", "name"],
                                               name="reporting_sealed_file_unique")]

    def __str__(self) -> str:
        return f"{self.casino_id} {self.gaming_day} {self.name}"

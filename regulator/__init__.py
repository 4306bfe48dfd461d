"""The regulator's read-only API, ``/api/regulator/v1/`` (``docs/regulator.md``)."""

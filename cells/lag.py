"""Lag per casino in the regulator's store: from an event's recording in its cell to its arrival
in the store (``received_at``, the store's clock), over the last hour; and the follower's
backlog. Both clocks are the machines' own: on separate machines, their skew (NTP: a few
milliseconds) is in the figure."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from django.db import connection


@dataclasses.dataclass(frozen=True)
class CasinoLag:
    casino: str
    received: int  # the last sequence the store holds
    applied: int  # the last sequence the follower applied
    lag_p50: Decimal  # seconds, recorded in the cell -> received in the store
    lag_p99: Decimal
    alarms: int
    stopped: str

    @property
    def behind(self) -> int:
        return self.received - self.applied


LAG = """
SELECT e.casino_id, max(e.sequence),
       coalesce(f.last_sequence, 0),
       coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM
           e.received_at - e.recorded_at)) FILTER (WHERE e.received_at > now() - interval '1 hour'), 0),
       coalesce(percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM
           e.received_at - e.recorded_at)) FILTER (WHERE e.received_at > now() - interval '1 hour'), 0),
       (SELECT count(*) FROM cells_store_alarm AS a WHERE a.casino_id = e.casino_id),
       coalesce(f.stopped, '')
FROM event AS e LEFT JOIN cells_followed_chain AS f ON f.casino_id = e.casino_id
WHERE %s::text[] IS NULL OR e.casino_id = ANY(%s::text[])
GROUP BY e.casino_id, f.last_sequence, f.stopped ORDER BY e.casino_id
"""


def is_store() -> bool:
    """Whether this database is a regulator's store (its event table fed by replication)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM information_schema.columns WHERE table_name = 'event' "
                       "AND column_name = 'received_at' AND table_schema = current_schema()")
        return cursor.fetchone() is not None


def store_lag(casinos: list[str] | None = None) -> list[CasinoLag]:
    """Each casino the store holds (of ``casinos``, if given); none in a cell."""
    if not is_store():
        return []
    with connection.cursor() as cursor:
        cursor.execute(LAG, [casinos, casinos])
        return [CasinoLag(c, int(r), int(a), Decimal(str(round(p50, 3))),
                          Decimal(str(round(p99, 3))), int(n), s)
                for c, r, a, p50, p99, n, s in cursor.fetchall()]

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.errors import DomainError
from casino.models import Casino
from eventstore.verify import verify_casino_chain, verify_chain


class Command(BaseCommand):
    help = ("Recompute the event hash chains (every casino's, or one's); fail naming the first "
            "position that does not fit.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seals", action="store_true",
                            help="also check every casino's seals with its key "
                                 "(docs/event-hash.md)")
        parser.add_argument("--casino", metavar="C",
                            help="check this casino's chain only, without the others' events")

    def handle(self, *args: Any, **options: Any) -> None:
        report = (verify_casino_chain(options["casino"]) if options["casino"]
                  else verify_chain())
        if not report.ok:
            raise CommandError(
                f"hash chain broken at position {report.bad_position}: {report.reason} "
                f"({report.checked} events before it verified)"
            )
        self.stdout.write(f"OK: {report.checked} events verified; last hash {report.last_hash}")
        if options["seals"]:
            self._seals()

    def _seals(self) -> None:
        from reporting.seals import seal_check

        for casino in Casino.objects.values_list("code", flat=True):
            try:
                checks = seal_check(casino=casino)
            except DomainError as error:
                raise CommandError(error.message) from None
            for check in checks:
                if not check.ok:
                    raise CommandError(f"seal of {casino} {check.gaming_day}: {check.problem}")
            self.stdout.write(f"OK: {len(checks)} seal(s) of {casino} verified")

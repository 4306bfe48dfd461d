#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except RuntimeError as error:
        if not str(error).startswith("SECRET_KEY must be set"):
            raise
        # the settings refused to start without a key: say what to do, not a traceback
        sys.exit(f"{error}. On the demo run the command as `python3 dev.py manage "
                 f"{' '.join(sys.argv[1:2]) or 'COMMAND'} ...` (DEBUG on, the demo's database); "
                 "in production set SECRET_KEY (docs/deployment.md).")


if __name__ == "__main__":
    main()

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connection, transaction
from psycopg import sql

# Tables protected by the refuse_rewrite() trigger are append-only: the application role gets
# SELECT and INSERT on them and nothing else. Found from the catalogue, so a new append-only
# table (the ledger's journal) is covered without editing this command.
_APPEND_ONLY_SQL = """
SELECT DISTINCT c.relname
FROM pg_trigger t
JOIN pg_class c ON c.oid = t.tgrelid
JOIN pg_proc p ON p.oid = t.tgfoid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE p.proname = 'refuse_rewrite' AND n.nspname = current_schema()
"""


class Command(BaseCommand):
    help = (
        "Create (or update) the role the application connects as in production: SELECT and "
        "INSERT only on append-only tables (events, journal), read/write on projection tables, "
        "never an owner (so it cannot disable a trigger or alter a table). Run as the owner role "
        "after migrate. See docs/deployment.md."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", help="name of the application's login role")
        parser.add_argument("--password", default=None, help="set this password on the role")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with transaction.atomic():  # all the grants or none
                self._setup(options)
        except DatabaseError as error:
            raise CommandError(self._explain(error, options["role"])) from error

    @staticmethod
    def _explain(error: DatabaseError, role: str) -> str:
        """What to do, in words, instead of the driver's traceback (docs/deployment.md)."""
        cause = error.__cause__
        state = getattr(cause, "sqlstate", None)
        who = connection.settings_dict.get("USER") or "this role"
        if state == "42501":  # insufficient_privilege
            return (f"{who} may not do this: {str(cause).strip()}. Creating the role or setting "
                    f"its password needs CREATEROLE; once, as a superuser: CREATE ROLE {role} "
                    f"LOGIN PASSWORD '…'; (or ALTER ROLE {who} CREATEROLE), then run "
                    f"setup_app_role {role} again, as the owner of the tables, without "
                    "--password. Nothing was changed.")
        return f"setup_app_role failed, nothing was changed: {str(cause or error).strip()}"

    def _setup(self, options: dict[str, Any]) -> None:
        role = sql.Identifier(options["role"])
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [options["role"]])
            if not cursor.fetchone():
                cursor.execute(sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE "
                                       "NOBYPASSRLS").format(role).as_string(cursor.connection))
            if options["password"]:
                cursor.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                    role, sql.Literal(options["password"])).as_string(cursor.connection))
            cursor.execute(_APPEND_ONLY_SQL)
            append_only = sorted(r[0] for r in cursor.fetchall())
            tables = connection.introspection.table_names(cursor)
            statements = [
                sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(
                    sql.Identifier(self._schema(cursor)), role),
                sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {} TO {}").format(
                    sql.Identifier(self._schema(cursor)), role),
            ]
            for table in tables:
                name = sql.Identifier(table)
                statements.append(sql.SQL("REVOKE ALL ON {} FROM {}").format(name, role))
                if table in append_only:
                    statements.append(sql.SQL("GRANT SELECT, INSERT ON {} TO {}").format(name, role))
                else:
                    statements.append(sql.SQL(
                        "GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON {} TO {}"
                    ).format(name, role))
            for statement in statements:
                cursor.execute(statement.as_string(cursor.connection))
        self.stdout.write(
            f"role {options['role']}: append-only on {', '.join(append_only)}; "
            f"read/write on {len(tables) - len(append_only)} other tables"
        )

    @staticmethod
    def _schema(cursor: Any) -> str:
        cursor.execute("SELECT current_schema()")
        return str(cursor.fetchone()[0])

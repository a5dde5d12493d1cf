"""``python -m cardtable.server``: run the web table (the same command as
``cardtable serve``: the flags are made from ``settings.ServerSettings``)."""

from __future__ import annotations

import argparse

from .core import settings


def parser(prog: str = "python -m cardtable.server") -> argparse.ArgumentParser:
    """A flag for every setting, in groups (the server, the limits on clients, on people)."""
    made = argparse.ArgumentParser(
        prog=prog, description="Run the cardtable web table. Each setting may also be "
        f"given as an environment variable {settings.ENV_PREFIX}<NAME> or in a .env file; "
        "a flag beats both.")
    settings.add_flags(made)
    return made


def parse(argv: list[str] | None = None, prog: str = "python -m cardtable.server"
          ) -> settings.ServerSettings:
    """The settings the command line, the environment and ``.env`` give."""
    made = parser(prog)
    return settings.from_flags(made, made.parse_args(argv))


def main(argv: list[str] | None = None, prog: str = "python -m cardtable.server") -> None:
    chosen = parse(argv, prog)
    from .web.app import serve

    serve(chosen)


if __name__ == "__main__":
    main()

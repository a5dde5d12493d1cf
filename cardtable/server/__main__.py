"""``python -m cardtable.server``: run the web table (the same command as
``cardtable serve``: the flags are made from ``settings.ServerSettings`` and
``bounds.Limits``)."""

from __future__ import annotations

import argparse

from . import bounds, settings


def parser(prog: str = "python -m cardtable.server") -> argparse.ArgumentParser:
    """Every setting's flag, then every limit's."""
    made = argparse.ArgumentParser(
        prog=prog, description="Run the cardtable web table. Each setting may also be "
        f"given as an environment variable {settings.ENV_PREFIX}<NAME> or in a .env file; "
        "a flag beats both.")
    settings.add_flags(made)
    bounds.add_flags(made)
    return made


def parse(argv: list[str] | None = None, prog: str = "python -m cardtable.server"
          ) -> tuple[settings.ServerSettings, bounds.Limits]:
    """The settings and limits the command line (and the environment) give."""
    made = parser(prog)
    args = made.parse_args(argv)
    return settings.from_flags(made, args), bounds.from_flags(args)


def main(argv: list[str] | None = None, prog: str = "python -m cardtable.server") -> None:
    chosen, limits = parse(argv, prog)
    from .web.app import serve

    serve(host=chosen.host, port=chosen.port, log_level=chosen.log_level,
          log_format=chosen.log_format, limits=limits,
          trusted_proxies=chosen.trusted_proxies, **chosen.socket_arguments(),
          **chosen.app_arguments())


if __name__ == "__main__":
    main()

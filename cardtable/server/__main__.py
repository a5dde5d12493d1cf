"""``python -m cardtable.server``: run the web table (the same as ``cardtable serve``)."""

from __future__ import annotations

import argparse

from .bounds import add_flags, from_flags


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m cardtable.server",
                                     description="Run the cardtable web table.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data-dir", default="data",
                        help="folder for the SQLite database (default: data)")
    parser.add_argument("--database-url", default=None,
                        help="e.g. postgresql+psycopg://postgres@127.0.0.1:5432/cardtable")
    parser.add_argument("--redis-url", default=None,
                        help="e.g. redis://127.0.0.1:6379/0: join several server processes")
    parser.add_argument("--redis-prefix", default="cardtable",
                        help="prefix of the Redis keys and channels (default: cardtable)")
    parser.add_argument("--lease", type=float, default=15.0,
                        help="seconds a process holds a table without renewing (default 15)")
    parser.add_argument("--redis-pool-size", type=int, default=20,
                        help="with Redis: connections each process may open to it at most "
                             "(default 20)")
    parser.add_argument("--redis-pool-timeout", type=float, default=5.0,
                        help="with Redis: seconds a call waits for a free connection "
                             "(default 5)")
    parser.add_argument("--bot-delay", type=float, default=0.8,
                        help="seconds a bot waits before playing (default 0.8)")
    parser.add_argument("--grace", type=float, default=60.0,
                        help="seconds a dropped player keeps the seat (default 60)")
    parser.add_argument("--bot-processes", type=int, default=0,
                        help="processes for the bots to think in (default 0: threads)")
    parser.add_argument("--bot-time-limit", type=float, default=30.0,
                        help="seconds a bot may think: its search stops there (default 30)")
    parser.add_argument("--bot-threads", type=int, default=4,
                        help="threads bots think in without bot processes (default 4)")
    parser.add_argument("--storage-threads", type=int, default=8,
                        help="threads for the database calls alone (default 8)")
    parser.add_argument("--claim-grace", type=float, default=120.0,
                        help="seconds a seat taken but never connected to is held before it "
                             "is free again (default 120)")
    parser.add_argument("--storage-retry-max", type=float, default=5.0,
                        help="the longest wait between tries to store a bot's move while the "
                             "database is away (default 5)")
    parser.add_argument("--abandon-after", type=float, default=600.0,
                        help="seconds a table may go with no seated person connected before "
                             "it ends as abandoned, unrated (default 600)")
    parser.add_argument("--log-level", default="info",
                        help="uvicorn's log level: critical, error, warning, info, debug")
    add_flags(parser)
    args = parser.parse_args(argv)
    from .app import serve

    serve(host=args.host, port=args.port, data_dir=args.data_dir,
          database_url=args.database_url, redis_url=args.redis_url, bot_delay=args.bot_delay,
          grace=args.grace, redis_prefix=args.redis_prefix, lease=args.lease,
          bot_processes=args.bot_processes, bot_time_limit=args.bot_time_limit,
          bot_threads=args.bot_threads, storage_threads=args.storage_threads,
          limits=from_flags(args), log_level=args.log_level, claim_grace=args.claim_grace,
          storage_retry_max=args.storage_retry_max, redis_pool_size=args.redis_pool_size,
          redis_pool_timeout=args.redis_pool_timeout, abandon_after=args.abandon_after)


if __name__ == "__main__":
    main()

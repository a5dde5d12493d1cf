"""A plugin for every test (pyproject.toml's addopts): passwords hashed at argon2id's
lowest cost inside the test process.

The server hashes with argon2's recommended cost (about 0.15 s of a core a hash on the CI
machine), which is the point in production and only time in a suite that registers and
signs in hundreds of accounts.  Verifying reads the cost from the hash itself, so this
changes no answer: what a test checks of passwords (refused, accepted, rehashed, never
logged) holds at any cost.  Servers the tests start as processes keep the real cost;
``test_server_passwords`` checks that the server's own hasher is the recommended one.
"""

from __future__ import annotations


def pytest_configure() -> None:
    try:
        from argon2 import PasswordHasher

        from cardtable.server.web import accounts
    except ImportError:   # installed without the server's extras: nothing hashes
        return
    low = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    accounts._hasher = low
    accounts._DUMMY = low.hash("a password nobody has, so an unknown user costs a hash too")

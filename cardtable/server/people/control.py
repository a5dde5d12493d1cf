"""The retention sweep: guests, sessions and chat lines kept no longer than the
settings say (``AccountSettings``; the rows go through ``store.control``)."""

from __future__ import annotations

import asyncio
import logging

from ..core.account_settings import AccountSettings
from ..core.clock import Clock
from ..store.control import ControlStore
from ..store.storage import (
    Storage,
    StorageUnavailable,
)

__all__ = ["keep_sweeping"]

log = logging.getLogger("cardtable.server")


async def keep_sweeping(storage: Storage, keeping: AccountSettings, clock: Clock) -> None:
    """The retention sweep every ``retention_every`` seconds of ``clock`` (the tables':
    a test moves it), the first that long after the start (a task of the tables: their
    ``stop`` ends it)."""
    store = ControlStore(storage)
    while True:
        await clock.sleep(keeping.retention_every)
        try:
            gone = await asyncio.to_thread(store.sweep, keeping)
            if any(gone.values()):
                log.info("kept no longer: %(guests)d guests, %(sessions)d sessions, "
                         "%(chat)d chat lines", gone)
        except StorageUnavailable:   # logged by the storage: the next round tries again
            pass
        except Exception:
            log.exception("the retention sweep failed; it tries again")

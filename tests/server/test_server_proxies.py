"""Who a client is, to the per-address limits: the address it connects from, unless the
operator names the proxy in front (``--trusted-proxies``), whose ``X-Forwarded-For`` then
names the client.  Run as ``python -m cardtable.server``: the header is read by uvicorn,
which a TestClient does not go through."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from tablekit import server

from cardtable.server.core.settings import ServerSettings

QUOTA = 4
"""Quick-play tickets one address may have waiting (the server's default)."""


def tickets_from_posed_addresses(base: str) -> list[int]:
    """Five tickets, each claiming through the header to come from another address."""
    answers = []
    for n in range(QUOTA + 1):
        answer = httpx.post(f"{base}/api/quick-play", timeout=10,
                            headers={"X-Forwarded-For": f"203.0.113.{n + 1}"},
                            json={"game": "durak", "players": 2 + n, "bots_after": None})
        answers.append(answer.status_code)
    return answers


def test_by_default_no_client_can_pose_as_another_address(tmp_path: Path) -> None:
    with server(tmp_path / "data") as (_, base):
        answers = tickets_from_posed_addresses(base)
    # all five came from 127.0.0.1, whatever the header said: the fifth is over the quota
    assert answers == [201] * QUOTA + [429]


def test_a_trusted_proxy_names_the_client(tmp_path: Path) -> None:
    with server(tmp_path / "data", "--trusted-proxies", "127.0.0.1") as (_, base):
        answers = tickets_from_posed_addresses(base)
    assert answers == [201] * (QUOTA + 1)   # five clients, one ticket each


@pytest.mark.parametrize("value", ["localhost", "127.0.0.1,*", "10.0.0.0/33"])
def test_a_trusted_proxy_must_be_an_address_or_a_network(value: str) -> None:
    with pytest.raises(ValueError, match="not an IP address or network"):
        ServerSettings(trusted_proxies=value)


def test_the_trusted_proxies_are_read_as_a_list_of_networks() -> None:
    chosen = ServerSettings(trusted_proxies=" 127.0.0.1, 10.0.0.0/8 ,")
    assert chosen.trusted_proxies == "127.0.0.1,10.0.0.0/8"
    assert ServerSettings().trusted_proxies == ""

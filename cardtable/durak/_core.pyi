# The compiled core's interface (``_core.c``), for type checkers.
from typing import Any

from .moves import Move

MOVES: int
READY: bool

def bind(cards: tuple[Any, ...], moves: tuple[Move | None, ...], /) -> None: ...

class Core:
    rules: Any
    deck: Any
    dealer: int | None
    previous_loser: int | None
    @property
    def players(self) -> int: ...
    @property
    def to_move(self) -> int | None: ...
    _hands: list[int]
    _known: list[int]
    _stock: tuple[Any, ...]
    _att: tuple[Any, ...]
    _beats: tuple[tuple[Any, Any], ...]
    _trump_card: Any
    _moves: list[Move]
    _team: tuple[int, ...]
    _drawn: int
    _discard: int
    _round: int
    _out: int
    _loser: int | None
    _phase: int
    _attacker: int
    _defender: int
    _orig: int
    _to_move: int
    _cap_now: int
    _open: int
    _tmask: int
    _tranks: int
    _limit: int
    _passed: int
    _shown: int
    _trump: int
    _lowest: int
    _teams: int
    _pack_mask: int
    _late: bool
    _passport: bool
    def __init__(self, rules: Any, players: int) -> None: ...
    def legal_moves(self) -> list[Move]: ...
    def _legal_numbered(self) -> dict[int, Move]: ...
    def _pieces(self, seat: int, starts: tuple[int, ...], playing: bool
                ) -> tuple[tuple[int, ...], tuple[int, ...]]: ...
    def push(self, move: Move | str, *, seat: int | None = None) -> None: ...
    def pop(self) -> Move: ...
    def copy(self, *, stack: bool = True) -> Any: ...
    def is_over(self) -> bool: ...
    def _start(self, hands: list[int], known: list[int], stock: tuple[Any, ...], trump: int,
               trump_card: Any, discard: int, leader: int, round_number: int, /) -> None: ...
    def _redeal(self, hands: list[int], stock: tuple[Any, ...], /) -> None: ...
    def _getstate(self) -> bytes: ...
    def _setstate(self, state: bytes, /) -> None: ...
    def _transfer_rank(self) -> int: ...
    def _defender_after(self, seat: int, /) -> int | None: ...
    def playout(self, seed: int, policy: int = 0, limit: int = 0, dear: int = 19, /
                ) -> tuple[int | None, int, bool]: ...
    def _play_out(self, seed: int, policy: int, limit: int, dear: int, last_round: int, /
                  ) -> int: ...
    def _solve(self, seat: int, max_nodes: int, deadline: float = ..., /
               ) -> tuple[float, Move, int] | tuple[None, None, int]: ...
    def tactics(self, dear: int = 19, /) -> Move | None: ...
    def playouts(self, seed: int, games: int, policy: int = 0, /
                 ) -> tuple[int, int, tuple[int, ...], int]: ...

"""Table chat's rows: the lines said (the newest ``HISTORY`` of a room are sent to a
connection as it opens) and each table's players'-chat setting."""

from __future__ import annotations

from sqlalchemy import Integer, String, select
from sqlalchemy.orm import Mapped, mapped_column

from ..core.protocol import ChatLine
from .stamps import StampText
from .storage import Base, Store, guarded

__all__ = ["HISTORY", "ChatMessageRow", "ChatSettingRow", "ChatStore"]

HISTORY = 50


class ChatMessageRow(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    room: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str | None] = mapped_column(String(800), nullable=True)
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    at: Mapped[str] = mapped_column(StampText)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """Who said it (a seat's player, a watcher's account; ``None``: a guest, or a line
    kept before the speaker was): a block leaves their lines out of the history."""

    def message(self) -> ChatLine:
        """The line as its room's sockets are sent it."""
        return ChatLine(type="chat", room="spectators" if self.room == "spectators"
                        else "players", seat=self.seat, name=self.name, text=self.text,
                        phrase=self.phrase, at=self.at)


class ChatSettingRow(Base):
    __tablename__ = "chat_settings"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    off: Mapped[int] = mapped_column(Integer)


class ChatStore(Store):
    @guarded
    def add(self, row: ChatMessageRow) -> None:
        with self.storage.writing() as session:
            session.add(row)

    @guarded
    def recent(self, table_id: str,
               room: str) -> tuple[list[tuple[ChatLine, str | None]], bool]:
        """The room's newest lines, each with its speaker, and whether the players' chat
        is off."""
        with self.storage.sessions() as session:
            rows = session.scalars(select(ChatMessageRow).where(
                ChatMessageRow.table_id == table_id, ChatMessageRow.room == room)
                .order_by(ChatMessageRow.id.desc()).limit(HISTORY)).all()
            setting = session.get(ChatSettingRow, table_id)
            return ([(row.message(), row.player_id) for row in reversed(rows)],
                    bool(setting and setting.off))

    @guarded
    def set_off(self, table_id: str, off: bool) -> None:
        with self.storage.writing() as session:
            row = session.get(ChatSettingRow, table_id)
            if row is None:
                session.add(ChatSettingRow(table_id=table_id, off=int(off)))
            else:
                row.off = int(off)

"""Every code a refusal can carry, with its parameters: the one list the page translates.

A refusal is sent with a sentence in English for people reading logs (``reason`` on the
WebSocket, ``detail`` over HTTP), a stable ``code`` and the code's parameters beside them,
e.g. ``{"type": "error", "code": "not_your_turn", "seat": 1, "reason": "..."}``.  The page
shows the text its language file holds for ``code.<code>``, filled with the parameters;
tests/server/test_server_codes.py checks that every code the server's source can send is
listed here and has a text in every language file.

>>> CODES["not_your_turn"].params
('seat',)
>>> refused("stale_version", "old news", version=3, current=4).params
{'version': 3, 'current': 4}
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CODES", "RESERVED", "Code", "Refusal", "refused"]


@dataclass(frozen=True)
class Code:
    """What a code means (for people reading the source and docs/server.md) and the names
    of the parameters sent with it."""

    meaning: str
    params: tuple[str, ...] = ()


RESERVED = frozenset({"type", "reason", "detail", "code", "errors"})
"""Names a parameter may not have: the message's own fields."""

CODES: dict[str, Code] = {
    # -- any request ------------------------------------------------------------------------
    "invalid_request": Code("the request cannot be read or asks for what the rules or the "
                            "server's limits do not allow"),
    "invalid_text": Code("the request holds a NUL character or a lone surrogate, which no "
                          "text may hold"),
    "too_large": Code("the request's body is larger than any endpoint reads"),
    "headers_too_large": Code("the request's line and headers are larger than the server "
                              "reads"),
    "request_timeout": Code("the request did not arrive in time (its headers or its body "
                            "came too slowly): the connection is closed"),
    "not_found": Code("there is no such thing here (a page; a table, then named)", ("table",)),
    "method_not_allowed": Code("this address does not take this method"),
    "conflict": Code("not now: the table is not in a state to grant it"),
    "refused": Code("refused, for a reason only the sentence gives"),
    "rate_limited": Code("too many requests or messages: slow down"),
    "server_error": Code("the server failed on the request; nothing changed"),
    "unavailable": Code("the table cannot be played now"),
    "storage_unavailable": Code("the database is away for a moment; try again"),
    "cluster_unavailable": Code("the servers cannot reach each other for a moment"),
    # -- the server's limits ----------------------------------------------------------------
    "too_many_connections": Code("too many sockets open from one address", ("limit",)),
    "too_many_watchers": Code("the table has as many watchers as it takes", ("limit",)),
    "too_many_bot_tables": Code("too many tables of bots only", ("limit",)),
    "bot_not_offered": Code("this server offers no such bot", ("bot",)),
    "bot_option_out_of_bounds": Code("a bot option past what the server allows", ("option",)),
    "rule_option_out_of_bounds": Code("a rule option past what the server allows",
                                      ("option", "limit")),
    "rule_option_below_bounds": Code("a rule option below what the server allows",
                                     ("option", "limit")),
    "rule_option_not_bounded": Code("a rule option the server has no bound for, changed from "
                                    "its default", ("option",)),
    "rules_unplayable": Code("these rule settings cannot be played"),
    "id_taken": Code("a new table's id was taken: try again"),
    # -- tournaments -----------------------------------------------------------------------
    "account_only": Code("tournaments are for signed-in accounts"),
    "tournament_limit": Code("the account has as many tournaments not finished as it may",
                             ("limit",)),
    "tournament_full": Code("the tournament has as many entrants as it takes", ("limit",)),
    "tournament_over": Code("the tournament is over"),
    "tournament_started": Code("the tournament has started: a swiss takes no new entrant, "
                               "and it cannot be started again"),
    "not_entered": Code("the player has not entered this tournament"),
    "not_organiser": Code("only the tournament's organiser may do this"),
    # -- a table's life ---------------------------------------------------------------------
    "table_closed": Code("the table was closed for good", ("table",)),
    "table_broken": Code("the table's stored rows cannot be played", ("table",)),
    "table_full": Code("every seat is taken; one can still watch"),
    "seat_taken": Code("the free seat was just taken by someone else"),
    "not_over": Code("given once the game is over (its record or replay)"),
    "rematch_not_over": Code("a rematch can be asked for once the game is over"),
    "rematch_not_player": Code("only the players at the table can ask for a rematch"),
    "rematch_failed": Code("the rematch could not be made; ask again"),
    # -- the table's socket -----------------------------------------------------------------
    "bad_message": Code("the message cannot be read"),
    "message_flood": Code("too many messages: the socket is closed"),
    "key_in_url": Code("a seat's key was put in the socket's URL, where proxies log it: it "
                       "goes in the Sec-WebSocket-Protocol header"),
    "no_seat": Code("the token holds no seat at this table"),
    "signed_out": Code("the token is of an account's seat, and that account is not signed "
                       "in here: sign in to play it"),
    "moved": Code("the table is played by another server process now: connect again"),
    "watching": Code("a watcher cannot move"),
    "game_over": Code("the game is over"),
    "waiting_for_players": Code("the game starts when every seat is taken", ("free",)),
    "stale_version": Code("the move was chosen at an older state of the table (a fresh "
                          "state follows)", ("version", "current")),
    "not_your_turn": Code("another seat is to move", ("seat",)),
    "bot_plays_seat": Code("a bot plays this seat now"),
    "player_back": Code("the player is back: the bot stops"),
    "not_a_move": Code("the text is not a move of this game", ("move",)),
    "illegal_move": Code("the move cannot be played now", ("move",)),
    "engine_failed": Code("the game could not play the move; nothing changed", ("move",)),
    "move_not_saved": Code("the move could not be saved; nothing changed"),
    "lease_lapsed": Code("this server process no longer plays the table: connect again"),
    "cross_site": Code("a request from another site's page carrying this site's session"),
    "table_elsewhere": Code("the table is played by another server process: use its socket"),
    "not_started": Code("the game has not started: every seat must be taken first"),
    "rated_table": Code("a rated game may be resigned, not left (before your first move: "
                        "leaving aborts it)"),
    "rated_accounts_only": Code("a rated table seats signed-in accounts only, and no bots"),
    "already_left": Code("the player has already left this seat"),
    "seat_gone": Code("a bot plays this seat to the end (its player forfeited or left): no "
                      "undo or hint for it"),
    "ticket_gone": Code("the quick-play ticket is no longer in the queue (cancelled a while "
                        "ago, or the queue restarted): join again"),
    "queue_full": Code("the quick-play queue is full just now"),
    "signed_in": Code("already signed in: sign out before making another account"),
    "bad_credentials": Code("a wrong username or password (the same answer for both)"),
    "sign_in_throttled": Code("too many sign-in attempts from this address (for this "
                              "account, or for any): wait that many seconds",
                              ("retry_after",)),
    "not_signed_in": Code("this needs an account: sign in first"),
    "invalid_name": Code("a name that is empty, only spaces, not text or too long"),
    "name_control": Code("a name holding a control or format character (a newline, a bidi "
                         "override, a joiner joining nothing)", ("char",)),
    "name_reserved": Code("the name would pass for the site's own voice (admin, moderator, "
                          "system, a deleted player)", ("word",)),
    "name_invisible": Code("a name in which nothing shows (only blank letters or signs)"),
    "name_marks": Code("a name with too many combining marks on one character", ("limit",)),
    "name_taken": Code("a name that is another account's username (whatever its case)"),
    "name_confusable": Code("a name that looks like another account's username or display "
                            "name (letters of other alphabets or signs that look the same: "
                            "UTS #39's confusable skeleton)"),
    "name_mixed_scripts": Code("a name with a word mixing alphabets not written together "
                               "(a Cyrillic or Greek letter among Latin ones)", ("word",)),
    "invalid_username": Code("a username is 3 to 20 letters, digits or _"),
    "weak_password": Code("a password shorter than the least length"),
    "invalid_password": Code("a password that is not text or too long"),
    "password_common": Code("a password on the list of common ones (or one of its words "
                            "with a few digits or marks)"),
    "username_confusable": Code("the username looks like one that is taken or like an "
                                "account's display name (the same confusable skeleton)"),
    "username_taken": Code("the username is taken (whatever its case)"),
    "too_many_tokens": Code("an account holds as many API tokens as allowed"),
    "chat_too_long": Code("a chat message over 200 characters"),
    "chat_accounts_only": Code("only signed-in players may chat among the spectators"),
    "chat_rate_limited": Code("chat messages sent too fast"),
    "chat_off": Code("the table's creator turned the players' chat off"),
    "not_creator": Code("only the table's creator may do this"),
    "no_step": Code("the course has no such step"),
    "bad_lang": Code("a language the lessons are not written in"),
    "no_game": Code("no such game here"),
    "analysis_busy": Code("too many analyses are waiting: try again later"),
    "analysis_quota": Code("you already have an analysis under way: wait for it to end"),
    "no_analysis": Code("the game has not been analysed yet"),
    "analysis_failed": Code("the analysis of the game failed"),
    "no_puzzle": Code("no such puzzle, or none stored for the game"),
    "bad_move": Code("the text is not a move in this position"),
    "too_many_tickets": Code("this address already has as many quick-play tickets waiting "
                             "as it may"),
    # -- account control and moderation (``people.control``, ``mail``, ``moderation``) ----------
    "name_word": Code("a name holding a word the site does not allow (its word list)"),
    "chat_word": Code("a chat line holding a word the site does not allow (its word list)"),
    "muted": Code("an admin muted this account: its chat lines are not sent"),
    "banned": Code("an admin banned this account (until then; none: until lifted)",
                   ("until",)),
    "address_banned": Code("an admin banned the address this request comes from"),
    "not_admin": Code("this needs an admin"),
    "no_player": Code("there is no such player"),
    "no_chat_line": Code("there is no such chat line to report"),
    "seats_in_play": Code("the account holds seats at tables in play: finish or resign "
                          "them before deleting it"),
    "invalid_email": Code("not an e-mail address"),
    "email_taken": Code("another account has this e-mail address"),
    "reset_off": Code("this server sends no mail: no password reset by e-mail"),
    "reset_link_bad": Code("the password-reset link is wrong, used or out of date"),
    # -- players among themselves (``play.challenges``, ``web.social_api``) ------------------
    "not_yourself": Code("a player cannot challenge, follow or block themselves"),
    "player_blocked": Code("one of the two players blocks the other: no challenge between "
                           "them"),
    "challenges_refused": Code("the player takes no challenges from strangers, or from "
                               "anyone, just now"),
    "too_many_challenges": Code("as many open challenges as an account may have: cancel "
                                "one first", ("limit",)),
    "no_challenge": Code("there is no such challenge (or it is not yours to see)"),
    "challenge_closed": Code("the challenge was already answered, cancelled or expired",
                             ("status",)),
    "not_your_challenge": Code("only the challenged player may accept or decline it, and "
                               "only its sender cancel it"),
    "bad_link": Code("the unsubscribe link is wrong (not one this site made)"),
    "push_off": Code("this server sends no Web Push (it has no VAPID keys)"),
    "push_not_allowed": Code("a push subscription's address is not on a push service this "
                             "server posts to"),
    "bad_push_keys": Code("a push subscription's keys are not a P-256 point and a 16-byte "
                          "secret (base64url)"),
    "too_many_players": Code("as many followed (or blocked) players as one may have",
                             ("limit",)),
    # -- help at a table against bots only (``assist``) ---------------------------------------
    "not_against_bots": Code("hints and undo are only for tables where every other seat is "
                             "a bot"),
    "hint_thinking": Code("a hint for this seat is being thought: one at a time"),
    "nothing_to_undo": Code("the player has made no move to take back"),
    "undo_past_deal": Code("a move before the last deal cannot be taken back"),
}


class Refusal(str):
    """Why a move was refused: the English sentence itself (so it reads and compares as
    one), with its ``code`` and ``params`` for the page to say it in the player's words."""

    code: str
    params: dict[str, object]

    def __new__(cls, reason: str, code: str, params: dict[str, object] | None = None) -> Refusal:
        made = super().__new__(cls, reason)
        made.code = code
        made.params = dict(params or {})
        return made


def refused(code: str, reason: str, **params: object) -> Refusal:
    """A refusal with a code from ``CODES`` and its parameters."""
    return Refusal(reason, code, params)

// The table socket's messages (GET /api/protocol.json) as JSDoc types, for tsc.
// Written by `python -m cardtable.server.web.pagetypes`; do not edit.

/** @typedef {WireMove | WireRematch | WireDeclineRematch | WireResign | WireLeave | WireHint | WireUndo | WirePing | WireChat | WireChatOff} WireClientMessage */

/** @typedef {WireState | WireError | WireRematchOffer | WireRematchDeclined | WirePong | WireHintAnswer | WireChatLine | WireChatSetting} WireServerMessage */

/**
 * @typedef {object} WireChat
 * @property {"chat"} type
 * @property {string | null} [text] what is said
 * @property {string | null} [phrase] instead of text: a quick phrase's key
 */

/**
 * @typedef {object} WireChatLine
 * @property {"chat"} type
 * @property {"players" | "spectators"} room
 * @property {number | null} seat the speaker's seat; null: a spectator
 * @property {string} name
 * @property {string | null} text
 * @property {string | null} phrase a quick phrase's key (the page words it)
 * @property {string} at when it was said (ISO 8601)
 */

/**
 * @typedef {object} WireChatOff
 * @property {"chat_off"} type
 * @property {boolean} off true: off; false: on again
 */

/**
 * @typedef {object} WireChatSetting
 * @property {"chat_setting"} type
 * @property {boolean} off
 */

/**
 * @typedef {object} WireClockView
 * @property {number} move
 * @property {number} bank
 * @property {Array<number>} banks
 * @property {Array<number>} [timeouts] each seat's time-outs in a row: a bot moved for it
 * @property {number | null} [forfeit_after] time-outs in a row that forfeit the seat
 * @property {number | null} seat
 * @property {number | null} move_left
 * @property {number | null} bank_left
 * @property {number | null} [days]
 */

/**
 * @typedef {object} WireDeclineRematch
 * @property {"decline_rematch"} type
 */

/**
 * @typedef {object} WireError
 * @property {"error"} type
 * @property {string} reason what was wrong, in English
 * @property {string} code a code of cardtable.server.core.codes; its parameters beside it
 */

/**
 * @typedef {object} WireHint
 * @property {"hint"} type
 * @property {"en" | "ru" | "pt" | "fa"} [lang] the language the hint is worded in
 */

/**
 * @typedef {object} WireHintAnswer
 * @property {"hint"} type
 * @property {number} version the state it was thought for
 * @property {string} move the move the bot would play
 * @property {string} level the bot level that thought it
 * @property {"en" | "ru" | "pt" | "fa"} lang
 * @property {string} text why, in words
 * @property {string} unit what a choice's value counts
 * @property {Array<WireHintChoice>} choices the best moves: {move, value, text}
 * @property {string} [why] why the judge ranks the move first, in lang
 * @property {boolean} [sure] the move stands clear of the next best
 */

/**
 * @typedef {object} WireHintChoice
 * @property {string} move
 * @property {number} value
 * @property {string} text
 */

/**
 * @typedef {object} WireLastMove
 * @property {number} index
 * @property {number | null} seat
 * @property {string} move
 * @property {boolean} [takeover] a bot made it for the seat's player (their time ran out, or they are away or gone); present only then, and only live
 */

/**
 * @typedef {object} WireLeave
 * @property {"leave"} type
 */

/**
 * @typedef {object} WireMove
 * @property {"move"} type
 * @property {number} version the version of the state it was chosen in (an older one is refused as stale)
 * @property {string} move one of the state's "legal_moves"
 */

/**
 * @typedef {object} WirePing
 * @property {"ping"} type
 */

/**
 * @typedef {object} WirePong
 * @property {"pong"} type
 */

/**
 * @typedef {object} WireRematch
 * @property {"rematch"} type
 */

/**
 * @typedef {object} WireRematchDeclined
 * @property {"rematch_declined"} type
 * @property {number} seat
 */

/**
 * @typedef {object} WireRematchOffer
 * @property {"rematch"} type
 * @property {string} table the new table: the same token holds the same seat
 * @property {number | null} seat
 */

/**
 * @typedef {object} WireResign
 * @property {"resign"} type
 */

/**
 * @typedef {object} WireSeatInfo
 * @property {number} seat
 * @property {"human" | "bot"} kind
 * @property {string | null} bot
 * @property {string | null} name
 * @property {boolean} taken
 * @property {boolean} connected
 * @property {boolean} bot_playing a bot plays the human's seat (away, or taken over)
 * @property {string | null} player the account or guest id sitting here
 * @property {string | null} player_kind
 * @property {"forfeited" | "left" | null} [gone] its player forfeited or left: a bot plays it to the end
 */

/**
 * @typedef {object} WireState
 * @property {"state"} type
 * @property {string} table the table's id
 * @property {string} game the game's name in cardtable.games
 * @property {number} version the moves played (an undo lowers it)
 * @property {"waiting" | "playing" | "over"} status
 * @property {boolean} over
 * @property {number | null} to_move the seat to move; null: nobody (over)
 * @property {number | null} seat the receiver's seat; null: watching
 * @property {Object<string, any>} view the game's own view of the table from this seat (the engine's view, see docs)
 * @property {Array<string>} legal_moves the receiver's moves, when it is theirs to play; else empty
 * @property {WireLastMove | null} last_move the move before this state, public to all: {index, seat, move}
 * @property {Array<WireSeatInfo>} seats every seat: {seat, kind, bot, name, taken, connected, bot_playing, player, player_kind}
 * @property {boolean | null} [rated] the game counts for ratings
 * @property {Object<string, number> | null} [ratings] each rated seat's rating, by seat
 * @property {WireClockView | null} [clock] a clocked table: {move, bank, banks, seat, move_left, bank_left}
 * @property {boolean | null} [undo] to a seat, while the game is played: whether an undo would take back its last decision now (only against bots; not before it has made one, nor once cards were dealt or drawn since)
 * @property {Object<string, any> | null} [summary] once over
 * @property {string | null} [rematch] once over: the rematch's table
 * @property {Array<number> | null} [rematch_asked] once over, while a rematch is offered and not yet made: the seats that offered or accepted it (it is made when every person's seat has)
 */

/**
 * @typedef {object} WireUndo
 * @property {"undo"} type
 */

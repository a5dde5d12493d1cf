"""Game records: the JSON format, exact replay, and bad records refused with line and reason."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import durak, games, pasur, records
from cardtable.bots import make


def played(game: str, seed: int, *, players: int = 2, preset: str | None = None,
           options: dict | None = None, moves: int | None = None):
    spec = games.get(game)
    state = spec.start(spec.rules(preset, options), players=players, seed=seed)
    bot = make("random", seed=seed)
    count = 0
    while not state.is_over() and (moves is None or count < moves):
        state.push(bot.choose(state))
        count += 1
    return state


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_a_durak_record_replays_to_the_same_result(seed, players):
    game = played("durak", seed, players=players)
    record = records.loads(records.record_of(game, "durak").dumps())
    again = record.replay()
    assert again.loser == game.loser and again.is_draw == game.is_draw
    assert [str(m) for m in again.move_stack] == [str(m) for m in game.move_stack]


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_pasur_match_record_replays_to_the_same_totals(seed):
    match = played("pasur", seed, options={"target": 30})
    record = records.loads(records.record_of(match, "pasur").dumps())
    again = record.replay()
    assert again.totals == match.totals and again.winner == match.winner
    assert record.result == json.loads(json.dumps(pasur.SPEC.summary(match)))


def test_an_unfinished_game_records_without_a_result_and_replays_its_moves():
    match = played("pasur", 3, moves=30)
    record = records.record_of(match, "pasur")
    assert record.result is None and len(record.moves) == 30
    again = records.loads(record.dumps()).replay()
    assert again.view(0) == match.view(0)


def test_a_later_durak_game_replays_with_its_dealer_and_loser():
    series = durak.Series(players=3, seed=11)
    first = series.next_game()
    bot = make("random", seed=1)
    while not first.is_over():
        first.push(bot.choose(first))
    second = series.next_game()
    while not second.is_over():
        second.push(bot.choose(second))
    record = records.loads(records.record_of(second, "durak").dumps())
    assert record.setup == {"dealer": second.dealer, "loser": second.previous_loser}
    assert record.replay().loser == second.loser


def test_custom_rules_are_recorded_whole_and_named_when_a_preset():
    match = played("pasur", 1, preset="turkish", moves=5)
    record = records.record_of(match, "pasur")
    assert record.preset == "turkish" and record.rules["forced_capture"] is False
    custom = played("pasur", 1, options={"ten_diamonds_points": 2}, moves=5)
    record = records.record_of(custom, "pasur")
    assert record.preset is None and record.rules["ten_diamonds_points"] == 2
    assert records.loads(record.dumps()).rules_object() == custom.rules


@pytest.fixture
def durak_text():
    return records.record_of(played("durak", 5), "durak").dumps()


def test_a_wrong_version_is_refused_with_its_line(durak_text):
    with pytest.raises(records.RecordError, match=r"line 3: record version 7 is not supported"):
        records.loads(durak_text.replace('"version": 1', '"version": 7'))


def test_not_a_record_is_refused():
    with pytest.raises(records.RecordError, match="not a cardtable record"):
        records.loads('{"hello": 1}')
    with pytest.raises(records.RecordError, match="line 1: not valid JSON"):
        records.loads("{oops")


def test_an_unknown_game_is_refused(durak_text):
    with pytest.raises(records.RecordError, match="no game 'chess'"):
        records.loads(durak_text.replace('"game": "durak"', '"game": "chess"'))


def test_a_card_that_does_not_exist_is_refused_with_its_line(durak_text):
    data = records.loads(durak_text)
    first = data.decks[0][0]
    text = durak_text.replace(f'["{first}"', '["11♣"', 1)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if '"11♣"' in row)
    with pytest.raises(records.RecordError, match=rf"line {line}: deck 1: '11♣' is not a card"):
        records.loads(text)


def test_an_illegal_move_is_refused_with_its_line_and_reason(durak_text):
    record = records.loads(durak_text)
    lines = durak_text.splitlines()
    target = record.moves[2]
    index = next(i for i, row in enumerate(lines) if row.strip().rstrip(",") == json.dumps(
        target, ensure_ascii=False) and i > lines.index(' "moves": ['))
    lines[index] = lines[index].replace(target, "take" if target != "take" else "pass")
    bad = records.loads("\n".join(lines))
    with pytest.raises(records.RecordError, match=rf"line {index + 1}: move 3 .* cannot be played"):
        bad.replay()


def test_a_result_that_does_not_match_the_moves_is_refused(durak_text):
    data = json.loads(durak_text)
    data["result"]["loser"] = None if data["result"]["loser"] is not None else 0
    with pytest.raises(records.RecordError, match="differs from the recorded result"):
        records.loads(json.dumps(data)).replay()


def test_unknown_rule_options_are_refused(durak_text):
    data = json.loads(durak_text)
    data["rules"]["colour"] = "red"
    with pytest.raises(records.RecordError, match=r"unknown rule options for .*: colour"):
        records.loads(json.dumps(data)).replay()

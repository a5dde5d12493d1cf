"""The socket's messages are typed: the page's messages are read into
one discriminated union, every refusal names what was expected, the server's messages
are checked against theirs, both are served as JSON Schema, and docs/server.md says the
same as the models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tablekit import Player, connect, create

from cardtable.server.core import protocol
from cardtable.server.core.wire import MessageError, decode, encode

DOCS = Path(__file__).parents[2] / "docs" / "server.md"


@pytest.mark.parametrize(("text", "model"), [
    ('{"type": "move", "version": 0, "move": "attack 6♠"}', protocol.Move),
    ('{"type": "rematch"}', protocol.Rematch), ('{"type": "resign"}', protocol.Resign),
    ('{"type": "leave"}', protocol.Leave), ('{"type": "hint"}', protocol.Hint),
    ('{"type": "undo"}', protocol.Undo), ('{"type": "ping"}', protocol.Ping),
    ('{"type": "chat", "phrase": "gg"}', protocol.Chat),
    ('{"type": "chat_off", "off": true}', protocol.ChatOff)])
def test_each_message_the_page_sends_is_read_into_its_model(text: str, model: type) -> None:
    assert type(decode(text)) is model


def test_a_hint_without_a_language_is_worded_in_english() -> None:
    assert decode('{"type": "hint"}') == protocol.Hint(type="hint", lang="en")


@pytest.mark.parametrize(("text", "said"), [
    ('{"type": "move", "version": true, "move": "take"}', '"version"'),
    ('{"type": "move", "version": 1.5, "move": "take"}', '"version"'),
    ('{"type": "move", "version": 1, "move": "   "}', '"move"'),
    ('{"type": "move", "version": 1, "move": "' + "x" * 201 + '"}', "at most 200"),
    ('{"type": "hint", "lang": "de"}', "en, ru, pt, fa"),
    ('{"type": "chat_off", "off": "yes"}', "true or false"),
    ('{"type": "chat", "text": 5}', '"text"'),
    ('{"move": "take"}', '"type"'),
    ('{"type": "dance"}', '"chat_off"'),  # the refusal names all nine types
])
def test_a_message_that_does_not_fit_its_model_is_refused_in_words(text: str,
                                                                    said: str) -> None:
    with pytest.raises(MessageError) as refused:
        decode(text)
    assert said in str(refused.value)
    assert "validation error" not in str(refused.value)  # a sentence, not pydantic's dump


def test_an_unknown_type_names_every_type_there_is() -> None:
    with pytest.raises(MessageError) as refused:
        decode('{"type": "dance"}')
    for kind in protocol.CLIENT_TYPES:
        assert f'"{kind}"' in str(refused.value)


def test_fields_past_the_model_are_ignored() -> None:
    assert decode('{"type": "ping", "extra": [1, 2]}') == protocol.Ping(type="ping")


def test_an_outgoing_message_that_breaks_its_model_fails_where_it_is_built() -> None:
    with pytest.raises(ValueError, match="reason"):
        protocol.Error.model_validate({"type": "error", "code": "refused"})
    with pytest.raises(ValueError, match="status"):
        protocol.State(type="state", table="t", game="pasur", version=0, status="paused",
                       over=False, to_move=0, seat=0, view={}, legal_moves=[],
                       last_move=None, seats=[])  # type: ignore[arg-type]
    assert encode(protocol.Pong(type="pong")) == '{"type":"pong"}'


def test_an_error_keeps_its_fields_over_its_parameters() -> None:
    error = protocol.Error.of("it is not your turn", "not_your_turn",
                              {"seat": 1, "code": "other", "type": "chat"})
    assert json.loads(encode(error)) == {"type": "error", "reason": "it is not your turn",
                                         "code": "not_your_turn", "seat": 1}


def test_an_optional_field_left_unset_is_left_out_and_one_set_is_sent() -> None:
    last = protocol.LastMove(index=3, seat=1, move="take")
    assert json.loads(encode(protocol.State(
        type="state", table="t", game="pasur", version=4, status="playing", over=False,
        to_move=0, seat=None, view={}, legal_moves=[], last_move=last, seats=[]))) == {
        "type": "state", "table": "t", "game": "pasur", "version": 4, "status": "playing",
        "over": False, "to_move": 0, "seat": None, "view": {}, "legal_moves": [],
        "last_move": {"index": 3, "seat": 1, "move": "take"}, "seats": []}
    state = protocol.State(type="state", table="t", game="pasur", version=4, status="over",
                           over=True, to_move=None, seat=None, view={}, legal_moves=[],
                           last_move=None, seats=[])
    state.rematch = None
    assert json.loads(encode(state))["rematch"] is None


def test_a_state_gives_each_fact_once(client: TestClient) -> None:
    seated = create(client, game="pasur", seats=["human", "bot"])
    with connect(client, seated["table"], seated["token"]) as ws:
        state = Player(ws).state()
    protocol.State.model_validate(state)
    assert not set(protocol.VIEW_BESIDE) & set(state["view"])
    assert state["legal_moves"] and state["to_move"] == state["seat"] == 0


def test_the_protocol_is_served_as_json_schema(client: TestClient) -> None:
    schema = client.get("/api/protocol.json").json()
    client_types = set(schema["client"]["discriminator"]["mapping"])
    server_types = set(schema["server"]["discriminator"]["mapping"])
    assert client_types == set(protocol.CLIENT_TYPES)
    assert server_types == set(protocol.SERVER_TYPES) >= {"state", "error", "pong"}
    move = schema["client"]["$defs"]["Move"]
    assert set(move["required"]) == {"type", "version", "move"}


def test_docs_describe_every_message_as_the_models_do() -> None:
    text = DOCS.read_text(encoding="utf-8")
    begin, end = "<!-- protocol:begin -->\n", "<!-- protocol:end -->"
    written = text[text.index(begin) + len(begin):text.index(end)]
    assert written == protocol.reference(), (
        "docs/server.md's message tables differ from cardtable.server.core.protocol: paste "
        "protocol.reference() between its protocol markers")


def test_no_name_is_both_a_message_and_a_command() -> None:
    """A page's ``Move`` and the dealer's ``Play`` are two things; so is every pair."""
    import inspect
    from types import ModuleType

    from pydantic import BaseModel

    from cardtable.server.core import cluster_messages
    from cardtable.server.play import commands, effects

    def classes(module: ModuleType, base: type = object) -> set[str]:
        return {name for name, value in vars(module).items() if inspect.isclass(value)
                and issubclass(value, base) and value.__module__ == module.__name__}

    messages = classes(protocol, BaseModel)
    assert {"Move", "Resign", "State", "Error"} <= messages
    for module in (commands, effects, cluster_messages):
        assert not messages & classes(module), module

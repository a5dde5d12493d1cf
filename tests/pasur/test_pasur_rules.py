"""The rule sets: one option per rule point, one preset per source (the rules digest)."""

from __future__ import annotations

import dataclasses

import pytest

from cardtable import games
from cardtable.game import rule_options, rules_with
from cardtable.pasur import DEFAULT_PRESET, PRESETS, SPEC, Hand, Match, Rules

# What each source says, rule point by rule point (the digest's table, with the sources'
# corrections noted in docs/pasur.md).
SOURCES = {
    "player_counts": {"standard": (2,), "wikipedia": (2, 3, 4), "turkish": (2, 3, 4),
                      "multicapture": (2, 3, 4)},
    "teams_of_four": {"standard": True, "wikipedia": False, "turkish": False,
                      "multicapture": True},
    "dealer_leads": {"standard": False, "wikipedia": False, "turkish": True,
                     "multicapture": False},
    # standard: the Persian text does not say; the how-to gives counter-clockwise as the
    # Persian tradition.
    "clockwise": {"standard": False, "wikipedia": True, "turkish": False,
                  "multicapture": False},
    "opening_jacks": {"standard": "replace", "wikipedia": "replace_one", "turkish": "redeal",
                      "multicapture": "replace_one"},
    "opening_same_face_redeal": {"standard": 0, "wikipedia": 0, "turkish": 3,
                                 "multicapture": 2},
    "forced_capture": {"standard": True, "wikipedia": True, "turkish": False,
                       "multicapture": True},
    "multi_sets": {"standard": False, "wikipedia": False, "turkish": False,
                   "multicapture": True},
    "king_queen_take_all": {"standard": False, "wikipedia": False, "turkish": False,
                            "multicapture": True},
    "jack": {"standard": "sweep", "wikipedia": "sweep", "turkish": "sweep_all",
             "multicapture": "sweep"},
    "sur_by": {"standard": "number", "wikipedia": "not_jack", "turkish": "not_jack",
               "multicapture": "any"},
    "sur_in_last_deal": {"standard": False, "wikipedia": False, "turkish": True,
                         "multicapture": True},
    "sur_scoring": {"standard": "net", "wikipedia": "each", "turkish": "net",
                    "multicapture": "each"},
    "bonus": {"standard": "clubs", "wikipedia": "clubs", "turkish": "cards",
              "multicapture": "clubs"},
    "bonus_minimum": {"standard": 7, "wikipedia": 0, "turkish": 0, "multicapture": 7},
    "target": {"standard": 62, "wikipedia": 60, "turkish": 51, "multicapture": 62},
}


def test_presets_are_the_four_sources_and_standard_is_the_default():
    assert list(PRESETS) == ["standard", "wikipedia", "turkish", "multicapture"]
    assert DEFAULT_PRESET == "standard"
    assert PRESETS["standard"] == Rules()
    assert SPEC.default_preset == "standard"


@pytest.mark.parametrize("option", sorted(SOURCES))
def test_each_preset_follows_its_source(option):
    for preset, expected in SOURCES[option].items():
        assert getattr(PRESETS[preset], option) == expected, (preset, option)


def test_every_preset_shares_the_counting_cards_and_the_sur_value():
    for rules in PRESETS.values():
        assert (rules.ace_points, rules.jack_points, rules.two_clubs_points,
                rules.ten_diamonds_points, rules.seven_diamonds_points,
                rules.sur_points, rules.bonus_points) == (1, 1, 2, 3, 0, 5, 7)
        assert rules.sur_cap is None and rules.fixed_hands is None and not rules.kids


def test_every_option_has_a_one_line_doc_and_enum_options_list_their_choices():
    options = rule_options(Rules)
    assert [o.name for o in options] == [f.name for f in dataclasses.fields(Rules)]
    for option in options:
        assert option.doc and "\n" not in option.doc, option.name
    with_choices = {o.name: o.choices for o in options if o.choices}
    assert with_choices == {
        "opening_jacks": ("replace", "replace_one", "redeal", "redeal_table", "stay"),
        "jack": ("sweep", "sweep_all", "eleven"),
        "sur_by": ("number", "number_or_jack", "not_jack", "any"),
        "sur_scoring": ("net", "each"),
        "bonus": ("clubs", "cards"),
    }


def test_named_variations_are_options():
    # Every variation the sources name can be switched on from a preset.
    standard = PRESETS["standard"]
    for changes in ({"target": 51}, {"target": 71}, {"target": 101}, {"target": 11},
                    {"fixed_hands": 11}, {"sur_in_last_deal": True}, {"sur_by": "any"},
                    {"ten_diamonds_points": 2}, {"seven_diamonds_points": 1},
                    {"sur_cap": 50}, {"jack": "eleven"}, {"kids": True},
                    {"opening_any_face_redeal": True}, {"opening_jacks": "redeal"},
                    {"opening_jacks": "redeal_table"}, {"sur_by": "number_or_jack"},
                    {"player_counts": (2, 4)}):
        changed = rules_with(standard, changes)
        for name, value in changes.items():
            assert getattr(changed, name) == value
    solo_four = rules_with(PRESETS["multicapture"], {"teams_of_four": False})
    assert solo_four.sides(4) == 4 and PRESETS["multicapture"].sides(4) == 2


@pytest.mark.parametrize("changes, message", [
    ({"jack": "wild"}, "'jack' must be one of"),
    ({"forced_capture": "yes"}, "'forced_capture' is true or false"),
    ({"target": 0}, "'target' must be 1 or more"),
    ({"sur_points": -5}, "'sur_points' is a whole number"),
    ({"player_counts": (2, 5)}, "player_counts must be some of 2, 3 and 4"),
    ({"opening_same_face_redeal": 1}, "'opening_same_face_redeal' is 0 (never) or 2, 3"),
    ({"fixed_hands": 0}, "'fixed_hands' must be 1 or more"),
])
def test_bad_option_values_are_refused_with_their_name(changes, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        dataclasses.replace(PRESETS["standard"], **changes)


def test_standard_is_for_two_players_and_says_how_to_play_with_more():
    for start in (lambda: Hand.new(PRESETS["standard"], players=3),
                  lambda: Match.new(PRESETS["standard"], players=4)):
        with pytest.raises(ValueError, match="standard rules are for 2 players, not") as error:
            start()
        assert "player_counts=(2, 4)" in str(error.value)
    family = rules_with(PRESETS["standard"], {"player_counts": (2, 4)})
    assert Hand.new(family, players=4, seed=1).sides == 2


@pytest.mark.parametrize("preset", ["wikipedia", "turkish", "multicapture"])
def test_other_presets_allow_two_three_and_four_players(preset):
    for players in (2, 3, 4):
        assert Hand.new(PRESETS[preset], players=players, seed=players).players == players
    with pytest.raises(ValueError, match="for 2 or 3 or 4 players, not 5"):
        Hand.new(PRESETS[preset], players=5)


def test_the_registry_finds_pasur():
    spec = games.get("pasur")
    assert spec is SPEC
    assert spec.rules("turkish") == PRESETS["turkish"]
    assert spec.preset_of(PRESETS["wikipedia"]) == "wikipedia"
    assert spec.player_counts == (2, 3, 4) and spec.default_players == 2

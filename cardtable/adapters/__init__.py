"""Research adapters: Pasur and Transfer Durak for OpenSpiel, PettingZoo and Gymnasium.

Install the research extra (from a clone: ``pip install -e ".[research]"``), then:

- ``cardtable.adapters.openspiel`` registers ``python_pasur`` and ``python_transfer_durak``
  with ``pyspiel`` (importing it is enough) and offers an OpenSpiel-backed cardtable bot;
- ``cardtable.adapters.pettingzoo`` holds the AEC environments ``pasur_v0`` and
  ``transfer_durak_v0``;
- ``cardtable.adapters.gymnasium`` holds a single-agent environment against cardtable bots.

All three are thin shells around one episode per game (``cardtable.adapters.base.Episode``;
``PasurEpisode`` in ``cardtable.adapters.pasur``, ``DurakEpisode`` in
``cardtable.adapters.durak``), found through the game's ``GameSpec.episode``: one
numbering of actions, one layout of observations, one model of the deal, whatever
framework you use.  A game's spec also gives its OpenSpiel and PettingZoo names; the
episode class gives the rest (parameters, utility range, ISMCTS's exploration constant,
and how to mirror a game in play).  This package is the
only part of cardtable that imports numpy or the research frameworks; nothing imports it
from the engine.  See docs/research.md.
"""

from __future__ import annotations

__all__: list[str] = []

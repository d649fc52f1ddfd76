"""Issue 20: what one seat observes depends only on what it may know, in every game and variant.

Each pair of worlds (see ``public_stream``) plays a seeded bot game A, swaps what a watched seat
cannot know (B), replays A's public actions in B and compares, before every step, the seat to
act, the watched seat's view and the "deciding" line its screen draws. Any difference is a leak
(``Leak``). A pair whose B becomes inconsistent with what the seat saw stops early; most pairs
must compare a long stretch (``LONG`` steps, or to the game's last, revealing, action).

The default run compares a small sample per game; ``pytest -m soak`` compares 200 pairs per game
and variant (Tokyo Ghoul's variants over 4 to 8 players) and prints the counts.
"""

from __future__ import annotations

import pytest
from public_stream import KINDS, Tally, compare

from engine.core import derive_seed

GHOUL_VARIANTS = {
    "base": {},
    "mask": {"mask": True},
    "support": {"support": True},
    "mask+support": {"mask": True, "support": True},
}
VARIANTS: dict[str, list[tuple[str, dict]]] = {
    "clue": [
        ("red-keep", {"board": "red-keep", "players": 4}),
        ("meereen", {"board": "meereen", "players": 3}),
        ("red-keep-centre-pile", {"board": "red-keep", "players": 5, "centre_pile": True}),
        ("meereen-2-centre-pile", {"board": "meereen", "players": 2, "centre_pile": True}),
    ],
    "mascarade": [(f"{n}-players", {"players": n}) for n in (4, 5, 7, 10)],
    "masque": [
        ("base", {"players": 4}),
        ("harder", {"players": 6, "harder": True}),
        ("no-personalities", {"players": 5, "personalities": False}),
    ],
    "ghoul": [(name, cfg) for name, cfg in GHOUL_VARIANTS.items()],
}
SAMPLE = {"clue": 2, "mascarade": 2, "masque": 2, "ghoul": 4}  # pairs per variant in the default run
SOAK = 200  # pairs per game and variant with -m soak


def _config(game: str, cfg: dict, g: int) -> dict:
    """Tokyo Ghoul's variants are played at 4 to 8 players in turn."""
    return {"players": 4 + g % 5, **cfg} if game == "ghoul" else cfg


def run_pairs(game: str, name: str, cfg: dict, first: int, count: int) -> Tally:
    tally = Tally()
    for g in range(first, first + count):
        tally.add(compare(game, _config(game, cfg, g), derive_seed(20, game, name, g), g))
    return tally


def _assert_mostly_long(tally: Tally, what: str) -> None:
    assert tally.pairs and tally.steps, what
    assert tally.long * 2 > tally.pairs, f"{what}: most pairs stopped early ({tally})"


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_a_seat_sees_the_same_table_in_worlds_it_cannot_tell_apart(game):
    """A sample of every variant: no difference in the watched seat's table, every swap kind tried."""
    total = Tally()
    for i, (name, cfg) in enumerate(VARIANTS[game]):
        total.add(run_pairs(game, name, cfg, i * SAMPLE[game], SAMPLE[game]))  # the swap kind, seat turn with g
    _assert_mostly_long(total, game)
    assert set(total.kinds) == set(KINDS[game]), "every swap kind is tried in the sample"


@pytest.mark.soak
@pytest.mark.parametrize(
    ("game", "name"), [pytest.param(game, name, id=f"{game}-{name}") for game in VARIANTS for name, _ in VARIANTS[game]]
)
def test_soak_public_stream(game, name):
    cfg = dict(VARIANTS[game])[name]
    tally = run_pairs(game, name, cfg, 1000, SOAK)
    print(f"\n{game} {name}: {tally.pairs} swaps, {tally.steps} steps compared, {tally.long} long, "
          f"{tally.full} to the end, {tally.truncated} truncated, kinds {tally.kinds}")
    _assert_mostly_long(tally, f"{game} {name}")

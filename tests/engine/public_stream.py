"""The table's public stream, swapped: what one seat observes must depend only on what it may know.

World A is a seeded game played by bots. World B is the same game with something the watched
seat cannot know changed (``world_b``: others' cards, characters, Support token, face-down
tiles, Personality cards, Red Death cards, deck order; the watched seat's own setup and every
public fact stay as they were). A's actions are then replayed in B step by step; before each
one, the watched seat's table must be identical in both worlds:

* the seat to act,
* the seat's view (``view(state, seat, since)``: everything it may know, and its new events),
* the "deciding" line the play screen draws for it (the game's ``tui`` ``prompt``).

After each step the action taken in B is A's action if it is legal there and gives the watched
seat the same new events; otherwise (or now and then on purpose, so that B's hidden state drifts
further: a swap that was a pretence, a card given instead of another) any legal action of B that
gives the watched seat the same new events. When there is none, B has become inconsistent with
what the seat saw (A's hands decided something public that B's do not): the pair stops there and
counts as truncated. That is not a leak; a difference in the seat's table before that is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core import Rng, derive_seed
from engine.registry import get_game
from solvers.bots import bot_names
from solvers.table import Table

MAX_TRIES = 120  # legal actions of B tried for one step of A (a random sample when there are more)


@dataclass
class Tally:
    """How many swaps (pairs of worlds) and steps were compared, and how many pairs stopped early."""

    pairs: int = 0
    steps: int = 0
    truncated: int = 0
    full: int = 0  # pairs compared to the end of A's game (its last, revealing, action aside)
    long: int = 0  # pairs compared for at least LONG steps (or to the end)
    kinds: dict[str, int] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.pairs += other.pairs
        self.steps += other.steps
        self.truncated += other.truncated
        self.full += other.full
        self.long += other.long
        for k, v in other.kinds.items():
            self.kinds[k] = self.kinds.get(k, 0) + v


class Leak(AssertionError):
    """The watched seat's table differed between two worlds it cannot tell apart."""


# --------------------------------------------------------------------------- the "deciding" lines


def _prompt(game: str) -> Callable[[dict], str]:
    """The line the play screen draws for the seat: who is deciding what (or what to do)."""
    if game == "ghoul":
        from tui.ghoul.model import prompt as ghoul_prompt

        return ghoul_prompt
    if game == "masque":
        from tui.masque.model import prompt as masque_prompt

        return masque_prompt
    if game == "mascarade":
        from tui.mascarade.model import prompt as mascarade_prompt

        return mascarade_prompt
    from engine.clue.board import load_board
    from tui.clue.model import prompt as clue_prompt

    return lambda v: clue_prompt(v, load_board(v["board"]))


# --------------------------------------------------------------------------- world B, per game


def _swap_in(lists: list[list], rng: Rng, ok: Callable[[Any, Any], bool] = lambda a, b: a != b) -> bool:
    """Exchange one item between two of ``lists`` (positions chosen at random); False if none fits."""
    spots = [(i, k) for i, li in enumerate(lists) for k in range(len(li))]
    for _ in range(60):
        (i, k), (j, m) = rng.choice(spots), rng.choice(spots)
        if i != j and ok(lists[i][k], lists[j][m]):
            lists[i][k], lists[j][m] = lists[j][m], lists[i][k]
            return True
    return False


def _ghoul_b(d: dict, w: int, rng: Rng, kind: str) -> None:
    from engine.ghoul.game import KANEKI_TOKEN, NEUTRAL, cards_of

    n = len(d["chars"])
    others = [i for i in range(n) if i != w]
    if kind in ("characters", "all"):
        chars = [d["chars"][i] for i in others]
        if kind == "all":
            rng.shuffle(chars)
        else:
            i, j = rng.shuffled(range(len(chars)))[:2]
            chars[i], chars[j] = chars[j], chars[i]
        for i, c in zip(others, chars, strict=True):
            d["chars"][i] = c
    if kind in ("cards", "all"):
        # The neighbours show and give the watched seat cards before anyone acts: their hands stay
        # (at 4 players only one seat would be left: then everyone else's may change).
        far = [i for i in others if i not in ((w - 1) % n, (w + 1) % n)]
        others = far if len(far) >= 2 else others
        flat = [[x for x in range(5) for _ in range(d["hands"][i][x])] for i in others]
        if kind == "all":
            pool = [c for h in flat for c in h]
            rng.shuffle(pool)
            sizes = [len(h) for h in flat]
            flat, at = [], 0
            for k in sizes:
                flat.append(pool[at : at + k])
                at += k
        else:
            _swap_in(flat, rng)
        for i, h in zip(others, flat, strict=True):
            d["hands"][i] = [h.count(x) for x in range(5)]
    if kind in ("token", "all") and d["tk"] >= 0 and d["tk"] != w:
        d["tk"] = rng.choice(others)
        for i in range(n):
            d["sknown"][i][i] = KANEKI_TOKEN if d["tk"] == i else NEUTRAL
    if kind in ("tiles", "all"):
        hidden = [p for p in range(8) if not d["known"][p]]
        tiles = [d["ring"][p] for p in hidden]
        rng.shuffle(tiles)
        for p, t in zip(hidden, tiles, strict=True):
            d["ring"][p] = t
    for entry in d["log"]:
        ev = entry["event"]
        if ev["t"] == "identity":
            ev["character"] = d["chars"][ev["seat"]]
        elif ev["t"] == "hand":
            ev["cards"] = cards_of(tuple(d["hands"][ev["seat"]]))
        elif ev["t"] == "support_token":
            ev["token"] = d["sknown"][ev["seat"]][ev["seat"]]


def _clue_b(d: dict, w: int, rng: Rng, kind: str) -> None:
    from engine.clue.board import load_board

    board = load_board(d["config"]["board"])
    category = {c: k for k, cs in enumerate((board.suspects, board.weapons, board.locations)) for c in cs}
    n = len(d["hands"])
    holders = [list(d["envelope"]), *(d["hands"][i] for i in range(n) if i != w), d["aside"], d["centre"]]
    holders = [list(h) for h in holders]
    # One card changes hands (a full re-deal contradicts the first refutation at once): between
    # two hidden holders, or between the envelope and a holder (a card of the same category).
    envelope, rest = holders[0], holders[1:]
    if kind == "envelope":
        flat = [c for h in rest for c in h]
        _swap_in([envelope, flat], rng, lambda a, b: a != b and category[a] == category[b])
        holders = [envelope, *_swap_back(rest, flat)]
    else:
        _swap_in(rest, rng)
        holders = [envelope, *rest]
    order = {c: i for i, c in enumerate(board.cards)}
    d["envelope"] = holders[0]
    k = 1
    for i in range(n):
        if i != w:
            d["hands"][i] = sorted(holders[k], key=order.__getitem__)
            k += 1
    d["aside"] = holders[k]
    d["centre"] = sorted(holders[k + 1], key=order.__getitem__)
    for entry in d["log"]:
        ev = entry["event"]
        if ev["t"] == "hand":
            ev["cards"] = list(d["hands"][ev["seat"]])


def _swap_back(shape: list[list], flat: list) -> list[list]:
    out, at = [], 0
    for h in shape:
        out.append(flat[at : at + len(h)])
        at += len(h)
    return out


def _masque_b(d: dict, w: int, rng: Rng, kind: str) -> None:
    from engine.masque.game import GOSSIP, NR, _sorted_cards
    from engine.masque.rules import personality_cards, standard_cards

    n = len(d["hands"])
    others = [i for i in range(n) if i != w]
    if kind == "personalities" and d["personality"][w] is not None:
        spare = [p for p in personality_cards() if p not in d["personality"]]
        cards = [d["personality"][i] for i in others] + spare
        rng.shuffle(cards)
        for i, p in zip(others, cards, strict=False):
            d["personality"][i] = p
            d["hands"][i] = list(_sorted_cards((*standard_cards(), p)))
    if kind in ("red", "all"):
        for slot in range(len(d["red"])) if kind == "all" else [rng.below(len(d["red"]))]:
            red = d["red"][slot]
            safe = [r for r in range(NR) if r not in red]
            a, b = rng.below(len(red)), rng.choice(safe)
            old = red[a]
            red[a] = b
            d["deck"] = [slot * NR + old if c == slot * NR + b else c for c in d["deck"]]
    if kind in ("deck", "all"):
        gossip = [k for k, c in enumerate(d["deck"]) if c < GOSSIP]
        i, j = rng.choice(gossip), rng.choice(range(len(d["deck"])))
        d["deck"][i], d["deck"][j] = d["deck"][j], d["deck"][i]
    for entry in d["log"]:
        ev = entry["event"]
        if ev["t"] == "deal":
            ev["card"] = d["personality"][ev["seat"]]


KINDS: dict[str, tuple[str, ...]] = {
    "ghoul": ("characters", "cards", "token", "tiles", "all"),
    "clue": ("hands", "envelope"),
    "masque": ("personalities", "red", "deck", "all"),  # all: the Red Death cards and the deck
    "mascarade": ("play",),  # Mascarade deals face up: B drifts through swaps that were pretences
}
def kinds_for(game: str, config: dict) -> tuple[str, ...]:
    """The swap kinds that change something in this variant (no Support token without Support,
    no Personality cards without them)."""
    kinds = KINDS[game]
    if game == "ghoul" and not config.get("support"):
        kinds = tuple(k for k in kinds if k != "token")
    if game == "masque" and config.get("personalities") is False:
        kinds = tuple(k for k in kinds if k != "personalities")
    return kinds


_BUILDERS = {"ghoul": _ghoul_b, "clue": _clue_b, "masque": _masque_b}


def world_b(game: str, start: Any, watched: int, rng: Rng, kind: str) -> Any:
    """A's starting state with what ``watched`` cannot know changed (``kind`` of swap)."""
    spec = get_game(game)
    d = spec.state_to_json(start)
    build = _BUILDERS.get(game)
    if build is not None:
        build(d, watched, rng, kind)
    return spec.state_from_json(d)


# --------------------------------------------------------------------------- the replay


def bot_seats(game: str, players: int, g: int) -> list[str]:
    """The game's bots in turn (not the slow exact ones)."""
    kinds = [k for k in bot_names(game) if k != "strong"]
    return [kinds[(i + g) % len(kinds)] for i in range(players)]


def _events(spec: Any, state: Any, seat: int, since: int) -> list[dict]:
    return spec.view(state, seat, since)["events"]


def _diff(a: dict, b: dict) -> str:
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    return "; ".join(f"{k}: {a.get(k)!r} != {b.get(k)!r}" for k in keys)[:1500]


WINDOW = 40  # how far back the search for a consistent B may undo its choices
BUDGET = 4000  # actions tried in B for one pair, at most
LONG = 20  # a pair compared for this many steps (or to the end) is a long one


class _Frame:
    """One step of B's search: the state before the step, its candidate actions, the next to try."""

    __slots__ = ("b", "cands", "i")

    def __init__(self, b: Any, cands: list[tuple]) -> None:
        self.b, self.cands, self.i = b, cands, 0


# Events that announce, by the rules, a fact the seat may learn: where one world stops to ask and
# the other goes on with one of these, the worlds differ in a public fact (B is inconsistent).
ANNOUNCED: dict[str, frozenset[str]] = {
    "clue": frozenset({"pass", "no_show"}),  # "I cannot show a card" is said aloud
    "ghoul": frozenset({"instant", "face_up"}),  # an instant victory; a Mask that must go face up
    "masque": frozenset(),
    "mascarade": frozenset(),
}


def _pause_check(game: str, want: list[dict], got: list[dict], a: Any, b: Any, spec: Any, where: str) -> None:
    """The same action, two worlds the seat cannot tell apart, and events that agree as far as one
    of them goes: then one world stopped to ask somebody where the other went on. Unless the next
    event announces a public fact, the pause itself told the seat something (a leak)."""
    short, long_, stopped = (want, got, a) if len(want) < len(got) else (got, want, b)
    if len(short) == len(long_) or long_[: len(short)] != short:
        return  # the events differ in what they say: a public fact differs, B is inconsistent
    nxt = long_[len(short)]
    if nxt["t"] in ANNOUNCED[game]:
        return
    world = "A" if stopped is a else "B"
    raise Leak(f"{where}: world {world} stops for seat {spec.to_act(stopped)} to decide "
               f"({getattr(stopped, 'phase', '?')}) where the other goes on with {nxt}")


def compare(game: str, config: dict, seed: int, g: int, drift: float = 0.25) -> Tally:
    """One swap: play world A with bots, build B for a watched seat, replay and compare.

    B follows A by a depth-first search: at each step A's action or another legal one that shows
    the watched seat the same events; when none does, the search undoes B's latest choices (a
    hidden choice revealed later, like a pair shown in the preliminary phase, must have been the
    same) up to ``WINDOW`` steps back. Raises :class:`Leak` (with the step and the difference)
    when the watched seat's table differs in a B that is consistent with everything it saw.
    """
    spec = get_game(game)
    cfg = spec.config_from_json(config)
    players = cfg.players
    table = Table(game, cfg, seed, bot_seats(game, players, g))
    table.run_bots()
    actions = [(seat, spec.action_from_json(raw)) for seat, raw in table.log]
    rng = Rng(derive_seed(seed, "swap", g))
    watched = g % players
    kinds = kinds_for(game, config)
    kind = kinds[g % len(kinds)]
    prompt = _prompt(game)
    # A, step by step: the state before each action, what the seat saw, and what it then learnt.
    a_states = [spec.new_game(cfg, seed)]
    for _seat, act in actions:
        a_states.append(spec.apply(a_states[-1], act))
    seen = [spec.view(a, watched, len(a.log)) for a in a_states]
    lines = [prompt(v) for v in seen]
    wants = [_events(spec, a_states[k + 1], watched, len(a_states[k].log)) for k in range(len(actions))]
    where = f"{game} {config} seed {seed}, seat {watched} watched, swap {kind!r}"

    def check(k: int, b: Any) -> None:
        a = a_states[k]
        if spec.to_act(a) != spec.to_act(b) or len(b.log) != len(a.log):
            raise Leak(f"{where}, step {k}: the seat to act (or the log length) differs: "
                       f"{spec.to_act(a)} vs {spec.to_act(b)}")
        if k == len(actions):
            return  # the game is over, and the end shows every secret
        vb = spec.view(b, watched, len(a.log))
        if vb != seen[k]:
            raise Leak(f"{where}, step {k}: the view differs: {_diff(seen[k], vb)}")
        if prompt(vb) != lines[k]:  # pragma: no cover - the prompt reads the view only
            raise Leak(f"{where}, step {k}: the deciding line differs: {lines[k]!r} vs {prompt(vb)!r}")

    def cands(k: int, b: Any) -> list[tuple]:
        seat, act = actions[k]
        if seat == watched:
            return [act]  # the seat's own choice: it knows what it did
        legal = list(spec.legal_actions(b))
        rest = rng.shuffled([x for x in legal if x != act])[:MAX_TRIES]
        if rng.random() < drift:
            return [*rest[:8], act, *rest[8:]]  # drift on purpose, where the seat cannot tell
        return [act, *rest]

    b0 = world_b(game, a_states[0], watched, rng, kind)
    check(0, b0)
    tally = Tally(pairs=1, kinds={kind: 1})
    frames = [_Frame(b0, cands(0, b0))]
    best, budget = 0, BUDGET
    while frames:
        k = len(frames) - 1
        if k == len(actions):
            break
        fr = frames[-1]
        found = None
        while fr.i < len(fr.cands) and budget > 0:
            x = fr.cands[fr.i]
            fr.i += 1
            budget -= 1
            if x not in spec.legal_actions(fr.b):
                continue
            nxt = spec.apply(fr.b, x)
            got = _events(spec, nxt, watched, len(a_states[k].log))
            if got == wants[k]:
                found = nxt
                break
            if x == actions[k][1]:
                _pause_check(game, wants[k], got, a_states[k + 1], nxt, spec, f"{where}, step {k}")
        if found is not None:
            check(k + 1, found)
            best = max(best, k + 1)
            frames.append(_Frame(found, cands(k + 1, found) if k + 1 < len(actions) else []))
            continue
        frames.pop()
        if budget <= 0 or len(frames) < best - WINDOW:
            break
    tally.steps = best
    # The last action ends the game, and the end shows every secret: B may differ there.
    if best >= len(actions) - 1:
        tally.full = 1
    else:
        tally.truncated = 1
    if best >= min(LONG, len(actions) - 1):
        tally.long = 1
    return tally

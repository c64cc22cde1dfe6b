"""Every message the engine can say has a phrase written for people, in English, French and
Spanish; every action a player makes too.

The messages are gathered two ways: from the engine's source (every id written in a
``say(...)``, so a message no random game reaches is checked too) and from random games of
every variant (seeded, so a failure replays), where each effect of each kind (move, expose,
captain, hand, round, game, settle, note), each action verb and the refusal of every verb by
every player at many points of the game are said through ``firmware.words.engine_words``.
Each must have its phrase (no message id left out of ``WORDS``), be said without a rule
code, start with a capital, name no player "he", and be said in French and Spanish with every
word translated: no msgid of the phrase is left in English.
"""

from __future__ import annotations

import ast
import pathlib
import random
import re
from collections import Counter
from collections.abc import Iterator
from functools import cache

import pytest

from engine.actions import VERBS, Action
from engine.autoplay import random_action
from engine.errors import RuleViolation
from engine.messages import CITED, Message
from engine.variants import new_game
from firmware.words import engine_words
from firmware.words.phrases import Phrase
from firmware.words.wording import action_sentence, effect_sentences
from table_server.words import i18n

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "engine"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
GAMES = [("two-hand", 2, {}), ("multi-hand", 3, {}), ("multi-hand", 5, {"poor_fish": True}),
         ("montevideo", 3, {}), ("montevideo", 6, {}), ("multi-hand", 4, {"ranking": "total"})]
RULE_CODE = re.compile(r"\((?:D-)?[A-Z]\d+(?:/\d+)?\)")
#: Numbers to try each verb with: a die, three dice, chips, none (a pending throw).
TRIES = {"roll": [(4,), ()], "throw": [(6, 5, 4), ()], "bet": [(1,), (9,)], "raise": [(1,), (9,)],
         "settle": [(6, 5, 4), (3,), (1, 2)]}


def untranslated(phrase: Phrase, language: str) -> list[str]:
    """The msgids of ``phrase`` (nested ones too) the language's catalogue lacks."""
    words = i18n.catalogue_for(language)["words"]
    wording = re.sub(r"%\(\w+\)s", "", phrase.msgid)  # words, not holes, need translating
    missing = [] if phrase.msgid in words or not re.search(r"[a-z]{2}", wording) else [
        phrase.msgid]
    for value in phrase.args.values():
        if isinstance(value, Phrase):
            missing += untranslated(value, language)
    return missing


def _written(node: ast.AST) -> Iterator[str]:
    """The message ids a ``say(...)`` call's first argument may be: its string constants."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _written(node.body)
        yield from _written(node.orelse)


def source_ids() -> set[str]:
    """Every message id written in the engine's source: in ``say("...")`` or
    ``Message("...")``, or a string with holes assigned to a name that a ``say(name, ...)``
    takes."""
    ids: set[str] = set()
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("say",
                                                                                 "Message") \
                    and node.args:
                ids.update(_written(node.args[0]))
            if isinstance(node, ast.Assign):
                ids.update(i for i in _written(node.value) if "%(" in i)
    return ids


def messages(said: object) -> Iterator[Message]:
    """``said`` and every message inside it."""
    if isinstance(said, Message):
        yield said
        for _, value in said.args:
            for inner in value if isinstance(value, tuple) else (value,):
                yield from messages(inner)


@cache
def said_games() -> tuple[list[tuple[str, Phrase]], list[Message], Counter[str]]:
    """(kind, phrase) for each distinct effect, refusal and action of the games, every message
    met, and how often each kind. Played when a test first asks, not when the module is
    collected: every test process collects every module, and the games take seconds. A
    message said again (the same refusal at every look, the same move) is put into words once:
    its phrase would be the same, and saying the games' 200,000 messages one by one took
    minutes."""
    out: dict[tuple[str, object], Phrase] = {}
    met: list[Message] = []
    kinds: Counter[str] = Counter()

    def said(kind: str, key: object, make) -> None:  # noqa: ANN001 - a phrase's maker
        if (kind, key) not in out:
            out[(kind, key)] = make()

    for variant, n, options in GAMES:
        for seed in range(12):
            game, rng = new_game(variant, NAMES[:n], options), random.Random(seed)
            for step in range(2000):
                if game.over:
                    break
                if step % 4 == 0:
                    for player in game.players:
                        for verb in VERBS:
                            for numbers in TRIES.get(verb, [()]):
                                by = "players" if verb == "settle" else None
                                try:
                                    game.verify(Action(player, verb, numbers, by=by))
                                except RuleViolation as e:
                                    kinds["refusal"] += 1
                                    met += messages(e.said)
                                    said("refusal", e.said,
                                         lambda m=e.said: engine_words.sentence(m))
                action = random_action(game, rng)
                event = game.apply(action)
                said(f"action {action.verb}", action, lambda a=action: action_sentence(a, 1))
                kinds[f"action {action.verb}"] += 1
                for effect in event.effects:
                    kinds[effect.kind] += 1
                    met += messages(effect.said)
                    if effect.text:
                        said(effect.kind, effect.said,
                             lambda m=effect.said: engine_words.sentence(m))
                effects = tuple(event.effects)
                said("joined", effects, lambda e=effects: effect_sentences(list(e)))
    joined = [("joined", p) for (kind, _), ps in out.items() if kind == "joined" for p in ps]
    return [(kind, p) for (kind, _), p in out.items() if kind != "joined"] + joined, met, kinds


def test_the_games_say_every_kind_of_event_refusal_and_action() -> None:
    _, _, kinds = said_games()
    for kind in ("move", "expose", "captain", "hand", "round", "game", "note", "refusal"):
        assert kinds[kind], kind
    for verb in ("roll", "throw", "stand", "bet", "raise", "call", "pass", "drop", "betpot",
                 "callpot"):
        assert kinds[f"action {verb}"], verb


def test_every_message_id_in_the_engine_has_its_phrase() -> None:
    ids = source_ids() | {m.id for m in said_games()[1]}
    assert len(ids) > 150  # the source was read: it says about 200 things
    missing = sorted(i for i in ids if i not in engine_words.WORDS and i != CITED)
    assert not missing, missing


def test_no_phrase_is_kept_for_a_message_the_engine_no_longer_says() -> None:
    said = source_ids() | {m.id for m in said_games()[1]}
    stale = sorted(i for i in engine_words.WORDS if i not in said)
    assert not stale, stale


def test_every_message_met_has_its_phrase_and_the_same_holes() -> None:
    """Every hole of a phrase is given by its message (a count is said as ``n``)."""
    for message in {m.id: m for m in said_games()[1]}.values():
        if message.id == CITED:
            continue
        words = engine_words.WORDS[message.id]
        phrase = engine_words.phrase(message)
        holes = set(re.findall(r"%\((\w+)\)s", words.msgid + (words.plural or "")))
        given = set(phrase.args) | ({"n"} if phrase.n is not None else set())
        assert holes <= given, (message.id, holes - given)


def test_the_english_is_written_for_people() -> None:
    for kind, phrase in said_games()[0]:
        text = str(phrase)
        assert not RULE_CODE.search(text), (kind, text)
        assert text[:1].isupper() or text[:1].isdigit() or text[:1] == "'", (kind, text)
        assert not re.search(r"\b(he|his|him)\b", text), (kind, text)
        assert "%(" not in text, (kind, text)


@pytest.mark.parametrize("language", ["fr", "es"])
def test_every_phrase_is_said_in_french_and_spanish(language: str) -> None:
    words = i18n.translations(language)
    missing: Counter[str] = Counter()
    for _, phrase in said_games()[0]:
        for msgid in untranslated(phrase, language):
            missing[msgid] += 1
        said = phrase.say(words)
        assert (said[:1].isupper() or said[:1].isdigit() or said[:1] == "'") \
            and "%(" not in said, said
    assert not missing, missing.most_common(10)


@pytest.mark.parametrize("language", ["fr", "es"])
def test_every_phrase_of_the_engine_is_in_the_french_and_spanish_catalogues(
        language: str) -> None:
    """Those no random game reaches too: each phrase's own msgid."""
    words = i18n.catalogue_for(language)["words"]
    missing = [p.msgid for p in engine_words.WORDS.values()
               if re.search(r"[a-z]{2}", re.sub(r"%\(\w+\)s", "", p.msgid))
               and p.msgid not in words]
    assert not missing, missing

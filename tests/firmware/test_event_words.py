"""Every event the engine says and every action a player makes has a phrase written for
people, in English, French and Spanish.

Random games of every variant (seeded, so a failure replays) go through the words the event
list shows: each effect of each kind (move, expose, captain, hand, round, game, settle, note)
and each action verb must be recognised (``firmware.words.event_words``), said without a rule code,
start with a capital, name no player "he", and be said in French and Spanish with every word
translated: no msgid of the phrase is left in English.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from engine.autoplay import random_action
from engine.variants import new_game
from firmware.words import event_words
from firmware.words.phrases import Phrase
from firmware.words.wording import action_sentence, effect_sentences
from table_server.words import i18n

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
GAMES = [("two-hand", 2, {}), ("multi-hand", 3, {}), ("multi-hand", 5, {"poor_fish": True}),
         ("montevideo", 3, {}), ("montevideo", 6, {}), ("multi-hand", 4, {"ranking": "total"})]
RULE_CODE = re.compile(r"\((?:D-)?[A-Z]\d+(?:/\d+)?\)")


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


def said_games() -> tuple[list[tuple[str, Phrase]], Counter[str]]:
    """(kind, phrase) for each effect and action of the games, and how often each kind."""
    out: list[tuple[str, Phrase]] = []
    kinds: Counter[str] = Counter()
    for variant, n, options in GAMES:
        for seed in range(12):
            game, rng = new_game(variant, NAMES[:n], options), random.Random(seed)
            for _ in range(2000):
                if game.over:
                    break
                action = random_action(game, rng)
                event = game.apply(action)
                out.append((f"action {action.verb}", action_sentence(action, 1)))
                kinds[f"action {action.verb}"] += 1
                for effect in event.effects:
                    kinds[effect.kind] += 1
                    if effect.text:
                        out.append((effect.kind, event_words.sentence(effect.text)))
                out += [("joined", p) for p in effect_sentences(list(event.effects))]
    return out, kinds


SAID, KINDS = said_games()


def test_the_games_say_every_kind_of_event_and_action() -> None:
    for kind in ("move", "expose", "captain", "hand", "round", "game", "note"):
        assert KINDS[kind], kind
    for verb in ("roll", "throw", "stand", "bet", "raise", "call", "pass", "drop", "betpot",
                 "callpot"):
        assert KINDS[f"action {verb}"], verb


def test_every_engine_sentence_is_recognised() -> None:
    unknown = {str(p) for kind, p in SAID if kind != "joined" and p.msgid != "%(said)s."
               and not kind.startswith("action")}
    assert not unknown, sorted(unknown)[:10]


def test_the_english_is_written_for_people() -> None:
    for kind, phrase in SAID:
        text = str(phrase)
        assert not RULE_CODE.search(text), (kind, text)
        assert text[:1].isupper() or text[:1].isdigit(), (kind, text)
        assert not re.search(r"\b(he|his|him)\b", text), (kind, text)


@pytest.mark.parametrize("language", ["fr", "es"])
def test_every_phrase_is_said_in_french_and_spanish(language: str) -> None:
    words = i18n.translations(language)
    missing: Counter[str] = Counter()
    for _, phrase in SAID:
        for msgid in untranslated(phrase, language):
            missing[msgid] += 1
        said = phrase.say(words)
        assert (said[:1].isupper() or said[:1].isdigit()) and "%(" not in said, said
    assert not missing, missing.most_common(10)

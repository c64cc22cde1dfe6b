"""Every marked word of the dashboard has its French and Spanish, with the same holes.

The promise (docs/dashboard.md, "Languages"): no string marked in a template, a script or the
Python (``_``, ``N_``, ``NN_``, ``t``, ``tn``) is left out of the catalogues or left empty,
and a translation fills exactly the ``%(name)s`` holes of its English, so saying it can
neither fail nor drop a name. Extracted here with Babel as ``make translations`` does, so a
new string that nobody translated fails this test.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from babel.messages.extract import extract_from_dir

from table_server.words import i18n

ROOT = pathlib.Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "NN_": (1, 2),
            "t": None, "tn": (1, 2)}
METHODS = [("firmware/**.py", "python"), ("table_server/**.py", "python"),
           ("table_server/templates/**.html", "jinja2"),
           ("table_server/static/**.js", "javascript")]
HOLE = re.compile(r"%\((\w+)\)[sd]")


def marked() -> dict[str, tuple[str, ...]]:
    """Every marked msgid in the source (a plural's as its singular) and all its forms."""
    found: dict[str, tuple[str, ...]] = {}
    for _, _, message, _, _ in extract_from_dir(str(ROOT), METHODS, keywords=KEYWORDS):
        forms = tuple(message) if isinstance(message, tuple) else (message,)
        if forms[0]:
            found[forms[0]] = forms
    return found


def test_the_extraction_finds_the_marked_words() -> None:
    words = marked()
    assert "History" in words  # base.html
    assert "Language" in words


@pytest.mark.parametrize("language", ["fr", "es"])
def test_every_marked_word_is_translated(language: str) -> None:
    catalog = i18n.catalog(language)
    assert catalog is not None
    missing = []
    for msgid, forms in marked().items():
        message = catalog.get(msgid)
        strings = () if message is None else (
            tuple(message.string) if isinstance(message.string, tuple | list)
            else (message.string,))
        if message is None or message.fuzzy or not all(strings):
            missing.append(msgid)
            continue
        english = set().union(*(HOLE.findall(f) for f in forms))
        for text in strings:  # a singular may say "un jeton" for %(n)s, never drop a name
            holes = set(HOLE.findall(text))
            assert holes <= english and english - {"n"} <= holes, (
                f"{language}: {text!r} fills other holes than {msgid!r}")
    assert not missing, (f"{len(missing)} words have no {language} translation; run make "
                         f"translations and fill them: {missing[:20]}")


def test_every_word_a_script_says_is_extracted() -> None:
    """Babel's JavaScript extraction skips a ``t("...")`` written inside another call's
    arguments; such a word would stay English on every page. Each literal a script gives
    ``t``/``tn`` is among the extracted msgids, so it is hoisted out of the call instead."""
    words = set().union(*marked().values())
    said = re.compile(r'\b(?:Bidou\.)?tn?\(\s*"((?:[^"\\]|\\.)*)"')
    left = [(path.name, text) for path in (ROOT / "table_server" / "static").glob("*.js")
            for text in said.findall(path.read_text()) if text not in words]
    assert not left, left


#: The glossary (docs/dashboard.md, "The game's words"): one word for one idea in each
#: language. A translation may not use a word the glossary set aside for the same idea.
SET_ASIDE = {
    "fr": {r"\blancers\b": "coups", r"\b(?:un|le|du|chaque|ce) lancer\b": "un coup",
           r"\bcoup ouvert\b": "coup à découvert", r"\bplus mauvais\b": "le plus faible",
           r"\benchères\b": "les mises", r"\bante\b": "la mise d'entrée",
           r"\bmulti-mains\b": "Bidou à plusieurs", r"\brelanc\w* (?:les dés|le dé)\b":
           "lancer de nouveau (relancer is a raise)", r"’": "'"},
    "es": {r"\b(?i:pozos?)\b": "bote", r"\bmano a mano\b": "mano por mano",
           r"\bcastigo\b": "penalización",
           r"\btirada abierta\b": "tirada descubierta", r"\bpara capitán\b": "de capitán",
           r"\bver la apuesta\b": "igualar", r"\bante\b": "apuesta inicial",
           r"\bBidou de a dos\b": "Bidou a dos", r"\bantes de el\b": "antes del"},
}


@pytest.mark.parametrize("language", ["fr", "es"])
def test_each_idea_has_one_word_in_each_language(language: str) -> None:
    catalog = i18n.catalog(language)
    assert catalog is not None
    found = []
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple | list) \
            else (message.string,)
        for text in strings:
            found += [(text, f"say {word}") for pattern, word in SET_ASIDE[language].items()
                      if re.search(pattern, text)]
    assert not found, found


@pytest.mark.parametrize("language", ["fr", "es"])
def test_no_translation_keeps_an_english_word(language: str) -> None:
    """The words that are English whatever a catalogue holds (``page_language.CORE``: "the",
    "throw", "chips"...) are in no French or Spanish translation."""
    from .page_language import CODE, CORE, words_of

    catalog = i18n.catalog(language)
    assert catalog is not None
    found = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple | list) \
            else (message.string,)
        for text in strings:  # a value of the config ("two-hand") is a name
            if english := words_of(CODE.sub(" ", text)) & CORE:
                found.append((text, sorted(english)))
    assert not found, found

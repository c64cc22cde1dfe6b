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

"""What a French or Spanish page must not show: an English word, or a number written the English
way (a date such as "Dec 6, 2026, 5:14 AM", an ordinal such as "45th", "1 chips"), or the
page's own language written wrong (French "21er", "0 jetons", Spanish "45º").

The English words are read from the catalogues themselves: every word of their msgids (the
dashboard's English) and of the engine's phrases that no French or Spanish translation uses
(so "table", "pot", "Bidou" or "Montevideo" are not English here), and a core list that is
always English whatever a translation holds. The plurals are read from the catalogues' plural
entries: the noun right after a count ("%(n)s jeton" / "%(n)s jetons")."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from firmware.words.engine_words import WORDS

FOLDER = Path(__file__).resolve().parents[2] / "table_server" / "translations"
LANGUAGES = ("fr", "es")
#: Always English, whatever a translation holds: a translation that uses one is wrong too
#: (``test_catalogues`` checks that none does).
CORE = frozenset("""
the your you yours turn throw throws threw chip chips die bet bets call calls stand stands
roll rolls rolled captain game hand hands round rounds waiting what happened history referee
connecting live and of to is not yet under cup settle settled shown showdown with stake players
finished record download back language lost wins loses over removed worse worst best agree
these said say open raise drop cancel values pending act offers reconnecting camera start that
did work connected press presses again sure surely read reader rule learned saved kept
the none nobody everyone their they them from takes last first second third st nd rd th
""".split())  # noqa: SIM905 (a list to read and edit)

WORD = re.compile(r"[^\W\d_]+")
HOLE = re.compile(r"%\(\w+\)[sd]")
#: A code-like word of a translation ("two-hand", "docs/dashboard.md"): not a word of its language.
CODE = re.compile(r"\S*[-/.\[\]_]\S*[^\W\d_]\S*")
MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
ENGLISH_FORMATS = {
    "an English date": re.compile(rf"\b(?:{MONTHS})[a-z]* \d{{1,2}}, \d{{4}}"),
    "an English time": re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\s?[AP]M\b"),
    "an English ordinal": re.compile(r"\b\d+(?:st|nd|rd|th)\b"),
    "a decimal point": re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])"),
}
OWN_FORMATS = {
    "fr": {"a French ordinal other than 1er, 1re, 2e": re.compile(
        r"\b(?!1er\b|1re\b)\d+(?:er|re|ère|ème|eme|è|ième|nd|nde)\b"),
           "de or que before a vowel (d', qu')": re.compile(
        r"\b(?:[Dd]e|[Qq]ue) [aeiouyàâéèêîôûAEIOUYÀÂÉÈÊÎÔÛ]\w*")},
    "es": {"a Spanish ordinal without its dot (1.º, 2.ª)": re.compile(r"\b\d+[ºª°]"),
           "a French or English ordinal": re.compile(r"\b\d+(?:er|e|ème)\b")},
}


def _forms(string: object) -> list[str]:
    return [s for s in (string if isinstance(string, tuple | list) else [string]) if s]


@cache
def catalogue(language: str):  # noqa: ANN201 (Babel's Catalog)
    with open(FOLDER / language / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=language)


def words_of(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(HOLE.sub(" ", text))}


@cache
def english_words() -> frozenset[str]:
    """The words a French or Spanish page must not show (see the module docstring)."""
    english: set[str] = set()
    for message in catalogue("fr"):
        for msgid in _forms(message.id):
            english |= words_of(msgid)
    for msgid in WORDS:
        english |= words_of(msgid)
    theirs: set[str] = set()
    for language in LANGUAGES:
        for message in catalogue(language):
            for said in _forms(message.string):
                theirs |= words_of(CODE.sub(" ", HOLE.sub(" ", said)))
    return frozenset((english - theirs) | CORE)


@cache
def counted_nouns(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """The nouns said after a count in the catalogue's plural entries, (singular, plural):
    the words of a plural form that its singular lacks, and the other way round."""
    one: set[str] = set()
    many: set[str] = set()
    after = re.compile(r"%\((?:n|num)\)s ([^\W\d_]+)")
    for message in catalogue(language):
        forms = _forms(message.string)
        if not isinstance(message.id, tuple | list) or len(forms) < 2:
            continue
        first, second = after.findall(forms[0]), after.findall(forms[1])
        for a, b in zip(first, second, strict=False):
            if a != b:
                one.add(a.lower())
                many.add(b.lower())
    return frozenset(one - many), frozenset(many - one)


#: The players' names, and a seat's name asked for in an address (``/seat/Nobody``).
NAMES = ("Ann", "Bob", "Nobody")
#: What is a name or a machine's notation, not words: an address, a moment in ISO 8601.
NOT_WORDS = re.compile(r"\S+://\S+|\d{4}-\d{2}-\d{2}T[\d:.+Z-]+")


def english_left(text: str, names: tuple[str, ...] = NAMES) -> list[str]:
    """The English words in ``text`` once the players' names and addresses are taken out."""
    text = NOT_WORDS.sub(" ", text)
    for name in names:
        text = text.replace(name, " ")
    english = english_words()
    return sorted({w for w in WORD.findall(text) if w.lower() in english})


def formats_left(text: str, language: str) -> list[str]:
    """The numbers of ``text`` written the English way, or wrong in ``language``: each as
    "what: the words"."""
    text = NOT_WORDS.sub(" ", text)  # an address or an ISO time is no number of the page
    found = []
    for what, pattern in {**ENGLISH_FORMATS, **OWN_FORMATS[language]}.items():
        found += [f"{what}: {m.group(0)}" for m in pattern.finditer(text)]
    one, many = counted_nouns(language)
    zero_is_one = language == "fr"  # "0 jeton", as the catalogue's plural rule says
    for m in re.finditer(r"(?<![\d.,])(\d+) ([^\W\d_]+)", text):
        n, noun = int(m.group(1)), m.group(2).lower()
        singular = n == 1 or (n == 0 and zero_is_one)
        if (singular and noun in many) or (not singular and noun in one):
            found.append(f"a plural that does not agree with its count: {m.group(0)}")
    return found


def problems(text: str, language: str, names: tuple[str, ...] = NAMES) -> list[str]:
    """Everything English, or English-formatted, in a page's ``text`` said in ``language``."""
    words = english_left(text, names)
    return ([f"English words: {', '.join(words)}"] if words else []) + formats_left(text,
                                                                                     language)


#: The page's words as a person meets them: what it shows, its title, and what a screen
#: reader or a hover says (labels, placeholders, pictures' text), the chart's words included.
SHOWN_JS = """(leave) => {
    const hidden = leave.length ? [...document.querySelectorAll(leave.join(','))] : [];
    const was = hidden.map((node) => node.style.display);
    for (const node of hidden) node.style.display = 'none';
    const said = [document.title, document.body.innerText];
    hidden.forEach((node, i) => { node.style.display = was[i]; });
    for (const node of document.querySelectorAll('[aria-label], [placeholder], [alt], [title]')) {
        if (hidden.some((part) => part.contains(node)) || node.closest('[hidden]')) continue;
        for (const name of ['aria-label', 'placeholder', 'alt', 'title']) {
            const value = node.getAttribute(name);
            if (value) said.push(value);
        }
    }
    for (const node of document.querySelectorAll('svg text')) said.push(node.textContent);
    return said.join('\\n');
}"""


def shown_text(page, leave: tuple[str, ...] = ()) -> str:  # noqa: ANN001 (a Playwright page)
    """The words a person reads on ``page`` (see SHOWN_JS), without the parts ``leave``
    names (CSS selectors)."""
    return str(page.evaluate(SHOWN_JS, list(leave)))

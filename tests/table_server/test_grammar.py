"""What a language needs beyond swapping words (docs/dashboard.md, "Languages"): French elides
"de" before a name starting with a vowel, a place is said with its preposition ("au centre",
"à Ann", "del centro"), and a throw's place is an ordinal of the language ("1er" but "21e";
"21.ª"). Said as the pages say them: phrases with each catalogue, and a template's words."""

from __future__ import annotations

import pytest

from engine.messages import THE_CENTRE, THE_POT, say
from firmware.words.engine_words import phrase
from firmware.words.phrases import N_
from firmware.words.throw_words import ordinal, rank_phrase
from table_server.words.i18n import translations


def said(words, language: str) -> str:
    return words.say(translations(language))


def test_french_elides_de_before_a_name_that_starts_with_a_vowel() -> None:
    assert said(N_("%(p)s's dice", p="Ann"), "fr") == "Dés d'Ann"
    assert said(N_("%(p)s's dice", p="Bob"), "fr") == "Dés de Bob"
    assert said(N_("%(p)s's dice", p="Ann"), "es") == "Dados de Ann"  # Spanish: no elision
    assert said(N_("%(p)s's dice", p="Ann"), "en") == "Ann's dice"


def test_a_template_elides_as_a_phrase_does(table) -> None:
    table.client.get("/?lang=fr")
    page = table.client.get("/how-to-play").get_data(as_text=True)
    assert "de Ann" not in page
    with table.app.test_request_context("/", headers={"Cookie": "bidou-lang=fr"}):
        table.app.preprocess_request()
        template = table.app.jinja_env.from_string('{{ _("%(seat)s\'s throw", seat=name) }}')
        assert template.render(name="Ann") == "Le coup d'Ann"
        assert template.render(name="<b>") == "Le coup de &lt;b&gt;"  # still escaped


@pytest.mark.parametrize(("where", "fr", "es"), [
    ("Ann", "Bob prend le dernier jeton à Ann", "Bob se lleva la última ficha de Ann"),
    (THE_CENTRE, "Bob prend le dernier jeton au centre", "Bob se lleva la última ficha del centro"),
    (THE_POT, "Bob prend le dernier jeton dans le pot", "Bob se lleva la última ficha del bote"),
])
def test_a_place_is_said_with_its_preposition(where, fr: str, es: str) -> None:
    taken = phrase(say("%(p)s takes the last chip from %(where)s", p="Bob", where=where))
    assert (said(taken, "fr"), said(taken, "es")) == (fr, es)
    english = "centre" if where is THE_CENTRE else "pot" if where is THE_POT else "Ann"
    assert str(taken).endswith(english)


@pytest.mark.parametrize(("place", "en", "fr", "es"), [
    (1, "1st", "1er", "1.ª"), (2, "2nd", "2e", "2.ª"), (21, "21st", "21e", "21.ª"),
    (41, "41st", "41e", "41.ª"), (11, "11th", "11e", "11.ª"),
])
def test_a_throw_s_place_is_an_ordinal_of_the_language(place: int, en: str, fr: str,
                                                       es: str) -> None:
    words = ordinal(place)
    assert (str(words), said(words, "fr"), said(words, "es")) == (en, fr, es)


def test_a_throw_s_rank_reads_in_french_and_spanish() -> None:
    assert said(rank_phrase([5, 5, 3]), "fr").endswith(" sur 56")
    assert said(rank_phrase([5, 5, 3]), "es").endswith(".ª de 56")

"""The dashboard's languages: English, French and Spanish, from gettext catalogues.

The catalogues are the ``.po`` files under ``table_server/translations/`` (Babel's format,
kept up to date with ``make translations``). They are read when the app starts and compiled in
memory, so no compiled ``.mo`` file is committed or built (docs/dashboard.md says why).

Which language a request gets: the ``bidou-lang`` cookie (set by the language switch on every
page), else for the table view the table's configured language (``[table] language``), else
the browser's ``Accept-Language``, else the configured language.

Where the words are marked (docs/dashboard.md, "Languages"):

- templates: ``{{ _("Your dice") }}``, ``{{ _("%(n)s chips", n=3) }}``;
- Python: ``from table_server.words.i18n import gettext as _``; below the dashboard (firmware)
  ``firmware.words.wording.N_`` makes a :class:`~firmware.words.wording.Phrase` that is said
  later in any language;
- JavaScript: ``Bidou.t("Your turn")``, ``Bidou.t("%(seat)s's dice", {seat})``, and
  ``Bidou.say(phrase)`` for a phrase the server sent; the page carries its language's
  catalogue (``catalogue_for``) in ``<script id="i18n">``.
"""

from __future__ import annotations

import gettext as _gettext
import io
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from flask import Flask, g, has_request_context, request
from jinja2.runtime import Context
from jinja2.utils import pass_context
from markupsafe import Markup

from firmware.words.elision import elide
from firmware.words.phrases import Phrase
from firmware.words.variant_names import variant_phrase

#: The languages the dashboard speaks; the first is the source language of every msgid.
LANGUAGES = ("en", "fr", "es")
#: What the language switch shows for each (each in its own language).
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "es": "Español"}
COOKIE = "bidou-lang"
FOLDER = Path(__file__).parents[1] / "translations"


@cache
def catalog(language: str) -> Catalog | None:
    """The language's catalogue as read from its ``.po`` file (None for English)."""
    if language == LANGUAGES[0]:
        return None
    with open(FOLDER / language / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=language)


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The language's gettext translations, compiled in memory from its catalogue (a fuzzy
    or empty entry stays in English)."""
    cat = catalog(language)
    if cat is None:
        return _gettext.NullTranslations()  # English: every msgid is its own text
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    said = Translations(buf)
    said.language = language  # type: ignore[attr-defined]  # for Phrase.say's elision
    return said


@cache
def catalogue_for(language: str) -> dict[str, Any]:
    """What a page's scripts get: every translated msgid and its translation (a list of
    forms for a plural), and how the language picks a plural form."""
    cat = catalog(language)
    words: dict[str, Any] = {}
    if cat is not None:
        for message in cat:
            if not message.id or message.fuzzy or not message.string:
                continue
            if isinstance(message.id, tuple | list):  # [one, other]: CLDR's "many" (fr, es:
                words[message.id[0]] = [message.string[0], message.string[-1]]  # 10⁶) is other
            else:
                words[message.id] = message.string
    # French says "1 jeton" and "0 jeton"; English and Spanish make 0 plural
    return {"language": language, "words": words, "zero_plural": language != "fr"}


def choose(cookie: str | None, accept: Any, configured: str, table_view: bool) -> str:
    """The language of one request (see the module docstring)."""
    if cookie in LANGUAGES:
        return str(cookie)
    if table_view:
        return configured
    best = accept.best_match(LANGUAGES) if accept is not None else None
    return str(best or configured)


def current() -> str:
    """The language of the request being answered (the configured one outside a request)."""
    if not has_request_context():
        return LANGUAGES[0]
    language = g.get("language")
    return language if language in LANGUAGES else LANGUAGES[0]


def gettext(msgid: str, **args: Any) -> str:
    """``msgid`` in the request's language, its ``%(name)s`` filled from ``args`` (French
    elides "de" before a name that starts with a vowel: ``firmware.words.elision``)."""
    text = translations(current()).gettext(msgid)
    return elide(text, args, current()) % args if args else text


def ngettext(singular: str, plural: str, n: int, **args: Any) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the request's language (``n`` is
    given to the text as ``%(num)s`` and ``%(n)s``)."""
    text = translations(current()).ngettext(singular, plural, n)
    args = {"num": n, "n": n, **args}
    return elide(text, args, current()) % args


@pass_context
def _template_gettext(context: Context, msgid: str, **variables: Any) -> str:
    """A template's ``_("...", name=value)``: Jinja's newstyle gettext (what fills a hole is
    escaped unless marked safe) with French elision at the holes."""
    text = elide(translations(current()).gettext(msgid), variables, current())
    return (Markup(text) if context.eval_ctx.autoescape else text) % variables


@pass_context
def _template_ngettext(context: Context, singular: str, plural: str, num: int,
                       **variables: Any) -> str:
    """A template's ``ngettext(...)``, as :func:`_template_gettext` (``n`` is given to the
    text as ``%(num)s`` and ``%(n)s``, as :func:`ngettext` does)."""
    variables.setdefault("num", num)
    variables.setdefault("n", num)
    text = translations(current()).ngettext(singular, plural, num)
    text = elide(text, variables, current())
    return (Markup(text) if context.eval_ctx.autoescape else text) % variables


def say(phrase: Phrase | dict[str, Any] | str | None) -> str | None:
    """A phrase (``firmware.words.wording``, or its ``to_json`` as a state carries it) in the
    request's language; a plain string as it is."""
    if phrase is None or isinstance(phrase, str):
        return phrase
    if isinstance(phrase, dict):
        phrase = Phrase.from_json(phrase)
    return phrase.say(translations(current()))


def install(app: Flask, configured: str) -> None:
    """Give ``app`` its languages: each request's is chosen before the view runs, templates
    get ``_``/``gettext``/``ngettext`` and ``language``, ``languages``, ``i18n_catalogue``;
    ``?lang=xx`` (the switch) sets the cookie for a year."""
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=gettext, ngettext=ngettext, newstyle=True)
    # as Jinja's own "newstyle" callables (escaping what fills a hole), with the elision
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext,
                                 ngettext=_template_ngettext)

    @app.before_request
    def _choose() -> None:
        asked = request.args.get("lang")
        cookie = asked if asked in LANGUAGES else request.cookies.get(COOKIE)
        g.language = choose(cookie, request.accept_languages, configured,
                            table_view=request.path == "/")

    @app.after_request
    def _remember(response: Any) -> Any:
        asked = request.args.get("lang")
        if asked in LANGUAGES:
            response.set_cookie(COOKIE, asked, max_age=365 * 24 * 3600, samesite="Strict")
        return response

    @app.context_processor
    def _words() -> dict[str, Any]:
        return {"language": current(), "languages": LANGUAGE_NAMES,
                "i18n_catalogue": catalogue_for(current()), "say": say,
                "variant_name": variant_phrase}

"""The app's words in the session's language: one gettext catalogue per language.

Owns:

- **the languages on offer** (``LANGUAGES``) and which one a session reads
  (:func:`choose`): ``?lang=`` (the setting ``lang`` of ``ui.app.state``, carried by
  links), then the browser's (``st.context.locale``), then English. The language is the
  session's, never the process's: :func:`t` asks the reader the shell registers
  (:func:`read_language_with`) on every call, so two students of one class may read two
  languages while following the same lecturer.
- **the catalogues**: ``locale/<lang>/LC_MESSAGES/perceptron.po`` (Babel's ``pybabel``
  extracts, updates and compiles them: ``scripts/catalogue.py``) and the compiled ``.mo``
  beside each, committed so that a clone runs with no build step;
  ``tests/ui/words/test_catalogue.py`` fails when a ``.mo`` is older than its ``.po``.
  A message a catalogue lacks is shown in English, never as an empty label.
- **the pseudo-locale** (``?lang=pseudo``): every string 40 % longer and between
  ``⟦`` and ``⟧``, for layout tests; a string on screen without the markers did not go
  through the catalogue.
- **the components' words**: ``words.js`` (``tr``, ``N_``) goes in front of a component's
  JavaScript, and :func:`script_words` sends it the messages it says, translated.
- **how a language writes a number**: its decimal and grouping symbols (CLDR's),
  which ``ui.look.numbers`` applies.

A message is marked with :func:`t` where it is shown, or with :func:`N_` where it is
defined (a table of the module's, read before any session has a language) and passed
through :func:`t` where it is shown. A message with values has named placeholders,
filled after translation: ``t("{n} points").format(n=...)``.

May import: the standard library; nothing else of the app.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
import json
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path

DOMAIN = "perceptron"
LOCALE_DIR = Path(__file__).with_name("locale")
ENGLISH = "en"
PSEUDO = "pseudo"  # the pseudo-locale: ?lang=pseudo
# the languages on offer, each named in itself (as a switch lists them)
LANGUAGES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "es": "Español",
    "de": "Deutsch",
    "zh": "中文（简体）",
}
CHOICES = (*LANGUAGES, PSEUDO)  # what ?lang= accepts
OPEN, CLOSE = "⟦", "⟧"  # the pseudo-locale's markers
STRETCH = 0.4  # the pseudo-locale's strings are 40 % longer: German runs about 30 % longer

_reader: Callable[[], str] = lambda: ENGLISH  # noqa: E731  (the shell registers the session's)


def read_language_with(reader: Callable[[], str]) -> Callable[[], str]:
    """Have :func:`t` ask ``reader()`` for the language of the run it is called in (the
    shell's reads the session's state; outside a session it must answer ``"en"``).
    Returns the reader it replaces."""
    global _reader
    before, _reader = _reader, reader
    return before


# the language of what a route writes (a light page, the remote): the request's own, set
# around its writing by :func:`speaking`; a context variable, so that the server's threads,
# each answering its own request, never see another's
_SPEAKING: contextvars.ContextVar[str | None] = contextvars.ContextVar("speaking", default=None)


@contextlib.contextmanager
def speaking(code: str) -> Iterator[None]:
    """:func:`t` in language ``code`` (of ``CHOICES``) inside the ``with`` block, for what
    a route writes outside any session's run."""
    token = _SPEAKING.set(code if code in CHOICES else ENGLISH)
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def of_request(asked: str, accept_language: str) -> str:
    """The language of a request to a route: its ``?lang=`` if on offer, else the first
    language of its ``Accept-Language`` header (at most its first 200 characters), else
    English."""
    first = accept_language[:200].split(",")[0].split(";")[0].strip()
    return choose(asked if asked in CHOICES else "", first)[0]


def language() -> str:
    """The language of the run this is called in: a code of ``CHOICES``."""
    spoken = _SPEAKING.get()
    if spoken is not None:
        return spoken
    try:
        code = _reader()
    except Exception:  # no session to ask (a thread of the server's): English
        return ENGLISH
    return code if code in CHOICES else ENGLISH


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue where it is defined; :func:`t` translates it
    where it is shown."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and its plural for the catalogue where they are defined; :func:`tn`
    picks and translates one where it is shown."""
    return singular, plural


def t(message: str) -> str:
    """``message`` in the language of this run (English where its catalogue lacks it)."""
    return translate(message, language())


def tn(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a message for ``n``, in the language of this run
    (Chinese has one form; French counts 0 and 1 as singular)."""
    code = language()
    if code == PSEUDO:
        return stretch(singular if n == 1 else plural)
    if code == ENGLISH:
        return singular if n == 1 else plural
    return catalogue(code).ngettext(singular, plural, n)


def translate(message: str, code: str) -> str:
    """``message`` in language ``code`` (a code of ``CHOICES``)."""
    if code == ENGLISH or not message:
        return message
    if code == PSEUDO:
        return stretch(message)
    return catalogue(code).gettext(message)


@functools.cache
def catalogue(code: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``code``, read once per process (none: English)."""
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


def choose(asked: str, browser: object) -> tuple[str, str | None]:
    """The language of a session and, when what was asked cannot be had, a notice.

    Parameters
    ----------
    asked : str
        The ``lang`` setting ("" for none; a link's ``?lang=`` was checked against
        ``CHOICES`` already).
    browser : object
        The browser's locale (``st.context.locale``: "fr-FR", "zh-CN", None).

    Returns
    -------
    (str, str or None)
        The code, and None or a sentence (in English: the language could not be told).
    """
    if asked in CHOICES:
        return asked, None
    found = from_locale(browser)
    text = str(browser or "").strip()
    if found or not text or text.lower().split("-")[0].split("_")[0] == ENGLISH:
        return (found or ENGLISH), None
    named = f" ({text})" if re.fullmatch(r"[A-Za-z0-9_-]{1,35}", text) else ""
    return ENGLISH, (
        f"This app does not speak your browser's language{named} yet, so it is in English. "
        f"On offer: {on_offer()}; choose one under Language in the sidebar."
    )


def from_locale(locale: object) -> str | None:
    """The language of offer that a browser's locale ("fr-CA", "zh-Hans-CN") names, or None
    (none on offer, or not a locale: at most 35 characters of letters and hyphens)."""
    text = str(locale or "").strip()
    if not re.fullmatch(r"[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8}){0,3}", text[:35]):
        return None
    primary = re.split(r"[-_]", text.lower())[0]
    if primary == "zh" and re.search(r"[-_](hant|tw|hk|mo)\b", text.lower()):
        return None  # traditional script: no catalogue (the simplified one is not it)
    return primary if primary in LANGUAGES else None


def on_offer() -> str:
    """The languages on offer, for a notice: "English (en), Français (fr), ..."."""
    return ", ".join(f"{name} ({code})" for code, name in LANGUAGES.items())


# markup a message may start with that must stay first (a heading, a list item, a quote)
_LEAD = re.compile(r"^(\s*(#{1,6} |[-*] |> |\d+\. )?)")
# what the pseudo-locale never pads inside: placeholders, Streamlit's icons, maths
_KEEP = re.compile(r"(\{[^{}]*\}|:material/[a-z_]+:|\$[^$]*\$)")


def stretch(message: str) -> str:
    """``message`` as the pseudo-locale shows it: between the markers, 40 % longer (the
    padding after the text), its leading markup, placeholders and icons untouched."""
    if not message.strip():
        return message
    lead = _LEAD.match(message)
    start = lead.end() if lead else 0
    body = message[start:]
    pad = "·" * max(1, math.ceil(STRETCH * len(_KEEP.sub("", body))))
    return f"{message[:start]}{OPEN}{body}{pad}{CLOSE}"


# Each language's (decimal, grouping) symbols, CLDR's (tests/ui/words checks them against
# Babel's copy): a table, so that the app's run needs no CLDR data
SYMBOLS: dict[str, tuple[str, str]] = {
    "en": (".", ","),
    "fr": (",", "\u202f"),
    "es": (",", "."),
    "de": (",", "."),
    "zh": (".", ","),
}


def symbols(code: str) -> tuple[str, str]:
    """The (decimal, grouping) symbols of language ``code``: (".", ",") in English,
    (",", "\u202f") in French, (",", ".") in German and Spanish."""
    return SYMBOLS.get(code, SYMBOLS[ENGLISH])


# the components' JavaScript says its words as tr("...") or marks them N_("..."), a
# string literal in double quotes (pybabel's javascript extractor finds the same ones)
SCRIPT = Path(__file__).with_name("words.js").read_text(encoding="utf-8")
_SCRIPT_MESSAGE = re.compile(r'\b(?:tr|N_)\(\s*("(?:[^"\\\n]|\\.)*")')


@functools.cache
def script_messages(code: str) -> tuple[str, ...]:
    """The messages a component's JavaScript ``code`` says, in order, each once."""
    found = (json.loads(m.group(1)) for m in _SCRIPT_MESSAGE.finditer(code))
    return tuple(dict.fromkeys(found))


def script_words(code: str, lang: str | None = None) -> dict[str, str]:
    """The words ``code`` says, in this run's language, for its ``data.words``
    (``words.js``'s ``tr``), and how the language writes a number (``"#decimal"``,
    ``"#group"``: ``words.js``'s ``spoken``); English sends none: ``tr`` falls back to the
    message. ``lang``: that language instead of this run's (a cached scene's)."""
    language_now = lang if lang in CHOICES else language()
    if language_now == ENGLISH:
        return {}
    said = {m: translate(m, language_now) for m in script_messages(code)}
    said["#decimal"], said["#group"] = symbols(language_now)  # words.js's spoken()
    return said

"""The app's words: which language a session reads, what a catalogue gives, how each
language writes a number, and the pseudo-locale that finds a string left untranslated."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ui import words
from ui.look.numbers import number, percent, vector_text

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def speaking() -> Iterator[list[str]]:
    """The language of the test's "run": set ``speaking[0]``; English again after it."""
    now = ["en"]
    before = words.read_language_with(lambda: now[0])
    yield now
    words.read_language_with(before)  # the shell's again, for the page tests after it


@pytest.mark.parametrize(
    ("asked", "browser", "code"),
    [
        ("", None, "en"),
        ("", "fr-FR", "fr"),
        ("", "fr-CA", "fr"),
        ("", "de", "de"),
        ("", "es-419", "es"),
        ("", "zh-CN", "zh"),
        ("", "zh-Hans-CN", "zh"),
        ("", "en-GB", "en"),
        ("de", "fr-FR", "de"),  # ?lang= first, then the browser's
        ("en", "zh-CN", "en"),
        ("pseudo", "fr-FR", "pseudo"),
    ],
)
def test_the_link_comes_first_then_the_browser_then_english(asked, browser, code):
    assert words.choose(asked, browser) == (code, None)


@pytest.mark.parametrize("browser", ["ja-JP", "zh-TW", "pt_BR"])
def test_a_browser_language_not_on_offer_reads_english_and_is_told_what_is(browser):
    code, notice = words.choose("", browser)
    assert code == "en"
    assert notice is not None and f"({browser})" in notice
    assert "Français (fr)" in notice and "中文（简体） (zh)" in notice


@pytest.mark.parametrize("browser", ["<script>alert(1)</script>", "x" * 5_000, "fr;q=0.9,,"])
def test_a_malformed_locale_reads_english_and_never_echoes_its_text(browser):
    code, notice = words.choose("", browser)
    assert code == "en"
    assert notice is not None and "<" not in notice and len(notice) < 400


def test_a_catalogue_gives_the_language_and_english_where_it_lacks_a_message(speaking):
    speaking[0] = "fr"
    assert words.t("Presenter mode") == "Mode présentation"
    assert words.t("A sentence no catalogue has") == "A sentence no catalogue has"
    assert words.t("") == ""  # never the catalogue's header
    speaking[0] = "zh"
    assert words.t("Language") == "语言"
    speaking[0] = "en"
    assert words.t("Presenter mode") == "Presenter mode"


def test_a_translation_keeps_its_placeholders(speaking):
    for code in words.LANGUAGES:
        speaking[0] = code
        text = words.t("The browser's ({language})").format(language="X")
        assert "X" in text and "{" not in text


def test_the_pseudo_locale_stretches_every_string_between_its_markers():
    for text in ["Step by step", "#### Worked example: {title}", "- a point", ":material/x: Go"]:
        out = words.translate(text, words.PSEUDO)
        assert words.OPEN in out and out.endswith(words.CLOSE)
    for text in ["Step by step", "Open it on Step by step", "γ"]:
        assert len(words.stretch(text)) - 2 >= 1.4 * len(text)  # markers aside
    assert words.stretch("#### Worked example: {title}").startswith("#### ⟦Worked")
    assert "{title}" in words.stretch("#### Worked example: {title}")
    assert ":material/x:" in words.stretch(":material/x: Go")


def test_numbers_read_with_a_decimal_comma_in_french_german_and_spanish(speaking):
    assert (number(0.49137), number(5940.0), vector_text([0.5, -1.0])) == (
        "0.491",
        "5,940",
        "(0.5, −1)",
    )
    speaking[0] = "fr"
    assert (number(0.49137), number(5940.0), vector_text([0.5, -1.0])) == (
        "0,491",
        "5\u202f940",
        "(0,5; −1)",  # parts split by semicolons where the comma is the decimal sign
    )
    assert percent(0.1234) == "12,3%"
    speaking[0] = "de"
    assert (number(-2.5), number(11400.0)) == ("−2,5", "11.400")
    speaking[0] = "zh"
    assert number(0.49137) == "0.491"


def test_each_language_writes_numbers_as_cldr_says():
    numbers = pytest.importorskip("babel.numbers")  # the tests' environment has Babel
    for code in words.LANGUAGES:
        assert words.symbols(code) == (
            numbers.get_decimal_symbol(code),
            numbers.get_group_symbol(code),
        ), code


def test_every_catalogue_holds_every_marked_message_and_its_compiled_file_is_current():
    """``scripts/catalogue.py --check``: each language's share translated (printed by the
    test command), and a stale .po or .mo fails."""
    done = subprocess.run(
        [sys.executable, "scripts/catalogue.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for code in ("fr", "es", "de", "zh"):
        assert f"catalogue {code}: " in done.stdout
    for code in ("fr", "es", "de", "zh"):  # a lecturer can tell who translated it
        head = (ROOT / "ui/words/locale" / code / "LC_MESSAGES/perceptron.po").read_text("utf-8")
        assert "Status: machine-assisted" in head or "Status: reviewed" in head, code


def test_a_components_words_are_its_tr_and_N__messages_in_the_sessions_language():
    code = 'say(tr("Copy link")); const B = [N_("Reset")]; tr("Step {t}", { t }); x("No")'
    assert words.script_messages(code) == ("Copy link", "Reset", "Step {t}")
    previous = words.read_language_with(lambda: "en")
    try:
        assert words.script_words(code) == {}  # English: the script's own messages
        words.read_language_with(lambda: "pseudo")
        said = words.script_words(code)
        assert set(said) == {"Copy link", "Reset", "Step {t}", "#decimal", "#group"}
        assert all(said[m].startswith(words.OPEN) for m in ("Copy link", "Reset", "Step {t}"))
        assert "{t}" in said["Step {t}"]
        words.read_language_with(lambda: "fr")
        assert (words.script_words(code)["#decimal"], words.script_words(code)["#group"]) == (
            ",",
            "\u202f",
        )  # words.js's spoken() writes 0,49 and 5 940
    finally:
        words.read_language_with(previous)


def test_every_script_message_is_in_the_template():
    """What words.js's tr says in the components is what the catalogue extracted."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[3]
    with (root / "ui/words/locale/perceptron.pot").open("rb") as f:
        pot = {m.id for m in read_po(f)}
    for path in (root / "ui").rglob("*.js"):
        if "vendor" in path.parts:
            continue
        for message in words.script_messages(path.read_text(encoding="utf-8")):
            assert message in pot, (path.name, message)


# the lab's terms, as each catalogue writes them (a stem: "erreur" is in "erreurs"); their
# wording and its sources are docs/translations.md's ("The terms")
TERMS = {
    "perceptron": {"fr": "perceptron", "es": "perceptr[oó]n", "de": "perzeptron", "zh": "感知机"},
    "mistake": {"fr": "erreur", "es": "error", "de": "fehler", "zh": "错"},
    "epoch": {"fr": "époque", "es": "época", "de": "epoche", "zh": "轮"},
    "margin": {"fr": "marge", "es": "m[aá]rgen", "de": "margin", "zh": "间隔"},
}


@pytest.mark.parametrize("code", ["fr", "es", "de", "zh"])
def test_every_catalogue_follows_the_glossary_of_terms(code: str):
    """A message that says "mistake" (or perceptron, epoch, margin) says the glossary's
    word for it in every language, in every plural form; the glossary says it too."""
    import re
    from pathlib import Path

    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[3]
    glossary = (root / "docs" / "translations.md").read_text(encoding="utf-8").lower()
    # placeholders, maths, addresses and the product's name say no term
    aside = re.compile(r"\{[^{}]*\}|\$[^$]*\$|https?://\S+|Perceptron Lab")
    with (root / f"ui/words/locale/{code}/LC_MESSAGES/perceptron.po").open("rb") as f:
        catalog = read_po(f, locale=code)
    for term, said in TERMS.items():
        assert re.search(said[code], glossary), f"the glossary has no {said[code]} for {term}"
        wrong = []
        for m in catalog:
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            forms = m.string if isinstance(m.string, tuple) else (m.string,)
            if not m.id or not re.search(rf"\b{term}", aside.sub(" ", ids[0]), re.I):
                continue
            if not all(re.search(said[code], aside.sub(" ", s).lower()) for s in forms if s):
                wrong.append(f"{ids[0][:60]!r} -> {forms[0][:60]!r}")
        assert wrong == [], f"{code}: {term} not as the glossary says: {wrong}"

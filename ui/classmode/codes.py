"""A class's code and a student's seat id: how each is made, read from what a person typed
or a link carried, and shown; and a nickname made fit to show.

The code is 8 characters of an alphabet without look-alikes (no 0/O, 1/I/L): 31⁸ ≈ 8.5·10¹¹
codes. A seat id is 16 characters of the store's id alphabet.

May import: the standard library, ``perceptron_store``, ``ui.words`` and ``ui.look.numbers``.
"""

from __future__ import annotations

import secrets

import perceptron_store as store_mod
from ui.look.numbers import number
from ui.words import t

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # 31 characters, no look-alikes
CODE_LENGTH = 8
SEAT_ALPHABET = store_mod.ID_ALPHABET
SEAT_LENGTH = 16
MAX_NICK = 20


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_seat() -> str:
    return "".join(secrets.choice(SEAT_ALPHABET) for _ in range(SEAT_LENGTH))


def normal_code(text: object) -> str | None:
    """The code typed or scanned ("abcd-efgh", " ABCD EFGH "), or None if it cannot be one.
    Checked before any lookup."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    code = "".join(c for c in text.upper() if c not in " -")
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


LOOK_ALIKES = "01ILO"  # never in a code: each looks like another character


def code_problem(text: object) -> str:
    """Why ``text`` is not a class code, in a sentence that names no character it did not
    expect (the look-alikes a code never uses, or how many characters it has)."""
    length = number(CODE_LENGTH)
    if not isinstance(text, str) or len(text) > 40:
        return t("A class code has {n} letters and digits, like ABCD-2345.").format(n=length)
    code = "".join(c for c in text.upper() if c not in " -")
    if not code:
        return t("Type the class code on the projector: {n} letters and digits.").format(n=length)
    alike = [c for c in LOOK_ALIKES if c in code]
    if len(alike) == 1:
        return t(
            "A class code never uses 0, 1, I, L or O (each looks like another character); "
            "this one has {found}. Check the code on the projector."
        ).format(found=alike[0])
    if alike:
        return t(
            "A class code never uses 0, 1, I, L or O (each looks like another character); "
            "this one has {found} and {last}. Check the code on the projector."
        ).format(found=", ".join(alike[:-1]), last=alike[-1])
    if any(c not in CODE_ALPHABET for c in code):
        return t("A class code has only the letters and the digits 2 to 9, like ABCD-2345.")
    return t(
        "A class code has {n} letters and digits, like ABCD-2345; this one has {found}."
    ).format(n=length, found=number(len(code)))


def shown_code(code: str) -> str:
    """The code as the projector shows it: two groups of four."""
    return f"{code[:4]}-{code[4:]}"


def valid_seat(text: object) -> bool:
    return (
        isinstance(text, str)
        and len(text) == SEAT_LENGTH
        and all(c in store_mod.ID_ALPHABET for c in text)
    )


def clean_nick(text: object) -> str:
    """A nickname: printable, spaces collapsed, at most MAX_NICK characters ("" if none).
    It is shown escaped wherever it is shown."""
    if not isinstance(text, str):
        return ""
    text = "".join(c for c in text[:200] if c.isprintable())
    return " ".join(text.split())[:MAX_NICK]

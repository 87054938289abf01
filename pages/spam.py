"""Example (seeds 001, 003): a spam filter on word counts with a BIAS feature; the weights
of "free", "money" and BIAS step by step, and a typed e-mail's features, w·x and verdict."""

import numpy as np
import streamlit as st

from perceptron_core import RULES, word_counts
from ui.app.state import SETTINGS, SPAM_RULES, assign, bind, widget_key
from ui.look.numbers import number, signed
from ui.look.plots import CHART, as_figure
from ui.look.text import lesson_text, prose
from ui.shell import require_router
from ui.shell.presenter import settings
from ui.spam import figures as spam
from ui.spam.runs import spam_run
from ui.words import N_, t, tn

require_router()
ss = st.session_state
text = lesson_text("spam")
END = SETTINGS["spam_t"].default  # spam_t at its default means "after the last step"
RULE_NAMES = {"nonpositive": N_("mistake iff y·(w·x) ≤ 0"), "predict_gt": N_("+1 iff w·x > 0")}

st.title(t("Example: a spam filter"))
prose(text, "intro")
with settings():  # in presenter mode, a menu: the picture on the first screen
    c = st.columns(2)
    c[0].segmented_control(
        t("words counted"),
        list(spam.VOCABULARIES),
        required=True,
        format_func={
            "two": t("free, money (UMass CMPSCI 689)"),
            "more": tn("{n} word", "{n} words", len(spam.VOCABULARIES["more"])).format(
                n=len(spam.VOCABULARIES["more"])
            ),
        }.__getitem__,
        **bind(ss, "spam_vocab"),
    )
    c[1].segmented_control(
        t("mistake rule"),
        list(SPAM_RULES),
        required=True,
        format_func=lambda k: t(RULE_NAMES[k]),
        help="; ".join(f"{t(RULES[k].text)} ({RULES[k].source})" for k in RULE_NAMES),
        **bind(ss, "spam_rule"),
    )
words = spam.VOCABULARIES[ss["spam_vocab"]]
names = spam.names(words)
X, y, trace = spam_run(ss["spam_vocab"], ss["spam_rule"])
T = trace.n_steps

st.header(t("1. Training: watch the weights"))
prose(text, "training")


def set_t(step: int) -> None:  # the last step is stored as END, so the URL stays short
    assign(ss, "spam_t", END if step >= T else step)


def end_is_end() -> None:  # the slider at its last step T: that is END too
    if ss["spam_t"] >= T:
        set_t(T)


step = min(int(ss["spam_t"]), T)
ss[widget_key("spam_t")] = step  # END (the default) is past the slider's end: it shows T
# one row that wraps: on a phone the three buttons stay side by side above the slider, and
# the four numbers two by two (columns would stack them into two screens)
b = st.container(horizontal=True, vertical_alignment="bottom")
b.button("w = 0", key="spam_start", on_click=set_t, args=(0,))
b.button(t("step ▶"), key="spam_step", on_click=set_t, args=(min(step + 1, T),))
b.button(t("trained"), key="spam_end", on_click=set_t, args=(T,))
b.slider(
    t("after step t (of {steps}: {epochs} epochs of {emails} e-mails)").format(
        steps=number(T), epochs=number(trace.n_epochs), emails=len(y)
    ),
    0,
    T,
    width="stretch",
    **bind(ss, "spam_t", then=end_is_end),
)
w, w_prev = trace.w_before(step), trace.w_before(max(step - 1, 0))
m = st.container(horizontal=True, gap="medium")
for name in spam.FOLLOWED:
    j = names.index(name)
    change = float(w[j] - w_prev[j])  # shown only when step t changed it
    m.metric(
        f"w[{name}]",
        number(w[j]),
        delta=signed(change) if change else None,
        delta_color="off",  # a weight going down is no worse than one going up
        delta_arrow="down" if change < 0 else "up",  # "−1" does not start with "-"
    )
m.metric(t("mistakes so far"), number(trace.mistakes_before(step)))
st.markdown(spam.step_markdown(trace, X, y, step))
# on a 1280×720 projector the chart is shorter, so that it is whole under the numbers
height = 300 if ss["app_presenter"] else 360
weights = spam.weights_figure(trace, names, step, height=height)
st.plotly_chart(as_figure(weights), config=CHART, key="spam_w")
st.dataframe(spam.training_table(X, y, w, words), hide_index=True, height=35 * (len(y) + 1) + 3)

st.header(t("2. Your e-mail"))
prose(text, "yours")
# Not a URL setting: a typed e-mail would make long URLs and put private text in them.
email = st.text_area(
    t("Type an e-mail"),
    value="Claim your FREE money now: it's free!",
    max_chars=spam.MAX_EMAIL,
    key="spam_email",
)[: spam.MAX_EMAIL]  # max_chars binds the browser; a forged message is cut here
x = np.append(word_counts(email, words), 1.0)  # the counts, then BIAS = 1
a = float(x @ w)
st.markdown(
    t("**What the filter reads** (the words it counts in bold): {email}").format(
        email=spam.highlight(email, words)
    )
)
st.dataframe(  # numbers as text: "−5", as everywhere on the page
    {
        t("feature"): names,
        "x": [number(v) for v in x],
        t("w after step {t}").format(t=step): [number(v) for v in w],
        t("w·x term"): [number(v) for v in w * x],
    },
    hide_index=True,
)
# inline (display style), not st.latex: a long sum wraps on a phone instead of being cut
st.markdown(f"$\\displaystyle {spam.activation_latex(x, w, names)}$")
if a > 0:
    st.error(
        t("w·x = {a} > 0: **spam** (UMass CMPSCI 689: “wᵀx > 0 → SPAM!!”)").format(a=number(a)),
        icon=":material/report:",
    )
else:
    st.success(
        t("w·x = {a} ≤ 0: **not spam**").format(a=number(a)), icon=":material/mark_email_read:"
    )
prose(text, "notes")

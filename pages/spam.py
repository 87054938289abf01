"""Example (seeds 001, 003): a spam filter on word counts with a BIAS feature; the weights
of "free", "money" and BIAS step by step, and a typed e-mail's features, w·x and verdict."""

import numpy as np
import streamlit as st

from perceptron_core import RULES, word_counts
from ui.kit.plots import CHART, as_figure
from ui.kit.shell import require_router
from ui.kit.state import SETTINGS, SPAM_RULES, assign, bind, widget_key
from ui.kit.text import lesson_text
from ui.spam import figures as spam
from ui.spam.runs import spam_run

require_router()
ss = st.session_state
text = lesson_text("spam")
END = SETTINGS["spam_t"].default  # spam_t at its default means "after the last step"
RULE_NAMES = {"nonpositive": "mistake iff y·(w·x) ≤ 0", "predict_gt": "+1 iff w·x > 0"}

st.title("Example: a spam filter")
st.markdown(text["intro"])
c = st.columns(2)
c[0].segmented_control(
    "words counted",
    list(spam.VOCABULARIES),
    required=True,
    format_func={
        "two": "free, money (seed 003)",
        "more": f"{len(spam.VOCABULARIES['more'])} words",
    }.get,
    **bind(ss, "spam_vocab"),
)
c[1].segmented_control(
    "mistake rule",
    list(SPAM_RULES),
    required=True,
    format_func=RULE_NAMES.get,
    help="; ".join(f"{RULES[k].text} ({RULES[k].source})" for k in RULE_NAMES),
    **bind(ss, "spam_rule"),
)
words = spam.VOCABULARIES[ss["spam_vocab"]]
names = spam.names(words)
X, y, trace = spam_run(ss["spam_vocab"], ss["spam_rule"])
T = trace.n_steps

st.header("1. Training: watch the weights")
st.markdown(text["training"])


def set_t(t: int) -> None:  # the last step is stored as END, so the URL stays short
    assign(ss, "spam_t", END if t >= T else t)


def end_is_end() -> None:  # the slider at its last step T: that is END too
    if ss["spam_t"] >= T:
        set_t(T)


t = min(int(ss["spam_t"]), T)
ss[widget_key("spam_t")] = t  # END (the default) is past the slider's end: it shows T
b = st.columns([1, 1, 1, 5], vertical_alignment="bottom")
b[0].button("w = 0", key="spam_start", on_click=set_t, args=(0,))
b[1].button("step ▶", key="spam_step", on_click=set_t, args=(min(t + 1, T),))
b[2].button("trained", key="spam_end", on_click=set_t, args=(T,))
b[3].slider(
    f"after step t (of {T}: {trace.n_epochs} epochs of {len(y)} e-mails)",
    0,
    T,
    **bind(ss, "spam_t", then=end_is_end),
)
w, w_prev = trace.w_before(t), trace.w_before(max(t - 1, 0))
m = st.columns(len(spam.FOLLOWED) + 1)
for col, name in zip(m, spam.FOLLOWED, strict=False):
    j = names.index(name)
    change = w[j] - w_prev[j]  # shown only when step t changed it
    col.metric(f"w[{name}]", f"{w[j]:g}", delta=f"{change:+g}" if change else None)
m[-1].metric("mistakes so far", trace.mistakes_before(t))
st.markdown(spam.step_markdown(trace, X, y, t))
st.plotly_chart(as_figure(spam.weights_figure(trace, names, t)), config=CHART, key="spam_w")
st.dataframe(spam.training_table(X, y, w, words), hide_index=True, height=35 * (len(y) + 1) + 3)

st.header("2. Your e-mail")
st.markdown(text["yours"])
# Not a URL setting: a typed e-mail would make long URLs and put private text in them.
email = st.text_area(
    "Type an e-mail",
    value="Claim your FREE money now: it's free!",
    max_chars=spam.MAX_EMAIL,
    key="spam_email",
)[: spam.MAX_EMAIL]  # max_chars binds the browser; a forged message is cut here
x = np.append(word_counts(email, words), 1.0)  # the counts, then BIAS = 1
a = float(x @ w)
st.markdown(
    "**What the filter reads** (the words it counts in bold): " + spam.highlight(email, words)
)
st.dataframe(
    {
        "feature": names,
        "x": x.tolist(),
        f"w after step {t}": w.tolist(),
        "w·x term": (w * x).tolist(),
    },
    hide_index=True,
)
st.latex(spam.activation_latex(x, w, names))
if a > 0:
    st.error(f"w·x = {a:g} > 0: **spam** (seed 003: “wᵀx > 0 → SPAM!!”)", icon=":material/report:")
else:
    st.success(f"w·x = {a:g} ≤ 0: **not spam**", icon=":material/mark_email_read:")
st.markdown(text["notes"])

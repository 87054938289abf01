"""Home: what the perceptron is, the theorem this lab is about, and the handouts' worked
examples, each one click from Step by step."""

import streamlit as st

from perceptron_core import RULES
from ui.home.examples import EXAMPLES, WorkedExample, open_on_lecture, worked
from ui.kit.shell import PAGES, require_router
from ui.kit.text import asset
from ui.lecture.restart import restart

require_router()
st.title("Perceptron Lab")


def open_example(example: WorkedExample) -> None:
    """The button's callback: the example becomes the lecture's run, from step 0."""
    open_on_lecture(st.session_state, example)
    restart(st.session_state)  # even when the lecture already was on this run


# the idea beside the handouts' worked examples: each button is on screen as the app opens
intro, examples = st.columns([3, 2], gap="large")
intro.markdown(asset("home"))
for example in EXAMPLES:
    card = examples.container(border=True)
    card.markdown(f"#### Worked example: {example.title}")
    run = worked(example)
    card.markdown(f"{example.text} Rule: {RULES[example.rule].text}. *Source: {example.source}.*")
    row = card.columns(2)
    row[0].metric("mistakes M", run.trace.n_mistakes)
    row[1].metric("final w", "(" + ", ".join(f"{v:g}" for v in run.trace.w) + ")")
    if run.mm is not None:
        row = card.columns(2)
        row[0].metric("margin γ", f"{run.mm.gamma:.3f}")
        row[1].metric("bound (R/γ)²", f"{run.mm.bound:.2f}")
    if card.button(
        "Open it on Step by step",
        key=example.button_key,
        icon=":material/play_circle:",
        type="primary",
        width="stretch",
        help="Sets the sidebar's dataset and the lecture's settings to this example "
        "(replacing an uploaded or drawn dataset) and starts its run at step 0.",
        on_click=open_example,
        args=(example,),
    ):
        st.switch_page("pages/lecture.py")

st.subheader("Where to go")
for spec in PAGES:  # the shell's page table: a new page is linked here by its row
    if spec.url_path:
        st.page_link(spec.path, label=spec.blurb, icon=spec.icon)

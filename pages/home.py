"""Home: what the perceptron is, the theorem this lab is about, and the handouts' worked
examples, each one click from Step by step."""

import streamlit as st

from ui.classmode import address
from ui.home.examples import (
    EXAMPLES,
    LINKS,
    WorkedExample,
    card_text,
    open_on_lecture,
    worked,
    wrap_links,
)
from ui.lecture.restart import restart
from ui.look.numbers import number, vector_text
from ui.look.text import asset
from ui.shell import PAGES, require_router
from ui.words import t

require_router()
st.title(t("Perceptron Lab"))


def open_example(example: WorkedExample) -> None:
    """The button's callback: the example becomes the lecture's run, from step 0."""
    open_on_lecture(st.session_state, example)
    restart(st.session_state)  # even when the lecture already was on this run


# the idea beside the handouts' worked examples: each button is on screen as the app opens
intro, examples = st.columns([3, 2], gap="large")
intro.markdown(asset("home"))
for example in EXAMPLES:
    card = examples.container(border=True)
    card.markdown(t("#### Worked example: {title}").format(title=t(example.title)))
    run = worked(example)
    card.markdown(card_text(example))
    # one row that wraps (2 by 2 on a narrow card, 4 across on a phone), not columns,
    # which a phone stacks into four screens of big numbers
    row = card.container(horizontal=True, gap="medium")
    row.metric(t("mistakes M"), number(run.trace.n_mistakes))
    row.metric(t("final w"), vector_text(run.trace.w))
    if run.mm is not None:
        row.metric(t("margin γ"), number(run.mm.gamma))
        row.metric(t("bound (R/γ)²"), number(run.mm.bound))
    if card.button(
        t("Open it on Step by step"),
        key=example.button_key,
        icon=":material/play_circle:",
        type="primary",
        width="stretch",
        help=t(
            "Sets the sidebar's dataset and the lecture's settings to this example "
            "(replacing an uploaded or drawn dataset) and starts its run at step 0."
        ),
        on_click=open_example,
        args=(example,),
    ):
        st.switch_page("pages/lecture.py")

# a lecturer's check before class, run only when opened (a student never pays for its probe)
prepare = st.expander(
    t("Prepare a class: can students' phones reach this app?"),
    key="home_prepare",
    on_change="rerun",
    icon=":material/wifi:",
)
if prepare.open:
    joinable = address.current()
    shown = prepare.success if joinable.reachable else prepare.warning
    shown(address.ready_sentence(joinable))
    prepare.button(
        t("Check again"), key="home_check_again", on_click=address.forget, icon=":material/refresh:"
    )

st.subheader(t("Where to go"))
wrap_links()  # a link's sentence wraps on a narrow screen (Streamlit cuts it to one line)
with st.container(key=LINKS):
    for spec in PAGES:  # the shell's page table: a new page is linked here by its row
        if spec.url_path:
            st.page_link(spec.path, label=t(spec.blurb), icon=spec.icon)

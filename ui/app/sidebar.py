"""The shared sidebar: the one current dataset every page works on.

A change of the dataset writes only the dataset: a lesson whose state belongs to
the data (the lecture's step) notices the change itself.

A refused upload is said where the student looks, not in the sidebar: the shell
draws :func:`upload_refusal` at the top of the page on show, naming the
data still in use, until it no longer applies (another dataset, a good upload, the
student's Dismiss, another page).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

import numpy as np
import streamlit as st

from perceptron_core import DATASETS, CSVError, load_csv, to_csv
from ui.app.state import MAX_SEED, Session, assign, bind, param_key, session_key
from ui.compute import runs
from ui.look.numbers import count
from ui.look.text import safe, shorten
from ui.server.internals import testid
from ui.words import t

CUSTOM = session_key("data_custom")
UPLOAD_ERROR = session_key("data_upload_error")
UPLOADER = "data_upload"  # the file uploader's key, numbered after each refusal
REFUSAL_BOX = "data_refusal"  # the container of a refused upload's message (main area)
PENDING = session_key("data_upload_pending")  # the uploader whose new file is not read yet


@dataclass(frozen=True)
class Refusal:
    """An upload refused: what the student reads, and when it stops applying.

    ``turn`` counts the refusals in a row and names the uploader's key: a new key is
    a new, empty uploader, so the refused file is not listed as if it were in use.
    ``page`` is the page it is shown on (set when first shown: another page drops it),
    ``kept`` the name of the data still in use (another name drops it)."""

    file: str  # outside text, raw: escaped where shown
    reason: str  # the CSV reader's sentence, which may quote the file's cells: raw
    kept: str  # the data still in use: may be a file's name, raw
    turn: int
    id: str  # the refused upload's file id: the browser brings each refusal into view once
    page: str | None = None


def uploader_key(session: Mapping[str, Any]) -> str:
    """The uploader's key: a fresh one after each refusal (its file is not listed)."""
    refusal = session.get(UPLOAD_ERROR)
    return UPLOADER if refusal is None else f"{UPLOADER}_{refusal.turn}"


def _data_changed() -> None:
    """The student chose other data: a refusal about the data before no longer applies."""
    st.session_state.pop(UPLOAD_ERROR, None)


def _regenerate() -> None:
    assign(st.session_state, "data_seed", (st.session_state["data_seed"] + 1) % (MAX_SEED + 1))
    _data_changed()


def _fit_n() -> None:
    ss = st.session_state
    spec = DATASETS[ss["data_name"]]
    n = spec.n_default if spec.fixed_size else int(np.clip(ss["data_n"], spec.n_min, spec.n_max))
    assign(ss, "data_n", n)
    _data_changed()


def _upload(key: str) -> None:
    """A file arrived in the uploader ``key``: read in this run's turn (:func:`take_upload`).

    Streamlit calls a widget's ``on_change`` before the page runs, outside the fair share
    of ``ui.server.fair``: reading a 5,000-row CSV there (about 40 ms) let scripts that
    upload flat out take the interpreter from everybody else."""
    st.session_state[PENDING] = key


def take_upload(session: Session) -> None:
    """Read the file that arrived since the last run, if any (see :func:`_upload`)."""
    key = session.pop(PENDING, None)
    if isinstance(key, str):
        _read_upload(key)


def _read_upload(key: str) -> None:
    upload = st.session_state.get(key)
    if upload is None:
        return
    # A file id this session does not hold (a forged or stale widget value) comes back as
    # Streamlit's DeletedFile, with no name and no bytes: refused in the app's words.
    name = getattr(upload, "name", None)
    try:
        if not isinstance(name, str):
            raise CSVError(t("The file is no longer on the server; please upload it again."))
        X, y = load_csv(upload)
    except CSVError as exc:
        before = st.session_state.get(UPLOAD_ERROR)
        st.session_state[UPLOAD_ERROR] = Refusal(
            file=name if isinstance(name, str) else t("the file"),
            reason=str(exc),
            kept=before.kept if before is not None else _in_use(),
            turn=before.turn + 1 if before is not None else 1,
            id=str(getattr(upload, "file_id", "")),
        )
        return
    assert isinstance(name, str)  # checked above, before the CSV was read
    st.session_state.pop(UPLOAD_ERROR, None)
    st.session_state[CUSTOM] = (X, y, shorten(name, 80))  # raw: each sink escapes


def _drop_custom() -> None:
    st.session_state.pop(CUSTOM, None)
    _data_changed()


def _in_use() -> str:
    """The data in use, named for a sentence: "Two blobs (n = 40, seed 0)", "mine.csv (n = 3)"."""
    _, y, name = current_dataset()
    return f"{name} (n = {len(y)})" if CUSTOM in st.session_state else name


# The message is at the top of the page, but the student uploaded from the sidebar: on a
# phone the open sidebar lies over the page, and the page may be scrolled down. Once per
# refusal the browser closes a sidebar that covers the message (moving the focus, which
# was in it, to Dismiss) and scrolls the message into view. Our own code, no outside text.
_in_view = st.components.v2.component(
    "perceptron_lab_refusal_in_view",
    js="""export default function ({ data, parentElement }) {
  if (!data || parentElement.__shown === data.id) return;
  parentElement.__shown = data.id;
  requestAnimationFrame(() => {
    const box = document.querySelector(`.st-key-${data.box}`);
    if (!box) return;
    const sidebar = document.querySelector('SIDEBAR');
    const s = sidebar && sidebar.getBoundingClientRect();
    const m = box.getBoundingClientRect();
    if (s && s.width > 0 && s.right > m.left + 1) {  // the sidebar covers the message
      const close = document.querySelector('CLOSE button');
      if (close) close.click();
      const dismiss = [...box.querySelectorAll("button")].find((b) => b.getClientRects().length);
      let frames = 60;  // the page takes focus again once the sidebar has closed
      const focus = () => {
        if (!dismiss || !dismiss.isConnected || frames-- <= 0) return;
        dismiss.focus({ preventScroll: true });
        if (document.activeElement !== dismiss) requestAnimationFrame(focus);
      };
      focus();
    }
    const header = document.querySelector('HEADER');  // fixed over the page
    box.style.scrollMarginTop = `${(header ? header.getBoundingClientRect().height : 0) + 8}px`;
    box.scrollIntoView({ block: "nearest" });
  });
}""".replace("SIDEBAR", testid("stSidebar"))
    .replace("CLOSE", testid("stSidebarCollapseButton"))
    .replace("HEADER", testid("stHeader")),
)


# On a phone the sidebar opens over the page, and Streamlit leaves it open after one of its
# links: the page the student asked for stays under it. When the page on show changes and
# the open sidebar lies over the page's column, the browser closes it (a page opened by its
# address is left as Streamlit draws it). Our own code, no outside text.
_closer = st.components.v2.component(
    "perceptron_lab_sidebar_closer",
    js="""export default function ({ data }) {
  const nav = (window.__perceptronNav ||= {});
  const page = data && data.page;
  if (!page || nav.page === page) return;
  const first = nav.page === undefined;
  nav.page = page;
  if (first) return;
  requestAnimationFrame(() => {
    const sidebar = document.querySelector('SIDEBAR');
    const column = document.querySelector('COLUMN');
    if (!sidebar || !column) return;
    const s = sidebar.getBoundingClientRect();
    if (s.width > 0 && s.right > column.getBoundingClientRect().left + 1) {
      const close = document.querySelector('CLOSE button');
      if (close) close.click();
    }
  });
}""".replace("SIDEBAR", testid("stSidebar"))
    .replace("COLUMN", testid("stMainBlockContainer"))
    .replace("CLOSE", testid("stSidebarCollapseButton")),
    css=".st-key-app_sidebar_closer { display: none; }",
    isolate_styles=False,
)


def close_over_page(page: str) -> None:
    """On a phone, the sidebar closes when its link has opened another page (``page``:
    the url_path on show)."""
    _closer(key="app_sidebar_closer", data={"page": page})


def _dismiss() -> None:
    st.session_state.pop(UPLOAD_ERROR, None)


def upload_refusal(page: str) -> None:
    """The refused upload's message, at the top of the page on show (the shell calls it
    before the page's body), with a Dismiss button; nothing if none applies on ``page``."""
    ss = st.session_state
    refusal = ss.get(UPLOAD_ERROR)
    if refusal is None:
        return
    if refusal.page is None:  # the run right after the upload: this is its page
        refusal = ss[UPLOAD_ERROR] = replace(refusal, page=page)
    if refusal.page != page or refusal.kept != _in_use():
        ss.pop(UPLOAD_ERROR)  # another page, or other data since: no longer applies
        return
    with st.container(key=REFUSAL_BOX):
        st.error(
            t("{file} was not used. {reason}").format(
                file=safe(refusal.file), reason=safe(refusal.reason, limit=300)
            )
            + "\n\n"
            + t("The previous data is still in use: {kept}.").format(
                kept=safe(refusal.kept, limit=120)
            ),
            icon=":material/warning:",
        )
        row = st.container(horizontal=True, vertical_alignment="center", gap="small")
        row.button(
            t("Dismiss"),
            key="data_refusal_dismiss",
            icon=":material/close:",
            on_click=_dismiss,
            help=t("hide this message; the data in use stays as it is"),
        )
        with row:  # no room of its own: beside the button
            _in_view(key="data_refusal_view", data={"id": refusal.id, "box": REFUSAL_BOX})


def current_dataset() -> tuple[np.ndarray, np.ndarray, str]:
    """(X, y, a name for it): the uploaded set if any, else the generated one.

    The name may be a file's name: outside text, for ``ui.look.text.safe`` at every sink.
    """
    return dataset_in(st.session_state)


def dataset_in(session: Session) -> tuple[np.ndarray, np.ndarray, str]:
    """:func:`current_dataset` of a session's settings (``session``: a page's session, or
    the settings a light page reads from a room, ``ui.state.init``)."""
    if CUSTOM in session:
        return cast("tuple[np.ndarray, np.ndarray, str]", session[CUSTOM])
    name = session["data_name"]
    spec = DATASETS[name]
    params = tuple((p.name, float(session[param_key(name, p.name)])) for p in spec.params)
    X, y = runs.dataset(name, int(session["data_n"]), int(session["data_seed"]), params)
    named = t("{title} (n = {n}, seed {seed})")
    return X, y, named.format(title=t(spec.title), n=len(y), seed=session["data_seed"])


def dataset_sidebar(*, used_here: bool = True, following: bool = False) -> None:
    """Dataset choice, size, seed, parameters, upload and download.

    ``used_here=False``: the page on show has data of its own; the dataset's controls
    fold under its name, drawn only while unfolded (a closed expander with
    ``on_change="rerun"`` runs nothing inside it). Most who open such a page (the class's
    join link, the home page) never change the dataset there, and its eight widgets were
    a third of the page's run.

    ``following``: a student following the lecturer, whose dataset is the lecturer's; it
    folds the same way. A phone's closed sidebar would otherwise send back the dataset its
    widgets last showed as the lecturer's new one arrives, and stop the student following.
    """
    sb: Any = st.sidebar
    ss: Session = st.session_state
    sb.header(t("Dataset"))
    if not used_here or following:
        _, _, name = current_dataset()
        sb.caption(
            (
                t("The lecturer's dataset: {name}. Changing it here stops following.")
                if following
                else t(
                    "This page has data of its own; this dataset is for the other pages: {name}."
                )
            ).format(name=safe(name))
        )
        # one label whatever the dataset: a new label would be a new expander, folded again
        sb = sb.expander(
            t("Change it here"), icon=":material/dataset:", key="data_elsewhere", on_change="rerun"
        )
        if not sb.open:
            return
    custom = CUSTOM in st.session_state
    if custom:
        X, y, name = st.session_state[CUSTOM]
        sb.info(
            t("Using your data: {name} ({points}).").format(
                name=safe(name), points=count(len(y), "point")
            )
        )
        sb.button(t("Back to generated data"), key="data_back", on_click=_drop_custom)
    else:
        sb.selectbox(
            t("dataset"),
            list(DATASETS),
            format_func=lambda k: t(DATASETS[k].title),
            **bind(ss, "data_name", then=_fit_n, resend=ss["data_name"] in DATASETS),
        )
        spec = DATASETS[st.session_state["data_name"]]
        sb.caption(
            t("{description} *Source: {source}.*").format(
                description=t(spec.description), source=spec.source
            )
        )
        if not spec.fixed_size:
            sb.slider(
                t("number of points n"),
                spec.n_min,
                spec.n_max,
                step=1,
                **bind(ss, "data_n", then=_fit_n, resend=spec.n_min <= ss["data_n"] <= spec.n_max),
            )
            for p in spec.params:
                sb.slider(
                    t(p.label),
                    p.low,
                    p.high,
                    step=p.step,
                    help=t(p.help) if p.help else None,
                    **bind(
                        ss,
                        (k := param_key(spec.key, p.name)),
                        then=_fit_n,
                        resend=p.low <= ss[k] <= p.high,
                    ),
                )
            c1, c2 = sb.columns([1, 1], vertical_alignment="bottom")
            c1.number_input(
                t("seed"), 0, MAX_SEED, step=1, **bind(ss, "data_seed", then=_fit_n, resend=True)
            )
            c2.button(
                t("Regenerate"),
                key="data_regenerate",
                on_click=_regenerate,
                help=t("new random data: seed + 1"),
            )
    X, y, name = current_dataset()
    sb.download_button(
        t("Download CSV"),
        lambda: to_csv(X, y),  # built on click, not on every run of every page
        file_name="perceptron-data.csv",
        mime="text/csv",
        key="data_download",
        on_click="ignore",
    )
    key = uploader_key(ss)
    sb.file_uploader(
        t("Upload CSV (columns x1, x2, y)"),
        type=["csv", "txt"],
        key=key,
        on_change=_upload,
        args=(key,),
    )

"""After a reconnection, run the whole page again.

When a tab's server restarts, or nginx moves the tab to another app server, Streamlit's
browser code reconnects to a new, empty session. It asks that session for a run only if
its last run was a fragment's (or was still going); otherwise the new session never runs
the script, knows none of the page's fragments, and drops the next fragment rerun: the
margin lab's next drag and the lecture's next step were lost, and the page looked frozen
until a reload.

This watcher sits outside every fragment. It sees the app's connection state go from
lost to ``CONNECTED`` and sends one trigger, which reruns the whole page in the new
session: the settings and the data come back from the URL (``data=<id>``), the page's
fragments exist again, and the next gesture is answered. It carries no data and reads
none from the browser.
"""

from __future__ import annotations

import streamlit as st

from ui.server.internals import CONNECTION_STATE, testid

KEY = "app_reconnect"
# Streamlit's root element and its connection state (ui.server.internals.TESTIDS, ATTRIBUTES)
_JS = """export default function (component) {
  const app = document.querySelector('APP');
  if (!app) return;
  app.__perceptronBack = component.setTriggerValue;  // the latest instance's
  if (app.__perceptronWatching) return;  // one watcher per page
  app.__perceptronWatching = true;
  let lost = false;
  new MutationObserver(() => {
    const state = app.getAttribute("STATE");
    if (state !== "CONNECTED") lost = true;
    else if (lost) { lost = false; app.__perceptronBack("back", true); }
  }).observe(app, { attributes: true, attributeFilter: ["STATE"] });
}""".replace("APP", testid("stApp")).replace("STATE", CONNECTION_STATE)
_component = st.components.v2.component(
    "perceptron_reconnect",
    html="",
    js=_JS,
    css=f".st-key-{KEY} {{ display: none; }}",
    isolate_styles=False,
)


def _back() -> None:
    """Nothing to do: the trigger's rerun of the whole page is the point."""


def watch() -> None:
    """Put the watcher on the page (outside any fragment; once per run)."""
    _component(key=KEY, on_back_change=_back)

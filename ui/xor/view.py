"""The 3-D view's page style: Plotly's 3-D scene calls preventDefault on every wheel and
touch move over it, even with scrollZoom off (plotly.js #6458), so the page could not scroll
past it. While the view stands still it sits in a container keyed :data:`STILL`, whose CSS
passes the wheel and a finger's swipe through to the page; switched to turning, the view
leaves that container and takes them again, on purpose."""

from ui.look.style import page_style

STILL = "xor_still"  # the container of the 3-D view while it stands still
CSS = (
    f".st-key-{STILL} .gl-container, .st-key-{STILL} .gl-container * "
    "{ pointer-events: none !important; }"
)
hold_still = page_style(STILL, CSS)

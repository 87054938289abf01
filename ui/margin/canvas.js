// The margin lab's drawing surface: an SVG of the points and the lines Python computed.
// Drag a point (one "moved" event on release), click empty space to add one ("added";
// shift-click adds a −1), click a point to flip its label ("flipped"), alt-click or the
// delete tool removes it ("deleted"). Streamlit calls this function again on every data
// change and keeps no cleanup until unmount, so each call rebuilds the SVG from scratch:
// the old SVG, and the listeners on it, are dropped with it.
const NS = "http://www.w3.org/2000/svg";
const SIZE = 640;
const PAD = { left: 46, right: 14, top: 14, bottom: 40 };
const SLOP = 4; // pixels a pointer may wander before a press counts as a drag

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

export default function render(component) {
  const { data, setTriggerValue, parentElement } = component;
  const host = parentElement.querySelector(".mlab");
  if (!host || !data) return;
  const st = host.__mlab || (host.__mlab = { dragging: false, pending: null });
  if (st.dragging) { st.pending = component; return; } // redraw when the drag ends
  host.classList.remove("busy");
  clearTimeout(st.busyTimer);

  const [x0, x1, y0, y1] = data.view;
  const W = SIZE - PAD.left - PAD.right, H = SIZE - PAD.top - PAD.bottom;
  const px = (x) => PAD.left + ((x - x0) / (x1 - x0)) * W;
  const py = (y) => PAD.top + (1 - (y - y0) / (y1 - y0)) * H;
  const clampX = (x) => Math.min(Math.max(x, x0), x1);
  const clampY = (y) => Math.min(Math.max(y, y0), y1);

  const svg = el("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, role: "img", "aria-label": data.alt });
  svg.dataset.version = data.v;
  svg.dataset.tick = data.tick;
  el("rect", { class: "bg", x: PAD.left, y: PAD.top, width: W, height: H }, svg);
  const clip = el("clipPath", { id: "mlab-clip" }, el("defs", {}, svg));
  el("rect", { x: PAD.left, y: PAD.top, width: W, height: H }, clip);
  const grid = el("g", { class: "grid" }, svg);
  for (const t of data.ticks.x) {
    el("line", { x1: px(t), x2: px(t), y1: PAD.top, y2: PAD.top + H, class: t === 0 ? "axis" : "" }, grid);
    el("text", { x: px(t), y: PAD.top + H + 16, "text-anchor": "middle" }, grid).textContent = t;
  }
  for (const t of data.ticks.y) {
    el("line", { y1: py(t), y2: py(t), x1: PAD.left, x2: PAD.left + W, class: t === 0 ? "axis" : "" }, grid);
    el("text", { x: PAD.left - 6, y: py(t) + 4, "text-anchor": "end" }, grid).textContent = t;
  }
  el("text", { x: PAD.left + W, y: SIZE - 6, "text-anchor": "end", class: "axlabel" }, grid).textContent = "x₁";
  el("text", { x: 12, y: PAD.top + 10, class: "axlabel" }, grid).textContent = "x₂";

  const drawing = el("g", { "clip-path": "url(#mlab-clip)" }, svg);
  for (const f of data.fills) {
    el("polygon", { class: f.cls, points: f.d.map(([x, y]) => `${px(x)},${py(y)}`).join(" ") }, drawing);
  }
  if (data.circle) {
    const r = (data.circle.r / (x1 - x0)) * W;
    el("circle", { class: "radius", cx: px(0), cy: py(0), r }, drawing);
  }
  for (const l of data.lines) {
    const [[ax, ay], [bx, by]] = l.d;
    el("line", { class: l.cls, x1: px(ax), y1: py(ay), x2: px(bx), y2: py(by) }, drawing);
    if (l.label) {
      el("text", { class: `tag ${l.cls}`, x: px(l.at[0]), y: py(l.at[1]) }, drawing).textContent = l.label;
    }
  }

  const info = host.querySelector(".info");
  const points = el("g", { class: "points" }, svg);
  data.points.forEach(([x, y, label, flags, tip], i) => {
    const g = el("g", { class: `pt ${label > 0 ? "plus" : "minus"}`, transform: `translate(${px(x)},${py(y)})` }, points);
    g.dataset.i = i;
    el("title", {}, g).textContent = tip;
    if (flags & 1) el("circle", { class: "support", r: 13 }, g);
    if (flags & 2) el("circle", { class: "wrong", r: 16 }, g);
    if (label > 0) el("circle", { class: "mark", r: 8 }, g);
    else el("rect", { class: "mark", x: -7.5, y: -7.5, width: 15, height: 15 }, g);
    el("text", { class: "glyph", y: 4 }, g).textContent = label > 0 ? "+" : "−";
    el("circle", { class: "hit", r: 15 }, g);
    g.addEventListener("pointerenter", () => { if (info) info.textContent = tip; });
  });
  if (data.banner) {
    el("text", { class: "banner", x: PAD.left + W / 2, y: PAD.top + 22, "text-anchor": "middle" }, svg).textContent = data.banner;
  }

  const toData = (ev) => {
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(svg.getScreenCTM().inverse());
    return [x0 + ((p.x - PAD.left) / W) * (x1 - x0), y0 + (1 - (p.y - PAD.top) / H) * (y1 - y0)];
  };
  const send = (name, value) => {
    host.classList.add("busy"); // until Python answers with a redraw
    st.busyTimer = setTimeout(() => host.classList.remove("busy"), 4000);
    setTriggerValue(name, { ...value, v: data.v });
  };

  let press = null;
  svg.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0 || host.classList.contains("busy")) return;
    const g = ev.target.closest ? ev.target.closest(".pt") : null;
    press = { g, id: ev.pointerId, cx: ev.clientX, cy: ev.clientY, moved: false, alt: ev.altKey, shift: ev.shiftKey };
    svg.setPointerCapture(ev.pointerId);
    ev.preventDefault();
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!press || ev.pointerId !== press.id || !press.g) return;
    if (!press.moved && Math.hypot(ev.clientX - press.cx, ev.clientY - press.cy) < SLOP) return;
    press.moved = true;
    st.dragging = true;
    const [x, y] = toData(ev);
    press.at = [clampX(x), clampY(y)];
    press.g.setAttribute("transform", `translate(${px(press.at[0])},${py(press.at[1])})`);
    press.g.classList.add("dragging");
    if (info) info.textContent = `point ${press.g.dataset.i} → (${press.at[0].toFixed(2)}, ${press.at[1].toFixed(2)})`;
  });
  const release = (ev, cancelled) => {
    if (!press || ev.pointerId !== press.id) return;
    const p = press;
    press = null;
    st.dragging = false;
    if (cancelled) { // put the point back (or draw what arrived meanwhile)
      const next = st.pending || component;
      st.pending = null;
      render(next);
      return;
    }
    if (p.g && p.moved) {
      send("moved", { i: Number(p.g.dataset.i), x: p.at[0], y: p.at[1] });
    } else if (p.g && (p.alt || data.mode === "delete")) {
      send("deleted", { i: Number(p.g.dataset.i) });
    } else if (p.g) {
      send("flipped", { i: Number(p.g.dataset.i) });
    } else if (data.mode !== "delete") {
      const [x, y] = toData(ev);
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1) {
        send("added", { x, y, label: p.shift ? -1 : data.label });
      }
    }
    st.pending = null;
  };
  svg.addEventListener("pointerup", (ev) => release(ev, false));
  svg.addEventListener("pointercancel", (ev) => release(ev, true));

  host.querySelector(".surface").replaceChildren(svg);
  host.classList.toggle("delete-mode", data.mode === "delete");
}

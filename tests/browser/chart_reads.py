"""What the browser tests read off the lecture's chart (scripts a locator evaluates): the
labels over its points, the words past its edges, the type sizes and the ticks that
overlap. The chart's box (``.fig``) holds its layers (ui/lecture/player_moves.js)."""

# The chart's data panel: every text on it against every point it draws (the part of the
# point inside the plot's frame), and the labels on the plot against each other.
# the chart's box (.fig) holds its layers: the panels (the data's first), the points, and
# over them what a step draws (the rings, w and its label, the stamp)
LABELS_OVER_POINTS = """svg => {
  const box = e => e.getBoundingClientRect();
  const data = svg.querySelector('g.panel'), over = svg.querySelector('svg.over');
  const f = box(data.querySelector('rect.frame'));
  const marks = [...svg.querySelectorAll('.points circle, .points path')];
  const points = marks.map((e, i) => {
    const r = box(e);
    return {i, l: Math.max(r.left, f.left), t: Math.max(r.top, f.top),
            r: Math.min(r.right, f.right), b: Math.min(r.bottom, f.bottom)};
  }).filter(p => p.l < p.r && p.t < p.b);
  const meets = (a, p) => a.left < p.r && p.l < a.right && a.top < p.b && p.t < a.bottom;
  const texts = [...data.querySelectorAll('text'), ...over.querySelectorAll('text')]
    .filter(t => t.textContent.trim());
  const out = [];
  for (const t of texts) {
    const r = box(t);
    for (const p of points) if (meets(r, p)) out.push(`"${t.textContent}" over point ${p.i + 1}`);
  }
  const onPlot = [...over.querySelectorAll('.wlabel, .askedtxt')].map(t => [t, box(t)]);
  for (const [a, ra] of onPlot) for (const [b, rb] of onPlot)
    if (a !== b && meets(ra, {l: rb.left, t: rb.top, r: rb.right, b: rb.bottom}))
      out.push(`"${a.textContent}" over "${b.textContent}"`);
  const more = over.querySelector('.stampmore');
  return {drawn: svg.isConnected, t: +svg.dataset.t, points: points.length,
          texts: texts.length, out,
          wlabel: over.querySelectorAll('.wlabel').length,
          arrow: over.querySelectorAll('.warrow').length,
          named: more ? more.textContent : ''};
}"""

# The panels' titles and keys that run past the chart's left or right edge.
WORDS_PAST_THE_EDGE = """fig => {
  const edge = fig.getBoundingClientRect();
  return [...fig.querySelectorAll('.title, .key')].filter(t => {
    const r = t.getBoundingClientRect();
    return r.left < edge.left - 0.5 || r.right > edge.right + 0.5;
  }).map(t => t.textContent);
}"""

# The type a lecturer reads, in CSS px.
SIZES = """root => {
  const px = e => parseFloat(getComputedStyle(e).fontSize);
  return {status: px(root.querySelector('.status')),
          button: px(root.querySelector('button[data-act=step]')),
          subscript: px(root.querySelector('.maths msub > :last-child')),
          tick: px(root.querySelector('.fig .grid text')),
          stamp: px(root.querySelector('.fig .stamptxt'))};
}"""

# Each panel's tick labels up its side (they share an x): any two that overlap.
TICKS_OVERLAP = """svg => [...svg.querySelectorAll('g.panel')].map(g => {
  const rects = [...g.querySelectorAll('.grid text[text-anchor=end]')]
    .filter(t => !t.classList.contains('axlabel')).map(t => t.getBoundingClientRect());
  let n = 0;
  for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) {
    const a = rects[i], b = rects[j];
    if (a.top < b.bottom && b.top < a.bottom) n++;
  }
  return [rects.length, n];
})"""

"""The colours every lesson draws with: Okabe-Ito, a colour-blind-safe palette.

Colour is never the only cue: +1 and −1 also differ by marker shape, bounds by dash.
"""

PLUS = "#0072B2"  # blue: y = +1
MINUS = "#D55E00"  # vermillion: y = -1
W_COLOUR = "#009E73"  # bluish green: the current w
STAR = "#555555"  # grey: w*, its margin band, the radius
CURRENT = "#E69F00"  # orange: the example just shown
BOUND = "#CC79A7"  # reddish purple: the bound (R/gamma)^2

# the variants page's three read-outs of one run (the last w, the averaged w, the vote)
LAST = BOUND  # reddish purple
AVERAGED = W_COLOUR  # bluish green
VOTED = "#56B4E9"  # sky blue

# lines and text drawn in these keep at least 3:1 contrast on white (WCAG 1.4.11)
CURRENT_LINE = "#B86E00"  # CURRENT darkened: 4.0:1 (CURRENT itself is 2.3:1)
ASKED = "#000000"  # the example the class is asked about: a dotted ring and a "?"
# the example just shown was a mistake: a dashed ring (a correct one's is solid) in black,
# 5.3:1 against CURRENT_LINE, so the two differ by shape and by lightness alone (on a
# washed-out projector, in greyscale, under deuteranopia and protanopia), and neither is
# the −1 examples' vermilion
MISTAKE = "#000000"

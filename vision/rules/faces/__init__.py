"""From pip candidates to read faces: group the pips of one top face, then check the pattern.

Why this order: a pip alone says little (a knot in the wood, a screw head, a pip on a side face
all look like one); a set of pips that lie on one face AND sit exactly on a legal die layout is
a confident read. The layout check is what keeps a wrong number off the table:

1. Link two pips of the same polarity when they are close (relative to their size), of a
   similar size, with a similar face level around them, and nothing dark (or bright) on the
   straight path between them: that path crosses no die edge, so both lie on one face
   (:mod:`vision.rules.faces.grouping`).
2. Each linked group gets a frame: its four outermost pips are the corners (4, 5, 6), or its
   two farthest pips are one diagonal (2, 3); a lone pip gets a frame from its own size (1).
   The frame gives the nine places of the 3x3 pip grid (bilinear in the corners, so mild
   perspective is fine) (:mod:`vision.rules.faces.read`, :mod:`vision.rules.faces.grid`).
3. The pips must fill exactly the places of one legal layout, and the contrast map must be
   quiet at every other place of the grid: a faint mark where the layout has no pip means a
   pip may be hidden or missed, and the face is reported unsure instead of read
   (:mod:`vision.rules.faces.read`, with the checks of :mod:`vision.rules.faces.checks`).
4. A group that fits no layout (side-face pips joined it, two touching faces merged) is unsure;
   dropping pips until a layout fits was tried and made wrong values. Only two ways out are
   tried: the pips of two or three touching dice cut apart along straight lines
   (:mod:`vision.rules.faces.touching`), and, once every group is read, one face kept per die when
   a side face was read too (:mod:`vision.rules.faces.one_per_die`).

What a face is, read or unsure, and the tolerances of all of this: :mod:`vision.rules.faces.face`.
The reader (:mod:`vision.rules.reader`) runs these steps in this order on every picture.
"""

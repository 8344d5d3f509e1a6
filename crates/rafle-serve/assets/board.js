// The board: the server's SVG picture (rafle-core's board_svg) under an
// overlay of the same size that takes the clicks and draws what the page
// adds: the selected piece, legal destinations, captured squares, and a
// network's policy as arrows. Squares are PDN numbers; state.board.squares
// gives each one's [row, col] seen from White.

export const SQ = 60; // pixels per square, as the server draws them
const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Top-left corner of square s on the drawn (maybe flipped) board.
export function corner(state, s) {
  const n = state.board.n;
  let [r, c] = state.board.squares[s - 1];
  if (state.flipped) [r, c] = [n - 1 - r, n - 1 - c];
  return [c * SQ, r * SQ];
}

function centre(state, s) {
  const [x, y] = corner(state, s);
  return [x + SQ / 2, y + SQ / 2];
}

// The square under a click (client coordinates), or 0.
export function squareAt(state, svg, clientX, clientY) {
  const m = svg.getScreenCTM();
  if (!m) return 0;
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  const n = state.board.n;
  let c = Math.floor(p.x / SQ), r = Math.floor(p.y / SQ);
  if (c < 0 || r < 0 || c >= n || r >= n) return 0;
  if (state.flipped) [r, c] = [n - 1 - r, n - 1 - c];
  const i = state.board.squares.findIndex(([rr, cc]) => rr === r && cc === c);
  return i + 1;
}

// Draws `state` into `boardDiv` and `overlay`. `marks`: {selected, dots,
// rings, taken} (square lists); `arrows`: [{path, p, label}].
export function draw(boardDiv, overlay, state, marks = {}, arrows = []) {
  boardDiv.innerHTML = state.svg;
  const size = SQ * state.board.n;
  overlay.setAttribute("viewBox", `0 0 ${size} ${size}`);
  overlay.replaceChildren();
  const pieces = new Map(state.pieces.map((p) => [p.square, p]));
  // One transparent target per square, carrying what stands there.
  const targets = el("g", { class: "targets" }, overlay);
  state.board.squares.forEach((_, i) => {
    const s = i + 1;
    const [x, y] = corner(state, s);
    const p = pieces.get(s);
    const code = p ? (p.color === "white" ? "w" : "b") : "";
    el("rect", {
      x, y, width: SQ, height: SQ, class: "sq-target",
      "data-square": s, "data-piece": p && p.king ? code.toUpperCase() : code,
    }, targets);
  });
  for (const s of marks.rings || []) {
    const [cx, cy] = centre(state, s);
    el("circle", { cx, cy, r: SQ * 0.42, class: "ring", "stroke-width": 4, "data-ring": s }, overlay);
  }
  for (const s of marks.dots || []) {
    const [cx, cy] = centre(state, s);
    el("circle", { cx, cy, r: SQ * 0.14, class: "dot", "data-dot": s }, overlay);
  }
  for (const s of marks.taken || []) {
    const [x, y] = corner(state, s);
    const d = SQ * 0.3;
    el("path", {
      d: `M${x + d},${y + d}L${x + SQ - d},${y + SQ - d}M${x + SQ - d},${y + d}L${x + d},${y + SQ - d}`,
      class: "taken", "stroke-width": 5,
    }, overlay);
  }
  if (marks.selected) {
    const [x, y] = corner(state, marks.selected);
    el("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, class: "sel", "stroke-width": 4 }, overlay);
  }
  if (arrows.length) {
    const defs = el("defs", {}, overlay);
    const m = el("marker", {
      id: "head", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse",
    }, defs);
    el("path", { d: "M0,0L10,5L0,10z", fill: "#2a7ae2" }, m);
    const g = el("g", { class: "arrows" }, overlay);
    // Largest last, so it is on top.
    for (const a of [...arrows].sort((x, y) => x.p - y.p)) {
      const pts = a.path.map((s) => centre(state, s).join(",")).join(" ");
      const line = el("polyline", {
        points: pts, class: "arrow", "marker-end": "url(#head)",
        "stroke-width": 3 + 15 * a.p, "stroke-opacity": 0.25 + 0.7 * Math.min(1, a.p * 2),
        "data-move": a.label, "data-p": a.p,
      }, g);
      el("title", {}, line).textContent = `${a.label}: ${(100 * a.p).toFixed(1)}%`;
    }
  }
}

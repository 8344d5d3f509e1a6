// The play page: one game held here (variant, start FEN, the line of
// moves and the position shown), every position asked of the server's
// stateless API. Engines move by /api/engine; leaving or stopping aborts
// the request, and the server stops the search.

import { draw, squareAt } from "./board.js";
import { startWatch } from "./watch.js";

const $ = (id) => document.getElementById(id);

let info = null;
let variant = "";
let fen = null; // start FEN, null for the variant's start
let line = []; // every move of the game, path notation
let cursor = 0; // moves shown: line.slice(0, cursor)
let flipped = false;
let state = null; // the server's state of the position shown
let sel = null; // {from, k, cands, final}: a move being clicked
let thinking = null; // AbortController of the engine request under way
let paused = false; // engines wait (after Stop, in replays)
let generation = 0; // bumped by every new game, so stale answers are dropped
const inspected = new Map(); // position + player -> inspect answer
let shown = null; // the inspect answer shown for this position
export const timings = { engine: [] }; // ms per engine answer (figures)
window.rafle = { timings, get state() { return state; }, get line() { return line; } };

function status(text, error = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
}

async function api(path, body, signal) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal,
  };
  const r = await fetch(path, init);
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || `HTTP ${r.status}`);
  return j;
}

function spec(k = cursor) {
  return { variant, fen, moves: line.slice(0, k), flipped };
}

function positionKey(k = cursor) {
  return `${variant}|${fen || ""}|${line.slice(0, k).join(" ")}`;
}

function budget() {
  const kind = $("budget-kind").value;
  const v = Number($("budget-value").value);
  if (!kind) return {};
  if (kind === "depth" || kind === "nodes") return { [kind]: Math.max(1, Math.round(v)) };
  return { time: v };
}

function seatOf(color) {
  return $(color === "white" ? "white" : "black").value;
}

// The side to move after k plies.
function turnAt(k) {
  const flip = (cursor - k) % 2 !== 0;
  if (!flip) return state.turn;
  return state.turn === "white" ? "black" : "white";
}

function abortThinking() {
  if (thinking) thinking.abort();
  thinking = null;
  $("stop").disabled = true;
}

async function refresh() {
  const gen = generation;
  try {
    const st = await api("/api/state", { game: spec() });
    if (gen !== generation) return;
    state = st;
    sel = null;
    render();
    if (info.egtb === variant && !state.outcome) tablebase();
    maybeEngine();
  } catch (e) {
    status(e.message, true);
  }
}

function marks() {
  if (!sel) return { rings: [], dots: [] };
  const k = sel.k;
  const uniq = (xs) => [...new Set(xs.filter((x) => x !== undefined))];
  const dots = uniq(sel.cands.map((m) => m.path[k]));
  const rings = sel.final ? [sel.final] : uniq(sel.cands.map((m) => m.path[m.path.length - 1]));
  // Squares every candidate takes.
  const taken = sel.cands[0].captured.filter((s) => sel.cands.every((m) => m.captured.includes(s)));
  return { selected: sel.from, dots, rings, taken };
}

function arrows() {
  if (!shown || !shown.network || !$("arrows").checked) return [];
  const byMove = new Map(state.legal.map((m) => [m.move, m]));
  return shown.network.policy
    .filter((x) => byMove.has(x.move))
    .map((x) => ({ path: byMove.get(x.move).path, p: x.p, label: x.move }));
}

function render() {
  draw($("board"), $("overlay"), state, marks(), arrows());
  $("fen").value = state.fen;
  const ol = $("moves");
  ol.replaceChildren();
  line.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    li.dataset.ply = i + 1;
    if (i === cursor - 1) li.className = "current";
    else if (i >= cursor) li.className = "future";
    li.onclick = () => goTo(i + 1);
    ol.appendChild(li);
  });
  const cur = ol.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  $("result").textContent = state.outcome ? state.outcome.text : "";
  if (!thinking) {
    const who = seatOf(state.turn);
    status(state.outcome ? "game over" : `${state.turn} to move${who === "human" ? "" : ` (${who})`}`);
  }
  shown = inspected.get(`${positionKey()}|${$("inspect-player").value}`) || null;
  renderInspect();
  $("chooser").hidden = true;
}

function goTo(k) {
  abortThinking();
  cursor = Math.max(0, Math.min(line.length, k));
  paused = cursor < line.length || paused;
  refresh();
}

async function playMove(mv) {
  abortThinking();
  paused = false;
  const gen = generation;
  try {
    const st = await api("/api/play", { game: spec(), move: mv });
    if (gen !== generation) return;
    line = line.slice(0, cursor);
    line.push(st.moves[st.moves.length - 1]);
    cursor = line.length;
    state = st;
    sel = null;
    render();
    if (info.egtb === variant && !state.outcome) tablebase();
    maybeEngine();
  } catch (e) {
    status(e.message, true);
  }
}

function choose(cands) {
  // Captures from one square to one square: their paths and the squares
  // they take tell them apart (or click the landing squares in turn).
  const box = $("chooser");
  box.replaceChildren(document.createTextNode("Which capture? "));
  for (const m of cands) {
    const b = document.createElement("button");
    b.textContent = `${m.move} takes ${m.captured.map((s) => state.board.names[s - 1]).join(", ")}`;
    b.onmouseenter = () =>
      draw($("board"), $("overlay"), state, { ...marks(), taken: m.captured }, [{ path: m.path, p: 0.5, label: m.move }]);
    b.onmouseleave = () => draw($("board"), $("overlay"), state, marks());
    b.onclick = () => playMove(m.move);
    b.dataset.move = m.move;
    box.appendChild(b);
  }
  box.hidden = false;
}

function settle() {
  const c = sel.cands;
  if (c.length === 1) return playMove(c[0].move);
  render();
  if (sel.final) choose(c);
}

function clickSquare(s) {
  if (!state || state.outcome || !s) return;
  if (thinking) return;
  const legal = state.legal;
  const starting = legal.filter((m) => m.path[0] === s);
  if (!sel) {
    if (starting.length) sel = { from: s, k: 1, cands: starting, final: null };
    return render();
  }
  if (s === sel.from && sel.k === 1) {
    sel = null;
    return render();
  }
  const k = sel.k;
  const next = sel.cands.filter((m) => m.path[k] === s);
  if (next.length) {
    sel.cands = next;
    sel.k = k + 1;
    return settle();
  }
  const fin = sel.cands.filter((m) => m.path[m.path.length - 1] === s);
  if (fin.length) {
    sel.cands = fin;
    sel.final = s;
    return settle();
  }
  sel = starting.length ? { from: s, k: 1, cands: starting, final: null } : null;
  render();
}

function maybeEngine() {
  if (!state || state.outcome || paused || thinking || cursor !== line.length) return;
  const who = seatOf(state.turn);
  if (who !== "human") engineMove(who);
}

async function engineMove(player) {
  abortThinking();
  const ctl = new AbortController();
  thinking = ctl;
  $("stop").disabled = false;
  const gen = generation;
  const key = positionKey();
  status(`${player} is thinking…`);
  const t0 = performance.now();
  try {
    const r = await api("/api/engine", { game: spec(), player, budget: budget() }, ctl.signal);
    if (gen !== generation || thinking !== ctl) return;
    timings.engine.push(performance.now() - t0);
    thinking = null;
    $("stop").disabled = true;
    // The search is what the inspect view shows for the position it left.
    const k = `${key}|${player}`;
    inspected.set(k, { ...(inspected.get(k) || {}), player, search: r.search });
    line = line.slice(0, cursor);
    line.push(r.move);
    cursor = line.length;
    state = r.state;
    sel = null;
    render();
    if (info.egtb === variant && !state.outcome) tablebase();
    maybeEngine();
  } catch (e) {
    if (thinking === ctl) {
      thinking = null;
      $("stop").disabled = true;
    }
    if (e.name === "AbortError") status("stopped");
    else {
      paused = true;
      status(e.message, true);
    }
  }
}

async function tablebase() {
  const key = positionKey();
  try {
    const r = await api("/api/inspect", { game: spec() });
    if (key !== positionKey()) return;
    const div = $("inspect-out");
    let tb = div.querySelector(".tb");
    if (!tb) {
      tb = document.createElement("div");
      tb.className = "tb";
      div.prepend(tb);
    }
    tb.textContent = r.tablebase ? `Tablebase: ${r.tablebase.text} for ${state.turn}` : "Tablebase: not covered";
    tb.dataset.value = r.tablebase ? r.tablebase.value : "";
    if (r.tablebase && r.tablebase.moves.length) {
      // Each move's value for the side that makes it.
      const rank = (m) => (m.value === "win" ? 1e6 - m.plies : m.value === "loss" ? m.plies - 1e6 : 0);
      const list = document.createElement("div");
      list.className = "tbmoves";
      list.textContent = [...r.tablebase.moves]
        .sort((a, b) => rank(b) - rank(a))
        .map((m) => `${m.move}: ${m.text}`)
        .join(" · ");
      tb.appendChild(list);
    }
  } catch (e) {
    status(e.message, true);
  }
}

async function inspect() {
  const player = $("inspect-player").value;
  if (!player || !state || state.outcome) return;
  const key = `${positionKey()}|${player}`;
  status(`inspecting with ${player}…`);
  try {
    const r = await api("/api/inspect", { game: spec(), player, budget: budget() });
    inspected.set(key, r);
    if (`${positionKey()}|${$("inspect-player").value}` !== key) return;
    shown = r;
    render();
    status("inspected");
  } catch (e) {
    status(e.message, true);
  }
}

function pct(p) {
  return `${(100 * p).toFixed(1)}%`;
}

function renderInspect() {
  const div = $("inspect-out");
  const tb = div.querySelector(".tb");
  div.replaceChildren();
  if (tb && info.egtb === variant) div.appendChild(tb);
  if (!shown) return;
  const add = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    div.appendChild(e);
    return e;
  };
  add("div", `Player: ${shown.player}`);
  if (shown.tablebase) add("div", `Tablebase: ${shown.tablebase.text} for ${state.turn}`, "tb2");
  if (shown.search) {
    const s = shown.search;
    const parts = [`move ${s.move}`];
    if (s.score !== null && s.score !== undefined) parts.push(`score ${s.score >= 0 ? "+" : ""}${s.score.toFixed(2)}`);
    if (s.depth) parts.push(`depth ${s.depth}`);
    if (s.nodes) parts.push(`${s.nodes} nodes`);
    parts.push(`${s.seconds.toFixed(2)} s`);
    add("div", `Search: ${parts.join(", ")}`, "search");
    if (s.pv && s.pv.length) add("div", `PV: ${s.pv.join(" ")}`, "pv");
  }
  if (shown.network) {
    const n = shown.network;
    add("div", `Network value: ${n.value >= 0 ? "+" : ""}${n.value.toFixed(3)} for ${state.turn}`, "value");
    const table = add("table", undefined, "policy");
    table.innerHTML = "<thead><tr><th>move</th><th>policy</th><th></th></tr></thead>";
    const body = document.createElement("tbody");
    for (const x of [...n.policy].sort((a, b) => b.p - a.p)) {
      const tr = document.createElement("tr");
      tr.dataset.move = x.move;
      tr.dataset.p = x.p;
      tr.innerHTML = `<td>${x.move}</td><td>${pct(x.p)}</td><td><span class="bar" style="width:${Math.round(120 * x.p)}px"></span></td>`;
      body.appendChild(tr);
    }
    table.appendChild(body);
  }
}

function fillSelect(sel, options, value) {
  sel.replaceChildren();
  for (const [v, label] of options) {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = label;
    sel.appendChild(o);
  }
  if (value !== undefined) sel.value = value;
}

function newGame(v = variant, f = null, moves = []) {
  abortThinking();
  generation++;
  variant = v;
  fen = f;
  line = moves;
  cursor = 0;
  paused = false;
  inspected.clear();
  shown = null;
  $("variant").value = v;
  $("pdn-text").hidden = true;
  return refresh();
}

async function loadGames() {
  const r = await api("/api/games");
  const games = r.games;
  fillSelect($("games"), games.map((g, i) => [i, `${g.label} ${g.result || ""}`]));
  $("replay").hidden = false;
  const load = (i) => {
    const g = games[i];
    $("white").value = "human";
    $("black").value = "human";
    newGame(g.game.variant, g.game.fen, g.game.moves).then(() => {
      paused = true;
      status(`${g.label}: ${g.game.moves.length} moves (◀ ▶ or the move list to step)`);
    });
  };
  $("games").onchange = () => load(Number($("games").value));
  if (games.length) load(0);
}

async function main() {
  info = await api("/api/info");
  if (info.watch) {
    $("watch").hidden = false;
    startWatch(info.watch);
    return;
  }
  $("play").hidden = false;
  fillSelect($("variant"), info.variants.map((v) => [v.name, `${v.name} (${v.n}x${v.n})`]), info.variant);
  const seats = [["human", "human"], ...info.players.map((p) => [p, p])];
  fillSelect($("white"), seats, "human");
  fillSelect($("black"), seats, info.players.length ? info.players[0] : "human");
  fillSelect($("inspect-player"), info.players.map((p) => [p, p]));
  $("variant").onchange = () => newGame($("variant").value);
  for (const id of ["white", "black"]) {
    $(id).onchange = () => {
      abortThinking();
      paused = false;
      maybeEngine();
      render();
    };
  }
  $("overlay").addEventListener("click", (e) => clickSquare(squareAt(state, $("overlay"), e.clientX, e.clientY)));
  $("new").onclick = () => newGame();
  $("undo").onclick = () => {
    abortThinking();
    if (!state || cursor === 0) return;
    let k = cursor - 1;
    while (k > 0 && seatOf(turnAt(k)) !== "human") k--;
    line = line.slice(0, k);
    cursor = k;
    paused = seatOf(turnAt(k)) !== "human";
    refresh();
  };
  $("flip").onclick = () => {
    flipped = !flipped;
    refresh();
  };
  $("go").onclick = () => {
    if (!state || state.outcome) return;
    const who = seatOf(state.turn);
    paused = false;
    if (cursor < line.length) line = line.slice(0, cursor);
    engineMove(who !== "human" ? who : $("inspect-player").value);
  };
  $("stop").onclick = () => {
    paused = true;
    abortThinking();
    status("stopped");
  };
  $("back").onclick = () => goTo(cursor - 1);
  $("fwd").onclick = () => goTo(cursor + 1);
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
    if (e.key === "ArrowLeft") goTo(cursor - 1);
    if (e.key === "ArrowRight") goTo(cursor + 1);
  });
  $("set-fen").onclick = async () => {
    const f = $("fen").value.trim();
    try {
      // Checked first, so a bad FEN leaves the game as it was.
      await api("/api/state", { game: { variant, fen: f, moves: [] } });
    } catch (e) {
      status(e.message, true);
      return;
    }
    newGame(variant, f);
  };
  $("pdn").onclick = async () => {
    try {
      const r = await api("/api/pdn", { game: spec(line.length), white: seatOf("white"), black: seatOf("black") });
      $("pdn-text").value = r.pdn;
      $("pdn-text").hidden = false;
    } catch (e) {
      status(e.message, true);
    }
  };
  $("inspect").onclick = inspect;
  $("inspect-player").onchange = () => render();
  $("arrows").onchange = () => render();
  variant = info.variant;
  if (info.games > 0) await loadGames();
  else await newGame(info.variant);
}

main().catch((e) => status(e.message, true));

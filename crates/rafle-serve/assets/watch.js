// The watch view (rafle eval --watch): the match's games as boards, their
// moves as they come, and the running score table, from the server-sent
// events of /api/watch (each one carries the boards changed since the last).

const $ = (id) => document.getElementById(id);

function scoreRow(s) {
  const tr = document.createElement("tr");
  for (const v of [s.a, s.b, s.games, s.wins, s.draws, s.losses, `${(100 * s.score).toFixed(1)}%`]) {
    const td = document.createElement("td");
    td.textContent = v;
    tr.appendChild(td);
  }
  return tr;
}

function boardBox(b) {
  let box = document.querySelector(`.wboard[data-game="${b.game}"]`);
  if (!box) {
    box = document.createElement("div");
    box.className = "wboard";
    box.dataset.game = b.game;
    box.innerHTML = '<div class="names"></div><div class="pic"></div><div class="last"></div><div class="res"></div>';
    const all = [...document.querySelectorAll(".wboard")];
    const after = all.find((x) => Number(x.dataset.game) > b.game);
    $("boards").insertBefore(box, after || null);
  }
  return box;
}

function showBoard(b) {
  const box = boardBox(b);
  box.querySelector(".names").textContent = `game ${b.game + 1}: ${b.white} (white) – ${b.black} (black)`;
  box.querySelector(".pic").innerHTML = b.svg;
  const n = b.moves.length;
  box.querySelector(".last").textContent = n ? `${n}. ${b.moves.slice(-6).join(" ")}` : "start";
  box.querySelector(".res").textContent = b.result || `${b.turn} to move`;
  box.dataset.plies = n;
  box.dataset.result = b.result || "";
}

export function startWatch(title) {
  $("watch-title").textContent = `Watching: ${title}`;
  document.getElementById("status").textContent = "live";
  const es = new EventSource("/api/watch");
  es.onmessage = (e) => {
    const d = JSON.parse(e.data);
    for (const b of d.boards) showBoard(b);
    if (d.scores) {
      const body = $("scores").querySelector("tbody");
      body.replaceChildren(...d.scores.map(scoreRow));
    }
    if (d.done) {
      es.close();
      $("final").textContent = d.done;
      $("final").hidden = false;
      document.getElementById("status").textContent = "match over";
      document.body.dataset.done = "1";
    }
  };
  es.onerror = () => {
    if (document.body.dataset.done) return;
    document.getElementById("status").textContent = "connection lost; retrying…";
  };
}

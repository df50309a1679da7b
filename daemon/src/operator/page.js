// The operator page: renders the daemon's page state (GET /api/state, then every `state`
// server-sent event) and posts control actions. No libraries, nothing fetched from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);
let current = null;

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function clock(t) {
  const s = Math.floor(t / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderBoard(box, board, engine) {
  box.style.gridTemplateColumns = `repeat(${board.side}, 1fr)`;
  box.style.gridTemplateRows = `repeat(${board.side}, 1fr)`;
  box.replaceChildren();
  const bySquare = new Map(board.squares.map((sq) => [`${sq.row},${sq.col}`, sq]));
  for (let row = board.side - 1; row >= 0; row--) {
    for (let col = 0; col < board.side; col++) {
      const sq = bySquare.get(`${row},${col}`);
      const cell = el("div", { class: sq ? "sq dark" : "sq" });
      if (sq) {
        cell.dataset.square = sq.name;
        if (sq.differs) cell.classList.add("differs");
        // The board's own lights, on the sensors' board where they physically are.
        if (!engine && sq.light) {
          cell.classList.add(`light-${sq.light.colour}`);
          if (sq.light.mode === "blinking") cell.classList.add("light-blinking");
          cell.title = `light: ${sq.light.colour} ${sq.light.mode}`;
        }
        cell.append(el("span", { class: "name" }, sq.name));
        if (engine && sq.piece) {
          const king = sq.piece === "W" || sq.piece === "B";
          cell.append(el("div", { class: `piece ${sq.piece.toLowerCase()}` }, king ? "♛" : ""));
        } else if (!engine && sq.sensed) {
          cell.append(el("div", { class: "sensed" }));
        }
      }
      box.append(cell);
    }
  }
}

function renderEye(box, rows) {
  box.replaceChildren();
  for (const row of rows) {
    for (let bit = 7; bit >= 0; bit--) box.append(el("i", { class: (row >> bit) & 1 ? "on" : "" }));
  }
}

function renderGraph(svg, points, plies) {
  const width = 300, height = 100;
  const last = Math.max(plies, ...points.map((p) => p.ply), 1);
  const x = (ply) => (ply / last) * width;
  const y = (v) => height - v * height;
  const parts = [`<line x1="0" y1="50" x2="300" y2="50" stroke="#444" stroke-dasharray="4 4"/>`];
  if (points.length) {
    const line = points.map((p) => `${x(p.ply).toFixed(1)},${y(p.v).toFixed(1)}`).join(" ");
    parts.push(`<polyline points="${line}" fill="none" stroke="#4da3ff" stroke-width="3" vector-effect="non-scaling-stroke"/>`);
    const end = points[points.length - 1];
    parts.push(`<circle cx="${x(end.ply)}" cy="${y(end.v)}" r="4" fill="#4da3ff"/>`);
  }
  svg.innerHTML = parts.join("");
  svg.setAttribute("data-points", String(points.length));
}

function renderList(list, items, render) {
  list.replaceChildren(...items.map(render));
}

function render(state) {
  current = state;
  $("status").textContent = state.status;
  $("top").dataset.waiting = state.waiting;
  const game = state.game;
  const over = game.result ? ` · ${game.result} (${game.reason})` : "";
  $("game-line").textContent = game.number
    ? `Game ${game.number} · ${game.variant} · robot plays ${game.robot}${over}`
    : `${game.variant} · no game yet`;
  $("game-line").dataset.game = String(game.number);

  $("stock").textContent = state.stock ? state.stock.text : "the arm has not said yet";
  renderBoard($("board-engine"), state.board, true);
  renderBoard($("board-sensors"), state.board, false);
  const lit = state.board.squares.filter((sq) => sq.light);
  const lightsNote = lit.length
    ? ` Lights: ${lit.map((sq) => `${sq.name} ${sq.light.colour} ${sq.light.mode}`).join(", ")}.`
    : "";
  $("board-note").textContent = (!state.board.scanned
    ? "No scan yet."
    : state.board.differs
      ? "Red squares: the sensors disagree with the engine."
      : "The sensors agree with the engine.") + lightsNote;

  $("choices-panel").classList.toggle("hidden", state.choices.length === 0);
  renderList($("choices"), state.choices, (choice) => {
    const button = el("button", { type: "button" }, choice.label);
    button.addEventListener("click", () => act("resolve", { move: choice.label }));
    // Pointing at a choice shows its squares on the board.
    const mark = (on) => {
      for (const cell of document.querySelectorAll("#board-engine .sq[data-square]")) {
        cell.classList.toggle("candidate", on && choice.squares.includes(cell.dataset.square));
      }
    };
    for (const [event, on] of [["mouseenter", true], ["focus", true], ["mouseleave", false], ["blur", false]]) {
      button.addEventListener(event, () => mark(on));
    }
    return button;
  });

  const plies = game.moves.length ? game.moves[game.moves.length - 1].ply : 0;
  renderList($("moves"), game.moves, (m) => {
    const li = el("li", { class: m.mark ? `${m.by} marked` : m.by, value: String(m.ply) }, m.text + m.mark);
    li.title = m.note ? `${m.by}: ${m.note}` : m.by;
    return li;
  });
  renderGraph($("v-graph"), state.v, plies);
  $("v-now").textContent = state.v.length ? `${Math.round(state.v[state.v.length - 1].v * 100)}%` : "";

  if (state.expression) {
    $("emotion").textContent = `${state.expression.emotion} ${Math.round(state.expression.intensity * 100)}%`;
    renderEye($("eye-left"), state.expression.left_eye);
    renderEye($("eye-right"), state.expression.right_eye);
  }
  renderList($("voice"), [...state.voice].reverse(), (line) => {
    const li = el("li");
    li.append(el("span", { class: "t" }, clock(line.t)), `“${line.text}”`);
    return li;
  });
  renderList($("problems"), [...state.problems].reverse(), (p) => {
    const li = el("li", { class: p.kind });
    li.append(el("span", { class: "t" }, clock(p.t)), p.text);
    return li;
  });
  renderList($("devices"), Object.entries(state.devices), ([name, d]) =>
    el("li", { class: d.ok ? "" : "bad" }, `${name}: ${d.message}`));
  $("today-date").textContent = state.today.date;
  const today = state.today;
  const rows = [
    ["games", today.games], ["robot won", today.robot_wins], ["visitor won", today.visitor_wins],
    ["draws", today.draws], ["unfinished", today.unfinished], ["moves", today.plies],
    ["mistakes", today.mistakes_total], ["board mismatches", today.board_mismatches], ["faults", today.faults],
  ];
  $("today").replaceChildren(...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));

  const inGame = state.waiting !== "setup";
  const busy = state.waiting === "robot";
  $("new-game").disabled = !inGame || busy;
  $("resign").disabled = !inGame || busy;
  $("take-back").disabled = state.waiting !== "visitor" && state.waiting !== "board_fix";
  const paused = state.waiting === "paused";
  $("pause").disabled = !inGame;
  $("pause").textContent = paused ? "Go on" : "Pause";
  $("pause").dataset.action = paused ? "go-on" : "pause";
  $("park").disabled = busy;
  $("token-box").classList.toggle("hidden", !state.token_required);
  $("settings-file").textContent = state.settings_file || "the settings file (none)";
  $("settings-form").save.disabled = !state.settings_file;

  const form = $("settings-form");
  if (!form.contains(document.activeElement)) {
    form.level.value = String(state.settings.level);
    form.attitude.value = state.settings.attitude;
    form.language.value = state.settings.language;
    form.volume.value = String(state.settings.volume);
    form.announce_moves.value = state.settings.announce_moves;
    form.coach_enabled.checked = state.settings.coach_enabled;
    form.hints_per_game.value = String(state.settings.hints_per_game);
    form.take_backs.checked = state.settings.take_backs;
    form.reset_board.checked = state.settings.reset_board;
    $("volume-out").textContent = `${Math.round(state.settings.volume * 100)}%`;
  }
}

function toast(text, ok) {
  const box = $("toast");
  box.textContent = text;
  box.className = ok ? "ok" : "error";
}

async function act(action, body) {
  const headers = { "Content-Type": "application/json" };
  const token = $("token").value || localStorage.getItem("checkerbot-token") || "";
  if (token) {
    headers.Authorization = `Bearer ${token}`;
    localStorage.setItem("checkerbot-token", token);
  }
  try {
    const response = await fetch(`/api/${action}`, { method: "POST", headers, body: JSON.stringify(body || {}) });
    const answer = await response.json();
    toast(answer.message || answer.error, response.ok);
    if (response.status === 401 || response.status === 403) $("token-box").classList.remove("hidden");
  } catch (err) {
    toast(`no answer from the robot: ${err}`, false);
  }
}

for (const button of document.querySelectorAll("button[data-action]")) {
  button.addEventListener("click", () => act(button.dataset.action));
}
$("settings-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  act("settings", {
    level: form.level.value === "adaptive" ? "adaptive" : Number(form.level.value),
    attitude: form.attitude.value, language: form.language.value,
    volume: Number(form.volume.value), announce_moves: form.announce_moves.value,
    coach_enabled: form.coach_enabled.checked, hints_per_game: Number(form.hints_per_game.value),
    take_backs: form.take_backs.checked, reset_board: form.reset_board.checked,
    save: form.save.checked,
  });
  form.querySelector("button").focus();
});
$("settings-form").volume.addEventListener("input", (event) => {
  $("volume-out").textContent = `${Math.round(Number(event.target.value) * 100)}%`;
});
$("set-up-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  const body = { fen: form.fen.value };
  if (form.robot.value) body.robot = form.robot.value;
  act("set-up", body);
});
$("voice-form").addEventListener("submit", (event) => {
  event.preventDefault();
  act("voice", { category: event.target.category.value });
});
$("token").value = localStorage.getItem("checkerbot-token") || "";

function connect() {
  const events = new EventSource("/api/events");
  events.addEventListener("state", (event) => render(JSON.parse(event.data)));
  events.addEventListener("open", () => { $("link").textContent = "live"; $("link").classList.add("on"); });
  events.addEventListener("error", () => { $("link").textContent = "reconnecting"; $("link").classList.remove("on"); });
}

fetch("/api/state").then((r) => r.json()).then(render).catch(() => {});
connect();

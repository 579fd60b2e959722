// Draws the page from the state (app.js owns it). Every text from the server goes in as
// text, never as markup. Buttons call the actions; nothing here changes the state.

import { cardColor, cardLabel, cardName, colorWord, COLORS, sortHand } from "./cards.js";
import { dateWords } from "./language.js";
import { ARROWS } from "./log.js";
import { coded, language, plural, say, SENTENCES } from "./sentences.js";

const $ = (id) => document.getElementById(id);

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "onclick") node.addEventListener("click", value);
    else if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

// Like replaceChildren, leaving out the children that are null or false.
function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

function add(node, ...children) {
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

const button = (text, onclick, props = {}) => el("button", { type: "button", onclick, ...props }, text);

// A status's words; "starting" has none.
function statusWords(status) {
  const key = `page.status.${status}`;
  return key in SENTENCES ? say(key) : status === "starting" ? "" : status;
}

// The page's fixed words (index.html): an element's data-say names its text's key (the
// <title>'s too), its data-say-label its aria-label's. Said again whenever the language changes.
let saidIn = null;

function sayFixedWords() {
  if (saidIn === language()) return;
  saidIn = language();
  for (const node of document.querySelectorAll("[data-say]")) node.textContent = say(node.dataset.say);
  for (const node of document.querySelectorAll("[data-say-label]")) node.setAttribute("aria-label", say(node.dataset.sayLabel));
}

// A table state's name (a newer server's unknown state shows as it came).
function stateWord(status) {
  const key = `page.state.${status}`;
  return key in SENTENCES ? say(key) : status;
}

// A bot level's name, as the new-table form offers them.
function levelWord(level) {
  const key = `page.level.${level}`;
  return key in SENTENCES ? say(key) : level;
}

let bound = false;

function bindForms(actions) {
  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    actions.start($("name-input").value);
  });
  $("create-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    const number = (key) => Number.parseInt(data.get(key), 10);
    actions.create({
      name: data.get("name"),
      preset: data.get("preset"),
      deck: data.get("deck"),
      seats: number("seats"),
      bots: number("bots") || 0,
      level: data.get("level"),
      target_score: number("target_score"),
      turn_seconds: number("turn_seconds"),
      password: data.get("password"),
      spectators_see_hands: data.get("spectators_see_hands") === "on",
    });
    $("create").open = false;
  });
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    actions.chat($("chat-input").value);
    $("chat-input").value = "";
  });
  document.body.addEventListener("click", (event) => {
    const target = event.target.closest("[data-action], [data-tab]");
    if (!target) return;
    if (target.dataset.tab) actions.tab(target.dataset.tab);
    else if (target.dataset.action === "refresh") actions.refresh();
    else if (target.dataset.action === "rename") actions.rename();
    else if (target.dataset.action === "sound") actions.toggleSound();
    else if (target.dataset.action === "standings") actions.standings();
    else if (target.dataset.action === "period") actions.period();
    else if (target.dataset.action === "lobby") actions.lobby();
  });
  document.addEventListener("keydown", (event) => keyboard(event, actions));
}

export function render(state, actions) {
  if (!bound) {
    bindForms(actions);
    bound = true;
    $("name-input").value = state.name;
  }
  sayFixedWords();
  $("server-name").textContent = state.serverName || "uno-lan";
  const status = $("status");
  status.textContent = state.statusReason
    ? say("page.status.reason", { status: statusWords(state.status), reason: state.statusReason })
    : statusWords(state.status);
  status.dataset.status = state.status;
  const sound = $("sound");
  sound.textContent = say(state.sound ? "page.sound.on" : "page.sound.off");
  sound.setAttribute("aria-pressed", String(state.sound));
  for (const screen of ["name", "lobby", "standings", "table"]) {
    $(`${screen}-screen`).hidden = state.screen !== screen;
  }
  const notice = $("notice");
  notice.hidden = !state.notice;
  notice.textContent = state.notice;
  if (state.screen === "lobby") renderLobby(state, actions);
  if (state.screen === "standings") renderStandings(state);
  if (state.screen === "table") renderTable(state, actions);
  renderDialog(state, actions);
}

// --- the lobby -----------------------------------------------------------------------

function renderLobby(state, actions) {
  const list = $("tables");
  list.replaceChildren();
  if (!state.tables.length) add(list, el("li", { class: "empty" }, say("page.no-tables")));
  for (const table of state.tables) {
    const open = table.state === "lobby" && table.taken < table.seats;
    const facts = [
      say("page.seats-taken", { taken: table.taken, seats: table.seats }),
      table.bot_seats ? say(plural("page.bots", table.bot_seats), { count: table.bot_seats }) : "",
      table.spectators ? say(plural("page.watchers", table.spectators), { count: table.spectators }) : "",
      table.host ? say("page.host", { host: table.host }) : "",
      table.locked ? say("page.locked") : "",
      ...(table.house_rules ?? []).map((code) => (`house-rule.${code}` in SENTENCES ? say(`house-rule.${code}`) : code)),
      table.spectators_see_hands ? say("page.sees-hands") : "",
    ].filter(Boolean);
    add(list, 
      el(
        "li",
        { class: "table-entry", "data-table": table.table_id },
        el("div", { class: "row" }, el("strong", { text: table.name }), el("span", { class: "tag", text: stateWord(table.state) })),
        el("div", { class: "facts", text: facts.join(" · ") }),
        el(
          "div",
          { class: "row" },
          open ? button(say("page.join"), () => actions.join(table.table_id, table.locked), { class: "primary" }) : null,
          button(say("page.watch"), () => actions.watch(table.table_id, table.locked)),
          table.bot_seats ? button(say("page.take-bot-seat"), () => actions.watch(table.table_id, table.locked)) : null,
        ),
      ),
    );
  }
}

// --- the standings (uno-client's h screen) -------------------------------------------

function renderStandings(state) {
  const { period, players, matches } = state.standings;
  $("standings-period").textContent = say(period === "week" ? "page.this-week" : "page.all-time");
  const row = (p) =>
    el("tr", {}, el("td", { text: p.name }), el("td", { text: String(p.wins) }),
      el("td", { text: String(p.matches) }), el("td", { text: String(p.points) }));
  const people = players.filter((p) => !p.bot);
  const bots = players.filter((p) => p.bot);
  fill(
    $("standings").tBodies[0],
    players.length ? null : el("tr", {}, el("td", { colspan: 4, text: say("page.no-matches") })),
    people.map(row),
    bots.length ? el("tr", { class: "group" }, el("td", { colspan: 4, text: say("page.bots-group") })) : null,
    bots.map(row),
  );
  fill(
    $("matches"),
    matches.map((m) => {
      const when = dateWords(m.finished_at);
      const won = m.winners.length
        ? say("page.won-by", { players: m.winners.join(say("and")) })
        : coded("note", m.note_code, m.note) || say("page.cut-short");
      const scores = m.players.map((p) => `${p.name} ${p.score}`).join(" · ");
      return el("li", { class: "table-entry" },
        el("div", { class: "row" }, el("strong", { text: m.table }), el("span", { class: "tag", text: `page.deck.${m.deck}` in SENTENCES ? say(`page.deck.${m.deck}`) : m.deck })),
        el("div", { class: "facts", text: `${when} · ${won}` }),
        el("div", { class: "facts", text: scores }));
    }),
  );
}

// --- the table -----------------------------------------------------------------------

function renderTable(state, actions) {
  const ts = state.tableState;
  const view = state.view;
  const me = state.seat;
  const host = ts && me !== null && ts.host_seat === me;
  fill(
    $("table-head"),
    el("strong", { text: ts ? ts.name : say("page.table") }),
    ts && ts.state !== "playing" ? el("span", { class: "tag", text: stateWord(ts.state) }) : null,
    el("span", { id: "clock", class: "clock" }),
    me === null ? el("span", { class: "tag", text: say("page.you-watch") }) : null,
    host && ts.state === "playing" ? button(say("page.pause"), actions.pause) : null,
    host && ts.state === "paused" ? button(say("page.go-on"), actions.unpause) : null,
    host && ts.state === "paused" && state.rebuiltTable === ts.table_id
      ? button(say("page.close-table"), actions.closeTable, { id: "close-table" })
      : null,
    button(say("page.leave"), actions.leave),
  );
  renderSeats(state, actions, host);
  renderCenter(state, actions, host);
  renderActions(state, actions);
  renderHand(state, actions);
  for (const tab of ["log", "chat", "scores"]) {
    const pane = tab === "chat" ? $("chat-pane") : $(tab);
    pane.hidden = state.tab !== tab;
  }
  for (const tab of document.querySelectorAll("[data-tab]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.tab === state.tab));
  }
  const log = $("log");
  log.replaceChildren(...state.log.slice(-60).map((line) => el("li", { text: line })));
  log.scrollTop = log.scrollHeight;
  const chat = $("chat");
  chat.replaceChildren(...state.chat.map((m) => el("li", {}, el("b", { text: `${m.sender}: ` }), m.text)));
  chat.scrollTop = chat.scrollHeight;
  renderScores(state);
  renderClock(state);
}

function renderSeats(state, actions, host) {
  const ts = state.tableState;
  const view = state.view;
  const seats = $("seats");
  seats.replaceChildren();
  if (!ts) return;
  const lobby = ts.state === "lobby";
  for (const seat of ts.seats) {
    const i = seat.seat;
    const count = view?.counts?.[i];
    const classes = ["seat"];
    if (view && view.to_act === i) classes.push("to-act");
    if (i === state.seat) classes.push("you");
    if (!seat.name) classes.push("empty");
    if (seat.away) classes.push("away");
    const marks = [
      ts.host_seat === i ? "★" : "",
      seat.bot ? (seat.level ? say("page.seat.bot-level", { level: levelWord(seat.level) }) : say("page.seat.bot")) : "",
      seat.away ? say("page.seat.away") : "",
      seat.ready && !lobby ? say("page.seat.ready") : "",
      view?.exposed?.includes(i) ? say("page.seat.owes-uno") : "",
    ].filter(Boolean);
    add(seats, 
      el(
        "div",
        { class: classes.join(" "), "data-seat": i },
        el("span", { class: "seat-name", text: seat.name ? (i === state.seat ? say("page.seat.you", { name: seat.name }) : seat.name) : say("page.seat.empty") }),
        count !== undefined ? el("span", { class: "count", text: say(plural("cards", count), { count }) }) : null,
        marks.length ? el("span", { class: "marks", text: marks.join(" ") }) : null,
        view?.hands?.[i] ? el("span", { class: "seen-hand", text: view.hands[i].map(cardLabel).join(" ") }) : null,
        state.seat === null && seat.bot ? button(say("page.take-seat"), () => actions.takeSeat(i), { class: "small" }) : null,
        host && lobby && seat.bot ? button(say("page.remove"), () => actions.removeBot(i), { class: "small" }) : null,
        host && seat.name && !seat.bot && i !== state.seat ? button(say("page.kick"), () => actions.kick(i), { class: "small" }) : null,
        host && seat.name && !seat.bot && i !== state.seat ? button(say("page.ban"), () => actions.kick(i, true), { class: "small" }) : null,
      ),
    );
  }
}

// Who acts and what they do now, as the prompt line says it.
function phaseWords(player, phase) {
  const key = `page.phase.${phase}`;
  return key in SENTENCES ? say(key, { player }) : say("page.phase.unknown", { player, phase });
}

function renderCenter(state, actions, host) {
  const center = $("center");
  const ts = state.tableState;
  const view = state.view;
  center.replaceChildren();
  if (ts && ts.state === "lobby" && !view) {
    add(center, el("p", { text: say(host ? "page.lobby.host" : "page.lobby.guest") }));
    if (host) {
      const level = el("select", { id: "bot-level", "aria-label": say("page.form.level") }, ...["normal", "easy", "hard"].map((l) => el("option", { value: l, text: levelWord(l) })));
      add(center, 
        el("div", { class: "row" }, level, button(say("page.add-bot"), () => actions.addBot(level.value)), button(say("page.start"), actions.startMatch, { class: "primary", id: "start" })),
      );
    }
    return;
  }
  if (!view) return;
  const top = view.top;
  const color = view.color;
  const toAct = view.to_act;
  let line = "";
  if (toAct !== null && toAct !== undefined) {
    line = toAct === state.seat ? yourPrompt(view) : phaseWords(nameOf(state, toAct), view.phase);
  } else if (view.phase === "paused") line = say("page.paused");
  add(center, 
    el(
      "div",
      { class: "pile" },
      top ? el("div", { class: `card big color-${cardColor(top) ?? color ?? "W"}`, title: cardName(top), id: "top-card" }, cardLabel(top)) : null,
      el(
        "div",
        { class: "pile-facts" },
        el("div", { text: say("page.colour", { color: color ? colorWord(color) : say("color.none") }), class: color ? `text-${color}` : "" }),
        el("div", { text: say("page.draw-pile", { count: view.draw_count }) }),
        el("div", { text: view.direction === 1 ? `↻ ${say("direction.1")}` : `↺ ${say("direction.-1")}` }),
        view.pending_draw ? el("div", { text: say("page.stack", { count: view.pending_draw }) }) : null,
      ),
    ),
    el("p", { class: toAct === state.seat && toAct !== null ? "prompt yours" : "prompt", id: "prompt", text: line }),
  );
  if (view.dance) {
    const dance = DANCE_WORDS[view.dance.dance] ?? view.dance.dance;
    // The arrows go where the language's sentence puts {steps}, each an element of its own.
    const line = say("dance-called", { player: nameOf(state, view.dance.seat), dance, steps: "\u0000" });
    const [before, after] = line.split("\u0000");
    add(center, el("p", { class: "dance" }, before, stepArrows(view.dance.steps ?? []), after));
  }
}

// Dance steps as their arrows, each named in words for a screen reader.
function stepArrows(steps) {
  return steps.flatMap((step, i) => [i ? " " : null, el("span", { role: "img", "aria-label": say(`page.step.${step}`), text: ARROWS[step] })]);
}

function yourPrompt(view) {
  const key = `page.your.${view.phase}`;
  return say(key in SENTENCES ? key : "page.your.unknown");
}

function nameOf(state, seat) {
  if (seat === state.seat) return say("you");
  return state.tableState?.seats?.[seat]?.name ?? say("seat.number", { seat: seat + 1 });
}

// The commands a button of their own sends, by type (its words: page.action.<type>).
const ACTIONS = ["draw", "pass", "call-uno", "challenge", "accept", "refuse-dance"];

function renderActions(state, actions) {
  const bar = $("actions");
  bar.replaceChildren();
  const legal = state.view?.legal ?? [];
  for (const command of legal) {
    if (ACTIONS.includes(command.type)) {
      add(bar, button(say(`page.action.${command.type}`), () => actions.send(command), { class: `action ${command.type}`, "data-command": command.type }));
    } else if (command.type === "catch") {
      add(bar, button(say("page.catch", { player: nameOf(state, command.target) }), () => actions.send(command), { class: "action catch", "data-command": "catch" }));
    }
  }
  const colours = legal.filter((c) => c.type === "choose-color");
  if (colours.length) add(bar, button(say("page.choose-colour"), () => actions.choose(colours), { class: "action primary", "data-command": "choose-color" }));
  const dance = legal.find((c) => c.type === "dance");
  if (dance) {
    if (!(dance.steps ?? []).length) {
      add(bar, button(say("page.danced"), () => actions.send(dance), { class: "action primary", "data-command": "dance" }));
    } else {
      add(bar, 
        el("div", { class: "steps" }, ...["up", "down", "left", "right"].map((arrow) => button(ARROWS[arrow], () => actions.step(arrow), { class: "step", "data-step": arrow, "aria-label": say(`page.step.${arrow}`) }))),
        el("span", { class: "entered" }, state.danceSteps.length ? stepArrows(state.danceSteps) : "…"),
        state.danceSteps.length ? button(say("page.clear"), actions.clearSteps, { class: "small" }) : null,
      );
    }
  }
  const view = state.view;
  if (view && state.seat !== null && view.phase === "round-over") {
    const me = state.tableState?.seats?.[state.seat];
    if (!me?.ready) add(bar, button(say("page.ready-next-round"), actions.ready, { class: "action primary", "data-command": "ready" }));
  }
}

function renderHand(state, actions) {
  const hand = $("hand");
  hand.replaceChildren();
  const view = state.view;
  if (!view || !view.hand) return;
  const playable = new Set((view.legal ?? []).filter((c) => c.type === "play").map((c) => c.card));
  const seen = new Map();
  for (const code of sortHand(view.hand)) {
    const index = seen.get(code) ?? 0;
    seen.set(code, index + 1);
    const can = playable.has(code);
    const classes = ["card", `color-${cardColor(code) ?? "W"}`, can ? "playable" : "unplayable"];
    if (code === view.drawn && index === 0) classes.push("drawn");
    add(hand, 
      el(
        "button",
        {
          type: "button",
          class: classes.join(" "),
          "data-card": code,
          "aria-label": can ? say("page.playable", { card: cardName(code) }) : cardName(code),
          "aria-disabled": can ? null : "true",
          onclick: can ? () => actions.playCard(code) : null,
        },
        cardLabel(code),
      ),
    );
  }
}

function renderScores(state) {
  const pane = $("scores");
  const view = state.view;
  const ts = state.tableState;
  pane.replaceChildren();
  if (!ts) return;
  const rows = ts.seats.map((seat) =>
    el("tr", {}, el("td", { text: seat.name ?? say("page.seat.empty") }), el("td", { text: String(view?.scores?.[seat.seat] ?? 0) })),
  );
  const target = ts.options?.target_score;
  add(pane, 
    el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: say("page.th.player") }), el("th", { text: say("page.th.score") }))), el("tbody", {}, ...rows)),
    target ? el("p", { text: say("page.playing-to", { target }) }) : null,
  );
}

// --- dialogs: the pickers and the results ----------------------------------------------

function renderDialog(state, actions) {
  const dialog = $("dialog");
  dialog.replaceChildren();
  const view = state.view;
  if (state.screen === "table" && state.picker) {
    add(dialog, ...pickerContent(state, actions));
  } else if (state.screen === "table" && view?.match_result) {
    add(dialog, ...matchContent(state, actions));
  } else if (state.screen === "table" && view?.round_result && view.phase === "round-over") {
    add(dialog, ...roundContent(state, actions));
  }
  dialog.hidden = !dialog.childElementCount;
}

// The dances by their songs' titles, the same in every language (docs/translating.md).
const DANCE_WORDS = { dynamite: "Dynamite", butter: "Butter", idol: "Idol", fire: "Fire", dope: "Dope", permission: "Permission to Dance" };

function pickerContent(state, actions) {
  const options = state.picker.options;
  for (const field of ["color", "target", "dance"]) {
    const values = [...new Set(options.map((o) => o[field]))];
    if (values.length < 2) continue;
    const title = say({ color: "page.which-colour", target: "page.whom", dance: "page.which-dance" }[field]);
    const choices = values.map((value) => {
      const label = field === "color" ? colorWord(value) : field === "target" ? nameOf(state, value) : DANCE_WORDS[value] ?? value;
      const props = { class: field === "color" ? `choice color-${value}` : "choice", [`data-${field}`]: value };
      return button(label, () => actions.pick(options.filter((o) => o[field] === value)), props);
    });
    return [el("h3", { text: title }), el("div", { class: "choices" }, ...choices), button(say("page.cancel"), actions.cancelPicker, { class: "small" })];
  }
  return [el("h3", { text: say("page.play-it") }), button(say("page.play-card"), () => actions.send(options[0]), { class: "primary" }), button(say("page.cancel"), actions.cancelPicker)];
}

function resultTable(state, result) {
  const rows = (state.tableState?.seats ?? []).map((seat) => {
    const i = seat.seat;
    const hand = result.hands?.[i] ?? [];
    return el(
      "tr",
      {},
      el("td", { text: nameOf(state, i) }),
      el("td", { class: "hand-cards", text: hand.map(cardLabel).join(" ") || "—" }),
      el("td", { text: result.points ? String(result.points[i] ?? 0) : "" }),
      el("td", { text: result.gained ? `+${result.gained[i] ?? 0}` : "" }),
      el("td", { text: String(result.scores?.[i] ?? 0) }),
    );
  });
  return el("table", { class: "results" }, el("thead", {}, el("tr", {}, ...["", "cards", "points", "scored", "total"].map((h) => el("th", { text: h && say(`page.th.${h}`) })))), el("tbody", {}, ...rows));
}

function roundContent(state, actions) {
  const result = state.view.round_result;
  const me = state.tableState?.seats?.[state.seat];
  return [
    el("h3", { id: "round-result", text: say("page.round-won", { round: result.round, player: nameOf(state, result.winner) }) }),
    resultTable(state, result),
    state.seat !== null && !me?.ready ? button(say("page.ready"), actions.ready, { class: "primary", "data-command": "ready" }) : el("p", { text: say("page.waiting-next-round") }),
  ];
}

function matchContent(state, actions) {
  const result = state.view.match_result;
  const winners = (result.winners ?? []).map((s) => nameOf(state, s)).join(say("and"));
  const host = state.seat !== null && state.tableState?.host_seat === state.seat;
  const last = state.view.round_result;
  // (1.3) The host asked for a rematch: it waits for everyone's ready, or for the round break.
  const asked = Boolean(state.tableState?.rematch_asked);
  const me = state.tableState?.seats?.[state.seat];
  let answer = null;
  if (asked && state.seat !== null && !me?.ready) {
    answer = button(say("page.ready-rematch"), actions.ready, { class: "primary", "data-command": "ready" });
  } else if (asked) {
    answer = el("p", { text: say("page.rematch-waits") });
  } else if (host) {
    answer = button(say("page.rematch"), actions.rematch, { class: "primary" });
  }
  return [
    el("h3", { id: "match-result", text: say("page.match-won", { players: winners }) }),
    last ? resultTable(state, { ...last, scores: result.scores }) : null,
    el("div", { class: "row" }, answer, button(say("page.leave"), actions.leave)),
  ];
}

// --- the clock and the keyboard ------------------------------------------------------

export function renderClock(state) {
  const clock = document.getElementById("clock");
  if (!clock) return;
  const view = state.view;
  if (!view || view.remaining_ms === null || view.remaining_ms === undefined || view.phase === "paused") {
    clock.textContent = "";
    return;
  }
  const left = Math.max(0, view.remaining_ms - (performance.now() - state.viewAt));
  clock.textContent = say("page.seconds", { count: Math.ceil(left / 1000) });
  clock.classList.toggle("low", left < 5000);
}

// Keys on a desktop: 1-9 play the n-th playable card, d draw, p pass, u UNO, c catch,
// r/y/g/b pick a colour in the colour picker, Escape closes it.
function keyboard(event, actions) {
  if (event.target.closest("input, select, textarea")) return;
  const key = event.key.toLowerCase();
  const dialog = $("dialog");
  if (!dialog.hidden) {
    if (key === "escape") actions.cancelPicker();
    const letter = key.toUpperCase();
    if (COLORS.includes(letter)) dialog.querySelector(`[data-color="${letter}"]`)?.click();
    return;
  }
  const command = { d: "draw", p: "pass", u: "call-uno", c: "catch" }[key];
  if (command) {
    $("actions").querySelector(`[data-command="${command}"]`)?.click();
    return;
  }
  if (/^[1-9]$/.test(key)) {
    const cards = $("hand").querySelectorAll(".card.playable");
    cards[Number(key) - 1]?.click();
  }
}

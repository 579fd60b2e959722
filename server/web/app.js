// The page's controller: one state, the messages from the server that change it, and
// the player's taps that become commands. render.js draws the state; nothing else
// changes it. The seat's resume token and last event number are kept in localStorage
// per server id, so a reload (or a phone that slept) resumes the same seat.

import { Connection } from "./wire.js";
import { describeEvent, leftWords, rejectedWords, stackAfter } from "./log.js";
import { coded, say } from "./sentences.js";
import { render, renderClock } from "./render.js";
import { play, soundOn, toggleSound } from "./sound.js";
import { setUpLanguage } from "./language.js";

const NAME_KEY = "uno-lan:name";
const seatKey = (serverId) => `uno-lan:seat:${serverId}`;
const LOG_LINES = 200;

export const state = {
  name: localStorage.getItem(NAME_KEY) || "",
  screen: "name",
  status: "starting",
  statusReason: "",
  serverId: null,
  serverName: "",
  tables: [],
  tableId: null,
  seat: null,
  token: null,
  tableState: null,
  view: null,
  viewAt: 0,
  lastSeq: 0,
  lastEvent: null,
  stack: [],
  log: [],
  chat: [],
  tab: "log",
  sound: soundOn(),
  picker: null,
  danceSteps: [],
  notice: "",
  standings: { period: "week", players: [], matches: [] },
  rebuiltTable: null,
  wantedTable: new URLSearchParams(location.hash.slice(1)).get("table"),
};

let connection = null;

function update() {
  render(state, actions);
}

function notice(text) {
  state.notice = text;
  update();
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => {
    state.notice = "";
    update();
  }, 5000);
}

// --- the seat kept across reloads ----------------------------------------------------

function saveSeat() {
  if (!state.serverId || !state.token) return;
  const saved = { token: state.token, tableId: state.tableId, lastSeq: state.lastSeq };
  localStorage.setItem(seatKey(state.serverId), JSON.stringify(saved));
}

function savedSeat() {
  if (!state.serverId) return null;
  try {
    return JSON.parse(localStorage.getItem(seatKey(state.serverId)) || "null");
  } catch {
    return null;
  }
}

function forgetSeat() {
  if (state.serverId) localStorage.removeItem(seatKey(state.serverId));
  Object.assign(state, {
    tableId: null, seat: null, token: null, tableState: null, view: null, lastSeq: 0,
    lastEvent: null, stack: [], log: [], chat: [], picker: null, danceSteps: [],
  });
}

// --- from the server -----------------------------------------------------------------

async function welcomed(welcome) {
  state.serverId = welcome.server_id;
  state.serverName = welcome.server_name;
  const saved = savedSeat();
  if (saved && saved.token) {
    state.token = saved.token;
    state.tableId = saved.tableId;
    state.lastSeq = saved.lastSeq || 0;
    const reply = await connection.request("resume", {
      token: saved.token,
      last_seq: state.lastSeq,
    });
    if (reply && reply.type === "ok") {
      // As the terminal does: a seat back after a lost connection may be at a table the
      // server rebuilt after a restart; its table state says so by staying paused.
      state.rebuiltTable = saved.tableId;
      return update();
    }
    if (reply === null) return undefined; // lost again: the next welcome tries again
    forgetSeat();
    notice(say("page.seat-gone"));
  }
  if (!state.tableId) {
    state.screen = "lobby";
    await refreshTables();
    if (state.wantedTable) {
      const wanted = state.wantedTable;
      state.wantedTable = null;
      await actions.join(wanted);
    }
  }
  update();
}

const handlers = {
  "table-list": (m) => {
    state.tables = m.tables;
  },
  joined: (m) => {
    state.tableId = m.table_id;
    state.seat = m.seat ?? null;
    if (m.resume_token) state.token = m.resume_token;
    state.screen = "table";
    if (state.seat === null) {
      state.token = null; // a spectator has no seat to keep
      if (state.serverId) localStorage.removeItem(seatKey(state.serverId));
    }
    saveSeat();
  },
  "table-state": (m) => {
    state.tableState = m;
    state.screen = "table";
    if (m.state !== "paused") state.rebuiltTable = null; // it plays on: closing it is over
  },
  standings: (m) => {
    state.standings.players = m.players;
  },
  "match-list": (m) => {
    state.standings.matches = m.matches;
  },
  event: (m) => {
    state.lastSeq = Math.max(state.lastSeq, m.seq);
    if (m.body.kind === "uno-called" || (m.body.kind === "played" && m.body.uno)) play("uno");
    if (m.body.kind === "caught") play("catch");
    const line = describeEvent(m.body, nameOf, state.lastEvent, state.stack);
    state.lastEvent = m.body;
    state.stack = stackAfter(state.stack, m.body);
    if (line) {
      state.log.push(line);
      if (state.log.length > LOG_LINES) state.log.shift();
    }
  },
  view: (m) => {
    const before = state.view;
    state.view = m.body;
    state.viewAt = performance.now();
    state.lastSeq = Math.max(state.lastSeq, m.seq);
    if (!before || before.to_act !== m.body.to_act || before.phase !== m.body.phase) {
      state.danceSteps = [];
    }
    if (state.picker && !stillLegal(state.picker.options)) state.picker = null;
    saveSeat();
    if (m.body.seat !== null && m.body.to_act === m.body.seat && before?.to_act !== m.body.to_act) {
      yourTurn();
    }
  },
  chat: (m) => {
    state.chat.push(m);
    if (state.chat.length > LOG_LINES) state.chat.shift();
  },
  left: (m) => {
    forgetSeat();
    state.screen = "lobby";
    notice(leftWords(m));
    refreshTables();
  },
  closing: () => notice(say("closing")),
  error: (m) => notice(coded("error", m.code, m.message)),
  rejected: (m) => notice(rejectedWords(m)),
};

function received(message) {
  const handler = handlers[message.type];
  if (handler) handler(message);
  update();
}

function stillLegal(options) {
  const legal = (state.view?.legal ?? []).map((c) => JSON.stringify(c));
  return options.some((option) => legal.includes(JSON.stringify(option)));
}

export function nameOf(seat) {
  if (seat === null || seat === undefined) return "nobody";
  if (seat === state.seat) return say("you");
  return state.tableState?.seats?.[seat]?.name ?? `seat ${seat + 1}`;
}

function yourTurn() {
  play("turn");
  if (navigator.vibrate) navigator.vibrate(80);
}

async function refreshTables() {
  if (!connection) return;
  await connection.request("list-tables", { limit: 50 });
  update();
}

function connect() {
  connection = new Connection({
    name: state.name,
    onMessage: received,
    onWelcome: (w) => {
      welcomed(w);
    },
    onStatus: (status, reason = "") => {
      state.status = status;
      state.statusReason = reason;
      update();
    },
  });
  connection.open();
}

// --- from the player -----------------------------------------------------------------

async function ask(type, fields) {
  const reply = await connection.request(type, fields);
  update();
  return reply && reply.type === "ok" ? reply : null;
}

export const actions = {
  start(name) {
    state.name = name.trim().slice(0, 24);
    if (!state.name) return;
    localStorage.setItem(NAME_KEY, state.name);
    if (connection) {
      // The server knows a connection by the name of its hello: say it anew.
      const renamed = connection.name !== state.name;
      connection.name = state.name;
      state.screen = "lobby";
      update();
      if (renamed) connection.restart();
      return;
    }
    connect();
  },
  toggleSound() {
    state.sound = toggleSound();
    update();
  },
  rename() {
    state.screen = "name";
    update();
  },
  refresh: refreshTables,
  async standings() {
    state.screen = "standings";
    update();
    await ask("get-standings", { period: state.standings.period, limit: 50 });
    await ask("list-matches", { limit: 10 });
  },
  period() {
    state.standings.period = state.standings.period === "week" ? "all" : "week";
    actions.standings();
  },
  lobby() {
    state.screen = "lobby";
    refreshTables();
  },
  closeTable() {
    const question = say("page.close-question");
    if (confirm(question)) ask("close-table");
  },
  async create(form) {
    const options = { seats: form.seats, target_score: form.target_score };
    options.turn_seconds = form.turn_seconds;
    if (form.deck) options.deck = form.deck;
    if (form.preset) Object.assign(options, PRESETS[form.preset]);
    if (form.spectators_see_hands) options.spectators_see_hands = true;
    const fields = { name: form.name, options };
    if (form.password) fields.password = form.password;
    if (!(await ask("create-table", fields))) return;
    for (let i = 0; i < form.bots; i += 1) {
      if (!(await ask("add-bot", { strategy: form.level }))) break;
    }
  },
  async join(tableId, locked = false) {
    const fields = { table_id: tableId };
    if (locked) {
      const password = prompt(say("page.password-prompt"));
      if (password === null) return;
      fields.password = password;
    }
    await ask("join", fields);
  },
  async watch(tableId, locked = false) {
    const fields = { table_id: tableId };
    if (locked) {
      const password = prompt(say("page.password-prompt"));
      if (password === null) return;
      fields.password = password;
    }
    await ask("spectate", fields);
  },
  takeSeat: (seat) => ask("take-bot-seat", { table_id: state.tableId, seat }),
  leave: () => ask("leave"),
  startMatch: () => ask("start"),
  addBot: (level) => ask("add-bot", { strategy: level }),
  removeBot: (seat) => ask("remove-bot", { seat }),
  kick: (seat, ban = false) => ask("kick", ban ? { seat, ban: true } : { seat }),
  ready: () => ask("ready", { ready: true }),
  rematch: () => ask("rematch"),
  pause: () => ask("pause"),
  unpause: () => ask("unpause"),
  chat: (text) => (text.trim() ? ask("chat", { text: text.trim() }) : null),
  tab(name) {
    state.tab = name;
    update();
  },
  send(command) {
    state.picker = null;
    update();
    return ask("game", { command });
  },
  // A tap on a card of the hand: the legal plays of that card, narrowed step by step.
  playCard(code) {
    const plays = (state.view?.legal ?? []).filter((c) => c.type === "play" && c.card === code);
    actions.choose(plays);
  },
  choose(options) {
    if (!options.length) return;
    // With two cards, the same play is listed with and without UNO: always declare it.
    const declared = options.filter((c) => c.uno);
    const narrowed = declared.length ? declared : options;
    if (narrowed.length === 1) {
      actions.send(narrowed[0]);
      return;
    }
    state.picker = { options: narrowed };
    update();
  },
  pick(options) {
    actions.choose(options);
  },
  cancelPicker() {
    state.picker = null;
    update();
  },
  step(arrow) {
    const dance = (state.view?.legal ?? []).find((c) => c.type === "dance");
    if (!dance) return;
    state.danceSteps.push(arrow);
    if (state.danceSteps.length >= (dance.steps ?? []).length) {
      const steps = state.danceSteps;
      state.danceSteps = [];
      actions.send({ type: "dance", steps });
      return;
    }
    update();
  },
  clearSteps() {
    state.danceSteps = [];
    update();
  },
};

// protocol/options.py PRESETS: a preset is expanded before it travels.
const PRESETS = {
  official: { stack: "off", seven_o: false, jump_in: false, draw_until_playable: false, force_play: false, skip_any: false },
  party: { stack: "progressive", seven_o: true, jump_in: true, draw_until_playable: false, force_play: false, skip_any: false },
  family: { stack: "draw-two", seven_o: false, jump_in: false, draw_until_playable: true, force_play: false, skip_any: false },
};

// --- start ---------------------------------------------------------------------------

function inMatch() {
  const phase = state.view?.phase;
  return state.seat !== null && phase && phase !== "match-over";
}

// Both ways of asking: preventDefault for current browsers, returnValue for older ones
// (Safari before 17, Chrome before 119).
window.addEventListener("beforeunload", (event) => {
  if (!inMatch()) return;
  event.preventDefault();
  event.returnValue = "";
});

setUpLanguage(document.getElementById("lang"), () => update());

setInterval(() => renderClock(state), 250);
// The lobby's table list is asked for, not pushed: asked again every few seconds.
setInterval(() => {
  if (state.screen === "lobby" && state.status === "online" && !document.hidden) refreshTables();
}, 4000);

if (state.name) {
  state.screen = "lobby";
  connect();
}
update();

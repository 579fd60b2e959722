// The HTML replay (uno-server replay --html): a finished match's public record played in
// the page's table view, as a spectator saw it. The record is inlined in the page (the
// #replay-record script); nothing is fetched. A position is a count of events: the state
// at it is always folded from the first event on, so stepping back shows exactly what
// stepping forward did, and never more than a spectator was sent.

import { cardColor } from "./cards.js";
import { dateWords, setUpLanguage } from "./language.js";
import { describeEvent, stackAfter } from "./log.js";
import { render } from "./render.js";
import { say } from "./sentences.js";

const SPEEDS = [0.5, 1, 2, 4, 8];
const EVENT_MS = 700;

// The view a spectator's table would draw after one event: the public facts only.
function nextView(view, e) {
  const v = { ...view, counts: [...view.counts] };
  switch (e.kind) {
    case "round-started":
      return {
        ...v, counts: [...e.counts], top: null, color: null, direction: 1, to_act: null,
        phase: "turn", round: e.round, round_result: null, pending_draw: 0,
      };
    case "first-card":
      return { ...v, top: e.card, color: e.color ?? cardColor(e.card) };
    case "turn":
      return { ...v, to_act: e.seat, direction: e.direction, phase: e.phase };
    case "played":
      v.counts[e.seat] = e.count;
      return { ...v, top: e.card, color: e.color ?? cardColor(e.card) };
    case "color-chosen":
      return { ...v, color: e.color };
    case "drew":
      v.counts[e.seat] = (v.counts[e.seat] ?? 0) + e.count;
      return v;
    case "direction":
      return { ...v, direction: e.direction };
    case "hands-swapped":
    case "hands-shuffled":
    case "hands-passed":
      return { ...v, counts: [...e.counts] };
    case "round-over":
      return { ...v, to_act: null, phase: "round-over", round_result: e, scores: [...e.scores] };
    case "match-over":
      return {
        ...v, to_act: null, phase: "match-over", scores: [...e.scores],
        match_result: { winners: e.winners, scores: e.scores },
      };
    default:
      return v;
  }
}

// The draw pile's count after one event, from the deck's size (the header's deck_size),
// as protocol/draw_pile.py folds it: `taken` is the old pile, drawn before a reshuffle in
// the middle of a draw (the engine says "drew" after the reshuffle).
function pileAfter(pile, e, deckSize) {
  switch (e.kind) {
    case "round-started":
      return { count: deckSize - e.counts.reduce((a, b) => a + b, 0), taken: 0 };
    case "first-card":
      return { ...pile, count: pile.count - 1 };
    case "reshuffled":
      return { count: e.count, taken: pile.taken + pile.count };
    case "drew":
      return { count: pile.count - (e.count - pile.taken), taken: 0 };
    default:
      return pile;
  }
}

function emptyView(seats) {
  return {
    seat: null, counts: seats.map(() => 0), top: null, color: null, direction: 1,
    to_act: null, phase: "lobby", draw_count: "—", scores: seats.map(() => 0),
    legal: [], hand: null, round_result: null, match_result: null, remaining_ms: null,
  };
}

// The page's state after the first `upto` events of the record.
export function stateAt(record, upto) {
  const { header, events } = record;
  const seats = header.players.map((p, i) => ({ seat: i, name: p.name, bot: p.bot }));
  const nameOf = (seat) => header.players[seat]?.name ?? say("seat.number", { seat: seat + 1 });
  const tableState = {
    table_id: "replay", name: header.table, state: "playing", seats, host_seat: null,
    options: header.options,
  };
  let view = emptyView(seats);
  const deckSize = header.deck_size ?? null; // null: a file written without it
  let pile = { count: deckSize, taken: 0 };
  if (deckSize !== null) view.draw_count = deckSize;
  let lastEvent = null;
  let stack = [];
  const log = [];
  for (const e of events.slice(0, upto)) {
    const line = describeEvent(e, nameOf, lastEvent, stack);
    if (line) log.push(line);
    lastEvent = e;
    stack = stackAfter(stack, e);
    view = nextView(view, e);
    if (deckSize !== null) {
      pile = pileAfter(pile, e, deckSize);
      view.draw_count = pile.count;
    }
  }
  if (view.phase === "match-over") tableState.state = "over";
  return {
    name: "", screen: "table", status: "replay", statusReason: "", serverName: say("page.replay.server"),
    sound: false, notice: "", seat: null, tableId: "replay", tableState, view, viewAt: 0,
    log, chat: [], tab: "log", picker: null, danceSteps: [],
    standings: { period: "week", players: [], matches: [] }, tables: [],
  };
}

// The positions the buttons step to: after each turn event, after each round's start.
function marks(events, kind) {
  const found = [];
  events.forEach((e, i) => {
    if (e.kind === kind) found.push(i + 1);
  });
  return found;
}

const nothing = () => null;
const noActions = new Proxy({}, { get: () => nothing });

function el(tag, props = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) node.setAttribute(key, value);
  node.textContent = text;
  return node;
}

// The match's facts above the table, in the chosen language (a match's note is the
// server's words: the replay file keeps no code for it).
function about(box, header) {
  const when = dateWords(header.finished_at, { year: true });
  const won = header.winners.length
    ? say("page.won-by", { players: header.winners.join(say("and")) })
    : header.note || say("page.cut-short");
  const scores = header.players
    .map((p) => `${p.bot ? say("page.replay.bot", { name: p.name }) : p.name} ${p.score}`)
    .join(" · ");
  document.title = say("page.replay.title", { table: header.table });
  box.replaceChildren(
    el("h1", {}, document.title),
    el("p", { class: "facts" }, say("page.replay.facts", { match: header.match_id, when, result: won })),
    el("p", { class: "facts", id: "replay-scores" }, say("page.replay.scores", { scores })),
  );
}

function start() {
  const record = JSON.parse(document.getElementById("replay-record").textContent);
  const { events } = record;
  const turns = marks(events, "turn");
  const rounds = marks(events, "round-started");
  let at = 0;
  let timer = null;
  let speed = 1;

  const bar = el("nav", { id: "replay-controls" });
  const position = el("span", { id: "replay-position", role: "status" });
  const roundPick = el("select", { id: "replay-round" });
  rounds.forEach((_, i) => roundPick.append(el("option", { value: String(i) })));
  const speedPick = el("select", { id: "replay-speed" });
  for (const s of SPEEDS) speedPick.append(el("option", { value: String(s) }, `${s}×`));
  speedPick.value = "1";
  const playButton = el("button", { type: "button", id: "replay-play", class: "primary" });
  const box = el("section", { id: "replay-about", class: "pane" });

  const show = () => {
    render(stateAt(record, at), noActions);
    position.textContent = say("page.replay.position", { at, total: events.length });
    const round = rounds.filter((r) => r <= at).length - 1;
    if (round >= 0) roundPick.value = String(round);
    playButton.textContent = timer ? `⏸ ${say("page.replay.pause")}` : `▶ ${say("page.replay.play")}`;
  };
  const go = (to) => {
    at = Math.max(0, Math.min(events.length, to));
    if (at === events.length) pause();
    show();
  };
  const after = (list) => list.find((p) => p > at) ?? events.length;
  const before = (list) => [...list].reverse().find((p) => p < at) ?? 0;
  const pause = () => {
    clearInterval(timer);
    timer = null;
  };
  const toggle = () => {
    if (timer) pause();
    else {
      if (at === events.length) at = 0;
      timer = setInterval(() => go(at + 1), EVENT_MS / speed);
    }
    show();
  };
  const steps = {
    start: () => go(0),
    "round-back": () => go(before(rounds)),
    "turn-back": () => go(before(turns)),
    back: () => go(at - 1),
    forward: () => go(at + 1),
    "turn-forward": () => go(after(turns)),
    "round-forward": () => go(after(rounds)),
    end: () => go(events.length),
  };
  // Each button's label (its name, read aloud, is page.replay.name.<step>).
  const labels = {
    start: () => say("page.replay.start"),
    "round-back": () => `« ${say("page.replay.round")}`,
    "turn-back": () => `‹ ${say("page.replay.turn")}`,
    back: () => "‹",
    forward: () => "›",
    "turn-forward": () => `${say("page.replay.turn")} ›`,
    "round-forward": () => `${say("page.replay.round")} »`,
    end: () => say("page.replay.end"),
  };
  const buttons = Object.keys(steps).map((name) => {
    const b = el("button", { type: "button", "data-replay": name });
    b.addEventListener("click", steps[name]);
    return b;
  });
  // The controls' words, said again when the picker changes the language.
  const sayControls = () => {
    about(box, record.header);
    bar.setAttribute("aria-label", say("page.replay.controls"));
    roundPick.setAttribute("aria-label", say("page.replay.jump-to-round"));
    [...roundPick.options].forEach((option, i) => (option.textContent = say("page.replay.round-number", { round: i + 1 })));
    speedPick.setAttribute("aria-label", say("page.replay.speed"));
    for (const b of buttons) {
      b.textContent = labels[b.dataset.replay]();
      b.setAttribute("aria-label", say(`page.replay.name.${b.dataset.replay}`));
    }
  };
  playButton.addEventListener("click", toggle);
  roundPick.addEventListener("change", () => go(rounds[Number(roundPick.value)]));
  speedPick.addEventListener("change", () => {
    speed = Number(speedPick.value);
    if (timer) {
      pause();
      toggle();
    }
  });
  bar.append(...buttons.slice(0, 4), playButton, ...buttons.slice(4), roundPick, speedPick, position);

  // Keys on a laptop: arrows step an event, with Shift a turn; PageUp/PageDown a round;
  // Home/End; Space plays or pauses.
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("select")) return;
    const key = {
      ArrowLeft: event.shiftKey ? "turn-back" : "back",
      ArrowRight: event.shiftKey ? "turn-forward" : "forward",
      PageUp: "round-back", PageDown: "round-forward", Home: "start", End: "end",
    }[event.key];
    if (key) {
      event.preventDefault();
      steps[key]();
    } else if (event.key === " ") {
      event.preventDefault();
      toggle();
    }
  });

  document.body.classList.add("replay");
  document.querySelector("main").prepend(box);
  document.body.append(bar);
  setUpLanguage(document.getElementById("lang"), () => {
    sayControls();
    show();
  });
  sayControls();
  show();
}

start();

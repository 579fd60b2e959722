// Events in plain words for the table's log: the terminal's sentences
// (client/ui/describe.py), from the same table (sentences.js, written from
// client/ui/sentences.py). tests/web/test_web_log.py holds the two logs equal over a real
// match. name(seat) gives a seat's name, "you" for one's own.

import { cardLabel, cardName, COLOR_NAMES, colorWord, isWild } from "./cards.js";
import { coded, plural, say, SENTENCES } from "./sentences.js";

const ARROWS = { up: "↑", down: "↓", left: "←", right: "→" };
const STACK_REASONS = ["draw-two", "wild-draw-four"];

const cards = (count) => say(plural("cards", count), { count });
const labels = (codes) => codes.map(cardLabel).join(" ");
const whose = (name) => (name === say("you") ? say("whose.you") : say("whose.other", { player: name }));
const colorName = (letter) => (letter in COLOR_NAMES ? colorWord(letter) : say("color.none"));
const number = (count) => (`number.${count}` in SENTENCES ? say(`number.${count}`) : String(count));
const isDrawCard = (code) => code === "W+4" || (!isWild(code) && code.endsWith("+2"));

// The draw cards played in a row and not yet drawn for, after body: the stack a penalty
// draw pays for.
export function stackAfter(stack, body) {
  if (body.kind === "played") return isDrawCard(body.card) ? [...stack, body.card] : [];
  if (body.kind === "round-started") return [];
  if (body.kind === "drew" && [...STACK_REASONS, "challenge"].includes(body.reason)) return [];
  return stack;
}

function stackName(stack) {
  let key = "stack.mixed";
  if (stack.every((code) => code === "W+4")) key = "stack.wild-draw-four";
  else if (stack.every((code) => code !== "W+4")) key = "stack.draw-two";
  return say(key, { number: number(stack.length) });
}

function played(e, n) {
  let text = say("played", { player: n(e.seat), card: cardName(e.card) });
  if (isWild(e.card) && e.color) text += say("played.calling", { color: colorName(e.color) });
  if (e.target !== undefined && e.target !== null) {
    text += say("played.target", { target: n(e.target) });
  }
  if (e.dance) text += say("played.dance", { dance: e.dance });
  if (e.uno) text += say("played.uno");
  return text;
}

function drew(e, n, stack) {
  const shown = e.cards && e.cards.length;
  if (STACK_REASONS.includes(e.reason) && stack.length > 1) {
    let text = say("drew.stack", { player: n(e.seat), count: e.count, stack: stackName(stack) });
    if (shown) text += say("drew.stack.cards", { labels: labels(e.cards) });
    return text;
  }
  let text = say("drew", { player: n(e.seat), cards: cards(e.count) });
  if (shown) text += say("drew.cards", { labels: labels(e.cards) });
  if (e.reason !== "draw") {
    const key = `reason.${e.reason}`;
    text += say("drew.reason", { reason: key in SENTENCES ? say(key) : e.reason });
  }
  return text;
}

// The events whose sentence names only the seat that acted.
const BY_SEAT = [
  "skipped", "uno-called", "draw-four-accepted", "danced", "dance-refused",
  "creeper-revealed", "hands-shuffled", "hands-passed", "skip-served", "timed-out",
  "away", "back",
];

const LINES = {
  "dealer-chosen": (e, n) => say("dealer-chosen", { dealer: n(e.dealer) }),
  "round-started": (e, n) => say("round-started", { round: e.round, dealer: n(e.dealer) }),
  "first-card": (e) => say("first-card", { card: cardName(e.card) }),
  "first-card-returned": () => say("first-card-returned"),
  turn: () => "",
  played,
  "jumped-in": (e, n) => say("jumped-in", { player: n(e.seat), overtaken: n(e.overtaken) }),
  "color-chosen": (e, n) => say("color-chosen", { player: n(e.seat), color: colorName(e.color) }),
  passed: (e, n) => say(e.stuck ? "passed.stuck" : "passed", { player: n(e.seat) }),
  direction: (e) =>
    say("direction", { direction: say(e.direction === 1 ? "direction.1" : "direction.-1") }),
  exposed: (e, n) =>
    n(e.seat) === say("you") ? say("exposed.you") : say("exposed.other", { player: n(e.seat) }),
  caught: (e, n) => say("caught", { by: n(e.by), player: n(e.seat), penalty: e.penalty }),
  "false-catch": (e, n) =>
    say("false-catch", { player: n(e.seat), target: n(e.target), penalty: e.penalty }),
  challenged: (e, n) => {
    const key = e.guilty ? "challenged.guilty" : "challenged.legal";
    let text = say(key, { player: n(e.seat), whose: whose(n(e.target)) });
    if (e.hand && e.hand.length) text += say("challenged.hand", { labels: labels(e.hand) });
    return text;
  },
  "dance-called": (e, n) =>
    say("dance-called", {
      player: n(e.seat),
      dance: e.dance,
      steps: (e.steps ?? []).map((s) => ARROWS[s]).join(" "),
    }),
  "hands-swapped": (e, n) => say("hands-swapped", { player: n(e.seat), target: n(e.target) }),
  "skip-marked": (e, n) => say("skip-marked", { player: n(e.seat), target: n(e.target) }),
  reshuffled: () => say("reshuffled"),
  paused: () => say("paused"),
  resumed: () => say("resumed"),
  "round-over": (e, n) =>
    e.gained && e.gained[e.winner]
      ? say("round-over.scored", { player: n(e.winner), points: e.gained[e.winner] })
      : say("round-over", { player: n(e.winner) }),
  "match-over": (e, n) =>
    say("match-over", {
      players: (e.winners ?? []).map(n).join(say("and")) || say("nobody"),
    }),
};
for (const kind of BY_SEAT) LINES[kind] = (e, n) => say(kind, { player: n(e.seat) });

// One log line for an event body; "" for events not worth a line. previous is the event
// before it: a UNO said with a play is already in the play's line. stack is the draw
// cards played in a row before it (stackAfter): a penalty draw for two or more names it.
export function describeEvent(body, name, previous, stack = []) {
  if (
    body.kind === "uno-called" &&
    previous &&
    previous.kind === "played" &&
    previous.uno &&
    previous.seat === body.seat
  ) {
    return "";
  }
  if (body.kind === "drew") return drew(body, name, stack);
  const line = LINES[body.kind];
  return line ? line(body, name) : body.kind.replaceAll("-", " ");
}

export { ARROWS };

// Why we are no longer at the table, as the terminal says it (client/ui/reducer.py's
// left_words): the `left`'s cause (1.3) with the host's name; from an older server, which
// sends no cause, the reason's sentence followed by the server's words.
export function leftWords(m) {
  if (m.cause) {
    const line = coded("left", m.cause, m.message, { host: m.by || "" });
    return m.banned ? say("left.banned", { line }) : line;
  }
  const key = `left.${m.reason}`;
  const line = say(key in SENTENCES ? key : "page.left.other");
  if (!m.message || line.toLowerCase().includes(m.message.toLowerCase())) return line;
  const both = `${line}: ${m.message}`;
  if (both.length > 78 && m.reason === "kicked") return m.message[0].toUpperCase() + m.message.slice(1);
  return both;
}

// A rejection in words, as the terminal says it (client/ui/model.py's case_words): the
// case's fields (1.3) name the option by its name in the new-table form, the card by its
// label, the limit as a number.
export function rejectedWords(m) {
  const option = m.option && (`form-row.${m.option}` in SENTENCES ? say(`form-row.${m.option}`) : m.option.replaceAll("_", " "));
  return coded("rejected", m.code, m.message, { option, card: m.card ? cardLabel(m.card) : null, limit: m.limit });
}

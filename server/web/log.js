// Events in plain words for the table's log, the same sentences as the terminal's
// (client/ui/describe.py; tests/web/test_web_log.py holds the two equal over a real
// match). name(seat) gives a seat's name, "you" for one's own.

import { cardLabel, cardName, COLOR_NAMES, isWild } from "./cards.js";

const DRAW_REASONS = {
  "draw-two": "Draw Two",
  "wild-draw-four": "Wild Draw Four",
  caught: "caught without UNO",
  "false-catch": "a wrong catch",
  challenge: "the challenge",
  custom: "Customizable wild",
  dance: "no dance",
  skip: "skip",
  creeper: "Creeper",
};
const ARROWS = { up: "↑", down: "↓", left: "←", right: "→" };

const cards = (count) => (count === 1 ? "1 card" : `${count} cards`);
const labels = (codes) => codes.map(cardLabel).join(" ");
const whose = (name) => (name === "you" ? "your" : `${name}'s`);
const colorName = (letter) => COLOR_NAMES[letter] ?? "none";
const direction = (value) => (value === 1 ? "clockwise" : "counter-clockwise");

function played(e, n) {
  let text = `${n(e.seat)} played ${cardName(e.card)}`;
  if (isWild(e.card) && e.color) {
    text += `, calling ${colorName(e.color)}`;
  }
  if (e.target !== undefined && e.target !== null) text += ` on ${n(e.target)}`;
  if (e.dance) text += ` (dance: ${e.dance})`;
  if (e.uno) text += " and said UNO!";
  return text;
}

function drew(e, n) {
  let text = `${n(e.seat)} drew ${cards(e.count)}`;
  if (e.cards && e.cards.length) text += `: ${labels(e.cards)}`;
  if (e.reason !== "draw") text += ` (${DRAW_REASONS[e.reason] ?? e.reason})`;
  return text;
}

const LINES = {
  "dealer-chosen": (e, n) => `the dealer is ${n(e.dealer)}`,
  "round-started": (e, n) => `round ${e.round} begins (dealer: ${n(e.dealer)})`,
  "first-card": (e) => `first card: ${cardName(e.card)}`,
  "first-card-returned": () => "a Wild Draw Four turned up; it goes back",
  turn: () => "",
  played,
  "jumped-in": (e, n) => `${n(e.seat)} jumped in ahead of ${n(e.overtaken)}!`,
  "color-chosen": (e, n) => `${n(e.seat)} chose ${colorName(e.color)}`,
  drew,
  passed: (e, n) => `${n(e.seat)} passed${e.stuck ? " (stuck)" : ""}`,
  direction: (e) => `play now goes ${direction(e.direction)}`,
  skipped: (e, n) => `${n(e.seat)} skipped`,
  "uno-called": (e, n) => `${n(e.seat)} said UNO!`,
  exposed: (e, n) =>
    n(e.seat) === "you"
      ? "you forgot to say UNO! press u before someone catches you"
      : `${n(e.seat)} forgot to say UNO! (c to catch)`,
  caught: (e, n) => `${n(e.by)} caught ${n(e.seat)}: draws ${e.penalty}`,
  "false-catch": (e, n) => `${n(e.seat)} wrongly caught ${n(e.target)}: draws ${e.penalty}`,
  challenged: (e, n) => {
    let text = `${n(e.seat)} challenged ${whose(n(e.target))} Wild Draw Four: `;
    text += e.guilty ? "guilty!" : "it was legal";
    if (e.hand && e.hand.length) text += ` (hand: ${labels(e.hand)})`;
    return text;
  },
  "draw-four-accepted": (e, n) => `${n(e.seat)} took the Wild Draw Four`,
  "dance-called": (e, n) =>
    `${n(e.seat)} must dance ${e.dance}: ${(e.steps ?? []).map((s) => ARROWS[s]).join(" ")}`,
  danced: (e, n) => `${n(e.seat)} danced!`,
  "dance-refused": (e, n) => `${n(e.seat)} did not dance and draws 3`,
  "creeper-revealed": (e, n) => `${n(e.seat)} drew a Creeper! 3 more cards`,
  "hands-swapped": (e, n) => `${n(e.seat)} swapped hands with ${n(e.target)}`,
  "hands-shuffled": (e, n) => `${n(e.seat)} shuffled everyone's hands`,
  "hands-passed": (e, n) => `${n(e.seat)} played a 0: every hand moves on to the next player`,
  "skip-marked": (e, n) => `${n(e.seat)} will skip ${n(e.target)}`,
  "skip-served": (e, n) => `${n(e.seat)} draws 1 and loses the turn (skip)`,
  reshuffled: () => "the discards were shuffled into a new draw pile",
  "timed-out": (e, n) => `${n(e.seat)} ran out of time`,
  away: (e, n) => `${n(e.seat)} is away; a bot plays for now`,
  back: (e, n) => `${n(e.seat)} is back`,
  paused: () => "the game is paused",
  resumed: () => "the game goes on",
  "round-over": (e, n) => {
    let text = `round over: ${n(e.winner)} won`;
    if (e.gained && e.gained[e.winner]) text += ` and scored ${e.gained[e.winner]}`;
    return text;
  },
  "match-over": (e, n) =>
    `match over: ${(e.winners ?? []).map(n).join(" and ") || "nobody"} won the match`,
};

// One log line for an event body; "" for events not worth a line. previous is the event
// before it: a UNO said with a play is already in the play's line.
export function describeEvent(body, name, previous) {
  if (
    body.kind === "uno-called" &&
    previous &&
    previous.kind === "played" &&
    previous.uno &&
    previous.seat === body.seat
  ) {
    return "";
  }
  const line = LINES[body.kind];
  return line ? line(body, name) : body.kind.replaceAll("-", " ");
}

export { ARROWS };

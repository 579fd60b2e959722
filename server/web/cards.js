// Cards as the terminal shows them (client/ui/faces.py): a label that reads without
// colour, the colour letter first (R7, G+2, B⟲, Y⊘) or W for a wild (W, W+4, W♪...).

import { say, SENTENCES } from "./sentences.js";

export const COLORS = ["R", "Y", "G", "B"];
export const COLOR_NAMES = { R: "red", Y: "yellow", G: "green", B: "blue" };

const SYMBOLS = { S: "⊘", R: "⟲", "+2": "+2" };
const WILDS = {
  W: ["W", "Wild"],
  "W+4": ["W+4", "Wild Draw Four"],
  WSWAP: ["W⇄", "Wild Swap Hands"],
  WSHUF: ["W≋", "Wild Shuffle Hands"],
  WCUST: ["W✱", "Wild Customizable"],
  WDANCE: ["W♪", "Dancing Wild"],
  WCREEP: ["W✸", "Creeper"],
};
const RANK_ORDER = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"];
const WILD_ORDER = Object.keys(WILDS);

export function isWild(code) {
  return code in WILDS;
}

export function cardColor(code) {
  return isWild(code) ? null : code[0];
}

export function cardLabel(code) {
  if (isWild(code)) return WILDS[code][0];
  const rank = code.slice(1);
  return code[0] + (SYMBOLS[rank] ?? rank);
}

// A card in words in the chosen language (sentences.js's card-word entries), as the
// terminal names it.
export function cardName(code) {
  if (isWild(code)) return say(`card-rank.${code}`);
  const rank = code.slice(1);
  return say("card-name", {
    color: colorWord(code[0]),
    rank: `card-rank.${rank}` in SENTENCES ? say(`card-rank.${rank}`) : rank,
  });
}

// A colour's name in the chosen language.
export function colorWord(letter) {
  return `card-color.${letter}` in SENTENCES ? say(`card-color.${letter}`) : letter;
}

function order(code) {
  if (isWild(code)) return [COLORS.length, WILD_ORDER.indexOf(code)];
  return [COLORS.indexOf(code[0]), RANK_ORDER.indexOf(code.slice(1))];
}

export function sortHand(codes) {
  return [...codes].sort((a, b) => {
    const [ga, ra] = order(a);
    const [gb, rb] = order(b);
    return ga - gb || ra - rb || (a < b ? -1 : a > b ? 1 : 0);
  });
}

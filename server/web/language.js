// The page's language (issue 29): the one picked before (kept in localStorage), else the
// browser's first shipped one, else English. Each player's own: nothing goes to the
// server. The picker in the bar changes it for every later sentence. The pseudo-locale
// (a check: every word from the catalogue inside ⟦ ⟧) is chosen only by remembering it,
// as a test does; the picker then offers it too.

import { language, LANGUAGES, PSEUDO, setLanguage } from "./sentences.js";

const LANG_KEY = "uno-lan:lang";
const NAMES = { en: "English", de: "Deutsch", es: "Español" };

// A replay may be opened where storage is refused (a sandboxed viewer, an opaque origin:
// reading localStorage throws there); its language is then the browser's, and a pick
// lasts the visit.
function remembered() {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch {
    return null;
  }
}

function remember(lang) {
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {
    // refused: see remembered()
  }
}

// The language to start in: remembered, else the browser's, else English.
export function startingLanguage(remembered, browser) {
  if (LANGUAGES.includes(remembered) || remembered === PSEUDO) return remembered;
  for (const tag of browser) {
    const short = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(short)) return short;
  }
  return "en";
}

// Choose the starting language and fill the picker; `changed` redraws after a pick.
export function setUpLanguage(picker, changed) {
  const lang = startingLanguage(
    remembered(),
    navigator.languages?.length ? navigator.languages : [navigator.language || "en"],
  );
  setLanguage(lang);
  document.documentElement.lang = lang;
  if (!picker) return;
  for (const code of lang === PSEUDO ? [...LANGUAGES, PSEUDO] : LANGUAGES) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = NAMES[code] ?? code;
    picker.append(option);
  }
  picker.value = lang;
  picker.addEventListener("change", () => {
    setLanguage(picker.value);
    document.documentElement.lang = picker.value;
    remember(picker.value);
    changed();
  });
}

// A moment (seconds since the epoch) as the page writes it, in the chosen language by
// the browser's Intl ("Tue, Nov 14, 10:13 PM"; with the year when asked). The
// pseudo-locale's are English: Intl knows no such language.
export function dateWords(seconds, { year = false } = {}) {
  return new Date(seconds * 1000).toLocaleString(language() === PSEUDO ? "en" : language(), {
    weekday: "short", day: "2-digit", month: "short", hour: "2-digit", minute: "2-digit",
    ...(year ? { year: "numeric" } : {}),
  });
}

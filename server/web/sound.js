// Short sounds made with Web Audio (no files): your turn, UNO, a catch. Browsers allow
// sound only after a tap, so the audio starts on the first one. One toggle, remembered.

const KEY = "uno-lan:sound";
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function toggleSound() {
  localStorage.setItem(KEY, soundOn() ? "off" : "on");
  return soundOn();
}

function start() {
  if (context || !window.AudioContext) return;
  context = new AudioContext();
}

document.addEventListener("pointerdown", start, { once: true });
document.addEventListener("keydown", start, { once: true });

const TUNES = {
  turn: [[660, 0.08]],
  uno: [[880, 0.09], [1175, 0.12]],
  catch: [[330, 0.12], [220, 0.16]],
};

export function play(name) {
  if (!context || !soundOn()) return;
  let at = context.currentTime;
  for (const [frequency, seconds] of TUNES[name] ?? []) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + seconds);
    at += seconds;
  }
}

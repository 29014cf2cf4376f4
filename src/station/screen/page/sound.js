// @ts-check
// Tones of the operator screen, generated with Web Audio (no sound files): good, refused, complete.
// A browser lets a page sound only after a first tap; the kiosk command allows it from the start.

/** @type {AudioContext | null} */
let ctx = null;

/** @returns {AudioContext | null} */
function audio() {
  if (ctx) return ctx;
  // older WebKit names it with its prefix
  const w = /** @type {typeof globalThis & { webkitAudioContext?: typeof AudioContext }} */ (globalThis);
  const Ctx = w.AudioContext ?? w.webkitAudioContext;
  if (!Ctx) return null;
  ctx = new Ctx();
  return ctx;
}

/** A tap unlocks audio where the browser asks for a gesture first. */
export function unlock() {
  audio()?.resume?.();
}

/**
 * @param {AudioContext} c
 * @param {number} freq
 * @param {number} start
 * @param {number} length
 * @param {OscillatorType} type
 */
function tone(c, freq, start, length, type) {
  const osc = c.createOscillator();
  const gain = c.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, c.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.3, c.currentTime + start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, c.currentTime + start + length);
  osc.connect(gain).connect(c.destination);
  osc.start(c.currentTime + start);
  osc.stop(c.currentTime + start + length + 0.02);
}

/** @typedef {"good" | "refused" | "complete"} ToneName */

/**
 * Each tone's notes: frequency (Hz), start and length (s), waveform.
 * @type {Record<ToneName, Array<[number, number, number, OscillatorType]>>}
 */
const TONES = {
  // one short high beep
  good: [[880, 0, 0.12, "sine"]],
  // two low buzzes: clearly not the good one
  refused: [
    [220, 0, 0.18, "square"],
    [196, 0.22, 0.25, "square"],
  ],
  // a rising chord: the order or tote is done
  complete: [
    [660, 0, 0.12, "sine"],
    [880, 0.12, 0.12, "sine"],
    [1320, 0.24, 0.25, "sine"],
  ],
};

/** @param {ToneName} name */
export function play(name) {
  const c = audio();
  if (!c) return;
  for (const [freq, start, length, type] of TONES[name]) tone(c, freq, start, length, type);
  document.body.dataset.lastTone = name;
}

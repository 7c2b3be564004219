/**
 * Procedural audio for audio nodes: speech-like babble, a short tune or a sound effect,
 * synthesised sample by sample from a seeded PRNG and written as a PCM16 mono WAV.
 */
import { LocalMediaError, num, oneOf } from "./params.ts";
import { pick, type Rng, randInt, rngFrom } from "./seed.ts";
import { encodeWav } from "./wav.ts";

/** What the audio should sound like. */
export type AudioKind = "speech" | "music" | "sfx";

/** Longest clip we synthesise, in seconds. */
export const MAX_AUDIO_SECONDS = 600;

export interface RenderAudioOptions {
  seed: number;
  /** Seconds, > 0 and at most 600. */
  durationSeconds: number;
  /** 8000–96000 Hz, default 44100. */
  sampleRate?: number;
  /** Default music. */
  kind?: AudioKind;
  /** Varies the result like the seed does (the text being "spoken", the music prompt). */
  prompt?: string;
}

type Synth = (out: Float32Array, rate: number, rng: Rng) => void;

const TAU = Math.PI * 2;

// Raised-cosine attack and release, so notes and syllables start and stop without clicks.
function envelope(t: number, length: number, edge: number): number {
  const e = Math.min(edge, length / 2);
  if (t < e) return 0.5 - 0.5 * Math.cos((Math.PI * t) / e);
  if (t > length - e) return 0.5 - 0.5 * Math.cos((Math.PI * (length - t)) / e);
  return 1;
}

// Syllables with a gliding pitch whose harmonics are shaped by two vowel formants.
const speech: Synth = (out, rate, rng) => {
  const vowels = [
    [730, 1090],
    [530, 1840],
    [270, 2290],
    [570, 840],
    [300, 870],
  ] as const;
  const base = 100 + rng() * 120;
  let i = 0;
  while (i < out.length) {
    const syllables = randInt(rng, 1, 4);
    for (let s = 0; s < syllables && i < out.length; s++) {
      const [f1, f2] = pick(rng, vowels);
      const length = Math.round(rate * (0.12 + rng() * 0.16));
      const f0 = base * (0.85 + rng() * 0.35);
      const glide = (rng() - 0.5) * 0.3;
      let phase = 0;
      for (let n = 0; n < length && i < out.length; n++, i++) {
        const t = n / length;
        const f = f0 * (1 + glide * t);
        phase += (TAU * f) / rate;
        let v = 0;
        for (let k = 1; k * f < 3500 && k <= 24; k++) {
          const h = k * f;
          const gain =
            Math.exp(-(((h - f1) / 120) ** 2)) + 0.6 * Math.exp(-(((h - f2) / 160) ** 2));
          v += (gain + 0.02) * Math.sin(k * phase);
        }
        out[i] = 0.25 * v * envelope(n, length, rate * 0.02);
      }
    }
    i += Math.round(rate * (0.08 + rng() * 0.18)); // a pause between "words"
  }
};

// A pentatonic melody over a bass line, with a soft noise hat on the off-beats.
const music: Synth = (out, rate, rng) => {
  const bpm = randInt(rng, 84, 136);
  const beat = Math.round((rate * 60) / bpm / 2); // eighth notes
  const root = randInt(rng, 57, 69); // A3…A4 as MIDI
  const scale = [0, 2, 4, 7, 9, 12, 14, 16];
  const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);
  let degree = randInt(rng, 0, 4);
  for (let start = 0, step = 0; start < out.length; start += beat, step++) {
    degree = Math.max(0, Math.min(scale.length - 1, degree + randInt(rng, -2, 2)));
    const melody = hz(root + (scale[degree] ?? 0));
    const bass = hz(root - 24 + (Math.floor(step / 8) % 2 === 0 ? 0 : 7));
    const rest = rng() < 0.15;
    for (let n = 0; n < beat && start + n < out.length; n++) {
      const t = n / rate;
      let v = 0;
      if (!rest)
        v +=
          0.35 * Math.sin(TAU * melody * t) * Math.exp(-3 * t) +
          0.1 * Math.sin(TAU * 2 * melody * t) * Math.exp(-6 * t);
      const bassT = ((step % 2) * beat + n) / rate;
      v += 0.25 * Math.sin(TAU * bass * bassT) * envelope(n, beat, rate * 0.01);
      if (step % 2 === 1 && t < 0.03) v += 0.08 * (rng() * 2 - 1) * (1 - t / 0.03);
      out[start + n] = v;
    }
  }
};

// Swept tones and filtered noise bursts with exponential decays.
const sfx: Synth = (out, rate, rng) => {
  let i = 0;
  while (i < out.length) {
    const length = Math.round(rate * (0.25 + rng() * 0.9));
    const from = 120 + rng() * 1800;
    const to = 80 + rng() * 2400;
    const noise = rng() * 0.6;
    const decay = 2 + rng() * 6;
    const smooth = 0.05 + rng() * 0.5; // one-pole low-pass amount for the noise
    let phase = 0;
    let low = 0;
    for (let n = 0; n < length && i < out.length; n++, i++) {
      const t = n / length;
      phase += (TAU * from * (to / from) ** t) / rate;
      low += smooth * (rng() * 2 - 1 - low);
      const v = (1 - noise) * Math.sin(phase) + noise * 2 * low;
      out[i] = 0.6 * v * Math.exp(-decay * t) * envelope(n, length, rate * 0.005);
    }
    i += Math.round(rate * rng() * 0.2);
  }
};

const SYNTHS: Record<AudioKind, Synth> = { speech, music, sfx };

/**
 * Synthesises a deterministic WAV (PCM16 mono) of exactly round(durationSeconds × sampleRate)
 * samples, peak-normalised to −1 dBFS. Throws LocalMediaError for out-of-range options.
 */
export function renderAudio(options: RenderAudioOptions): Buffer {
  const params = { ...options };
  const duration = num("audio", params, "durationSeconds", { min: 0.001, max: MAX_AUDIO_SECONDS });
  const rate = num("audio", params, "sampleRate", {
    min: 8000,
    max: 96000,
    integer: true,
    fallback: 44100,
  });
  const kind = oneOf<AudioKind>("audio", params, "kind", ["speech", "music", "sfx"], "music");
  if (!Number.isFinite(options.seed)) throw new LocalMediaError('audio: "seed" must be a number');
  const samples = new Float32Array(Math.max(1, Math.round(duration * rate)));
  SYNTHS[kind](samples, rate, rngFrom("audio", kind, options.prompt ?? "", options.seed));
  let peak = 0;
  for (const v of samples) peak = Math.max(peak, Math.abs(v));
  const gain = peak > 0 ? 0.89 / peak : 0;
  // A 5 ms fade at both ends: clips cut mid-note would otherwise click.
  const fade = Math.min(Math.round(rate * 0.005), Math.floor(samples.length / 2));
  for (let i = 0; i < samples.length; i++) {
    const edge = Math.min(i, samples.length - 1 - i);
    samples[i] = (samples[i] ?? 0) * gain * (edge < fade ? edge / fade : 1);
  }
  return encodeWav(samples, rate);
}

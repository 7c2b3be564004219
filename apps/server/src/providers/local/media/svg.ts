/**
 * Small SVG helpers for the local provider's procedural pictures (rendered by sharp's librsvg).
 */
import { pick, type Rng, randInt } from "./seed.ts";

// XML 1.0 allows only these code points; librsvg rejects the whole document if a prompt
// carries any other (control characters, unpaired surrogates, U+FFFE/U+FFFF).
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Escapes text for use in SVG/XML content or attribute values, dropping forbidden characters. */
export function escapeXml(text: string): string {
  let clean = "";
  for (const ch of text) if (isXmlChar(ch.codePointAt(0) ?? 0)) clean += ch;
  return clean
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** `#rrggbb` from hue (degrees), saturation and lightness (0–1). */
export function hsl(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/**
 * Greedy word wrap of a prompt's first words into at most `maxLines` lines of about
 * `maxChars` characters, with an ellipsis when something was left out.
 */
export function wrapWords(text: string, maxChars: number, maxLines: number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  let used = 0;
  for (const word of words) {
    const clipped = word.length > maxChars ? `${word.slice(0, Math.max(1, maxChars - 1))}…` : word;
    const next = line ? `${line} ${clipped}` : clipped;
    if (next.length <= maxChars) {
      line = next;
    } else {
      if (lines.length + 1 >= maxLines) break;
      lines.push(line);
      line = clipped;
    }
    used++;
  }
  if (line) lines.push(line);
  if (used < words.length && lines.length > 0) {
    const last = lines.length - 1;
    lines[last] = `${(lines[last] ?? "").slice(0, Math.max(1, maxChars - 1))}…`;
  }
  return lines;
}

/** The seeded background art: a gradient and a handful of translucent shapes. */
export function artLayers(rng: Rng, width: number, height: number): string {
  const hue = rng() * 360;
  const spread = 40 + rng() * 140;
  const from = hsl(hue, 0.55 + rng() * 0.3, 0.25 + rng() * 0.2);
  const to = hsl((hue + spread) % 360, 0.6 + rng() * 0.3, 0.55 + rng() * 0.2);
  const angle = randInt(rng, 0, 359);
  const parts = [
    `<defs><linearGradient id="bg" gradientTransform="rotate(${angle} .5 .5)">`,
    `<stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>`,
    "</linearGradient></defs>",
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>`,
  ];
  const size = Math.min(width, height);
  const count = randInt(rng, 4, 9);
  for (let i = 0; i < count; i++) {
    const fill = hsl((hue + rng() * 180) % 360, 0.5 + rng() * 0.4, 0.4 + rng() * 0.4);
    const opacity = (0.25 + rng() * 0.5).toFixed(2);
    const x = Math.round(rng() * width);
    const y = Math.round(rng() * height);
    const r = Math.round(size * (0.08 + rng() * 0.3));
    const shape = pick(rng, ["circle", "rect", "triangle"] as const);
    if (shape === "circle") {
      parts.push(`<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}" opacity="${opacity}"/>`);
    } else if (shape === "rect") {
      const rot = randInt(rng, 0, 89);
      parts.push(
        `<rect x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}" rx="${Math.round(r / 5)}" fill="${fill}" opacity="${opacity}" transform="rotate(${rot} ${x} ${y})"/>`,
      );
    } else {
      const points = [0, 120, 240]
        .map((a) => (a + rng() * 40) * (Math.PI / 180))
        .map((a) => `${Math.round(x + r * Math.cos(a))},${Math.round(y + r * Math.sin(a))}`);
      parts.push(`<polygon points="${points.join(" ")}" fill="${fill}" opacity="${opacity}"/>`);
    }
  }
  return parts.join("");
}

/** A caption band with the prompt's first words, sized to the picture. */
export function captionLayer(prompt: string, width: number, height: number): string {
  const fontSize = Math.max(9, Math.round(Math.min(width, height) / 16));
  const maxChars = Math.max(4, Math.floor(width / (fontSize * 0.58)) - 1);
  const lines = wrapWords(prompt || "Untitled", maxChars, height >= fontSize * 8 ? 3 : 1);
  const lineHeight = Math.round(fontSize * 1.25);
  const bandHeight = lines.length * lineHeight + Math.round(fontSize * 0.8);
  const top = height - bandHeight;
  const text = lines
    .map(
      (line, i) =>
        `<text x="${Math.round(fontSize * 0.6)}" y="${top + Math.round(fontSize * 0.4) + (i + 1) * lineHeight - Math.round(fontSize * 0.3)}">${escapeXml(line)}</text>`,
    )
    .join("");
  return [
    `<rect y="${top}" width="${width}" height="${bandHeight}" fill="#000" opacity="0.45"/>`,
    `<g font-family="DejaVu Sans, Arial, sans-serif" font-size="${fontSize}" fill="#fff">${text}</g>`,
  ].join("");
}

/** Wraps layers in an SVG document of the given pixel size. */
export function svgDocument(width: number, height: number, body: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`,
  );
}

/*
 * Money for people. Kept apart from the price rules and the API schemas so the editor's
 * first load can show an estimate without carrying them (DESIGN §7).
 */

/** To the cent: "$0.40". */
export const dollars = (usd: number) => `$${Math.max(0, usd).toFixed(2)}`;

/** A cost for people: "$1.20", "<$0.01", "Free"; unknown when null. */
export function formatUsd(usd: number | null): string {
  if (usd === null) return "Cost unknown";
  if (usd === 0) return "Free";
  if (usd < 0.01) return "<$0.01";
  return `$${usd.toFixed(2)}`;
}

/** Spend for people: "$1.20", "+ 2 unpriced" when some jobs had no published price. */
export const spendText = (usd: number, unpriced: number) =>
  `${dollars(usd)}${unpriced > 0 ? ` + ${unpriced} unpriced` : ""}`;

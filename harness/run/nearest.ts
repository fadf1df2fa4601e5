// "Did you mean …?": the known name closest to a mistyped one, when it is close enough to be a typo.

/** Names longer than this are never suggested, nor looked up (a typo is of a name a person types). */
const MAX_NAME = 128;

/** The known name closest to `name` (case-insensitively), when within a typo's distance; else undefined. */
export function nearest(name: string, known: readonly string[]): string | undefined {
  if (name.length > MAX_NAME) return undefined;
  let best: { name: string; d: number } | undefined;
  const wanted = name.toLowerCase();
  const within = Math.max(2, Math.floor(name.length / 5));
  for (const k of known) {
    // Too far apart in length to be a typo (and cheap to skip, whatever a hostile seller lists).
    if (k.length > MAX_NAME || Math.abs(k.length - name.length) > within) continue;
    const d = distance(wanted, k.toLowerCase());
    if (!best || d < best.d) best = { name: k, d };
  }
  return best && best.d <= within ? best.name : undefined;
}

/** Levenshtein distance (names are short: nearest compares none longer than MAX_NAME). */
export function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

// Digits OCR takes for one another in a blurred or faded print: the same few shapes, whatever the font.

/** For each digit, the digits OCR reads for it. */
const CONFUSABLE: Record<string, string> = { '0': '68', '6': '058', '8': '0635', '1': '7', '7': '1', '5': '68', '3': '8' };

/** true when the two figures, of one length, differ in exactly one digit and OCR confuses those digits. */
export function oneConfusableDigit(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diff = [...a].map((c, i) => [c, b[i]]).filter(([x, y]) => x !== y);
  return diff.length === 1 && (CONFUSABLE[diff[0][0]] ?? '').includes(diff[0][1]);
}

// How sure the rules engine is of one field's value, 0..1, from the evidence its selection left: how
// well the printed label matched the field, how far the chosen value led the best different one, how
// confidently OCR read it, and whether an independent check agreed (a total the payment lines or the
// line items confirm, a date that parses unambiguously and fits the other dates of the document).
// Other selections (the issuer's letterhead rules, table rows) hand in the same evidence shape.

export interface FieldEvidence {
  /** How the value was found: next to a printed label, by a layout rule without one, or not at all. */
  via: 'label' | 'layout' | 'none';
  /** The chosen labelled candidate's score after the role rules (about 0..1.5); null for layout rules. */
  labelScore: number | null;
  /** Score lead over the best candidate with a different value; null when no candidate disagreed. */
  margin: number | null;
  /** Mean OCR confidence (0..1) of the value's words; null for words of a text layer. */
  ocr: number | null;
  /** An independent check: true agreed, false contradicted, null none applies. */
  validated: boolean | null;
  /** The value needed a guess or repair: ambiguous d/m order, letters read as digits, a repaired year. */
  guessed: boolean;
}

export const NO_EVIDENCE: FieldEvidence = { via: 'none', labelScore: null, margin: null, ocr: null, validated: null, guessed: false };

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/** 0 for a value not found; otherwise a logistic score of the evidence, rounded to 2 decimals. */
export function fieldConfidence(e: FieldEvidence): number {
  if (e.via === 'none') return 0;
  // A full label match with its value beside it scores about 1.2; half the field's words about 0.6.
  // A layout rule alone (letterhead, first date) is right more often than not but says nothing more:
  // about even, so it is not flagged for review unless other evidence speaks against it.
  let z = e.via === 'label' ? -2.2 + 3 * clamp(e.labelScore ?? 0, 0, 1.5) : -0.2;
  // No rival is mild good news; a narrow lead over a different value is a coin toss.
  z += e.margin === null ? 0.3 : 2 * clamp(e.margin, 0, 1) - 0.4;
  // Text-layer words are read exactly; OCR below ~0.85 mean confidence often holds a wrong character.
  if (e.ocr !== null) z += 4 * (clamp(e.ocr, 0, 1) - 0.85);
  if (e.validated === true) z += 1.2;
  if (e.validated === false) z -= 1.5;
  if (e.guessed) z -= 0.7;
  return Math.round(sigmoid(z) * 100) / 100;
}

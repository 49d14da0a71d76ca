// How a definition differs from what the account holds, key by key. Values the service treats alike
// compare equal (an omitted `required` and `required: false`, an omitted and an empty description), so a
// definition read back from the service is not reported as drift.
import type { FieldDefinition, SubFieldDefinition } from '../../api/types.js';

/** One difference: `key` is a dotted path (`parser_config.ocr_config.use_ocr`, `fields.total.type`). */
export interface KeyChange {
  key: string;
  /** undefined: the account has no value there (a field or key to add). */
  from: unknown;
  /** undefined: the definition drops it (a field to remove). */
  to: unknown;
}

type AnyField = FieldDefinition | SubFieldDefinition;

/** A field as the comparison sees it: only attributes that carry meaning, in one key order. */
export function canonicalField(f: AnyField): AnyField {
  return {
    name: f.name,
    type: f.type,
    ...(f.description ? { description: f.description } : {}),
    ...(f.required ? { required: true } : {}),
    ...('subFields' in f && f.subFields && f.subFields.length > 0 ? { subFields: f.subFields.map(canonicalField) as SubFieldDefinition[] } : {}),
  } as AnyField;
}

/** Field list differences: added and removed fields by name, changed attributes, and a changed order. */
export function fieldChanges(from: readonly AnyField[], to: readonly AnyField[], prefix = 'fields'): KeyChange[] {
  return namedListChanges(from.map(canonicalField), to.map(canonicalField), (f) => f.name, prefix, (a, b, at) => [
    ...attributeChanges(a, b, ['type', 'description', 'required'], at),
    ...fieldChanges((a as FieldDefinition).subFields ?? [], (b as FieldDefinition).subFields ?? [], `${at}.subFields`),
  ]);
}

/** Differences of two lists whose items are keyed by a name: added, removed, changed (by `compare`), reordered. */
export function namedListChanges<T>(
  from: readonly T[],
  to: readonly T[],
  nameOf: (item: T) => string,
  prefix: string,
  compare: (a: T, b: T, at: string) => KeyChange[],
): KeyChange[] {
  const before = new Map(from.map((x) => [nameOf(x), x]));
  const after = new Map(to.map((x) => [nameOf(x), x]));
  const changes: KeyChange[] = [];
  for (const [name, x] of after) {
    const old = before.get(name);
    if (old === undefined) changes.push({ key: `${prefix}.${name}`, from: undefined, to: x });
    else changes.push(...compare(old, x, `${prefix}.${name}`));
  }
  for (const [name, x] of before) if (!after.has(name)) changes.push({ key: `${prefix}.${name}`, from: x, to: undefined });
  const order = (list: readonly T[], other: Map<string, T>) => list.map(nameOf).filter((n) => other.has(n)).join(', ');
  if (order(from, after) !== order(to, before)) changes.push({ key: `${prefix} (order)`, from: order(from, after), to: order(to, before) });
  return changes;
}

/** Changed values of the named attributes (absent and undefined alike). */
export function attributeChanges<T extends object>(a: T, b: T, attrs: readonly (keyof T)[], at: string): KeyChange[] {
  return attrs.filter((k) => !sameValue(a[k], b[k])).map((k) => ({ key: `${at}.${String(k)}`, from: a[k], to: b[k] }));
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Differences in the keys `wanted` names, nested objects key by key: keys it leaves out are not compared
 * (they keep the service's value, as a PUT that omits them does). Returns the changes and the subset of
 * `wanted` that differs, ready to send.
 */
export function subsetChanges(
  wanted: Record<string, unknown>,
  actual: Record<string, unknown> | undefined,
  prefix: string,
): { changes: KeyChange[]; patch: Record<string, unknown> | undefined } {
  const changes: KeyChange[] = [];
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(wanted)) {
    if (value === undefined) continue;
    const have = actual?.[key];
    if (isPlainObject(value) && (have === undefined || isPlainObject(have))) {
      const inner = subsetChanges(value, have as Record<string, unknown> | undefined, `${prefix}.${key}`);
      changes.push(...inner.changes);
      if (inner.patch) patch[key] = inner.patch;
    } else if (!sameValue(value, have)) {
      changes.push({ key: `${prefix}.${key}`, from: have, to: value });
      patch[key] = value;
    }
  }
  return { changes, patch: Object.keys(patch).length > 0 ? patch : undefined };
}

/** Deep equality of JSON values, object key order ignored. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => a[k] !== undefined || b[k] !== undefined));
    return [...keys].every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

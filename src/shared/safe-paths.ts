// File names and paths built from untrusted text (dropped file names, classifier labels, rule names).
// Everything here aims at one property: a value can never add, remove or escape a path segment, and the
// result is a name every common file system (ext4, APFS, NTFS/SMB shares) accepts.
import { randomBytes } from 'node:crypto';
import { copyFile, link, lstat, open, realpath, unlink } from 'node:fs/promises';
import path from 'node:path';
import { DocdropError } from './errors.js';
import { inFolder } from './in-folder.js';

export const MAX_FILE_NAME_BYTES = 200;

// Windows refuses these as the part before the first dot, whatever the extension ("CON.pdf", "nul.tar.gz").
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;
// C0/C1 controls, DEL, and bidi/zero-width controls (U+202E can make "gpj.exe" display as "exe.jpg").
export const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
// Characters NTFS/SMB reject; replaced rather than dropped so "a:b" does not silently become "ab".
const WINDOWS_INVALID = /[<>:"|?*]/g;
const EXTENSION = /\.[^.\s]{1,16}$/;

export interface SanitiseOptions {
  /** Used when nothing usable is left (default 'file'). */
  fallback?: string;
  /** Keep a trailing ".ext" apart when truncating or when the stem is empty (default true). */
  keepExtension?: boolean;
  /**
   * Text that makes the name unique (e.g. "-<request id>.csv"): kept whole at the end, after the stem and
   * before any kept extension; a long name loses bytes of its stem, never of this.
   */
  suffix?: string;
}

/**
 * One safe path segment from any text: separators (/ and \) join the remaining parts with '_' after
 * dropping '.' and '..' parts; controls are removed; Windows-invalid characters become '_'; whitespace
 * collapses; leading dots and trailing dots/spaces go; reserved Windows device names get a '_' prefix;
 * at most 200 bytes of UTF-8 with the extension and `suffix` kept; never empty. 200 leaves room under the
 * 255-byte limit of ext4/APFS/NTFS for the hidden temp and sidecar names built from it.
 */
export function sanitiseFileName(name: string, opts: SanitiseOptions = {}): string {
  const fallback = opts.fallback ?? 'file';
  const cleaned = String(name)
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .split(/[/\\]+/)
    .filter((part) => part !== '.' && part !== '..' && part.trim() !== '')
    .join('_')
    .replace(WINDOWS_INVALID, '_')
    .replace(/\s+/g, ' ')
    .trim();

  let ext = '';
  let stem = cleaned;
  const m = opts.keepExtension === false ? null : EXTENSION.exec(cleaned);
  if (m) {
    ext = m[0];
    stem = cleaned.slice(0, m.index);
  }
  stem = trimStem(stem);
  if (stem === '') stem = fallback;
  const firstPart = stem.split('.')[0] ?? '';
  if (WINDOWS_RESERVED.test(firstPart.trim())) stem = `_${stem}`;
  if (opts.suffix) return fitBytes(stem, cleanSuffix(opts.suffix) + ext, MAX_FILE_NAME_BYTES, true);
  return fitBytes(stem, ext, MAX_FILE_NAME_BYTES);
}

function trimStem(stem: string): string {
  return stem.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
}

/** A suffix cleaned like a name, but never split, trimmed or replaced by a fallback. */
function cleanSuffix(suffix: string): string {
  return suffix.normalize('NFC').replace(INVISIBLE, '').replace(/[/\\]+/g, '_').replace(WINDOWS_INVALID, '_').replace(/\s+/g, ' ');
}

/** stem + ext within maxBytes of UTF-8, cutting the stem at a code point boundary. A `required` ext is never given up. */
function fitBytes(stem: string, ext: string, maxBytes: number, required = false): string {
  const extBytes = Buffer.byteLength(ext);
  if (!required && extBytes >= maxBytes / 2) {
    // A pathological "extension" is not worth keeping at the cost of the name.
    stem += ext;
    ext = '';
  }
  const budget = maxBytes - Buffer.byteLength(ext);
  if (Buffer.byteLength(stem) > budget) {
    let out = '';
    let used = 0;
    for (const cp of stem) {
      const b = Buffer.byteLength(cp);
      if (used + b > budget) break;
      out += cp;
      used += b;
    }
    stem = trimStem(out) || 'file';
  }
  return stem + ext;
}

/**
 * Reserves the first free name among `name`, `name (1)`, `name (2)`... in dir and returns its path.
 * Race-free between workers and processes: each candidate is created with O_CREAT|O_EXCL ('wx'), so
 * exactly one caller gets each name. The returned path is an empty placeholder file: rename the real
 * file over it (rename replaces atomically) or remove it if you give up.
 */
export async function uniquePath(dir: string, name: string, maxAttempts = 10_000): Promise<string> {
  return claimFreeName(dir, name, maxAttempts, async (full) => {
    const fh = await open(full, 'wx');
    await fh.close();
  });
}

/** The i-th free-name candidate of a sanitised name: `name.pdf` (0), `name (1).pdf`, ... within the byte limit. */
export function numberedName(safe: string, i: number): string {
  if (i === 0) return safe;
  const m = EXTENSION.exec(safe);
  const ext = m ? m[0] : '';
  const stem = m ? safe.slice(0, m.index) : safe;
  return fitBytes(stem, ` (${i})${ext}`, MAX_FILE_NAME_BYTES, true);
}

/** Tries `name`, `name (1)`, `name (2)`... until `claim` succeeds; `claim` must fail with EEXIST on a taken name. */
async function claimFreeName(dir: string, name: string, maxAttempts: number, claim: (full: string) => Promise<void>): Promise<string> {
  const safe = sanitiseFileName(name);
  for (let i = 0; i < maxAttempts; i++) {
    const candidate = numberedName(safe, i);
    const full = path.join(dir, candidate);
    try {
      await claim(full);
      return full;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  throw new Error(`no free name for "${safe}" in ${dir} after ${maxAttempts} attempts`);
}

/**
 * Moves src into dir under its own name (or `name`), never overwriting. The file is hard-linked to the
 * first free name (link() fails with EEXIST instead of replacing, atomically) and then src is unlinked,
 * so no placeholder ever exists: a crash in between leaves the same file under both names, which the
 * caller recognises as a finished move. Across file systems (EXDEV) it copies to a hidden temp file in
 * dir, fsyncs it, links that to the free name, then removes the temp file and src. Returns the new path.
 */
export async function moveFileUnique(src: string, dir: string, name = path.basename(src)): Promise<string> {
  let dest: string;
  try {
    dest = await inFolder(dir, () => claimFreeName(dir, name, 10_000, (full) => link(src, full)));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    // Named from the sanitised name, so a source name near 255 bytes still leaves room for the affixes.
    const tmp = path.join(dir, `.${sanitiseFileName(name)}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await copyFile(src, tmp);
      await syncPath(tmp);
      dest = await claimFreeName(dir, name, 10_000, (full) => link(tmp, full));
    } finally {
      await unlink(tmp).catch(() => undefined);
    }
  }
  await unlink(src);
  await syncPath(dir).catch(() => undefined); // some file systems refuse fsync on a folder
  return dest;
}

async function syncPath(p: string): Promise<void> {
  const fh = await open(p, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export class PathEscapeError extends DocdropError {
  constructor(
    readonly root: string,
    readonly relative: string,
    reason: string,
  ) {
    super('path_escape', `path "${relative}" is not allowed under ${root}: ${reason}`);
    this.name = 'PathEscapeError';
  }
}

/**
 * Resolves `relative` under `root` and throws PathEscapeError unless the result stays inside root.
 * Checks: no NUL byte; not absolute; lexically inside root after resolving '..'; and the real path
 * (symlinks resolved) of the target, or of its deepest existing ancestor when it does not exist yet, is
 * inside the real path of root, so a symlinked parent cannot lead out. Returns the lexical path.
 * Root itself is trusted (it comes from the operator's config) and need not exist yet.
 * A symlink swapped in after the check is not caught (no portable O_NOFOLLOW-per-segment in Node).
 */
export async function resolveInside(root: string, relative: string): Promise<string> {
  if (relative.includes('\0')) throw new PathEscapeError(root, relative, 'contains a NUL byte');
  if (path.isAbsolute(relative) || path.win32.isAbsolute(relative)) {
    throw new PathEscapeError(root, relative, 'absolute paths are not accepted');
  }
  const absRoot = path.resolve(root);
  const target = path.resolve(absRoot, relative);
  if (!isWithin(absRoot, target)) throw new PathEscapeError(root, relative, 'it leads outside the root');

  let realRoot: string;
  try {
    realRoot = await realpath(absRoot);
  } catch (err) {
    // No root yet means nothing under it exists either: only trusted ancestors of root are on disk.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return target;
    throw err;
  }
  let probe = target;
  for (;;) {
    try {
      await lstat(probe);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (probe === absRoot) break;
      probe = path.dirname(probe);
    }
  }
  let realProbe: string;
  try {
    realProbe = await realpath(probe);
  } catch (err) {
    // A dangling symlink: where it points cannot be checked, so it is not trusted.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new PathEscapeError(root, relative, `${probe} is a dangling symlink`);
    }
    throw err;
  }
  if (!isWithin(realRoot, realProbe)) {
    throw new PathEscapeError(root, relative, `${probe} resolves through a symlink to ${realProbe}`);
  }
  return target;
}

function isWithin(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

export const PLACEHOLDERS = ['rule', 'label', 'date', 'workflow'] as const;
export type PlaceholderName = (typeof PLACEHOLDERS)[number];
export type PlaceholderValues = Partial<Record<PlaceholderName, string | Date | null>>;

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The placeholder names a template uses; throws on an unknown one so config validation can name it. */
export function templatePlaceholders(template: string): PlaceholderName[] {
  const names: PlaceholderName[] = [];
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!(PLACEHOLDERS as readonly string[]).includes(name!)) {
      throw new DocdropError(
        'bad_folder_template',
        `unknown placeholder {${name}} in "${template}"; expected one of ${PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}`,
      );
    }
    names.push(name as PlaceholderName);
  }
  return names;
}

/**
 * Fills {rule} {label} {date} {workflow} in an output/processed folder template. Each value becomes a
 * single sanitised segment ('../x' -> 'x', 'a/b' -> 'a_b'), so values cannot add or climb segments;
 * the template's own text is the operator's and is kept as written. A Date becomes local yyyy-mm-dd.
 * A placeholder with no value (undefined, null or blank) throws, naming it.
 */
export function expandPlaceholders(template: string, values: PlaceholderValues): string {
  templatePlaceholders(template);
  return template.replace(PLACEHOLDER, (_, name: PlaceholderName) => {
    const raw = values[name];
    const text = raw instanceof Date ? localDate(raw) : raw;
    if (text == null || String(text).trim() === '') {
      throw new DocdropError('bad_folder_template', `placeholder {${name}} in "${template}" has no value`);
    }
    return sanitiseFileName(String(text), { keepExtension: false, fallback: '_' });
  });
}

/** yyyy-mm-dd in the machine's local time zone (what a person browsing the folder expects). */
export function localDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

// Which paths under a watched folder intake may report. Litter and hidden names are refused at any depth
// (a file inside __MACOSX/ or @eaDir/ is litter too), managed folders are never entered, and the rule's
// include/exclude globs are matched against the path relative to the watched folder.
import { relative, sep } from 'node:path';
import picomatch from 'picomatch';

/** System litter by exact name (lower case): OS metadata, NAS thumbnails, sync-tool markers, recycle bins. */
const LITTER_NAMES = new Set([
  'thumbs.db',
  'ehthumbs.db',
  'desktop.ini',
  '@eadir',
  '__macosx',
  '#recycle',
  '#snapshot',
  '$recycle.bin',
  'system volume information',
  'lost+found',
]);
/** Partial downloads and editors' temp files; `.*` (hidden, incl. .DS_Store, ._*, .stfolder) is caught first. */
const LITTER_PATTERN = /^~\$|\.(tmp|temp|part|partial|crdownload|download|swp)$|~$/i;

export function isLitterName(name: string): boolean {
  return name.startsWith('.') || LITTER_NAMES.has(name.toLowerCase()) || LITTER_PATTERN.test(name);
}

export function isInsideAny(path: string, dirs: readonly string[]): boolean {
  return dirs.some((d) => path === d || path.startsWith(d.endsWith(sep) ? d : d + sep));
}

export interface PathFilter {
  /** A folder intake may descend into (false for litter and managed folders). */
  enterDir(absPath: string): boolean;
  /** A file intake may report (litter, managed folders and the rule's globs checked). */
  acceptFile(absPath: string): boolean;
  /** Inside a managed folder: for the real path behind a symlink, which may point anywhere. */
  isManaged(absPath: string): boolean;
}

export function createPathFilter(
  root: string,
  rule: { include: readonly string[]; exclude: readonly string[] },
  ignorePaths: readonly string[],
): PathFilter {
  // Case-insensitive: "*.pdf" should take "SCAN.PDF" from a scanner or a Windows share.
  const opts = { dot: true, nocase: true };
  const included = picomatch([...rule.include], opts);
  const excluded = rule.exclude.length > 0 ? picomatch([...rule.exclude], opts) : () => false;
  const rel = (p: string) => relative(root, p).split(sep).join('/');
  const cleanSegments = (r: string) => r === '' || r.split('/').every((s) => s !== '..' && !isLitterName(s));
  return {
    enterDir(absPath) {
      return !isInsideAny(absPath, ignorePaths) && cleanSegments(rel(absPath));
    },
    acceptFile(absPath) {
      const r = rel(absPath);
      return r !== '' && cleanSegments(r) && !isInsideAny(absPath, ignorePaths) && included(r) && !excluded(r);
    },
    isManaged(absPath) {
      return isInsideAny(absPath, ignorePaths);
    },
  };
}

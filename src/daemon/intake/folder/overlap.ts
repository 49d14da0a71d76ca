// Two rules that both take the same file would process it twice (two inputs, two outputs). Rules may share
// a folder, or nest one folder in another, only when their globs split the files between them; this is
// checked at start with the filters intake itself uses, so the check and intake cannot disagree.
import { join, sep } from 'node:path';
import type { RuleConfig } from '../../config/config.js';
import { createPathFilter } from './filter.js';

/**
 * One line per pair of rules that would both take some file. The sample files are the rules' own include
 * globs read as paths under their folders ("**\/*.pdf" in /in is the path /in/**\/*.pdf): a pair overlaps
 * when both rules accept one of them. So `include: ["**\/*.pdf"]` in one rule and `exclude: ["**\/*.pdf"]`
 * (or `include: ["**\/*.jpg"]`) in the other split a folder; an outer rule excludes an inner rule's folder
 * with `exclude: ["inner/**"]`. An outer rule with `recursive: false` never reaches a nested folder.
 */
export function findWatchOverlaps(rules: readonly RuleConfig[], ignorePaths: readonly string[]): string[] {
  const problems: string[] = [];
  rules.forEach((a, i) => {
    for (const b of rules.slice(i + 1)) {
      const [outer, inner] = isInside(b.watch, a.watch) ? [a, b] : isInside(a.watch, b.watch) ? [b, a] : [null, null];
      if (!outer || !inner) continue;
      const same = outer.watch === inner.watch;
      if (!same && !outer.recursive) continue;
      const outerFilter = createPathFilter(outer.watch, outer, ignorePaths);
      const innerFilter = createPathFilter(inner.watch, inner, ignorePaths);
      const samples = [...outer.include.map((g) => join(outer.watch, g)), ...inner.include.map((g) => join(inner.watch, g))];
      const shared = samples.find((p) => outerFilter.acceptFile(p) && innerFilter.acceptFile(p));
      if (shared === undefined) continue;
      problems.push(
        `rules "${outer.name}" and "${inner.name}" would both take files like ${shared} ` +
          (same ? `(both watch ${outer.watch})` : `(${inner.watch} is inside ${outer.watch})`) +
          ': each such file would be processed twice. Split the files between them with include/exclude globs ' +
          `(e.g. include: ["**/*.pdf"] in one, exclude: ["**/*.pdf"] in the other)` +
          (same ? '' : `, or exclude the inner folder in "${outer.name}" (exclude: ["${relativeGlob(outer.watch, inner.watch)}"])`),
      );
    }
  });
  return problems;
}

function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function relativeGlob(outer: string, inner: string): string {
  return `${inner.slice(outer.length + 1).split(sep).join('/')}/**`;
}

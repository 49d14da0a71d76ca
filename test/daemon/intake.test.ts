import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { watch as chokidarWatch } from 'chokidar';
import { startHarness, waitFor } from './intake-helpers.js';

const rule = (extra = '') => `  - name: inv\n    watch: ./in\n    workflow: W\n    stable_ms: 100\n${extra}`;

test('reports files present at start-up and files dropped later, once each, with size and mtime', async () => {
  const h = await startHarness(rule(), {
    setup: async (dir) => {
      await mkdir(join(dir, 'in/sub'), { recursive: true });
      await writeFile(join(dir, 'in/early.pdf'), 'early');
      await writeFile(join(dir, 'in/sub/nested.pdf'), 'nested!');
    },
  });
  try {
    const early = join(h.dir, 'in/early.pdf');
    const nested = join(h.dir, 'in/sub/nested.pdf');
    await waitFor('start-up files', () => h.reported(early) === 1 && h.reported(nested) === 1);
    const late = join(h.dir, 'in/late.pdf');
    await writeFile(late, 'late file');
    await waitFor('dropped file', () => h.reported(late) === 1);
    const f = h.files.find((x) => x.file.path === late)!;
    assert.equal(f.rule, 'inv');
    assert.equal(f.file.size, 9);
    assert.ok(f.file.mtimeMs > 0);
    await h.intake.rescan();
    await writeFile(join(h.dir, 'in/marker.pdf'), 'm');
    await waitFor('marker', () => h.reported(join(h.dir, 'in/marker.pdf')) === 1);
    assert.equal(h.files.length, 4, 'a rescan does not report unchanged files again');
  } finally {
    await h.close();
  }
});

test('does not report a file while it is still being appended to', async () => {
  const h = await startHarness(rule().replace('stable_ms: 100', 'stable_ms: 400'));
  try {
    const path = join(h.dir, 'in/slow.pdf');
    await mkdir(join(h.dir, 'in'), { recursive: true });
    for (let i = 0; i < 25; i++) {
      await appendFile(path, 'x'.repeat(1000));
      await new Promise((r) => setTimeout(r, 20));
    }
    await waitFor('slow file', () => h.reported(path) === 1);
    const reports = h.files.filter((f) => f.file.path === path);
    assert.equal(reports.length, 1);
    assert.equal(reports[0].file.size, 25_000, 'reported only at its final size');
  } finally {
    await h.close();
  }
});

test('ignores litter, hidden and temp files, excluded globs and managed folders inside the watched tree', async () => {
  const h = await startHarness(
    rule('    exclude: ["**/skip-*"]\n    after: { processed_dir: "./in/done/{date}", failed_dir: ./in/failed }\n    output: { dir: ./in/out }\n'),
    { setup: (dir) => mkdir(join(dir, 'in'), { recursive: true }) },
  );
  try {
    const litter = [
      '.DS_Store', '._scan.pdf', 'Thumbs.db', 'desktop.ini', 'a.tmp', 'b.part', '~$c.docx', '.hidden.pdf', 'skip-me.pdf',
      '@eaDir/x.pdf', '__MACOSX/y.pdf', '.stfolder/z.pdf', 'done/2026-01-01/old.pdf', 'failed/bad.pdf', 'out/r.pdf', 'sub/.git/obj.pdf',
    ];
    for (const name of litter) {
      await mkdir(join(h.dir, 'in', name, '..'), { recursive: true });
      await writeFile(join(h.dir, 'in', name), 'litter');
    }
    const good = join(h.dir, 'in/good.PDF');
    await writeFile(good, 'good');
    await waitFor('good file', () => h.reported(good) === 1);
    // A second file dropped later: anything accepted from the first batch would have been reported by now.
    const later = join(h.dir, 'in/sub/later.pdf');
    await writeFile(later, 'later');
    await waitFor('later file', () => h.reported(later) === 1);
    await h.intake.rescan();
    assert.deepEqual(h.files.map((f) => f.file.path).sort(), [good, later].sort());
  } finally {
    await h.close();
  }
});

test('picks up a folder created after the start and logs its absence once', async () => {
  const h = await startHarness(rule());
  try {
    await waitFor('missing-folder log', () => h.log.count(/does not exist yet/) === 1);
    await mkdir(join(h.dir, 'in'));
    const path = join(h.dir, 'in/a.pdf');
    await writeFile(path, 'a');
    await waitFor('file in new folder', () => h.reported(path) === 1);
    assert.equal(h.log.count(/does not exist yet/), 1);
    assert.equal(h.log.count(/appeared/), 1);
  } finally {
    await h.close();
  }
});

test('logs a vanished folder once and watches it again when it is re-created', async () => {
  const h = await startHarness(rule(), { setup: (dir) => mkdir(join(dir, 'in')) });
  try {
    await rm(join(h.dir, 'in'), { recursive: true });
    await waitFor('vanished log', () => h.log.count(/vanished/) === 1);
    // Several presence checks (every 50 ms) pass while it is gone; none may log again.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(h.log.count(/vanished/), 1);
    await mkdir(join(h.dir, 'in'));
    const path = join(h.dir, 'in/back.pdf');
    await writeFile(path, 'back');
    await waitFor('file in re-created folder', () => h.reported(path) === 1);
    assert.equal(h.log.count(/appeared/), 1);
    assert.equal(h.log.count(/vanished/), 1);
  } finally {
    await h.close();
  }
});

test('the periodic rescan finds a file no watcher event announced', async () => {
  // Polling every hour: only the 100 ms rescan can find the file.
  const h = await startHarness(rule('    watch_mode: poll\n    poll_interval_ms: 3600000\n'), {
    rescanIntervalMs: 100,
    setup: (dir) => mkdir(join(dir, 'in')),
  });
  try {
    const path = join(h.dir, 'in/missed.pdf');
    await writeFile(path, 'missed');
    await waitFor('rescan', () => h.reported(path) === 1);
  } finally {
    await h.close();
  }
});

test('follows symlinks without hanging on a loop, skips links into managed folders, reports each file once', async () => {
  const h = await startHarness(rule(), {
    setup: async (dir) => {
      await mkdir(join(dir, 'in/a'), { recursive: true });
      await mkdir(join(dir, 'elsewhere'));
      await writeFile(join(dir, 'elsewhere/linked.pdf'), 'outside');
      await writeFile(join(dir, 'in/a/x.pdf'), 'x');
      await symlink('..', join(dir, 'in/a/loop'));
      await symlink(join(dir, 'in'), join(dir, 'in/self'));
      await symlink(join(dir, 'elsewhere'), join(dir, 'in/ext'));
      await mkdir(join(dir, 'var/failed/inv'), { recursive: true });
      await writeFile(join(dir, 'var/failed/inv/old.pdf'), 'failed before');
      await symlink(join(dir, 'var/failed/inv'), join(dir, 'in/to-failed'));
    },
  });
  try {
    const x = join(h.dir, 'in/a/x.pdf');
    const linked = join(h.dir, 'in/ext/linked.pdf');
    await waitFor('files through links', () => h.reported(x) === 1 && h.reported(linked) === 1);
    await h.intake.rescan();
    assert.equal(h.files.length, 2);
  } finally {
    await h.close();
  }
});

test('does not descend into subfolders of a non-recursive rule', async () => {
  const h = await startHarness(rule('    recursive: false\n'), {
    setup: async (dir) => {
      await mkdir(join(dir, 'in/sub'), { recursive: true });
      await writeFile(join(dir, 'in/sub/deep.pdf'), 'deep');
    },
  });
  try {
    await writeFile(join(h.dir, 'in/sub/deeper.pdf'), 'deeper');
    const top = join(h.dir, 'in/top.pdf');
    await writeFile(top, 'top');
    await waitFor('top file', () => h.reported(top) === 1);
    await h.intake.rescan();
    assert.deepEqual(h.files.map((f) => f.file.path), [top]);
  } finally {
    await h.close();
  }
});

test('offers a file again after onFile fails or the pipeline requeues it', async () => {
  let failNext = true;
  const h = await startHarness(rule(), {
    setup: (dir) => mkdir(join(dir, 'in')),
    onFile: () => {
      if (failNext) {
        failNext = false;
        throw new Error('ledger busy');
      }
    },
  });
  try {
    const path = join(h.dir, 'in/a.pdf');
    await writeFile(path, 'a');
    await waitFor('first offer', () => h.reported(path) === 1);
    await h.intake.rescan();
    await waitFor('offered again after the failure', () => h.reported(path) === 2);
    h.intake.requeue('inv', path);
    await waitFor('offered again after requeue', () => h.reported(path) === 3);
  } finally {
    await h.close();
  }
});

test('reports a file moved into the folder and forgets one moved out', async () => {
  const h = await startHarness(rule(), { setup: (dir) => mkdir(join(dir, 'in')) });
  try {
    const staged = join(h.dir, 'staged.pdf');
    await writeFile(staged, 'staged');
    const path = join(h.dir, 'in/moved.pdf');
    await rename(staged, path);
    await waitFor('moved-in file', () => h.reported(path) === 1);
    await rename(path, staged);
    await h.intake.rescan();
    await rename(staged, path);
    await waitFor('moved back in', () => h.reported(path) === 2);
  } finally {
    await h.close();
  }
});

test('falls back to polling with one warning when inotify watches run out', async () => {
  const rules = `${rule()}  - name: two\n    watch: ./in2\n    workflow: W\n    stable_ms: 100\n    poll_interval_ms: 50\n`;
  const modes: boolean[] = [];
  const h = await startHarness(rules.replace('stable_ms: 100\n', 'stable_ms: 100\n    poll_interval_ms: 50\n'), {
    setup: async (dir) => {
      await mkdir(join(dir, 'in'));
      await mkdir(join(dir, 'in2'));
    },
    // A real chokidar watcher; the native one fails the way inotify does when fs.inotify.max_user_watches is reached.
    watch: (paths, options) => {
      const w = chokidarWatch(paths, options);
      modes.push(Boolean(options?.usePolling));
      if (!options?.usePolling) {
        w.once('ready', () => w.emit('error', Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' })));
      }
      return w;
    },
  });
  try {
    await waitFor('both rules polling', () => modes.filter(Boolean).length === 2);
    const a = join(h.dir, 'in/a.pdf');
    const b = join(h.dir, 'in2/b.pdf');
    await writeFile(a, 'a');
    await writeFile(b, 'b');
    await waitFor('files via polling', () => h.reported(a) === 1 && h.reported(b) === 1);
    assert.equal(h.log.count(/out of inotify watches: falling back to polling/), 1);
    assert.match(h.log.lines.find((l) => /falling back/.test(l.msg))!.msg, /max_user_watches/);
  } finally {
    await h.close();
  }
});

test('native watching sees files dropped into existing and newly created subfolders, and a deleted subfolder re-created', async () => {
  // The periodic rescan is an hour away: only watcher events can find these files.
  const h = await startHarness(rule(), { rescanIntervalMs: 3_600_000, setup: (dir) => mkdir(join(dir, 'in/old'), { recursive: true }) });
  try {
    const inOld = join(h.dir, 'in/old/a.pdf');
    await writeFile(inOld, 'a');
    await waitFor('file in existing subfolder', () => h.reported(inOld) === 1);
    await mkdir(join(h.dir, 'in/new/deeper'), { recursive: true });
    const inNew = join(h.dir, 'in/new/deeper/b.pdf');
    await writeFile(inNew, 'b');
    await waitFor('file in new subfolder', () => h.reported(inNew) === 1);
    await rm(join(h.dir, 'in/old'), { recursive: true });
    await mkdir(join(h.dir, 'in/old'));
    const again = join(h.dir, 'in/old/c.pdf');
    await writeFile(again, 'c');
    await waitFor('file in re-created subfolder', () => h.reported(again) === 1);
  } finally {
    await h.close();
  }
});

// With base_url: embedded the daemon creates the example's inbox so `npm start` works on a fresh clone,
// but no other watch folder: a typo or an unmounted share must show as missing, not be created.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseConfig } from '../../src/daemon/config/config.js';
import { createRuleFolders } from '../../src/daemon/embedded.js';

const exists = (p: string) => stat(p).then(() => true, () => false);

test('the example config gets its inbox created under its own ./var', async () => {
  const root = await mkdtemp(join(tmpdir(), 'docdrop-embedded-'));
  try {
    const yaml = await readFile(resolve(import.meta.dirname, '../../config/docdrop.example.yaml'), 'utf8');
    // The example's base_dir is "..": from root/config that is root, as the checkout is for `npm start`.
    const config = parseConfig(yaml, { baseDir: join(root, 'config'), env: {} });
    await createRuleFolders(config);
    assert.ok(await exists(join(root, 'var', 'inbox', 'invoices')));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a watch folder outside the state folder is not created: intake waits for it', async () => {
  const root = await mkdtemp(join(tmpdir(), 'docdrop-embedded-'));
  try {
    await mkdir(join(root, 'srv'));
    const config = parseConfig(
      [
        'state: { path: ./var/state.db }',
        'rules:',
        '  - { name: own, watch: ./var/inbox/own, workflow: Invoices }',
        '  - { name: typo, watch: ./srv/inbxo, workflow: Invoices }',
        '  - { name: share, watch: ./mnt/share/inbox, workflow: Invoices }',
      ].join('\n'),
      { baseDir: root, env: {} },
    );
    await createRuleFolders(config);
    assert.ok(await exists(join(root, 'var', 'inbox', 'own')));
    assert.equal(await exists(join(root, 'srv', 'inbxo')), false, 'a typo is not created');
    assert.equal(await exists(join(root, 'mnt')), false, 'an unmounted share is not created');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

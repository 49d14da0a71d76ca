import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countPages, parsePageRanges } from '../../src/engine/read/index.js';
import { DocumentError } from '../../src/engine/types.js';
import { useFixtureDir, multiPageTiff, textImage, textPdf } from './read-fixtures.js';

describe('countPages', () => {
  const fx = useFixtureDir();

  it('counts PDF pages, TIFF pages, and one page for JPEG/PNG', async () => {
    const line = { text: 'x', x: 72, y: 700, size: 12 };
    assert.equal(await countPages(await fx().file('three.pdf', await textPdf([[line], [line], [line]])), 'pdf'), 3);
    const png = await textImage(['Hi']);
    assert.equal(await countPages(await fx().file('two.tif', await multiPageTiff([png, png])), 'tiff'), 2);
    assert.equal(await countPages(await fx().file('one.png', png), 'png'), 1);
  });

  it('counts pages of an owner-password PDF (restrictions only)', async () => {
    const line = { text: 'x', x: 72, y: 700, size: 12 };
    const path = await fx().file('owner.pdf', await textPdf([[line], [line]], { ownerPassword: 'owner-secret' }));
    assert.equal(await countPages(path, 'pdf'), 2);
  });

  it('fails with DocumentError on a PDF that needs a user password', async () => {
    const line = { text: 'x', x: 72, y: 700, size: 12 };
    const path = await fx().file('locked.pdf', await textPdf([[line]], { userPassword: 'u', ownerPassword: 'o' }));
    await assert.rejects(countPages(path, 'pdf'), (err: Error) => {
      assert.ok(err instanceof DocumentError);
      assert.equal(err.message, 'the PDF is password-protected');
      return true;
    });
  });
});

describe('parsePageRanges', () => {
  it('expands ranges and single pages into sorted unique pages', () => {
    assert.deepEqual(parsePageRanges('7-9,1-3,5,2', 10), [1, 2, 3, 5, 7, 8, 9]);
    assert.deepEqual(parsePageRanges(' 2 - 3 , 1 ', 10), [1, 2, 3]);
  });

  it('drops pages beyond the document', () => {
    assert.deepEqual(parsePageRanges('2-5,9', 3), [2, 3]);
  });

  it('rejects malformed specs with a message showing the accepted form', () => {
    for (const spec of ['', 'a', '1-', '3-1', '0', '1;2', '1-2-3', '-2']) {
      assert.throws(() => parsePageRanges(spec, 10), /'1-3,5,7-9'/, `spec ${JSON.stringify(spec)}`);
    }
  });

  it('rejects a spec that selects no page of the document', () => {
    assert.throws(() => parsePageRanges('5-6', 3), /selects no page: the document has 3 page/);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { countPages, readPages, writeSelectedPages } from '../../src/engine/read/index.js';
import { DocumentError } from '../../src/engine/types.js';
import { useFixtureDir, textPdf } from './read-fixtures.js';

describe('readPages on text-layer PDFs', () => {
  const fx = useFixtureDir();

  it('returns each word with a box in points, origin top-left, where it was printed', async () => {
    // "Invoice number 4711" at x=100, baseline y=700 (bottom-left origin) in 20 pt Helvetica.
    const path = await fx().file('inv.pdf', await textPdf([[{ text: 'Invoice number 4711', x: 100, y: 700, size: 20 }]]));
    const [page] = await readPages(path, 'pdf', { useOcr: false });
    assert.equal(page.source, 'text');
    assert.equal(page.page, 1);
    assert.equal(page.width, 612);
    assert.equal(page.height, 792);
    assert.deepEqual(page.words.map((w) => w.text), ['Invoice', 'number', '4711']);
    const [invoice, number, digits] = page.words;
    const baseline = 792 - 700;
    assert.ok(Math.abs(invoice.x0 - 100) < 1, `x0 ${invoice.x0}`);
    // Helvetica: "Invoice " is 3.446 em wide -> "number" starts at 100 + 68.9; the line is 9.338 em.
    assert.ok(Math.abs(number.x0 - 168.9) < 2, `number x0 ${number.x0}`);
    assert.ok(Math.abs(digits.x1 - 286.8) < 2, `4711 x1 ${digits.x1}`);
    for (const w of page.words) {
      assert.ok(w.y0 < baseline && w.y0 > baseline - 20, `top ${w.y0}`);
      assert.ok(w.y1 > baseline && w.y1 < baseline + 8, `bottom ${w.y1}`);
      assert.equal(w.conf, undefined);
    }
  });

  it('reads only the requested pages, in order', async () => {
    const pages = [1, 2, 3].map((n) => [{ text: `Page ${n}`, x: 72, y: 720, size: 12 }]);
    const path = await fx().file('three.pdf', await textPdf(pages));
    const read = await readPages(path, 'pdf', { useOcr: false, pages: [3, 1] });
    assert.deepEqual(read.map((p) => p.page), [1, 3]);
    assert.deepEqual(read.map((p) => p.words.map((w) => w.text).join(' ')), ['Page 1', 'Page 3']);
  });

  it('reads an owner-password PDF', async () => {
    const path = await fx().file('owner.pdf', await textPdf([[{ text: 'Total 12.50', x: 72, y: 720, size: 12 }]], { ownerPassword: 'o' }));
    const [page] = await readPages(path, 'pdf', { useOcr: false });
    assert.deepEqual(page.words.map((w) => w.text), ['Total', '12.50']);
  });

  it('fails with DocumentError on a user-password PDF', async () => {
    const path = await fx().file('locked.pdf', await textPdf([[{ text: 'x', x: 72, y: 720, size: 12 }]], { userPassword: 'u', ownerPassword: 'o' }));
    await assert.rejects(readPages(path, 'pdf', { useOcr: false }), (err: Error) => err instanceof DocumentError && /password-protected/.test(err.message));
  });

  it('fails with DocumentError on a corrupt PDF, and the reader keeps working afterwards', async () => {
    const good = await textPdf([[{ text: 'Still alive', x: 72, y: 720, size: 12 }]]);
    const corrupt = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4000, 0x41)]);
    const truncated = Buffer.from(good).subarray(0, 200);
    for (const [name, bytes] of [['corrupt.pdf', corrupt], ['truncated.pdf', truncated]] as const) {
      const path = await fx().file(name, bytes);
      await assert.rejects(readPages(path, 'pdf', { useOcr: false }), (err: Error) => {
        assert.ok(err instanceof DocumentError, `${name}: ${err.name}: ${err.message}`);
        assert.match(err.message, /PDF/);
        return true;
      });
    }
    const [page] = await readPages(await fx().file('good.pdf', good), 'pdf', { useOcr: false });
    assert.deepEqual(page.words.map((w) => w.text), ['Still', 'alive']);
  });
});

describe('writeSelectedPages', () => {
  const fx = useFixtureDir();

  it('writes the selected pages of an owner-password PDF as a new PDF', async () => {
    const pages = [1, 2, 3].map((n) => [{ text: `Page ${n}`, x: 72, y: 720, size: 12 }]);
    const src = await fx().file('src.pdf', await textPdf(pages, { ownerPassword: 'o' }));
    const dest = join(fx().dir, 'out.pdf');
    await writeSelectedPages(src, [1, 3], dest);
    assert.equal(await countPages(dest, 'pdf'), 2);
    const read = await readPages(dest, 'pdf', { useOcr: false });
    assert.deepEqual(read.map((p) => p.words.map((w) => w.text).join(' ')), ['Page 1', 'Page 3']);
    const doc = await PDFDocument.load(await readFile(dest));
    assert.equal(doc.getPageCount(), 2);
  });

  it('copies an image file as it is', async () => {
    const src = await fx().file('photo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]));
    const dest = join(fx().dir, 'photo-copy.png');
    await writeSelectedPages(src, [1], dest);
    assert.deepEqual(await readFile(dest), await readFile(src));
  });
});

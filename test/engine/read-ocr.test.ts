import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { readPages } from '../../src/engine/read/index.js';
import { documentLines } from '../../src/engine/layout/lines.js';
import { DocumentError, type PageText } from '../../src/engine/types.js';
import { useFixtureDir, imageOnlyPdf, multiPageTiff, textImage, textPdf } from './read-fixtures.js';

const words = (page: PageText) => page.words.map((w) => w.text.toUpperCase());

describe('readPages with OCR', () => {
  const fx = useFixtureDir();

  it('reads the words of a PNG and a JPEG with confidences and boxes inside the page', async () => {
    for (const format of ['png', 'jpeg'] as const) {
      const path = await fx().file(`receipt.${format}`, await textImage(['TOTAL 42.50', 'INVOICE 8812'], format));
      const [page] = await readPages(path, format, { useOcr: false });
      assert.equal(page.source, 'ocr');
      assert.deepEqual(words(page), ['TOTAL', '42.50', 'INVOICE', '8812'], format);
      for (const w of page.words) {
        assert.ok(w.conf !== undefined && w.conf > 50, `${w.text} conf ${w.conf}`);
        assert.ok(w.x0 >= 0 && w.x1 <= page.width && w.x0 < w.x1, `${w.text} x ${w.x0}..${w.x1} of ${page.width}`);
        assert.ok(w.y0 >= 0 && w.y1 <= page.height && w.y0 < w.y1, `${w.text} y ${w.y0}..${w.y1} of ${page.height}`);
      }
      // The second line sits below the first.
      assert.ok(page.words[2].y0 > page.words[0].y1);
    }
  });

  it('levels a skewed scan before tesseract, so that a table row stays one line', async () => {
    // Item rows 1.5° off level on a 300 dpi scan: each row's amounts end up beside the next row's
    // description unless the page is turned back first.
    const rows = [['Network cable Cat.6, 5 m', '24', '9.49', '227.76'], ['Toner cartridge black', '4', '123.90', '495.60'], ['Coffee beans, 1 kg', '31', '14.25', '441.75'], ['Office chair', '4', '320.00', '1,280.00']];
    const text = rows
      .map((r, i) => `<text x="150" y="${400 + i * 48}" font-size="34" font-family="DejaVu Sans">${r[0]}</text>` + r.slice(1).map((c, k) => `<text x="${1400 + k * 300}" y="${400 + i * 48}" text-anchor="end" font-size="34" font-family="DejaVu Sans">${c}</text>`).join(''))
      .join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2480" height="1200"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
    const skewed = await sharp(await sharp(Buffer.from(svg)).rotate(1.5, { background: '#ffffff' }).png().toBuffer()).withDensity(300).png().toBuffer();
    const path = await fx().file('skewed-scan.png', skewed);
    const lines = documentLines(await readPages(path, 'png', { useOcr: false }), { detectLayout: true }).map((l) => l.text.replace(/\s+/g, ' '));
    for (const r of rows) assert.ok(lines.some((l) => l.startsWith(r[0].split(',')[0]) && l.endsWith(r[3])), `${r.join(' ')} in ${JSON.stringify(lines)}`);
  });

  it('reads pages fed sideways or upside down, by tesseract and by PP-OCR, at the upright page size', async () => {
    const lines = ['INVOICE NUMBER 8812', 'TOTAL AMOUNT 42.50', 'PAYMENT DUE MARCH'];
    const upright = await textImage(lines);
    const want = lines.join(' ');
    const inBounds = (page: PageText) => page.words.every((w) => w.x0 >= 0 && w.x1 <= page.width + 1 && w.y0 >= 0 && w.y1 <= page.height + 1);
    // A scan in an image-only PDF (rendered, tesseract), turned a quarter and half round.
    for (const degrees of [90, 180]) {
      const turned = await sharp(upright).rotate(degrees).png().toBuffer();
      const path = await fx().file(`turned-${degrees}.pdf`, await imageOnlyPdf(turned));
      const [page] = await readPages(path, 'pdf', { useOcr: false });
      assert.equal(words(page).join(' '), want, `scan turned ${degrees}°`);
      // The page as read is the upright one: wider than high, like the image before it was turned.
      assert.ok(page.width > page.height, `scan turned ${degrees}°: ${page.width} x ${page.height}`);
      assert.ok(inBounds(page), `scan turned ${degrees}°: words inside the page`);
    }
    // A photo without a resolution or orientation tag (PP-OCR), turned the other quarter and half round.
    for (const degrees of [270, 180]) {
      const path = await fx().file(`photo-${degrees}.jpg`, await sharp(upright).rotate(degrees).jpeg({ quality: 92 }).toBuffer());
      const [page] = await readPages(path, 'jpeg', { useOcr: false });
      assert.equal(words(page).join(' '), want, `photo turned ${degrees}°`);
      assert.ok(page.width > page.height && inBounds(page), `photo turned ${degrees}°: ${page.width} x ${page.height}`);
    }
  });

  it('renders and reads an image-only PDF page, in PDF points', async () => {
    const png = await textImage(['PAYMENT DUE 17.03']);
    const path = await fx().file('scan.pdf', await imageOnlyPdf(png));
    const [page] = await readPages(path, 'pdf', { useOcr: false });
    assert.equal(page.source, 'ocr');
    assert.deepEqual(words(page), ['PAYMENT', 'DUE', '17.03']);
    // The 1400 px wide image was placed at 150 dpi: 672 pt.
    assert.equal(Math.round(page.width), 672);
    // "PAYMENT" starts 60 px (28.8 pt) from the left edge.
    assert.ok(Math.abs(page.words[0].x0 - 28.8) < 6, `x0 ${page.words[0].x0}`);
  });

  it('reads every page of a multi-page TIFF', async () => {
    const tiff = await multiPageTiff([await textImage(['FIRST PAGE']), await textImage(['SECOND PAGE'])]);
    const path = await fx().file('two.tif', tiff);
    const pages = await readPages(path, 'tiff', { useOcr: false });
    assert.deepEqual(pages.map((p) => p.page), [1, 2]);
    assert.deepEqual(pages.map(words), [['FIRST', 'PAGE'], ['SECOND', 'PAGE']]);
    const second = await readPages(path, 'tiff', { useOcr: false, pages: [2] });
    assert.deepEqual(second.map(words), [['SECOND', 'PAGE']]);
  });

  it('OCRs a text-layer PDF when useOcr is true', async () => {
    const path = await fx().file('text.pdf', await textPdf([[{ text: 'AMOUNT 99.10', x: 72, y: 700, size: 28 }]]));
    const [page] = await readPages(path, 'pdf', { useOcr: true });
    assert.equal(page.source, 'ocr');
    assert.deepEqual(words(page), ['AMOUNT', '99.10']);
    assert.equal(page.width, 612);
    // Same place as the text layer says, within a few points.
    const [text] = await readPages(path, 'pdf', { useOcr: false });
    assert.ok(Math.abs(page.words[0].x0 - text.words[0].x0) < 4, `${page.words[0].x0} vs ${text.words[0].x0}`);
  });

  it('fails with DocumentError on a truncated PNG and reads the next image fine', async () => {
    const png = await textImage(['GOOD IMAGE']);
    const truncated = await fx().file('cut.png', png.subarray(0, Math.floor(png.length / 3)));
    await assert.rejects(readPages(truncated, 'png', { useOcr: false }), (err: Error) => {
      assert.ok(err instanceof DocumentError, `${err.name}: ${err.message}`);
      assert.match(err.message, /image could not be decoded/);
      return true;
    });
    const [page] = await readPages(await fx().file('good.png', png), 'png', { useOcr: false });
    assert.deepEqual(words(page), ['GOOD', 'IMAGE']);
  });

  it('reads coloured print on a scan as ink, and black print on a highlighter mark', async () => {
    // A 300-dpi scan (tesseract's path): mostly black print, one line in orange, one highlighted.
    const rows: [string, string, string?][] = [
      ['Account Summary 2024', 'black'],
      ['Service Charges 4.11', 'black'],
      ['Data Transfer 0.01', '#f7941d'],
      ['Credits 0.00', 'black'],
      ['Tax 0.00', 'black', '#ffff40'],
      ['Total for this invoice 4.11', 'black'],
    ];
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="2480" height="${200 + rows.length * 90}"><rect width="100%" height="100%" fill="white"/>` +
      rows
        .map(([text, fill, mark], i) =>
          (mark ? `<rect x="140" y="${105 + i * 90}" width="700" height="60" fill="${mark}"/>` : '') +
          `<text x="150" y="${150 + i * 90}" font-size="42" font-family="DejaVu Sans, sans-serif" fill="${fill}">${text}</text>`,
        )
        .join('') +
      '</svg>';
    const png = await sharp(Buffer.from(svg)).withMetadata({ density: 300 }).png().toBuffer();
    const [page] = await readPages(await fx().file('scan.png', png), 'png', { useOcr: false });
    const read = words(page).join(' ');
    for (const [text] of rows) assert.ok(read.includes(text.toUpperCase()), `"${text}" in "${read}"`);
  });
});

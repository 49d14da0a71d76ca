import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { readPages } from '../../src/engine/read/index.js';
import { prepareImageFile } from '../../src/engine/read/image-prep.js';
import { ctcDecode, lineInk, lineWords, textRegions, type CtcChar } from '../../src/engine/read/ppocr-post.js';
import { useFixtureDir } from './read-fixtures.js';

describe('PP-OCR post-processing', () => {
  it('finds text regions in a probability map, grown back, without specks or faint blobs', () => {
    const w = 40, h = 20;
    const prob = new Float32Array(w * h);
    const fill = (x0: number, y0: number, x1: number, y1: number, p: number) => {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) prob[y * w + x] = p;
    };
    fill(2, 2, 20, 6, 0.9); // a line of text
    fill(2, 10, 30, 14, 0.8); // another
    fill(35, 2, 37, 4, 0.9); // a 2 px speck
    fill(25, 2, 32, 6, 0.4); // above the pixel threshold, below the region one
    const boxes = textRegions(prob, w, h).sort((a, b) => a.y0 - b.y0);
    assert.equal(boxes.length, 2);
    // 18x4 kernel, unclip distance 18*4*1.5/44 = 2.45 on each side.
    assert.ok(Math.abs(boxes[0].x0 - (2 - 2.45)) < 0.01 || boxes[0].x0 === 0);
    assert.ok(Math.abs(boxes[0].y1 - (6 + 2.45)) < 0.01, `y1 ${boxes[0].y1}`);
    assert.ok(boxes[1].y0 > boxes[0].y0);
  });

  it('decodes CTC output: best class per step, repeats merged, blanks dropped', () => {
    const dict = ['a', 'b', ' '];
    const classes = dict.length + 1;
    const steps = [1, 1, 0, 1, 2, 0, 3, 2];
    const out = new Float32Array(steps.length * classes);
    steps.forEach((c, s) => (out[s * classes + c] = 0.9));
    const chars = ctcDecode(out, 0, steps.length, classes, dict);
    assert.equal(chars.map((c) => c.char).join(''), 'aab b');
    assert.deepEqual(chars.map((c) => c.step), [0, 3, 4, 6, 7]);
  });

  it('finds ink columns even where strokes are faint', () => {
    const w = 12, h = 4;
    const gray = new Uint8Array(w * h).fill(250);
    for (let y = 0; y < h; y++) {
      gray[y * w + 2] = 20; // dark stroke
      gray[y * w + 8] = 150; // faint stroke, lighter than halfway to the paper
    }
    assert.deepEqual(lineInk(gray, w, h), { x0: 2, x1: 8, gaps: [[3, 8]] });
    assert.equal(lineInk(new Uint8Array(w * h).fill(200), w, h), null);
  });

  // A fixed-pitch line: characters 20 px apart, one CTC step per 10 px.
  const line = (text: string) => {
    const chars: CtcChar[] = [];
    const gaps: [number, number][] = [];
    let x = 0;
    for (const ch of text) {
      if (ch === ' ') {
        x += 20;
        continue;
      }
      chars.push({ char: ch, step: Math.floor((x + 10) / 10), prob: 0.9 });
      x += 20;
    }
    return { chars, x };
  };
  const words = (text: string, gaps: [number, number][]) => {
    const { chars, x } = line(text);
    return lineWords(chars, { x0: 2, x1: x - 2, gaps }, 10, x).map((w) => w.text);
  };

  it('splits words at wide blank runs the recogniser left without a space', () => {
    // "TOTAL 9.00": the space's 20 px plus the side bearings.
    assert.deepEqual(words('TOTAL 9.00', [[96, 124]]), ['TOTAL', '9.00']);
    // Narrow blanks between letters are not spaces.
    assert.deepEqual(words('TOTAL', [[18, 22], [38, 42]]), ['TOTAL']);
  });

  /** A line laid out glyph by glyph: [char, ink width, blank after] ('_' = a space the recogniser printed); one CTC step per px. */
  const laidOut = (glyphs: [string, number, number][]) => {
    const chars: CtcChar[] = [];
    const gaps: [number, number][] = [];
    let x = 0;
    for (const [i, [ch, ink, blank]] of glyphs.entries()) {
      if (ch === '') {
        // Stray ink the recogniser read as nothing.
        x += ink + blank;
        continue;
      }
      if (ch === '_') {
        // The recogniser's space sits in the blank before it.
        chars.push({ char: ' ', step: Math.round(x - glyphs[i - 1][2] / 2), prob: 0.9 });
        continue;
      }
      chars.push({ char: ch, step: Math.round(x + ink / 2), prob: 0.9 });
      x += ink;
      if (blank > 0 && i < glyphs.length - 1) gaps.push([x, x + blank]);
      x += blank;
    }
    return lineWords(chars, { x0: 0, x1: x - 1, gaps }, 1, x).map((w) => w.text);
  };
  const glyphs = (text: string, ink: number, blank: number, wider: Record<number, number> = {}): [string, number, number][] =>
    [...text].map((ch, i) => [ch, ink, wider[i] ?? blank]);

  it("splits a bold heading's narrow word gap, four times its letter gaps, where the recogniser printed no space", () => {
    // 22 px letters 2 px apart, the word gap 11 px: 0.44 of the pitch, under the 0.6 of a sure space.
    assert.deepEqual(laidOut(glyphs('THANKYOU', 22, 2, { 4: 11 })), ['THANK', 'YOU']);
    assert.deepEqual(laidOut(glyphs('TAXINVOICE', 16, 1, { 2: 8 })), ['TAX', 'INVOICE']);
  });

  it("takes the line's printed spaces as its word spacing: a letter gap half as wide is not a space", () => {
    // Fixed-pitch print, spaces 24 px: the 12 px blank after the L (its thin foot lost) is a letter gap.
    assert.deepEqual(laidOut(glyphs('GOODS_SOLD_ARE', 16, 4, { 4: 24, 9: 24, 8: 12 })), ['GOODS', 'SOLD', 'ARE']);
    // Where the printed spaces are as narrow, such a blank is a space.
    assert.deepEqual(laidOut(glyphs('GOODS_SOLDARE', 16, 4, { 4: 12, 9: 12 })), ['GOODS', 'SOLD', 'ARE']);
  });

  it('does not cut a lone letter off a word at a narrow blank, nor split at a blank past the last letter', () => {
    // 3 px letter gaps, 9 px after the L: wide enough for a space of this line, but it would leave "D" alone.
    assert.deepEqual(laidOut(glyphs('SOLD', 17, 3, { 2: 9 })), ['SOLD']);
    assert.deepEqual(laidOut(glyphs('AGAIN', 17, 3, { 3: 9 })), ['AGAIN']);
    // A blank between the last letter and a speck of stray ink after it.
    assert.deepEqual(laidOut([...glyphs('PAID', 17, 3, { 3: 30 }), ['', 3, 0]]), ['PAID']);
    // "a", "I", "x" stand alone as words: "2 x".
    assert.deepEqual(laidOut(glyphs('2x350', 17, 3, { 0: 9, 1: 9 })), ['2', 'x', '350']);
  });

  it('keeps numbers whole across the blank of a narrow glyph', () => {
    // The blank on either side of '.' and '/' and around a '1' is wide in a fixed-pitch font.
    assert.deepEqual(words('86.00', [[42, 55], [65, 78]]), ['86.00']);
    assert.deepEqual(words('5/3/2018', [[22, 35], [45, 58], [105, 118]]), ['5/3/2018']);
    // Two digits a space apart are two words.
    assert.deepEqual(words('2018 8:13', [[76, 104]]), ['2018', '8:13']);
  });

  it("ends a word after a label's colon the recogniser glued to its value, but not inside times or addresses", () => {
    assert.deepEqual(words('InvoiceNo:#BLR_20151', []), ['InvoiceNo:', '#BLR_20151']);
    assert.deepEqual(words('Date:25/12/2018', []), ['Date:', '25/12/2018']);
    assert.deepEqual(words('12:46', []), ['12:46']);
    assert.deepEqual(words('http://shop.example', []), ['http://shop.example']);
    assert.deepEqual(words('Total:', []), ['Total:']);
  });
});

describe('readPages on a small photo (PP-OCR)', () => {
  const fx = useFixtureDir();

  it('reads a receipt-sized grey photo in fixed-pitch print, numbers and dates whole', async () => {
    const lines = ['CASH BILL', 'DATE 25/12/2018 8:13', 'TOTAL RM 19.50'];
    const text = lines
      .map((l, i) => `<text x="30" y="${60 + i * 50}" font-size="28" font-family="DejaVu Sans Mono, monospace" fill="#222">${l}</text>`)
      .join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="220"><rect width="100%" height="100%" fill="#e8e4dc"/>${text}</svg>`;
    const path = await fx().file('receipt.jpg', await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer());
    const [page] = await readPages(path, 'jpeg', { useOcr: false });
    assert.equal(page.source, 'ocr');
    assert.deepEqual(
      page.words.map((w) => w.text.toUpperCase()),
      ['CASH', 'BILL', 'DATE', '25/12/2018', '8:13', 'TOTAL', 'RM', '19.50'],
    );
    for (const w of page.words) {
      assert.ok(w.x0 >= 0 && w.x1 <= page.width && w.x0 < w.x1, `${w.text} x ${w.x0}..${w.x1} of ${page.width}`);
      assert.ok(w.conf !== undefined && w.conf > 50, `${w.text} conf ${w.conf}`);
    }
    // Words keep their left-to-right order and do not overlap.
    const total = page.words.slice(-3);
    assert.ok(total[0].x1 <= total[1].x0 && total[1].x1 <= total[2].x0, JSON.stringify(total));
  });

  it('detects small, closely set print on a large scan at a finer scale, so that each line is read alone', async () => {
    // A receipt scanned at 1080 x 1527 px whose print is ~9 px high on 17 px lines: seen at the
    // detector's usual 960 px, each box took in its neighbours and the recogniser dropped letters.
    const lines = ['HARBOUR STATIONERY SDN BHD', '05 Mar 2018 18:24', '(123456-U)', '12, Jalan Perindustrian 7/4, Kawasan Perindustrian', 'Tampoi, 81200 Johor Bahru, Johor', 'TAX INVOICE'];
    const text = lines
      .map((l, i) => `<text x="540" y="${400 + i * 17}" text-anchor="middle" font-size="13" fill="#444" font-family="DejaVu Sans, sans-serif">${l}</text>`)
      .join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1527"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
    const path = await fx().file('small-print.jpg', await sharp(Buffer.from(svg)).blur(0.7).jpeg({ quality: 60 }).toBuffer());
    const [page] = await readPages(path, 'jpeg', { useOcr: false });
    const folded = page.words.map((w) => w.text.toLowerCase().replace(/[^a-z0-9]/g, '')).join('');
    assert.ok(folded.includes('tampoi81200johorbahrujohor'), folded);
    assert.ok(folded.includes('harbourstationerysdnbhd'), folded);
  });

  const largeImage = (density: number) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2200" height="300"><rect width="100%" height="100%" fill="white"/><text x="80" y="180" font-size="90" font-family="DejaVu Sans, sans-serif">INVOICE 4711</text></svg>`;
    return sharp(Buffer.from(svg)).withMetadata({ density }).png().toBuffer();
  };

  it('leaves large images that state a scanner resolution (scans) to tesseract, which reads them at their own size', async () => {
    const path = await fx().file('scan.png', await largeImage(300));
    assert.equal((await prepareImageFile(path, 0)).engine, 'tesseract');
    const [page] = await readPages(path, 'png', { useOcr: false });
    assert.deepEqual(page.words.map((w) => w.text), ['INVOICE', '4711']);
  });

  it('sends a till roll\'s scan (twice as tall as wide) to PP-OCR, whatever resolution it states', async () => {
    const rows = ['SUNSHINE MART', 'RICE 5KG 12.95', 'MILK 1L 7.00', 'TOTAL 19.95'];
    const text = rows.map((r, i) => `<text x="60" y="${300 + i * 400}" font-size="60" font-family="DejaVu Sans Mono, monospace">${r}</text>`).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="2100"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
    const path = await fx().file('till-roll.png', await sharp(Buffer.from(svg)).withMetadata({ density: 200 }).png().toBuffer());
    assert.equal((await prepareImageFile(path, 0)).engine, 'ppocr');
    const [page] = await readPages(path, 'png', { useOcr: false });
    assert.deepEqual(page.words.map((w) => w.text).slice(-2), ['TOTAL', '19.95']);
  });

  it('sends a large image without a credible resolution (a phone photo, 72 dpi or none) to PP-OCR', async () => {
    const path = await fx().file('photo.png', await largeImage(72));
    const image = await prepareImageFile(path, 0);
    assert.equal(image.engine, 'ppocr');
    assert.deepEqual([image.width, image.height, image.scale], [2200, 300, 1]);
    const [page] = await readPages(path, 'png', { useOcr: false });
    assert.deepEqual(page.words.map((w) => w.text), ['INVOICE', '4711']);
  });

  it('scales a photo larger than 4000 px down for PP-OCR, words still in the page\'s own coordinates', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="6000" height="800"><rect width="100%" height="100%" fill="white"/><text x="200" y="500" font-size="240" font-family="DejaVu Sans, sans-serif">TOTAL 19.50</text></svg>`;
    const path = await fx().file('big-photo.jpg', await sharp(Buffer.from(svg)).jpeg().toBuffer());
    const image = await prepareImageFile(path, 0);
    assert.ok(image.engine === 'ppocr' && image.grayWidth === 4000 && image.grayHeight === 533, JSON.stringify({ ...image, gray: undefined }));
    assert.deepEqual([image.width, image.height], [6000, 800]);
    const [page] = await readPages(path, 'jpeg', { useOcr: false });
    assert.deepEqual(page.words.map((w) => w.text), ['TOTAL', '19.50']);
    // The words lie where they were drawn: from x = 200 of 6000 px to about 1800 (11 characters of 240 px type).
    const [first, last] = [page.words[0], page.words[page.words.length - 1]];
    assert.ok(Math.abs(first.x0 / page.width - 200 / 6000) < 0.02, `x0 ${first.x0} of ${page.width}`);
    assert.ok(Math.abs(last.x1 / page.width - 1800 / 6000) < 0.04, `x1 ${last.x1} of ${page.width}`);
  });
});

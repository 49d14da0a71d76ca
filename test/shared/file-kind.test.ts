import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  contentTypeOfFile,
  detectFileKind,
  extensionOf,
  isFileKind,
  kindOfFileName,
  kindOfMimeType,
  mimeTypeOf,
  type FileKind,
} from '../../src/shared/file-kind.js';
import { useFixtureDir, multiPageTiff, textImage, textPdf } from '../engine/read-fixtures.js';

const hello = () => textPdf([[{ text: 'Hello', x: 72, y: 700, size: 12 }]]);

describe('detectFileKind', () => {
  const fx = useFixtureDir();

  it('tells PDF, JPEG, PNG and TIFF (both byte orders) from the bytes, whatever the file is named', async () => {
    const png = await textImage(['Hi']);
    assert.equal(await detectFileKind(await fx().file('scan.jpg', await hello())), 'pdf');
    assert.equal(await detectFileKind(await fx().file('a.pdf', png)), 'png');
    assert.equal(await detectFileKind(await fx().file('b.png', await textImage(['Hi'], 'jpeg'))), 'jpeg');
    assert.equal(await detectFileKind(await fx().file('c', await multiPageTiff([png, png]))), 'tiff');
    assert.equal(await detectFileKind(await fx().file('d', Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]))), 'tiff');
  });

  it('recognises a PDF whose %PDF- header starts within the first 1024 bytes, and not later', async () => {
    const pdf = Buffer.from(await hello());
    const after = (junk: number) => fx().file(`junk-${junk}`, Buffer.concat([Buffer.alloc(junk, 0x20), pdf]));
    assert.equal(await detectFileKind(await after(600)), 'pdf');
    assert.equal(await detectFileKind(await after(1024)), 'pdf');
    assert.equal(await detectFileKind(await after(1025)), null);
  });

  it('reads an image signature only at byte 0, before looking for a PDF header', async () => {
    const jpegWithPdfText = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(' %PDF-1.7 ')]);
    assert.equal(await detectFileKind(await fx().file('odd.jpg', jpegWithPdfText)), 'jpeg');
    const shifted = Buffer.concat([Buffer.from(' '), await textImage(['Hi'])]);
    assert.equal(await detectFileKind(await fx().file('shifted.png', shifted)), null);
  });

  it('returns null for a text file named .pdf and for an empty file', async () => {
    assert.equal(await detectFileKind(await fx().file('notes.pdf', 'just some text, no PDF header here\n'.repeat(100))), null);
    assert.equal(await detectFileKind(await fx().file('empty', '')), null);
  });
});

describe('MIME types and extensions', () => {
  const kinds: [FileKind, string, string][] = [
    ['pdf', 'application/pdf', '.pdf'],
    ['jpeg', 'image/jpeg', '.jpg'],
    ['png', 'image/png', '.png'],
    ['tiff', 'image/tiff', '.tif'],
  ];

  it('maps each kind to its MIME type and back, ignoring case and parameters', () => {
    for (const [kind, mime] of kinds) {
      assert.equal(mimeTypeOf(kind), mime);
      assert.equal(kindOfMimeType(mime), kind);
    }
    assert.equal(kindOfMimeType('Application/PDF; name="invoice.pdf"'), 'pdf');
    assert.equal(kindOfMimeType('image/gif'), null);
  });

  it('names a file of each kind with its usual extension, and reads every extension a kind is known by', () => {
    for (const [kind, , ext] of kinds) assert.equal(extensionOf(kind), ext);
    assert.deepEqual(
      ['a.pdf', 'B.JPG', 'c.jpeg', 'd.png', 'e.tif', 'f.TIFF', 'g.docx', 'no-extension'].map(kindOfFileName),
      ['pdf', 'jpeg', 'jpeg', 'png', 'tiff', 'tiff', null, null],
    );
  });

  it('accepts only the four kind names as a kind', () => {
    assert.deepEqual(['pdf', 'jpeg', 'png', 'tiff', 'jpg', 'PDF', ''].map(isFileKind), [true, true, true, true, false, false, false]);
  });
});

describe('contentTypeOfFile', () => {
  const fx = useFixtureDir();

  it('takes the Content-Type from the bytes first, then the extension, else application/octet-stream', async () => {
    const junkThenPdf = Buffer.concat([Buffer.from('\r\n\r\n'), Buffer.from(await hello())]);
    assert.equal(await contentTypeOfFile(await fx().file('scan', junkThenPdf)), 'application/pdf');
    assert.equal(await contentTypeOfFile(await fx().file('photo.pdf', Buffer.from([0xff, 0xd8, 0xff, 0xe0]))), 'image/jpeg');
    assert.equal(await contentTypeOfFile(await fx().file('cut-short.tiff', 'not yet written')), 'image/tiff');
    assert.equal(await contentTypeOfFile(await fx().file('notes.txt', 'plain text')), 'application/octet-stream');
  });
});

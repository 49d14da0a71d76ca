// Renders an e-mail's text body as a plain text-layer PDF, so it goes through the same extraction path as
// any uploaded PDF: the service's inbound e-mail (parse_email_body) and the daemon's mailboxes
// (filter.parse_body) both use it, hence shared/. Helvetica (WinAnsi): characters it cannot encode become '?'.
import { PDFDocument, StandardFonts, type PDFFont } from '@cantoo/pdf-lib';
import type { ParsedMail } from 'mailparser';

const PAGE = { width: 595, height: 842, margin: 50 };
const SIZE = 10;
const LEADING = 14;

/**
 * The mail's text body (mailparser derives it from the HTML part when there is no text part) under a
 * From/Subject/Date header, as a PDF, and a file name from the subject; null when the body is empty.
 */
export async function mailBodyPdf(mail: ParsedMail): Promise<{ fileName: string; pdf: Uint8Array } | null> {
  const body = (mail.text ?? '').trim();
  if (!body) return null;
  const header = [`From: ${mail.from?.text ?? ''}`, `Subject: ${mail.subject ?? ''}`, `Date: ${mail.date?.toISOString() ?? ''}`, ''];
  const fileName = `${(mail.subject ?? 'e-mail').replace(/[^\w.-]+/g, '_').slice(0, 60) || 'e-mail'}.pdf`;
  return { fileName, pdf: await textToPdf([...header, ...body.split(/\r?\n/)]) };
}

async function textToPdf(lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const maxWidth = PAGE.width - 2 * PAGE.margin;
  const supported = new Set(font.getCharacterSet());
  const encodable = (text: string) => [...text].map((ch) => (supported.has(ch.codePointAt(0)!) ? ch : '?')).join('');
  const wrapped = lines.flatMap((l) => wrap(encodable(l.replace(/\t/g, '    ')), font, maxWidth));
  const perPage = Math.floor((PAGE.height - 2 * PAGE.margin) / LEADING);
  for (let i = 0; i < Math.max(1, wrapped.length); i += perPage) {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    wrapped.slice(i, i + perPage).forEach((text, n) => {
      if (text) page.drawText(text, { x: PAGE.margin, y: PAGE.height - PAGE.margin - (n + 1) * LEADING, size: SIZE, font });
    });
  }
  return pdf.save();
}

/** Greedy word wrap at maxWidth; words longer than a line are cut. */
function wrap(text: string, font: PDFFont, maxWidth: number): string[] {
  const fits = (s: string) => font.widthOfTextAtSize(s, SIZE) <= maxWidth;
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/ +/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) out.push(line);
    let rest = word;
    while (!fits(rest)) {
      let cut = rest.length - 1;
      while (cut > 1 && !fits(rest.slice(0, cut))) cut--;
      out.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  out.push(line);
  return out;
}

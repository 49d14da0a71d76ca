// Evidence of who issues a document beyond its letterhead: the issuer's legal mention (capital,
// register, registered office), the payee of the payment, a department after the name in the sender
// block, and the buyer's name printed again under a subscriber or guest label.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDefinition } from '../../src/api/types.js';
import { extractFields } from '../../src/engine/builtin/extract-fields.js';
import { registeredName } from '../../src/engine/builtin/issuer/legal-register.js';
import { cleanName, nameEvidence } from '../../src/engine/builtin/letterhead.js';
import { cueOf, payeeOf } from '../../src/engine/builtin/issuer/party-cues.js';
import { documentLines } from '../../src/engine/layout/lines.js';
import type { PageText } from '../../src/engine/types.js';
import { makePage, type FixtureLine } from './page-fixture.js';

const VENDOR: FieldDefinition = { name: 'vendor', type: 'text', description: 'Name of the seller issuing the invoice' };
const read = (page: PageText) => extractFields({ pages: [page], fields: [VENDOR], dateFormat: null, detectLayout: true, detectTables: false }).data.vendor;

/** A text-layer page whose lines `big` are printed `by` times as tall. */
function page(lines: FixtureLine[], big: number[] = [], by = 1.3): PageText {
  const p = makePage(lines);
  for (const w of p.words) if (big.includes(Math.round((w.y0 - 50) / 14))) w.y1 = w.y0 + 10 * by;
  return p;
}
/** Item rows that push what follows past the letterhead, into the small print. */
const items = (n: number): FixtureLine[] => Array.from({ length: n }, (_, i) => [[50, `Item ${i + 1}`], [400, `${i + 2}.00`]] as [number, string][]);

test('the name opening a legal mention is read from it, with the running text and the register words cut off', () => {
  const lines = (texts: string[]) => documentLines([makePage(texts)], { detectLayout: true });
  const name = (texts: string[]) => {
    const l = lines(texts);
    return registeredName(l[0], l[1]);
  };
  assert.equal(name(['Nimbus SAS au capital de 2.000.000 € − RCS Lyon B 123 456 789 − Siège social: 3 rue Neuve 69001 Lyon']), 'Nimbus SAS');
  assert.equal(name(['Kestrel Systems Ltd is registered in England and Wales No. 01234567']), 'Kestrel Systems Ltd');
  assert.equal(name(['Blauwal Technik GmbH · Hafenstraße 3 · 20457 Hamburg · Amtsgericht Hamburg HRB 12345']), 'Blauwal Technik GmbH');
  assert.equal(name(['Seaview Stays Private Limited', 'Registered Office: 14 Harbour Road, Kochi 682001']), 'Seaview Stays Private Limited');
  // No legal form: a register entry alone does not say whose name comes before it.
  assert.equal(name(['Our shop is registered in England']), null);
  assert.equal(name(['Bankverbindung: Nordbank AG, Sitz Frankfurt, IBAN DE12 5005 0000 0123 4567 89']), null);
  assert.equal(name(['Seaview Stays Private Limited', '14 Harbour Road, Kochi 682001']), null);
});

test('a footer legal mention names the seller when the top of the page holds no name', () => {
  const p = page([
    'Statement of account',
    [[50, 'Invoice No: 5521'], [400, 'Date: 04.03.2024']],
    ...items(14),
    '',
    'Kestrel Systems Ltd is registered in England and Wales No. 01234567. Registered office: 1 Dock Road, Hull HU1 1AA',
  ]);
  assert.equal(read(p), 'Kestrel Systems Ltd');
});

/** A sender block: the company's brand with the department to write to, over its postcode and town. */
const SENDER: FixtureLine[] = ['Nimbus Service Clients', '69001 Lyon Cedex', ''];

test('the buyer named again under a subscriber label is not the seller; the sender without its department is', () => {
  const p = page([
    ...SENDER,
    [[300, 'Jean Martin']],
    [[300, '12 rue des Lilas']],
    [[300, '38000 Grenoble']],
    '',
    [[50, 'Adresse email de contact'], [300, 'Nom de l’abonné']],
    [[50, 'jean@example.org'], [300, 'Jean Martin']],
    'Facture n° 77120 du 02 juillet 2024',
  ], [3, 4, 5]);
  assert.equal(read(p), 'Nimbus');
});

test('the letterhead brand is given for the company whose legal mention is in the footer, though the mention is the stronger evidence', () => {
  // The sender block is small print beside the title, so the legal mention outscores it by far.
  const p = page([
    ...SENDER,
    'Facture n° 77120 du 02 juillet 2024',
    ...items(14),
    'Nimbus SAS au capital de 2.000.000 € − RCS Lyon B 123 456 789 − Siège social: 3 rue Neuve 69001 Lyon − N° de TVA FR 12 123456789',
  ], [3], 2);
  assert.equal(read(p), 'Nimbus');
});

/** The head of a payment receipt: its title and the booking's number and payment mode (a value that is no name). */
const RECEIPT_HEAD: FixtureLine[] = ['PAYMENT RECEIPT', [[50, 'Booking ID'], [300, 'Payment Mode']], [[50, 'BK2087'], [300, 'Cash at Desk']]];

test('the payee named after "Payment received by" is the seller, also a short name; a guest is the buyer', () => {
  const p = page([
    ...RECEIPT_HEAD,
    [[50, 'Guest Name: Jane Roe'], [400, 'Date: 31/12/2023']],
    [[50, 'Grand Total'], [400, '1939.00']],
    [[50, 'Payment received by ZEN'], [300, 'Paid through Cash']],
  ]);
  assert.equal(read(p), 'ZEN');
});

test('the account holder after "in favour of" is the seller, written out or abbreviated the same company', () => {
  const p = page([
    ...RECEIPT_HEAD,
    'Note: all payments to be made in favour of',
    'Seaview Stays Pvt. Ltd.',
    ...items(10),
    'Seaview Stays Private Limited',
    'Registered Office: 14 Harbour Road, Kochi 682001',
  ]);
  assert.equal(read(p), 'Seaview Stays Pvt. Ltd.');
});

test('a subscriber or guest label heads the buyer; the account holder of the bank details does not', () => {
  assert.deepEqual(cueOf('Nom de l’abonné'), { party: 'buyer', inline: null });
  assert.deepEqual(cueOf('Guest Name: Jane Roe'), { party: 'buyer', inline: 'Jane Roe' });
  assert.deepEqual(cueOf('Subscriber:'), { party: 'buyer', inline: null });
  assert.equal(cueOf('Account holder: Kestrel Systems Ltd'), null);
  assert.equal(cueOf('Kontoinhaber: Kestrel GmbH'), null);
  assert.deepEqual(payeeOf('Cheques payable to Kestrel Systems Ltd'), { party: 'seller', inline: 'Kestrel Systems Ltd' });
  assert.equal(payeeOf('Goods received by: J. Smith'), null);
});

test('a register or bank entry or a code is no name: it scores below a plain name ("RCS de Lyon n° 437 254 427", "SIRET …", "IBAN …", a BIC)', () => {
  const lines = documentLines(
    [makePage(['Bricoloisirs', 'RCS de Lyon n° 437 254 427', 'SIRET 437 254 437 00173', 'IBAN FR76 4025 4025 4765 0112 4785 358', 'HRB 6089', 'BUKBGB22', 'CF-P1EU', 'XK-P!EU'])],
    { detectLayout: true },
  );
  const [name, ...entries] = lines.map((l) => nameEvidence(l.text, l));
  for (const [i, e] of entries.entries()) assert.ok(e < name && e < 0, `${lines[i + 1].text}: ${e} < ${name}`);
});

test('a seller printed only as a logo: the footer name before its Org.nr is the seller, not the buyer block; a brand gives the legal name its mention shares a word with', () => {
  const swedish = page([
    'FAKTURA',
    'Fakturanummer 10234',
    'Fakturadatum 2023-07-19',
    'Bryggeriet Öster & Co AB',
    'Att: Ekonomiavdelningen',
    'Bergsgatan 8',
    '753 20 Uppsala',
    [[50, 'Konsulttjänster'], [480, '25 692,50']],
    [[300, 'Att betala'], [480, '32 115,63 SEK']],
    [[50, 'Nordljus Konsult AB'], [200, 'Tel. 08-411 87 20'], [380, 'Org.nr 559118-4471']],
    [[50, 'Sveavägen 44'], [200, 'info@nordljus.se'], [380, 'Momsreg.nr SE559118447101']],
  ]);
  assert.equal(read(swedish), 'Nordljus Konsult AB');
  // The guest's company two lines under the hotel's brand is not the hotel's legal name.
  const hotel = page([
    'HOTEL BELLAVISTA FIRENZE',
    'Lungarno Acciaiuoli 12 · 50123 Firenze',
    [[50, 'Vanterra Consulting GmbH'], [350, 'Fattura n. 1187/2024']],
    [[50, 'Maximilianstraße 35'], [350, 'Camera 304']],
    [[50, '80539 München'], [350, 'Data fattura 20/01/2024']],
    [[50, 'Pernottamento camera Superior'], [480, '229,00']],
    [[300, 'Totale'], [480, '687,00']],
    'Bellavista Ospitalità S.r.l. · REA FI-601122 · Cap. soc. € 50.000 i.v. · P.IVA 06172840481',
  ], [0], 2);
  assert.equal(read(hotel), 'Bellavista Ospitalità S.r.l.');
});

test('an Austrian or Swiss legal mention (Firmenbuch number, CHE number) names the company behind a hotel brand', () => {
  for (const [footer, want] of [
    ['Alpenrose Hotelbetriebs GmbH · UID ATU 63927714 · IBAN AT61 1904 3002 3457 3201 · FN 287441 h', 'Alpenrose Hotelbetriebs GmbH'],
    ['Seeblick Hotel AG · CHE-112.348.901 MWST · IBAN CH93 0076 2011 6238 5295 7', 'Seeblick Hotel AG'],
  ]) {
    const brand = want.startsWith('Alpen') ? 'Hotel Alpenrose' : 'Hotel Seeblick Luzern';
    const p = page([brand, 'Dorfstraße 12', [[50, 'Herrn Markus Feld'], [350, 'Rechnung Nr. 2024-0412']], [[50, 'Übernachtung Doppelzimmer'], [480, '420,00']], [[300, 'Gesamt'], [480, '448,40']], footer], [0], 2);
    assert.equal(read(p), want);
  }
});

test('the addressee beside the letterhead is not the seller; a web address with a legal form is a name', () => {
  // Seller left, the buyer with his form of address right, on the same line; the seller's name is a web address with a legal form.
  const twoColumns = page([
    [[50, 'shopwise.com b.v.'], [330, 'Dhr. K. de Vries']],
    [[50, 'Stationsweg 100, 3511 BJ Utrecht'], [330, 'Kerkstraat 4']],
    [[50, 'KvK Utrecht: 30114482'], [330, '1216 JD Hilversum']],
    [[50, 'BTW nr.: NL801234567B01'], [330, 'Factuur 2024-0117']],
    ...items(3),
  ], [0]);
  assert.equal(read(twoColumns), 'shopwise.com b.v.');
  for (const person of ['Mrs Jane Roe', 'Herrn Max Muster', 'M. Jean Dupont']) {
    const p = page([[[50, 'Kestrel Print Works'], [330, person]], [[50, '4 Mill Lane'], [330, '12 High Street']], [[50, 'Leeds LS1 4AB'], [330, 'York YO1 7HH']], ...items(3)], [0], 1.2);
    assert.equal(read(p), 'Kestrel Print Works', person);
  }
});

test("the seller's numbers under its cue and a label before a spaced colon are passed over", () => {
  // The seller's numbers under its cue come before its name; a label before a spaced colon is no name.
  const cued = page([
    [[50, 'Geschäftsprozess'], [160, ': Standardrechnung']],
    [[50, 'Rechnungswährung'], [160, ': EUR']],
    'Verkäufer:',
    [[50, 'Nummer'], [160, ': 549910']],
    'Globale Nummer: 4333741000005 (GTIN)',
    'Alpha Autovermietung',
    'Musterstr. 99',
    '99199 Musterhausen',
    ...items(3),
  ]);
  assert.equal(read(cued), 'Alpha Autovermietung');
});

test('a notice in the words of running text is no name, in other languages too ("UNSERE ÖFFNUNGSZEITEN", "Notre équipe")', () => {
  const lines = documentLines([makePage(['KAFFEEHAUS AM SEE', 'UNSERE ÖFFNUNGSZEITEN', 'NOTRE ÉQUIPE VOUS REMERCIE', 'ONZE OPENINGSTIJDEN'])], { detectLayout: true });
  const [name, ...notices] = lines.map((l) => nameEvidence(l.text, l));
  for (const [i, e] of notices.entries()) assert.ok(e < name - 0.3, `${lines[i + 1].text}: ${e} < ${name}`);
});

test('"From"/"To" headings side by side name the sender; an attention line and a block under a form of address are the buyer\'s', () => {
  const nl = page([
    'Factuur',
    [[50, 'Van'], [300, 'Aan']],
    [[50, 'Sanne de Wit'], [300, 'Stichting Groene Wijk']],
    [[50, 'Fotografie & beeldverhaal'], [300, 'T.a.v. Mevr. L. Bakker']],
    [[50, 'Zwaanshals 210'], [300, 'Hoogstraat 45']],
    [[50, '3035 KS Rotterdam'], [300, '3011 PN Rotterdam']],
    'Factuurnummer SDW-2024-07',
    ...items(3),
  ], [0], 2);
  assert.equal(read(nl), 'Sanne de Wit');
  const fr = page(['Camille Rousset', '12 rue des Lilas', '75011 Paris', [[300, "À l'attention de Mme Sophie Laurent"]], [[300, 'Atelier Laurent']], 'Facture 2024-031', ...items(3)]);
  assert.equal(read(fr), 'Camille Rousset');
  const pt = page([
    'Fatura',
    [[50, 'Sr. Rui Gonçalves'], [300, 'Fatura n.º FT A/2024/233']],
    [[50, 'Mercearia Gonçalves'], [300, 'Data 14 de outubro de 2024']],
    [[50, 'Rua Direita 15'], [300, 'Encomenda'], [400, 'de 2 de outubro de 2024']],
    [[50, '6300-520 Guarda'], [300, 'Entrega'], [400, '16 de outubro de 2024']],
    ...items(3),
    'Quinta do Vale Serrado, Unipessoal Lda · Estrada Nacional 16, km 42 · 6300-035 Guarda · Portugal',
  ]);
  assert.equal(read(pt), 'Quinta do Vale Serrado, Unipessoal Lda');
});

test('a name run into its legal mention gives its legal form once ("Lumivert Solutions SAS" + "SAS au capital de …")', () => {
  const p = page(['lumivert', 'Facture FA-2024-00318', ...items(14), [[50, 'Lumivert Solutions SAS'], [190, 'SAS au capital de 50 000 €']], [[50, '14 rue des Tanneurs'], [190, 'RCS Lyon 901 223 447']]]);
  assert.equal(read(p), 'Lumivert Solutions SAS');
});

test('a cue OCR read without its umlaut still heads the buyer; the company over an attention line is the addressee', () => {
  const scan = (lines: FixtureLine[]) => {
    const p = page(lines, [0], 1.4);
    for (const w of p.words) w.conf = 90;
    return { ...p, source: 'ocr' as const };
  };
  const cue = scan([
    [[64, 'WESERLAND']],
    [[320, 'Rechnungsempfanger']],
    [[64, 'Weserland Logistik GmbH'], [320, 'Rheinauer Feinkost GmbH']],
    [[64, 'Am Holzhafen 12'], [320, 'Rheinauhafen 5']],
    [[64, '28217 Bremen'], [320, '68219 Mannheim']],
    ...items(3),
  ]);
  assert.equal(read(cue), 'Weserland Logistik GmbH');
  const attention = scan([
    [[64, 'Weserland Logistik']],
    [[64, 'Am Holzhafen 12'], [320, 'Rheinauer Feinkost GmbH']],
    [[64, '28217 Bremen'], [320, 'z. Hd. Frau Petra Lindner']],
    [[64, 'Tel. 0421 555 690-0'], [320, 'Rheinauhafen 5']],
    [[64, 'USt-IdNr. DE281334907'], [320, '68219 Mannheim']],
    ...items(3),
  ]);
  assert.equal(read(attention), 'Weserland Logistik');
});

test('a long legal name of nine words is a name; a digital seal is none; a column heading in other languages is none', () => {
  const mx = page(['Servicios Logísticos del Bajío S. de R.L. de C.V.', 'RFC SLB120904HT2 · Blvd. Aeropuerto 3120, León, Gto. C.P. 37545', 'Cliente', 'Calzado Fino Santa Rita S.A. de C.V.', ...items(3)]);
  assert.equal(read(mx), 'Servicios Logísticos del Bajío S. de R.L. de C.V.');
  assert.equal(cleanName('AD+shZdPjuQJwhMXSiS+P4MJJSjwE6jnr9n60CLWbBFxXbd8tsVWII6UMoVCr6j0p6Hhp5', false), null);
  const [name, ...headings] = documentLines([makePage(['Calzado Fino', 'Descripción', 'Beschreibung', 'Omschrijving'])], { detectLayout: true });
  for (const h of headings) assert.ok(nameEvidence(h.text, h) < nameEvidence(name.text, name) - 0.3, h.text);
});

test('a bilingual heading of the recipient ("Aan / À") heads the buyer\'s block', () => {
  const p = page([
    'Vertalers · Traducteurs',
    [[50, 'Van Damme & Peeters BVBA'], [330, 'Aan / À']],
    [[50, 'Louizalaan 231'], [330, 'Brasserie Coopérative Zennevallei CV']],
    [[50, '1050 Brussel'], [330, "Boulevard de l'Humanité 112"]],
    [[50, 'BTW BE 0877.412.566'], [330, '1190 Vorst']],
    ...items(3),
  ]);
  assert.equal(read(p), 'Van Damme & Peeters BVBA');
});

test('a numbered company ("9123-4567 Québec inc.", "2468135 Ontario Limited") is a name, not the address under it', () => {
  const qc = page(['9123-4567 Québec inc.', '1420 boul. Laurier, Québec (QC) G1S 1M2', 'TPS 812345678 RT0001', 'Facturé à', 'Clinique Vétérinaire des Plaines', ...items(3)]);
  assert.equal(read(qc), '9123-4567 Québec inc.');
  assert.equal(cleanName('2468135 Ontario Limited', false), '2468135 Ontario Limited');
  assert.equal(cleanName('12345678 Canada Inc.', false), '12345678 Canada Inc.');
});

test('a sender line of two parts, the name with its company form and the address, gives the name; OCR reads its dot as a plus', () => {
  const lines: FixtureLine[] = [
    'BELLERIVE',
    'Bellerive Conseil SARL · 3 avenue Jean Jaurès, 33000 Bordeaux',
    'N° TVA: FR91 864055444',
    'FACTURE',
    [[50, 'Adresse de facturation'], [300, 'Numéro: FA-2023-2257']],
    [[50, 'Lumière Sud Distribution EURL'], [300, 'Date: 2 juillet 2023']],
    '14 rue des Tanneurs',
    '69002 Lyon',
  ];
  assert.equal(read(page(lines, [0], 2)), 'Bellerive Conseil SARL');
  const scan = page(lines.map((l) => (typeof l === 'string' ? l.replace(' · ', ' + ') : l)), [0], 2);
  for (const w of scan.words) w.conf = 90;
  assert.equal(read({ ...scan, source: 'ocr' }), 'Bellerive Conseil SARL');
  // Two parts of which the first has no company form: a tagline, not a sender line.
  assert.equal(read(page(['Heating · 3 avenue Foch, 33000 Bordeaux', 'Bellerive Conseil SARL', 'FACTURE'])), 'Bellerive Conseil SARL');
});

test('a document title OCR read letter-spaced is no name, as it is unspaced', () => {
  const [title, spacedTitle, name] = documentLines([makePage(['FATTURA', 'F ATTUR A', 'Colli Euganei'])], { detectLayout: true });
  assert.ok(nameEvidence(spacedTitle.text, spacedTitle) < nameEvidence(name.text, name) - 0.5);
  assert.ok(Math.abs(nameEvidence(spacedTitle.text, spacedTitle) - nameEvidence(title.text, title)) < 0.05);
});

test('a legal form that a wide space set apart from its name still belongs to it', () => {
  const p = page([
    'Faktura VAT',
    'Nr faktury: 95/02/2024',
    [[50, 'Sprzedawca:'], [320, 'Nabywca:']],
    [[50, 'Wistomar Technika Sp.'], [186, 'z o.o.'], [320, 'Mazurex Systemy Sp. j.']],
    [[50, 'ul. Grunwaldzka 42'], [320, 'ul. Piotrkowska 118']],
    [[50, 'NIP: 850-407-55-75'], [320, 'NIP: 178-701-77-27']],
  ]);
  assert.equal(read(p), 'Wistomar Technika Sp. z o.o.');
});

test('a name set solid as a narrow stack of lines is read whole, its title beside it left out; lines at a running leading are not one name', () => {
  // Lines 14 pt tall at a 14 pt pitch: set solid, as a letterhead's stacked name.
  const solid = (lines: FixtureLine[], n: number) => page(lines, Array.from({ length: n }, (_, i) => i), 1.4);
  assert.equal(read(solid(['Douro Vivo', 'Distribuição', [[50, 'Unipessoal, Lda.'], [350, 'N.º Fatura'], [450, 'FT 2023A/411']], 'Avenida da Boavista, 118', '1100-053 Lisboa', 'NIF 521881148'], 3)), 'Douro Vivo Distribuição Unipessoal, Lda.');
  assert.equal(read(solid(['Mombasa', 'Coastline Freight', 'Limited', 'P.O. Box 58602-00100', 'Mombasa Road, Nairobi', 'Tax Invoice'], 3)), 'Mombasa Coastline Freight Limited');
  assert.equal(read(page([[[50, 'Comercializadora Sierra Madre S.A. de'], [420, 'FACTURA']], 'C.V.', 'RFC: TAT916129KU3', 'Blvd. Bernardo Quintana No. 308'])), 'Comercializadora Sierra Madre S.A. de C.V.');
  assert.equal(read(page(['Nordwerk', 'Anlagenbau Nordwerk GmbH', 'Bahnhofstraße 56', '28197 Bremen'])), 'Anlagenbau Nordwerk GmbH');
  assert.equal(read(page(['Harbour', 'Coastline Freight Limited', 'P.O. Box 58602-00100', 'Nairobi'])), 'Coastline Freight Limited');
});

test('a legal name broken over a logo\'s lines is read whole where the page prints it whole (the payment slip)', () => {
  const p = page(['B Bergmann', 'Haustechnik AG', 'Industriestrasse 27 · 8604 Volketswil', 'MWST-Nr. CHE-123.456.789 MWST', 'Rechnung RE-2024-1187', ...items(14), 'Zahlbar an', 'CH44 3199 9123 0008 8901 2', 'Bergmann Haustechnik AG', 'Industriestrasse 27'], [0]);
  assert.equal(read(p), 'Bergmann Haustechnik AG');
  // Printed nowhere whole, the name stays as the letterhead's legal line gives it.
  assert.equal(read(page(['B Bergmann', 'Haustechnik AG', 'Industriestrasse 27 · 8604 Volketswil', 'Rechnung RE-2024-1187', ...items(3)], [0])), 'Haustechnik AG');
});

test('a word of a priced item row ("Onlineshop-Modul") labels no seller', () => {
  const p = page([
    'JANA HOFFMANN',
    'Jana Hoffmann · Lindenstraße 12 · 04109 Leipzig',
    [[50, 'Rechnungsempfänger:'], [350, 'Rechnungsnr. 2024-031']],
    'Brauhaus Kessler GmbH',
    [[50, '1'], [62, 'Konzeption & Wireframes'], [360, '12,50 Std.'], [430, '85,00 €'], [490, '1.062,50 €']],
    [[50, '2'], [62, 'Frontend-Entwicklung (Vue.js), Onlineshop-Modul'], [360, '31,75 Std.'], [430, '85,00 €'], [490, '2.698,75 €']],
    [[50, '3'], [62, 'Anbindung Warenwirtschaft / REST-Schnittstelle'], [360, '9 Std.'], [430, '95,00 €'], [490, '855,00 €']],
  ], [0]);
  assert.equal(read(p), 'JANA HOFFMANN');
});

test('the seller\'s cue in Slovak and Romanian, also as OCR reads "Dodávateľ:" ("Dodavatel’:"), names the legal name over the logo\'s brand', () => {
  const sk = page(['TECHNOSERVIS', 'klimatizácie - vzduchotechnika', [[50, 'Dodavatel’:'], [320, 'Odberatel:']], [[50, 'TECHNOSERVIS Žilina, s.r.o.'], [320, 'Hotel Dubná Skala a.s.']], [[50, 'Vysokoškolákov 52'], [320, 'Hurbanova 345/8']], [[50, '010 08 Žilina'], [320, '010 01 Žilina']]], [0], 1.8);
  assert.equal(read(sk), 'TECHNOSERVIS Žilina, s.r.o.');
  const ro = page([[[50, 'Furnizor: Carpatic Consult S.R.L.'], [330, 'Cumpărător:']], [[50, 'CIF: RO28765432'], [330, 'Transilvania Logistic Hub S.A.']], [[50, 'Sediul: Str. Memorandumului nr. 28'], [330, 'CIF: RO34512876']], 'FACTURA']);
  assert.equal(read(ro), 'Carpatic Consult S.R.L.');
});

test('a sole trader\'s "Thomas Briggs t/a Briggs Joinery" names who trades under the letterhead\'s name', () => {
  for (const ta of ['t/a', 'ta', 'trading as']) {
    assert.equal(read(page(['Briggs Joinery', `Thomas Briggs ${ta} Briggs Joinery`, '7 Mill Cottages, Knaresborough Road', 'Harrogate HG2 7LB', 'INVOICE', 'Invoice no: BJ-0087'], [0], 1.8)), 'Thomas Briggs', ta);
  }
  // Without such a line the letterhead's name stands.
  assert.equal(read(page(['Briggs Joinery', '7 Mill Cottages, Knaresborough Road', 'Harrogate HG2 7LB', 'INVOICE'], [0], 1.8)), 'Briggs Joinery');
});

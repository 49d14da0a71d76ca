// A small general vocabulary of document words: how labels are printed on invoices, receipts and
// similar business documents in English, German and French, with the commonest labels of Spanish,
// Italian, Portuguese, Dutch and the Nordic languages. General document knowledge only (no
// values, vendors or layouts of particular documents).

/** Each group: words that may stand for the same concept in a printed label. */
const SYNONYM_GROUPS: string[][] = [
  ['number', 'no', 'nr', 'num', '#', 'nummer', 'numero', 'numéro', 'número', 'n°', 'no.', 'nº', 'núm', 'ref', 'reference', 'id', 'nummer', 'nro', 'numer', 'č', 'číslo', 'cislo', 'folio',
    // Slovene "št.", Croatian "broj", Bulgarian "№" and "номер", Greek "αριθμός", Indonesian "nomor", Icelandic "númer".
    'št', 'broj', '№', 'номер', 'nomer', 'αριθμός', 'αριθμος', 'αρ', 'nomor', 'númer',
    // Hungarian "Sorszám" (serial number), "szám".
    'sorszám', 'sorszam', 'sorszáma', 'sorszama', 'szám', 'szam'],
  ['invoice', 'inv', 'bill', 'rechnung', 'facture', 'rechnungs', 'receipt', 'beleg', 'quittung', 'factura', 'fattura', 'fatura', 'factuur', 'faktura', 'lasku',
    // Inflected: Polish "numer faktury", Finnish "laskun numero".
    'faktury', 'laskun',
    // Estonian, Latvian, Lithuanian, Slovak, Slovene/Croatian, Bulgarian, Greek, Icelandic, Indonesian.
    'arve', 'rēķins', 'rekins', 'sąskaita', 'saskaita', 'sąskaitos', 'saskaitos', 'faktúra', 'račun', 'racun', 'računa', 'racuna', 'фактура',
    'τιμολόγιο', 'τιμολογιο', 'timologio', 'reikningur', 'reiknings', 'faktur', 'számla', 'szamla', 'számlaszám', 'szamlaszam',
    // The document a number label names on invoices printed by accounting systems ("Document No.", "Numero documento").
    'document', 'documento',
    // The series of a numbering ("Serija ir Nr.", "Serie y Folio"): the document's own.
    'serija', 'serie', 'série', 'seria', 'folio'],
  // Also Spanish/Portuguese/Italian (fecha, data, emisión), Dutch/Scandinavian (datum, dato), Malay/Indonesian (tarikh, tanggal).
  ['date', 'dated', 'datum', 'issued', 'issue', 'rechnungsdatum', 'belegdatum', 'fecha', 'data', 'dato', 'tarikh', 'tanggal', 'tgl', 'emisión', 'emision', 'emissão', 'émission', 'ausstellungsdatum', 'wystawienia',
    // Turkish, Hungarian, Vietnamese.
    'tarih', 'tarihi', 'kelte', 'dátum', 'ngày', 'ngay'],
  ['total', 'amount', 'amt', 'sum', 'gesamt', 'gesamtbetrag', 'summe', 'betrag', 'montant', 'ttc', 'balance', 'due', 'payable', 'endbetrag', 'zahlbetrag', 'rechnungsbetrag', 'bruttobetrag', 'brutto', 'gross',
    'totale', 'totaal', 'importe', 'importo', 'bedrag', 'valor', 'montante', 'totalt', 'summa', 'belopp', 'beløb', 'beløp', 'belop',
    // "to pay": zu zahlen, net à payer, te betalen, att betala, a pagar, da pagare.
    'zahlen', 'payer', 'betalen', 'betala', 'betale', 'pagar', 'pagare',
    // Finnish and Polish: yhteensä, maksettava, razem, suma, do zapłaty; Czech celkem, Malay/Indonesian jumlah, Filipino kabuuan.
    'yhteensä', 'maksettava', 'razem', 'suma', 'zapłaty', 'zaplaty', 'celkem', 'jumlah', 'kabuuan',
    // Danish and Norwegian "I alt" (in all).
    'i alt',
    // What a ticket costs: fare, Fahrpreis, Parkgebühr.
    'fare', 'fahrpreis', 'parkgebühr', 'parkgebuhr', 'gebühr', 'gebuhr',
    // Czech "Celkem k úhradě".
    'celkem', 'úhradě', 'uhrade',
    // Turkish "Ödenecek Tutar", "Toplam"; Hungarian "Fizetendő", "Összesen", "Végösszeg"; Vietnamese "Tổng cộng".
    'toplam', 'tutar', 'tutarı', 'ödenecek', 'odenecek', 'fizetendő', 'fizetendo', 'összesen', 'osszesen', 'végösszeg', 'vegosszeg', 'tổng cộng', 'tong cong',
    // Estonian, Latvian, Lithuanian, Slovak, Slovenian, Croatian, Bulgarian (as printed and transliterated), Icelandic.
    'kokku', 'kopā', 'kopa', 'iš viso', 'is viso', 'spolu', 'celkom', 'skupaj', 'ukupno', 'sveukupno', 'общо', 'obshto', 'samtals',
    // Slovene and Croatian "za plačilo", "za platiti" (to pay).
    'plačilo', 'placilo', 'platiti',
    // Bulgarian "Сума за плащане" (sum to pay).
    'сума', 'плащане', 'стойност', 'stoynost', 'сумма', 'стоимость',
    // Greek: σύνολο (total), πληρωτέο ποσό (amount payable), αξία (value); capitals print no accents.
    'σύνολο', 'συνολο', 'πληρωτέο', 'πληρωτεο', 'ποσό', 'ποσο', 'αξία', 'αξια'],
  ['vendor', 'seller', 'supplier', 'from', 'company', 'merchant', 'issuer', 'store', 'shop', 'lieferant', 'verkäufer', 'fournisseur', 'vendeur', 'proveedor', 'fornitore', 'fornecedor', 'leverancier', 'vendedor', 'emisor', 'sprzedawca', 'myyjä', 'säljare', 'leverandør'],
  ['customer', 'buyer', 'client', 'kunde', 'käufer', 'acheteur', 'bill to', 'sold to', 'cliente', 'klant', 'kund', 'comprador', 'asiakas', 'nabywca', 'destinatario'],
  ['address', 'addr', 'adresse', 'anschrift', 'location', 'dirección', 'direccion', 'indirizzo', 'endereço', 'morada', 'adres', 'adresa', 'adresi', 'alamat', 'cím', 'địa chỉ', 'dia chi'],
  ['description', 'item', 'items', 'article', 'product', 'designation', 'désignation', 'bezeichnung', 'artikel', 'beschreibung', 'libellé', 'libelle', 'service', 'services', 'details', 'particulars', 'leistung', 'name',
    // Bulgarian and Russian: наименование, описание, стока.
    'наименование', 'описание', 'стока', 'naimenovanie',
    'descripción', 'descripcion', 'concepto', 'descrizione', 'articolo', 'descrição', 'descricao', 'omschrijving', 'beskrivelse', 'beskrivning', 'benämning', 'benamning', 'betegnelse', 'benævnelse', 'benevnelse', 'nazwa', 'kuvaus', 'tuote', 'nimike', 'označení', 'oznaceni',
    // Estonian, Latvian, Lithuanian, Slovene/Croatian, Romanian, Icelandic.
    'kirjeldus', 'nimetus', 'nosaukums', 'apraksts', 'pavadinimas', 'aprašymas', 'aprasymas', 'opis', 'popis', 'naziv', 'denumire', 'lýsing', 'lysing', 'vara',
    // Greek περιγραφή, είδος.
    'περιγραφή', 'περιγραφη', 'είδος', 'ειδος'],
  ['quantity', 'qty', 'quantité', 'qté', 'qte', 'menge', 'anzahl', 'units', 'unit', 'hours', 'hrs', 'pcs', 'count',
    'cantidad', 'cant', 'uds', 'quantità', 'qtà', 'quantidade', 'qtd', 'qtde', 'aantal', 'antal', 'antall', 'stunden', 'std', 'stk', 'stück', 'horas', 'ore', 'uren', 'ilość', 'ilosc', 'määrä', 'kpl', 'szt', 'počet', 'pocet', 'mj',
    'kogus', 'daudzums', 'kiekis', 'količina', 'kolicina', 'kol', 'cantitate', 'magn', 'fjöldi', 'fjoldi', 'ποσότητα', 'ποσοτητα', 'ποσ',
    'к-во', 'количество', 'кол-во', 'кол'],
  ['price', 'rate', 'cost', 'preis', 'prix', 'einzelpreis', 'einzel', 'unit price', 'pu', 'p.u.', 'nettopreis', 'ep', 'ansatz', 'stückpreis', 'einheitspreis',
    'precio', 'prezzo', 'preço', 'preco', 'prijs', 'pris', 'tarifa', 'tariffa', 'tarief', 'cena', 'hinta', 'yksikköhinta',
    'hind', 'ühikuhind', 'uhikuhind', 'kaina', 'cijena', 'preț', 'pret', 'verð', 'verd', 'einingarverð', 'einingarverd', 'τιμή', 'τιμη', 'цена', 'tsena'],
  // The due date's own words: fällig, échéance, vencimiento, scadenza, vervaldatum, förfallodatum, forfaldsdato.
  ['due', 'fällig', 'fälligkeit', 'fälligkeitsdatum', 'échéance', 'echeance', 'vencimiento', 'vencimento', 'scadenza', 'vervaldatum', 'förfallodatum', 'forfaldsdato', 'forfallsdato', 'eräpäivä'],
  ['net', 'netto', 'nettobetrag', 'subtotal', 'zwischensumme', 'ht', 'imponible', 'imponibile', 'subtotaal', 'subtotale', 'ilíquido', 'iliquido', 'καθαρή', 'καθαρη'],
  // Canada's HST/PST/QST, India's CGST/SGST/IGST/UTGST and cess.
  ['tax', 'vat', 'gst', 'mwst', 'ust', 'tva', 'sst', 'umsatzsteuer', 'mehrwertsteuer', 'iva', 'btw', 'moms', 'mva', 'alv', 'hst', 'pst', 'qst', 'cgst', 'sgst', 'igst', 'utgst', 'cess', 'kdv', 'áfa', 'afa', 'dph', 'ptu', 'ppn', 'gtgt', 'φπα', 'ддс', 'ндс', 'dds', 'pdv', 'ddv', 'pvn'],
  ['phone', 'tel', 'telephone', 'telefon', 'téléphone', 'fax', 'mobile'],
  ['order', 'po', 'purchase', 'bestellung', 'commande', 'auftrag',
    // Lithuanian, Polish, Czech, Croatian, Slovene, Estonian, Latvian, Finnish, Nordic, Italian, Iberian, Turkish, Indonesian.
    'užsakymas', 'uzsakymas', 'užsakymo', 'uzsakymo', 'zamówienie', 'zamowienie', 'objednávka', 'objednavka', 'narudžba', 'narudzba', 'naročilo', 'narocilo',
    'tellimus', 'pasūtījums', 'pasutijums', 'tilaus', 'bestilling', 'beställning', 'bestallning', 'ordine', 'pedido', 'encomenda', 'sipariş', 'siparis', 'pesanan'],
  ['currency', 'währung', 'devise', 'cur'],
];

const GROUP_OF = new Map<string, Set<string>>();
for (const group of SYNONYM_GROUPS) {
  for (const w of group) {
    const set = GROUP_OF.get(w) ?? new Set<string>();
    group.forEach((g) => set.add(g));
    GROUP_OF.set(w, set);
  }
}

/** The word and its synonyms. */
export function synonymsOf(word: string): Set<string> {
  return GROUP_OF.get(word) ?? new Set([word]);
}

/** Words that carry no meaning for label matching. */
export const STOPWORDS = new Set(
  'a an the of for to in on at by with and or is are be as this that it its from per each any all which who what when where how if into e.g eg i.e ie format etc its their our your der die das und des le la les de du et un une en'
    .split(' '),
);

/** Words in a total-like label that say it is NOT the grand total. */
export const PARTIAL_TOTAL_WORDS = new Set([
  'subtotal', 'sub', 'net', 'netto', 'nettobetrag', 'excl', 'excluding', 'exclusive', 'before', 'ht', 'untaxed', 'zwischensumme',
  'tax', 'vat', 'gst', 'mwst', 'ust', 'tva', 'sst', 'discount', 'rabatt', 'remise', 'change', 'rückgeld', 'tendered', 'cash',
  'paid', 'payment', 'rounding', 'qty', 'quantity', 'items', 'item', 'savings', 'saved', 'deposit', 'prepaid', 'vorauszahlung',
  'tip', 'shipping', 'freight', 'charges', 'fees', 'basis', 'base', 'taxable', 'card', 'visa', 'mastercard', 'credit',
  'ohne', 'without', 'sans', 'exkl', 'positionssumme', 'warenwert', 'steuer', 'steuerbetrag', 'abschläge', 'zuschläge',
  'imponible', 'imponibile', 'subtotaal', 'subtotale', 'iva', 'btw', 'moms', 'ilíquido', 'iliquido', 'sin', 'senza', 'excl.', 'exento',
  'mva', 'alv', 'hst', 'pst', 'qst', 'cgst', 'sgst', 'igst', 'utgst', 'cess', 'bez', 'brez', 'dph', 'ptu', 'plačano', 'placano',
  // Bulgarian and Russian tax base and VAT (данъчна основа, ДДС, НДС).
  'основа', 'данъчна', 'ддс', 'ндс',
  // Discounts in other languages, and plural ("Total Descontos", "Totale sconti").
  'discounts', 'descuento', 'descuentos', 'desconto', 'descontos', 'sconto', 'sconti', 'korting', 'kortingen', 'rabat', 'rabaty', 'sleva', 'slevy', 'alennus', 'alennukset', 'indirim', 'i̇ndirim', 'kedvezmény', 'reducere', 'έκπτωση', 'εκπτωση', 'καθαρή', 'καθαρη', 'φπα',
  // A card's pre-authorisation at a pump (reserviert, blokada środków, tank limit): held, not paid.
  'reserviert', 'reservierter', 'reservierung', 'blokada', 'preauth', 'preauthorisation', 'preauthorization', 'limit', 'hold',
  // A balance carried from the last bill (previous balance, brought forward, arrears; Vorsaldo, Übertrag,
  // solde précédent, saldo anterior / precedente, vorig saldo) is not this invoice's total.
  'previous', 'brought', 'forward', 'opening', 'arrears', 'vorsaldo', 'übertrag', 'vortrag', 'précédent', 'precedent', 'anterior', 'precedente', 'vorig',
]);

/**
 * Words of a total's label that make it the sum of one kind of line, before delivery, labour or tax are
 * added ("Goods total", "Total parts", "Total materiales"). Not words of a totals line: an item may
 * be named so ("Labour 3 h", "Parts: 1 x cap").
 */
export const KIND_SUM_WORDS = new Set([
  'goods', 'merchandise', 'marchandise', 'marchandises', 'mercancía', 'mercancia', 'waren', 'parts', 'labour', 'labor', 'materials', 'material',
  'materiales', 'repuestos', 'piezas', 'pièces', 'pieces',
]);

/** Words of a label that name the net amount, before tax: a part of the total a field may ask for. */
export const NET_PART_WORDS = new Set([
  'subtotal', 'sub', 'net', 'netto', 'nettobetrag', 'excl', 'excluding', 'exclusive', 'before', 'ht', 'untaxed', 'zwischensumme',
  'basis', 'base', 'taxable', 'pretax', 'ohne', 'without', 'sans', 'exkl', 'positionssumme', 'warenwert', 'imponible', 'imponibile',
  'subtotaal', 'subtotale', 'ilíquido', 'iliquido', 'sin', 'senza', 'bez', 'brez',
]);

/** true when a token is one of the words, or a compound that starts or ends with one of 5+ letters (Bruttosumme). */
export function hasWord(tokens: string[], words: Set<string>): boolean {
  return tokens.some((t) => {
    if (words.has(t)) return true;
    for (const w of words) if (w.length >= 5 && t.length > w.length + 2 && (t.startsWith(w) || t.endsWith(w))) return true;
    return false;
  });
}

/** Words in a total-like label that say it IS the final total. */
export const GRAND_TOTAL_WORDS = new Set([
  'grand', 'gross', 'brutto', 'bruttobetrag', 'ttc', 'incl', 'including', 'inclusive', 'inkl', 'final', 'endbetrag', 'gesamtbetrag',
  'rechnungsbetrag', 'invoice', 'rechnungssumme', 'gesamtsumme', 'after', 'adj', 'adjusted', 'rounded', 'nett',
  'documento', 'factura', 'fattura', 'fatura', 'factuur',
]);

export const INCLUSIVE_WORDS = new Set(['incl', 'including', 'inclusive', 'inkl', 'inklusive', 'ttc', 'inc']);
export const TAX_WORDS = new Set(['tax', 'vat', 'gst', 'mwst', 'ust', 'tva', 'sst', 'umsatzsteuer', 'mehrwertsteuer', 'iva', 'btw', 'moms', 'mva', 'alv', 'hst', 'pst', 'qst', 'cgst', 'sgst', 'igst', 'utgst', 'cess', 'kdv', 'áfa', 'afa', 'dph', 'ptu', 'ppn', 'gtgt',
  // Quebec's GST and QST in French (TPS, TVQ); Brazil's service and goods taxes (ISS, ICMS).
  'tps', 'tvq', 'iss', 'icms',
  // VAT in Estonian, Latvian, Lithuanian, Slovene, Croatian, Bulgarian, Greek, Icelandic; Peru's IGV; Ghana's levies.
  'käibemaks', 'kaibemaks', 'pvn', 'pvm', 'ddv', 'pdv', 'ддс', 'dds', 'φπα', 'fpa', 'vsk', 'igv', 'nhil', 'getfund']);

/** Words of an amount still to pay: it may add earlier balances or deduct prepayments, so it ranks below the total. */
export const DUE_WORDS = new Set(['due', 'payable', 'balance', 'outstanding', 'remaining', 'zahlbetrag', 'restbetrag', 'previous', 'offen', 'offener', 'offene', 'offenen', 'restant', 'pendiente', 'openstaand']);

/** Words of the amount to pay (zu zahlen, net à payer, te betalen): the final sum, even after "net". */
export const TO_PAY_WORDS = new Set(['zahlen', 'payer', 'betalen', 'betala', 'betale', 'pagar', 'pagare', 'payable', 'úhradě', 'uhrade', 'úhradu']);

/** Words that mark a date as some other date than the document's own date. */
export const OTHER_DATE_WORDS = new Set([
  'due', 'delivery', 'order', 'ship', 'shipped', 'shipping', 'lieferdatum', 'liefer', 'fällig', 'fälligkeit', 'échéance',
  'echeance', 'expiry', 'expires', 'exp', 'valid', 'period', 'start', 'end', 'from', 'until', 'birth', 'service', 'leistungsdatum',
  'zahlbar', 'payment', 'payable', 'printed', 'print', 'limite', 'límite', 'paiement', 'échéance', 'lieferung', 'livraison', 'check',
  'vencimiento', 'vencimento', 'entrega', 'scadenza', 'consegna', 'vervaldatum', 'leverdatum', 'forfaldsdato', 'leveringsdato',
  'dispatch', 'dispatched', 'departure', 'arrival', 'posted', 'expiration', 'fälligkeit', 'bestelldatum', 'auftragsdatum',
  // A receipt's points or voucher expiry and its return-by date ("Points expire on 31-Dec-2025", "Returns by 05/02/2019").
  'expire', 'expired', 'expiring', 'return', 'returns', 'exchange', 'gültig', 'verfällt',
  'förfallodatum', 'forfaldsdato', 'forfallsdato', 'fälligkeitsdatum', 'eräpäivä', 'zeitraum', 'leistungszeitraum', 'abrechnungszeitraum',
  // Installation, quote, warranty and accounting-period dates; Polish service, delivery and payment dates.
  'installation', 'instalación', 'instalacion', 'installazione', 'instalação', 'installatie', 'montage', 'presupuesto', 'preventivo',
  'orçamento', 'quote', 'warranty', 'garantía', 'garantia', 'garanzia', 'garantie', 'competência', 'wykonania', 'dostawy', 'płatności', 'platnosci',
  // Order, dispatch and sale dates in other languages: pedido, encomenda, ordine, DDT (Italy's delivery note), commande,
  // bestelling, beställning, bestilling, tilaus, zamówienia, objednávky; Poland's date of sale; Czech and Slovak due
  // and delivery dates, and the date of the taxable supply (DUZP).
  'pedido', 'encomenda', 'ordine', 'ddt', 'spedizione', 'envío', 'envio', 'albarán', 'albaran', 'commande', 'expédition',
  'bestellung', 'bestellt', 'versand', 'versanddatum', 'bestelling', 'besteldatum', 'levering', 'verzending', 'beställning',
  'leverans', 'leveransdatum', 'bestilling', 'ordredato', 'tilaus', 'tilauspäivä', 'toimitus', 'zamówienia', 'zamowienia',
  'sprzedaży', 'sprzedazy', 'objednávky', 'objednavky', 'objednání', 'dodání', 'dodani', 'splatnosti', 'splatnost', 'plnění',
  'plneni', 'duzp',
  // Romanian due date (data scadenței), Hungarian payment deadline and supply date, Greek dispatch date.
  'scadenta', 'scadență', 'scadentei', 'scadenței', 'határidő', 'hatarido', 'teljesítés', 'teljesites', 'αποστολής', 'αποστολης',
]);

/** Document-type cue words for classification: general vocabulary of each kind of document. */
export const DOCUMENT_TYPE_CUES: Record<string, string[]> = {
  invoice: [
    'invoice', 'rechnung', 'facture', 'bill to', 'due date', 'payment terms', 'invoice number', 'invoice date', 'vat', 'tax id',
    'ust-idnr', 'iban', 'bic', 'net', 'amount due', 'remit', 'customer', 'account', 'terms', 'rechnungsnummer', 'rechnungsdatum',
    'zahlbar', 'bankverbindung', 'tva', 'échéance', 'seller', 'buyer', 'order', 'ship to', 'subtotal', 'qty', 'unit price',
    'gutschrift', 'credit note', 'billing', 'balance due', 'purchase order', 'leistungszeitraum', 'gst', 'ust', 'umsatzsteuer',
    'steuernummer', 'zahlungsbedingungen', 'zahlbar', 'skonto', 'gesamtbetrag', 'rechnungssumme', 'verkäufer', 'käufer',
    'leistungsdatum', 'nettobetrag', 'mwst', 'montant ht', 'ttc', 'siret', 'conditions de paiement', 'payment due',
    // The invoice, its tax and its due date in Spanish, Italian, Portuguese, Dutch, the Nordic languages, Finnish, Polish.
    'factura', 'fattura', 'fatura', 'factuur', 'faktura', 'lasku', 'laskun', 'iva', 'btw', 'moms', 'mva', 'alv', 'nip', 'dph', 'daňový doklad', 'dodavatel', 'odběratel',
    'vencimiento', 'scadenza', 'vencimento', 'vervaldatum', 'förfallodatum', 'forfaldsdato', 'forfallsdato', 'eräpäivä', 'termin płatności',
    // Hungarian and Turkish: számla, ÁFA, fizetési határidő, teljesítés; KDV, vade.
    'számla', 'szamla', 'áfa', 'fizetési határidő', 'teljesítés', 'kdv', 'vade',
    // Latin America's electronic invoices: Mexico's CFDI with its folio and terms of payment.
    'folio', 'cfdi', 'comprobante', 'condiciones de pago', 'forma de pago', 'método de pago', 'metodo de pago',
    // Chile's and other Latin American electronic invoices: factura electrónica, RUT, condición de venta, monto neto.
    'factura electrónica', 'rut', 'condición de venta', 'monto neto',
    // The invoice, its VAT and its due date in Estonian, Latvian, Lithuanian, Slovak, Slovene, Croatian, Bulgarian, Greek,
    // Icelandic and Indonesian (not the Balkans' "račun", which tills print too).
    'arve', 'käibemaks', 'kaibemaks', 'maksetähtaeg', 'maksetahtaeg', 'rēķins', 'rekins', 'pvn', 'sąskaita', 'saskaita', 'pvm', 'faktúra',
    'splatnosti', 'rok plačila', 'rok placila', 'dospijeća', 'dospijeca', 'фактура', 'ддс', 'τιμολόγιο', 'τιμολογιο', 'φπα', 'reikningur',
    'vsk', 'gjalddagi', 'faktur', 'jatuh tempo',
    // Croatian and Slovene VAT (PDV, DDV), the invoice's number and date, the buyer.
    'pdv', 'ddv', 'broj računa', 'datum računa', 'številka računa', 'kupac', 'kupec',
    // Brazil's electronic invoices for goods and services (NF-e, NFS-e).
    'nota fiscal', 'nfs-e', 'nf-e', 'tomador', 'prestador',
    // Quebec's GST and QST (TPS, TVQ), French "bill to", payment terms and the order or delivery note a bill cites.
    'tps', 'tvq', 'facturer à', 'modalités de paiement', 'bon de commande', 'bon de livraison',
    // A bill that names no invoice: a professional's fee note, a sum payable by a date to a bank's sort code.
    'fee note', 'payable by', 'balance payable', 'amount payable', 'sort code',
    // Dutch: "your bill", "to pay".
    'uw rekening', 'te betalen',
  ],
  receipt: [
    'receipt', 'cash', 'change', 'tendered', 'thank you', 'thanks', 'cashier', 'till', 'store', 'visa', 'mastercard', 'debit',
    'card', 'pos', 'tax invoice', 'rounding', 'qty', 'item', 'items', 'total', 'subtotal', 'paid', 'kasse', 'bar', 'rückgeld',
    'beleg', 'kassenbon', 'quittung', 'ticket', 'reçu', 'caisse', 'espèces', 'rendu', 'merci', 'danke', 'come again',
    'gst', 'sdn bhd', 'table', 'server', 'guest', 'trans', 'terminal', 'approval', 'auth', 'member', 'welcome', 'kassenbon',
    'gegeben', 'zurück', 'kartenzahlung', 'trinkgeld', 'pourboire', 'tip', 'cash sale', 'counter', 'kassa', 'kasse',
    'returnable', 'refund', 'exchange', 'sales associate', 'gst summary', 'come again', 'bon', 'tendered', 'eftpos',
    'barzahlung', 'bediener', 'bediente', 'tisch', 'vielen dank', 'bewirtung', 'fahrkarte', 'fahrschein', 'einzelkarte',
    'tageskarte', 'caissier', 'caissière', 'articles', 'réglé', 'merci de votre visite', 'couverts', 'ec-karte', 'girocard',
    // Fuel, parking and transit tickets.
    'kreditkarte', 'säule', 'zapfsäule', 'parkgebühr', 'einfahrt', 'ausfahrt', 'kassenautomat', 'gute fahrt', 'fahrpreis', 'fare', 'pump',
    'parking', 'entry', 'exit',
    // Receipts in Italian, Spanish, French and Dutch, and receipts for money received.
    'documento commerciale', 'scontrino', 'importo pagato', 'pagamento elettronico', 'contanti', 'resto', 'totale complessivo', 'grazie',
    'arrivederci', 'factura simplificada', 'efectivo', 'cambio', 'gracias', 'tarjeta', 'ticket de caisse', 'carte bancaire', 'sans contact',
    'a bientot', 'kassabon', 'pinbetaling', 'contant', 'wisselgeld', 'bedankt', 'tot ziens', 'betaald', 'bonnr', 'kassier', 'akkoord',
    'tot de volgende keer', 'dankend erhalten', 'received with thanks',
    'amount received', 'received from',
    // How it was paid, and what tills print around it.
    // Portuguese and Polish tills, Swiss payment apps.
    'fatura simplificada', 'numerario', 'troco', 'obrigado', 'multibanco', 'paragon fiskalny', 'paragon', 'kasa', 'gotowka', 'reszta', 'karta', 'dziekujemy', 'twint',
    'contactless', 'change due', 'amex', 'apple pay', 'google pay', 'paypal', 'chip', 'returns', 'clubcard', 'schönen tag',
    // Czech, Polish and Indonesian tills: účtenka, hotově, vráceno, pokladní, kasjer, BLIK, struk, tunai, kembali, kasir.
    'účtenka', 'hotově', 'vráceno', 'pokladní', 'platební karta', 'obsluha', 'děkujeme', 'schváleno', 'mezisoučet', 'kasjer', 'blik',
    'struk', 'tunai', 'kembali', 'kembalian', 'kasir', 'terima kasih',
    // Nordic, Turkish and Vietnamese tills: kvittering/kvitto, bankkort, takk/tack; fiş, nakit, para üstü; thanh toán, tiền khách đưa, cảm ơn.
    'kvittering', 'kvitto', 'bankkort', 'kontant', 'takk', 'tack', 'byttepenge', 'växel', 'vaxel', 'veksel', 'eksp', 'ekspedient', 'expedit',
    'tak for besøget', 'tak for besoget', 'tak for handlen', 'velkommen igen', 'välkommen åter', 'valkommen ater', 'fiş', 'nakit', 'para üstü', 'kasiyer', 'teşekkürler',
    'thanh toan', 'thanh toán', 'tien khach dua', 'tiền khách đưa', 'tien thoi lai', 'thu ngan', 'thu ngân', 'cam on', 'cảm ơn', 'hen gap lai',
    // Finnish and Hungarian tills: kuitti, käteinen, vaihtoraha, pankkikortti, myyjä, kiitos; nyugta, készpénz, visszajáró, pénztár, köszönjük.
    'kuitti', 'käteinen', 'kateinen', 'vaihtoraha', 'pankkikortti', 'myyjä', 'myyja', 'kiitos', 'välisumma', 'valisumma',
    'nyugta', 'készpénz', 'keszpenz', 'visszajáró', 'visszajaro', 'pénztár', 'penztar', 'köszönjük', 'koszonjuk', 'bankkártya', 'bankkartya',
    // Baltic, Slovak, Slovene, Croatian, Romanian, Bulgarian and Icelandic tills: cash, change, till slip, thanks.
    'tšekk', 'tsekk', 'sularaha', 'tagasi', 'kviitung', 'čeks', 'ceks', 'skaidra nauda', 'atlikums', 'kvitas', 'grynieji', 'grąža', 'graza',
    'pokladničný doklad', 'pokladnicny doklad', 'hotovosť', 'hotovost', 'gotovina', 'vračilo', 'vracilo', 'blagajna', 'blagajnik', 'povrat',
    'bon fiscal', 'numerar', 'касова бележка', 'kasova belezhka', 'в брой', 'v broy', 'kvittun', 'reiðufé', 'reidufe', 'til baka', 'takk fyrir',
    // Chile's and Peru's boleta, Brazil's consumer slips (cupom fiscal, NFC-e).
    'boleta', 'boleta electrónica', 'boleta de venta', 'cupom fiscal', 'nfc-e',
    // Argentina's slip to the final consumer and its card voucher; Slovene and Croatian tills (paid, thanks; not their
    // fiscal codes ZOI/EOR, ZKI/JIR, which a hotel's invoice paid by card prints too).
    'consumidor final', 'cupón', 'cupon', 'plačano', 'placano', 'hvala',
  ],
  contract: ['agreement', 'contract', 'party', 'parties', 'hereby', 'terms', 'conditions', 'signature', 'signed', 'clause', 'vertrag', 'contrat'],
  letter: ['dear', 'sincerely', 'regards', 'yours', 'sehr geehrte', 'mit freundlichen', 'madame', 'monsieur', 'cordialement'],
  resume: ['experience', 'education', 'skills', 'curriculum', 'vitae', 'employment', 'university', 'languages', 'lebenslauf'],
  'bill of lading': ['bill of lading', 'shipper', 'consignee', 'carrier', 'freight', 'vessel', 'port', 'loading', 'discharge', 'container', 'b/l', 'bol', 'pallets', 'weight', 'seal', 'trailer', 'pro number'],
  'purchase order': ['purchase order', 'po number', 'ship to', 'vendor', 'order date', 'delivery', 'bestellung', 'bon de commande'],
  statement: ['statement', 'balance', 'opening', 'closing', 'transactions', 'account', 'period', 'kontoauszug', 'relevé'],
};

/** Printed patterns that are cues of a document type: receipts print the time of day of the sale. */
export const DOCUMENT_TYPE_PATTERNS: Record<string, Record<string, RegExp>> = {
  // Not the time of an ISO timestamp ("2025-04-09T11:32:07"), which e-invoices print for their certification.
  // Not a span of hours ("Mo-Mi 7:30-15:30"): opening hours, not a sale.
  receipt: { 'time of day': /(?<![\d:.,T]|[-–]\s?)(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?![\d:,]|\s?[-–]\s?\d)/g },
};

/** Labels that mean "anything else": they receive the mass of "no label fits". */
export const CATCH_ALL_WORDS = new Set(['other', 'others', 'misc', 'miscellaneous', 'unknown', 'else', 'none', 'unclassified', 'rest', 'generic']);

/** Splits text into lower-case word tokens (letters/digits, keeping # and °). */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    // Accents as combining marks (a PDF's "e" + U+0301) join their letters, and Turkish İ lower-cased
    // ("i" + U+0307, "NAKİT") keeps no dot: a mark left alone would split its word in two.
    .normalize('NFC')
    .replace(/\u0307/g, '')
    // "n." before a number, or ending a label, is the number sign of Italian and Spanish labels ("Fattura n. 45", "Fattura n.:").
    .replace(/n\.?°|n\.?º|(?<![\p{L}\p{N}])n\.(?=\s?:?\s?\d|\s?:?\s*$)/gu, ' n° ')
    .split(/[^\p{L}\p{N}#°№]+/u)
    .filter((t) => t !== '');
}

/** Letters that no accent-stripping decomposes (ł, ø, æ ...), as plain keyboards write them. */
const UNDECOMPOSED: Record<string, string> = { ł: 'l', ø: 'o', æ: 'ae', œ: 'oe', đ: 'd', ð: 'd', þ: 'th', ß: 'ss' };

/** Tokens folded for matching: accents dropped and umlauts spelt out, as OCR and plain keyboards write them (Rückgeld = Rueckgeld, zapłaty = zaplaty). */
export const foldTokens = (text: string): string[] =>
  tokenize(text.replace(/ä/gi, 'ae').replace(/ö/gi, 'oe').replace(/ü/gi, 'ue'))
    .map((t) => t.replace(/[łøæœđðþß]/g, (c) => UNDECOMPOSED[c]))
    .map((t) => t.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''))
    .filter((t) => t !== '');

// Spreadsheet formula / DDE injection (OWASP "CSV Injection"): a text cell that starts with = + - @,
// a tab or a carriage return, possibly after leading whitespace, can be run by Excel, LibreOffice or
// Google Sheets on open or on edit. Prefixing a single quote makes every one of them show it as text.
// Only text is touched: numbers and dates are typed cells (a negative number is data, not a formula).

const TRIGGER = /^(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/; // full-width forms too: some locales map them

export function isFormulaLike(text: string): boolean {
  return TRIGGER.test(text);
}

export function neutraliseFormula(text: string): string {
  return isFormulaLike(text) ? `'${text}` : text;
}

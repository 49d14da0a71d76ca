// Timestamps as the spec writes them: ISO 8601, microsecond precision, no zone suffix (always UTC).
export function specTimestamp(date: Date = new Date()): string {
  return date.toISOString().replace('Z', '').replace(/\.(\d{3})$/, '.$1000');
}

// Timestamps as the spec writes them: ISO 8601, microsecond precision, no zone suffix (always UTC).
export function specTimestamp(date: Date = new Date()): string {
  return date.toISOString().replace('Z', '').replace(/\.(\d{3})$/, '.$1000');
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

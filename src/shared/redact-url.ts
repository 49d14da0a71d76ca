// URLs as they may be logged or printed: a user name and password written into a URL
// (`http://user:pass@host`) are secrets, so they are replaced before the URL reaches a log line.

/** The URL with any userinfo replaced by `***`; anything that is not a URL with credentials is returned as is. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not parseable as a whole (e.g. a bare word): still mask anything that looks like `scheme://user@`.
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1***@');
  }
  if (!parsed.username && !parsed.password) return url;
  parsed.username = '***';
  parsed.password = '';
  return parsed.href;
}

// A mailbox's `filter.subject`: a case-insensitive substring, or a regular expression written "/.../flags".
// One reading of it for the config (which reports a bad expression under its key) and the mail intake.

/** "/.../flags" is a regular expression; anything else a case-insensitive substring. */
const REGEX_LITERAL = /^\/(.+)\/([a-z]*)$/s;

/**
 * The subject test a `filter.subject` value stands for. Throws (with the engine's reason) on a bad
 * regular expression: the schema reports it under the key, so the intake never sees one.
 */
export function subjectMatcher(pattern: string): (subject: string) => boolean {
  const literal = REGEX_LITERAL.exec(pattern);
  if (literal) {
    const re = new RegExp(literal[1]!, literal[2]!.replace(/[gy]/g, '')); // 'g' and 'y' would make test() stateful
    return (subject) => re.test(subject);
  }
  const needle = pattern.toLowerCase();
  return (subject) => subject.toLowerCase().includes(needle);
}

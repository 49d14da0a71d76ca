// A mailbox's `filter:` as tests on a message: sender, subject and age from its envelope (fetched alone,
// so mail that does not match is never downloaded), attachment names once the message is parsed.
import picomatch from 'picomatch';
import type { MailboxConfig } from '../../config/config.js';
import { subjectMatcher } from '../../config/subject-pattern.js';

const DAY_MS = 86_400_000;

/** What the envelope says: the sender's address, the subject, when the server received the message. */
export interface MailHeaders {
  from: string | null;
  subject: string;
  receivedAt: Date | null;
}

export interface MailFilter {
  /** Whether sender, subject or age are tested (else the envelope is not fetched). */
  readonly testsHeaders: boolean;
  /** Why the message is left alone, or null when its headers pass. */
  headerMismatch(h: MailHeaders, nowMs: number): string | null;
  /** Whether attachment names are tested (`filter.attachments`): a message with none taken is then skipped. */
  readonly testsAttachments: boolean;
  /** Whether an attachment of this file name is taken. */
  takesAttachment(fileName: string): boolean;
  /** Render the body to a PDF when no attachment is taken. */
  readonly parseBody: boolean;
}

export function compileMailFilter(f: MailboxConfig['filter']): MailFilter {
  const glob = (patterns: readonly string[]) => (patterns.length ? picomatch([...patterns], { nocase: true, dot: true }) : () => true);
  const fromMatches = glob(f.from);
  const subjectMatches = f.subject === undefined ? () => true : subjectMatcher(f.subject);
  const attachmentMatches = glob(f.attachments);
  return {
    testsHeaders: f.from.length > 0 || f.subject !== undefined || f.max_age_days !== undefined,
    headerMismatch(h, nowMs) {
      if (!fromMatches(h.from ?? '')) return `sender ${h.from ?? '(none)'} matches no filter.from pattern`;
      if (!subjectMatches(h.subject)) return 'subject does not match filter.subject';
      if (f.max_age_days !== undefined && h.receivedAt && nowMs - h.receivedAt.getTime() > f.max_age_days * DAY_MS) {
        return `received ${h.receivedAt.toISOString()}, more than filter.max_age_days (${f.max_age_days}) ago`;
      }
      return null;
    },
    testsAttachments: f.attachments.length > 0,
    takesAttachment: (name) => attachmentMatches(name),
    parseBody: f.parse_body,
  };
}

// IMAP intake: drops the attachments of new mail into a rule's watched folder, where the folder intake
// takes them like any dropped file. Per message, in this order, each step repeatable after a crash:
//   1. write every attachment atomically under a name fixed by (mailbox, UIDVALIDITY, UID, part), so a
//      rerun rewrites the same files (and one already taken is a content duplicate, skipped by the rule);
//   2. commit "dropped" to the ledger;
//   3. flag the message \Seen, move or delete it (after:).
// A message with nothing to drop, or whose attachments fail to be written 3 times in a row, is kept as
// <name>.eml in the rule's failed folder with the reason.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import tls from 'node:tls';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { simpleParser, type Attachment } from 'mailparser';
import { atomicWriteFile } from '../../../shared/atomic-write.js';
import type { MailboxConfig, RuleConfig } from '../../config/config.js';
import { moveToFailed } from '../../inputs/disposition.js';
import { sha256File } from '../../inputs/inspect-file.js';
import type { Ledger, MailKey } from '../../ledger/ledger.js';
import type { Logger } from '../../../shared/logger.js';
import { backoffDelayMs } from '../../../shared/backoff.js';
import { sanitiseFileName } from '../../../shared/safe-paths.js';
import { sleep } from '../../../shared/scheduler.js';

export interface MailIntakeOptions {
  mailbox: MailboxConfig;
  rule: Pick<RuleConfig, 'name' | 'watch' | 'after'>;
  ledger: Pick<Ledger, 'mailDropped' | 'recordMailDropped' | 'lastMailUid'>;
  /** A folder of the daemon's own (next to the ledger) where a message's .eml waits on its way to the failed folder. */
  workDir: string;
  logger: Logger;
  /** Reconnect delays grow from here to 60 s. */
  reconnectMinMs?: number;
}

export interface MailIntake {
  /** Checks the folder now and resolves when that check is done (tests, benches). */
  checkNow(): Promise<void>;
  stop(): Promise<void>;
}

const MAX_DROP_ATTEMPTS = 3;

const EXTENSIONS: Record<string, string> = {
  'application/pdf': '.pdf',
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/tiff': '.tif',
};

export function startMailIntake(opts: MailIntakeOptions): MailIntake {
  const { mailbox: mb, logger } = opts;
  const log = logger.child({ mailbox: mb.name });
  const stopper = new AbortController();
  /** Consecutive failed drops per message (UIDVALIDITY/UID). */
  const failures = new Map<string, number>();
  let wake: (() => void) | null = null;
  let checks: (() => void)[] = [];
  let checking: Promise<void> = Promise.resolve();

  const connect = async (): Promise<ImapFlow> => {
    // Read at each connect, so a renewed certificate is picked up without a restart.
    const ca = mb.tls_ca_file ? [...tls.rootCertificates, await readFile(mb.tls_ca_file, 'utf8')] : undefined;
    const c = new ImapFlow({
      host: mb.host,
      port: mb.port,
      secure: mb.tls,
      ...(ca ? { tls: { ca } } : {}),
      auth: { user: mb.user, pass: mb.password },
      logger: false,
      // IDLE (new-mail pushes) 1 s after the last command instead of imapflow's 15 s.
      autoIdleDelay: 1000,
    });
    // Without a listener an 'error' event would end the process; the loop below reconnects instead.
    c.on('error', (err: Error) => log.debug({ err: describeError(err) }, 'imap connection error'));
    // New mail (IDLE push): check again, also when it arrives during a check.
    c.on('exists', () => {
      checks.push(() => undefined);
      wake?.();
    });
    await c.connect();
    return c;
  };

  const checkOnce = async (c: ImapFlow): Promise<void> => {
    let uids: number[];
    let uidValidity: string;
    const lock = await c.getMailboxLock(mb.folder);
    try {
      uidValidity = String((c.mailbox as { uidValidity: bigint }).uidValidity);
      uids = await newMessages(c, uidValidity);
    } finally {
      lock.release();
    }
    for (const uid of uids) {
      if (stopper.signal.aborted) return;
      await handleMessage(c, { mailbox: mb.name, uidValidity, uid });
    }
  };

  /**
   * UIDs to take, ascending. after: move/delete leave only new mail in the folder, so all of it. after:
   * seen: the unseen ones, and those above the last UID taken even if someone read them meanwhile.
   */
  const newMessages = async (c: ImapFlow, uidValidity: string): Promise<number[]> => {
    if (mb.after !== 'seen') return ((await c.search({ all: true }, { uid: true })) || []).sort((a, b) => a - b);
    const unseen = (await c.search({ seen: false }, { uid: true })) || [];
    const last = await opts.ledger.lastMailUid(mb.name, uidValidity);
    // "N:*" always matches the newest message, even below N: hence the filter.
    const newer = last > 0 ? ((await c.search({ uid: `${last + 1}:*` }, { uid: true })) || []).filter((u) => u > last) : [];
    return [...new Set([...unseen, ...newer])].sort((a, b) => a - b);
  };

  const handleMessage = async (c: ImapFlow, key: MailKey): Promise<void> => {
    if (!(await opts.ledger.mailDropped(key))) {
      let source: Buffer | undefined;
      const lock = await c.getMailboxLock(mb.folder);
      try {
        const msg = await c.fetchOne(String(key.uid), { source: true }, { uid: true });
        source = msg ? msg.source : undefined;
      } finally {
        lock.release();
      }
      if (!source) return; // expunged meanwhile
      const files = await dropOrGiveUp(source, key);
      await opts.ledger.recordMailDropped(key, files);
    }
    const lock = await c.getMailboxLock(mb.folder);
    try {
      const range = String(key.uid);
      let done: unknown;
      if (mb.after === 'seen') done = await c.messageFlagsAdd(range, ['\\Seen'], { uid: true });
      else if (mb.after === 'delete') done = await c.messageDelete(range, { uid: true });
      else {
        await c.mailboxCreate(mb.move_to!).catch(() => undefined); // exists already, usually
        done = await c.messageMove(range, mb.move_to!, { uid: true });
      }
      // Refused (e.g. a folder name the server rejects): retried with backoff, the attachments stay dropped once.
      if (!done) throw new Error(`the server refused to ${mb.after === 'move' ? `move the message to "${mb.move_to}"` : mb.after === 'seen' ? 'flag the message \\Seen' : 'delete the message'}`);
    } finally {
      lock.release();
    }
  };

  /**
   * drop(), retried on the next checks; a message that fails MAX_DROP_ATTEMPTS times in a row is kept as
   * .eml in the failed folder with the error, so one bad message cannot hold up the mailbox forever.
   */
  const dropOrGiveUp = async (source: Buffer, key: MailKey): Promise<string[]> => {
    const id = `${key.uidValidity}/${key.uid}`;
    try {
      const files = await drop(source, key);
      failures.delete(id);
      return files;
    } catch (err) {
      const n = (failures.get(id) ?? 0) + 1;
      failures.set(id, n);
      if (n < MAX_DROP_ATTEMPTS) throw err;
      failures.delete(id);
      const reason = `its attachments could not be written after ${n} attempts: ${(err as Error).message}`;
      await keepAsFailed(source, `${mb.name}-${key.uidValidity}-${key.uid}.eml`, reason, 'mail_unreadable', { uid: key.uid });
      return [];
    }
  };

  /** Writes the message's attachments into the inbox; returns their paths. */
  const drop = async (source: Buffer, key: MailKey): Promise<string[]> => {
    const parsed = await simpleParser(source, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
    const prefix = `${mb.name}-${key.uidValidity}-${key.uid}`;
    // Images the HTML body shows (logos, signatures: cid-referenced) are not documents.
    const parts = parsed.attachments.filter((a) => !a.related);
    const meta = { uid: key.uid, messageId: parsed.messageId, from: parsed.from?.text, subject: parsed.subject };
    if (parts.length === 0) {
      await keepAsFailed(source, `${prefix}.eml`, 'the message has no attachment to process', 'no_attachment', meta);
      return [];
    }
    const files: string[] = [];
    for (const [i, part] of parts.entries()) {
      const path = join(opts.rule.watch, sanitiseFileName(`${prefix}-${i + 1}-${sanitiseFileName(attachmentName(part))}`));
      await mkdir(opts.rule.watch, { recursive: true });
      await atomicWriteFile(path, part.content);
      files.push(path);
    }
    log.info({ ...meta, files }, 'mail attachments dropped into the inbox');
    return files;
  };

  const keepAsFailed = async (source: Buffer, name: string, message: string, reason: string, meta: Record<string, unknown>) => {
    await mkdir(opts.workDir, { recursive: true });
    const path = join(opts.workDir, name);
    await writeFile(path, source);
    try {
      const dest = await moveToFailed(opts.rule, { path, size: source.length, sha256: await sha256File(path) }, { message, reason });
      log.warn({ ...meta, path: dest }, `mail not processed: ${message}`);
    } finally {
      await rm(path, { force: true });
    }
  };

  const loop = async () => {
    const reconnect = { initialMs: opts.reconnectMinMs ?? 1000, maxMs: 60_000 };
    let retriesInRow = 0;
    while (!stopper.signal.aborted) {
      let client: ImapFlow | null = null;
      try {
        client = await connect();
        log.info({ host: mb.host, folder: mb.folder }, 'mailbox connected');
        retriesInRow = 0;
        while (!stopper.signal.aborted && client.usable) {
          const waiting = checks;
          checks = [];
          checking = checkOnce(client);
          await checking.finally(() => waiting.forEach((done) => done()));
          if (checks.length) continue;
          // Until poll_s passes, new mail, checkNow() or stop(); the abort listener goes each time (no pile-up).
          await new Promise<void>((resolve) => {
            if (stopper.signal.aborted) return resolve(); // stop() came while the check was finishing
            const done = () => {
              clearTimeout(timer);
              stopper.signal.removeEventListener('abort', done);
              resolve();
            };
            const timer = setTimeout(done, mb.poll_s * 1000);
            wake = done;
            stopper.signal.addEventListener('abort', done, { once: true });
          });
          wake = null;
        }
      } catch (err) {
        if (stopper.signal.aborted) break;
        const delay = backoffDelayMs(retriesInRow++, reconnect);
        log.warn({ err: describeError(err), retryInMs: delay }, 'mailbox unavailable; retrying');
        await sleep(delay, stopper.signal).catch(() => undefined);
      } finally {
        const c = client;
        await c?.logout().catch(() => c.close());
      }
    }
  };
  const running = loop();

  return {
    checkNow() {
      return new Promise<void>((resolve) => {
        checks.push(resolve);
        wake?.();
      });
    },
    async stop() {
      stopper.abort();
      await checking.catch(() => undefined);
      checks.forEach((done) => done());
      await running;
    },
  };
}

function attachmentName(part: Attachment): string {
  if (part.filename) return part.filename;
  return `attachment${EXTENSIONS[part.contentType] ?? '.bin'}`;
}

/** An IMAP error as it may be logged: message and server response, never the credentials. */
function describeError(err: unknown): Record<string, unknown> {
  const e = err as { message?: string; code?: string; responseText?: string; authenticationFailed?: boolean };
  return { message: e.message, code: e.code, response: e.responseText, authenticationFailed: e.authenticationFailed };
}

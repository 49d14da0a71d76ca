// Inbound e-mail (spec Events 2): an SMTP listener (`--smtp-port`) where mail to a Workflow's email_id
// becomes documents (source_name 'email') and runs of that Workflow. Per the Workflow's parser_config:
// each attachment of an accepted type (PDF/JPEG/PNG/TIFF, detected from the bytes) when
// parse_email_attachments (default true), and the text body rendered to a PDF when parse_email_body.
// Unknown recipients are refused at RCPT TO (550); a message that yields no document is refused at DATA.
// No AUTH or TLS: bind it to loopback or a trusted network.
import { Readable } from 'node:stream';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { ParserConfig } from '../../api/types.js';
import type { Logger } from '../../shared/logger.js';
import { mailBodyPdf } from '../../shared/mail-body-pdf.js';
import { ServiceError } from '../service-error.js';
import type { TemplateRow, TemplatesRepo } from '../store/templates-repo.js';
import { storeDocument, type DocumentStoreDeps } from '../usecases/documents.js';
import { submitRun, type SubmitRunDeps } from '../usecases/submit-run.js';

/** Recipient lookup, and what storing a document and submitting a run need (the usecases the API uses). */
export type InboundMailDeps = DocumentStoreDeps & SubmitRunDeps & { templates: TemplatesRepo; logger: Logger };

export interface InboundMailOptions {
  port: number;
  host: string;
  /** Largest message accepted, bytes; default 25 MB. */
  maxMessageBytes?: number;
}

export interface InboundMail {
  port: number;
  close(): Promise<void>;
}

class SmtpReply extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startInboundMail(deps: InboundMailDeps, opts: InboundMailOptions): Promise<InboundMail> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: opts.maxMessageBytes ?? 25 * 1024 * 1024,
    banner: 'docdrop inbound',
    logger: false,
    onRcptTo(address, _session, cb) {
      deps.templates.getByEmail(address.address).then(
        (template) => (template ? cb() : cb(new SmtpReply(550, `5.1.1 <${address.address}>: no Workflow has this address`))),
        (err: unknown) => {
          deps.logger.error({ err }, 'inbound e-mail recipient lookup failed');
          cb(new SmtpReply(451, '4.3.0 temporary failure looking up the recipient; try again later'));
        },
      );
    },
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((mail) => receive(deps, session, mail))
        .then((n) => (n > 0 ? cb() : cb(new SmtpReply(550, '5.7.1 nothing to process: no PDF/JPEG/PNG/TIFF attachment, and no Workflow parses e-mail bodies'))))
        .catch((err: unknown) => {
          deps.logger.error({ err }, 'inbound e-mail failed');
          cb(new SmtpReply(451, '4.3.0 temporary failure storing the message; try again later'));
        });
    },
  });
  server.on('error', (err) => deps.logger.warn({ err }, 'SMTP listener error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const addr = server.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  deps.logger.info({ host: opts.host, port }, 'inbound SMTP listening');
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Stores documents and submits runs for every recipient Workflow; returns how many runs started. */
async function receive(deps: InboundMailDeps, session: SMTPServerSession, mail: ParsedMail): Promise<number> {
  let runs = 0;
  for (const rcpt of session.envelope.rcptTo) {
    const template = await deps.templates.getByEmail(rcpt.address);
    if (!template) continue; // deleted between RCPT and DATA
    for (const doc of await documentsFor(deps, template, mail)) {
      // A run of the recipient Workflow with its own options, as run_parser without query options.
      await submitRun(deps, { account: { id: template.account_id }, documentId: doc, via: 'run_parser', target: { template, classifierId: null }, params: {} });
      runs++;
    }
  }
  return runs;
}

async function documentsFor(deps: InboundMailDeps, template: TemplateRow, mail: ParsedMail): Promise<string[]> {
  const cfg = JSON.parse(template.parser_config) as ParserConfig;
  const ids: string[] = [];
  const store = async (fileName: string, bytes: Uint8Array) => {
    try {
      const row = await storeDocument(deps, { accountId: template.account_id, sourceName: 'email', fileName, source: Readable.from([Buffer.from(bytes)]) });
      ids.push(row.document_id);
    } catch (err) {
      // An attachment of another type (a signature image in GIF, a .docx) is skipped, not fatal.
      if (!(err instanceof ServiceError)) throw err;
      deps.logger.info({ fileName, reason: err.message }, 'inbound e-mail attachment skipped');
    }
  };
  if (cfg.parse_email_attachments !== false) {
    for (const [i, a] of mail.attachments.entries()) await store(a.filename ?? `attachment-${i + 1}`, a.content);
  }
  if (cfg.parse_email_body === true) {
    const body = await mailBodyPdf(mail);
    if (body) await store(body.fileName, body.pdf);
  }
  return ids;
}

// A small XML serializer for the Accept: application/xml variants of get-document and run_parser.
// Shape: objects become elements named by their keys, arrays repeat <item>, null becomes nil="true".
// Keys that are not XML names (labels with spaces, say) become <entry key="...">.
import type { FastifyReply, FastifyRequest } from 'fastify';

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export function escapeXml(s: string): string {
  // Characters XML 1.0 forbids even escaped are dropped rather than producing an unparseable document.
  return s
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function element(name: string, value: unknown): string {
  const valid = NAME_RE.test(name) && !/^xml/i.test(name);
  const open = valid ? name : `entry key="${escapeXml(name)}"`;
  const close = valid ? name : 'entry';
  if (value === null || value === undefined) return `<${open} nil="true"/>`;
  if (Array.isArray(value)) return `<${open}>${value.map((v) => element('item', v)).join('')}</${close}>`;
  if (typeof value === 'object') {
    const inner = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => element(k, v))
      .join('');
    return `<${open}>${inner}</${close}>`;
  }
  return `<${open}>${escapeXml(String(value))}</${close}>`;
}

export function toXml(root: string, value: unknown): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(root, value)}`;
}

/** True when the Accept header prefers XML over JSON (q-values honoured; JSON wins ties and absence). */
export function wantsXml(accept: string | undefined): boolean {
  if (!accept) return false;
  let xml = 0;
  let json = 0;
  for (const range of accept.split(',')) {
    const [type, ...params] = range.trim().toLowerCase().split(';').map((s) => s.trim());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) || 0 : 1;
    if (type === 'application/xml' || type === 'text/xml') xml = Math.max(xml, q);
    if (type === 'application/json' || type === '*/*' || type === 'application/*') json = Math.max(json, type === 'application/json' ? q : q * 0.99);
  }
  return xml > 0 && xml > json;
}

/** Sends value as JSON, or as XML under `root` when the request asks for it. */
export function sendNegotiated(req: FastifyRequest, reply: FastifyReply, root: string, value: unknown): FastifyReply {
  if (wantsXml(req.headers.accept)) return reply.type('application/xml; charset=utf-8').send(toXml(root, value));
  return reply.send(value);
}

// POST /v1/extract with `url` fetches only from public addresses: loopback, private and other special
// ranges are refused by default, by literal, by name (after DNS) and on every redirect hop, with one
// message that says nothing about the port behind it; --fetch-allow-range lets named ranges through.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { ServiceClient } from '../../src/api/client.js';
import { createAddressPolicy, isPublicUnicast } from '../../src/service/usecases/address-policy.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { invoicePdf, invoiceTemplate } from '../helpers/job-fixtures.js';

let pdf: Buffer;
let files: Server;
let filesPort: number;
let closedPort: number;
let redirector: Server;
let redirectorUrl: string;

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((r) => server.listen(0, host, r));
  return (server.address() as AddressInfo).port;
}
const close = (s: Server) => new Promise<void>((r) => s.close(() => r()));

async function extractUrl(svc: TestService, templateId: string, url: string) {
  const res = await request(`${svc.url}/v1/extract`, {
    method: 'POST',
    headers: { 'x-api-key': svc.keys[0], 'content-type': 'application/json' },
    body: JSON.stringify({ url, template_id: templateId }),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

async function serviceWith(fetchAllowRanges?: string[]) {
  const svc = await startTestService(fetchAllowRanges ? { fetchAllowRanges } : {});
  const client = new ServiceClient({ baseUrl: svc.url, apiKey: svc.keys[0], retry: false });
  const templateId = (await client.createTemplate(invoiceTemplate('T'))).template_id;
  return { svc, templateId };
}

before(async () => {
  pdf = await invoicePdf({ number: 'U-1', total: '1.00', date: '2026-01-01' });
  files = createServer((req, res) => {
    if (req.url === '/a.pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
    res.writeHead(404).end();
  });
  filesPort = await listen(files, '127.0.0.1');
  const probe = createServer();
  closedPort = await listen(probe, '127.0.0.1');
  await close(probe);
  // On 127.0.0.2 (Linux routes all of 127/8 to lo): an allowed first hop that redirects to 127.0.0.1.
  redirector = createServer((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${filesPort}/a.pdf` }).end());
  redirectorUrl = `http://127.0.0.2:${await listen(redirector, '127.0.0.2')}/go`;
});
after(async () => {
  await close(files);
  await close(redirector);
});

describe('url fetch by default', () => {
  let svc: TestService;
  let templateId: string;
  before(async () => ({ svc, templateId } = await serviceWith()));
  after(() => svc.close());

  test('refuses loopback by literal, decimal form, IPv6, mapped IPv6 and by name, with one message whether the port is open or closed', async () => {
    const urls = [
      `http://127.0.0.1:${filesPort}/a.pdf`,
      `http://127.0.0.1:${closedPort}/a.pdf`,
      `http://2130706433:${filesPort}/a.pdf`,
      `http://[::1]:${filesPort}/a.pdf`,
      `http://[::ffff:127.0.0.1]:${filesPort}/a.pdf`,
      `http://localhost:${filesPort}/a.pdf`,
      `http://localhost:${closedPort}/a.pdf`,
      `http://10.0.0.1:${filesPort}/a.pdf`,
      `http://169.254.169.254/latest/meta-data/`,
    ];
    const messages = new Set<string>();
    for (const url of urls) {
      const r = await extractUrl(svc, templateId, url);
      assert.equal(r.status, 400, `${url}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error, 'invalid_request', url);
      // The message names the URL asked for; with that taken out, every answer is the same.
      messages.add(String(r.body.message).replace(new URL(url).origin, 'ORIGIN').replace(new URL(url).pathname, '/PATH'));
    }
    assert.equal(messages.size, 1, [...messages].join('\n'));
    assert.match([...messages][0], /not public/);
  });
});

describe('url fetch with --fetch-allow-range', () => {
  test('a named range is fetched; a redirect from it to an address outside it is refused', async () => {
    const { svc, templateId } = await serviceWith(['127.0.0.2/32']);
    try {
      const refused = await extractUrl(svc, templateId, redirectorUrl);
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.match(String(refused.body.message), /not public/);
      const direct = await extractUrl(svc, templateId, `http://127.0.0.1:${filesPort}/a.pdf`);
      assert.equal(direct.status, 400, '127.0.0.1 is outside 127.0.0.2/32');
    } finally {
      await svc.close();
    }
    const open = await serviceWith(['127.0.0.0/8']);
    try {
      const r = await extractUrl(open.svc, open.templateId, redirectorUrl);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(typeof r.body.request_id, "string");

    } finally {
      await open.svc.close();
    }
  });

  test('a malformed range is refused at start, naming the option', () => {
    assert.throws(() => createAddressPolicy(['10.0.0.0']), /fetch-allow-range: expected a CIDR range/);
    assert.throws(() => createAddressPolicy(['10.0.0.0/33']), /fetch-allow-range/);
  });
});

test('public unicast: only addresses anyone on the internet could reach', () => {
  for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) assert.equal(isPublicUnicast(a), true, a);
  for (const a of [
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
    '255.255.255.255', '192.0.2.1', '::1', '::', 'fe80::1', 'fc00::1', 'fd12::1', 'ff02::1', '::ffff:127.0.0.1',
    '64:ff9b::a00:1', '2001:db8::1', 'not-an-ip',
  ]) {
    assert.equal(isPublicUnicast(a), false, a);
  }
});

// Starts a real dovecot IMAP server (Debian's dovecot-imapd, 2.3 config syntax) on 127.0.0.1 in a
// scratch dir with a standalone config; nothing under /etc/dovecot is used. Needs root (dovecot's
// master drops to the mail uid 65534 itself). stop() kills it and removes the dir.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ImapFlow } from 'imapflow';

const MAIL_UID = 65534; // nobody
const MAIL_GID = 65534; // nogroup

function findDovecot(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const d of dirs) {
    if (!d) continue;
    const p = join(d, 'dovecot');
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

const dovecotBin = findDovecot();

/** The dovecot binary is installed and we run as root (needed to start it and to own files for uid 65534). */
export const hasDovecot: boolean = dovecotBin !== undefined && process.getuid?.() === 0;

export interface DovecotMessage {
  uid: number;
  flags: string[];
  subject?: string;
}

export interface Dovecot {
  host: string;
  port: number;
  /** user -> password, as given to startDovecot. */
  users: Record<string, string>;
  /** Scratch dir holding config, mail, logs; removed by stop(). */
  dir: string;
  /** PEM of the self-signed server certificate, with { tls: true } or { starttls: true }. */
  cert?: string;
  /** Path of that certificate (a file in `dir`), for a mailbox's tls_ca_file. */
  certFile?: string;
  /**
   * TCP connections open from a client to this server's port (ESTABLISHED or CLOSE_WAIT on the client
   * side, so still holding a socket), read from /proc/net/tcp: what a client leaks shows here.
   */
  clientConnections(): Promise<number>;
  /** APPENDs a raw RFC 822 message; creates the folder first if missing. `received`: its INTERNALDATE (default now). */
  append(user: string, raw: string | Buffer, folder?: string, flags?: string[], received?: Date): Promise<void>;
  /** Every message in the folder, by uid. Flags leave out \Recent (per-session, not stored). */
  list(user: string, folder?: string): Promise<DovecotMessage[]>;
  /** Disconnects every IMAP session of `user` (doveadm kick): its clients must reconnect and log in again. */
  kick(user: string): Promise<void>;
  stop(): Promise<void>;
}

function dovecotGid(): number {
  const line = readFileSync('/etc/group', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('dovecot:'));
  const gid = line ? Number(line.split(':')[2]) : NaN;
  if (!Number.isInteger(gid)) throw new Error('group "dovecot" not found (apt-get install dovecot-imapd)');
  return gid;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ host, port });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
    sock.setTimeout(500, () => done(false));
  });
}

/** The oauth2 passdb's settings: tokens are checked by POSTing them to `introspectionUrl` (active: true, username). */
function oauth2Config(introspectionUrl: string): string {
  return `# written by test/helpers/dovecot.ts
introspection_mode = post
introspection_url = ${introspectionUrl}
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
`;
}

// Dovecot delays logins from an address after a failed one (up to 15 s); tests of refused tokens fail on
// purpose, and short-lived tokens would expire while waiting.
const NO_AUTH_PENALTY = 'service anvil {\n  unix_listener anvil-auth-penalty {\n    mode = 0\n  }\n}';

function config(dir: string, port: number, tls: boolean, starttls: boolean, oauth2: boolean): string {
  return `# written by test/helpers/dovecot.ts
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
${tls ? `ssl = required\nssl_cert = <${dir}/cert.pem\nssl_key = <${dir}/key.pem` : starttls ? `ssl = yes\nssl_cert = <${dir}/cert.pem\nssl_key = <${dir}/key.pem` : 'ssl = no'}
auth_mechanisms = plain login${oauth2 ? ' xoauth2 oauthbearer' : ''}
auth_failure_delay = 0
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users${oauth2 ? '\n  mechanisms = plain login' : ''}
}${oauth2 ? `\npassdb {\n  driver = oauth2\n  mechanisms = xoauth2 oauthbearer\n  args = ${dir}/dovecot-oauth2.conf.ext\n}\n${NO_AUTH_PENALTY}` : ''}
userdb {
  driver = static
  args = uid=${MAIL_UID} gid=${MAIL_GID} home=${dir}/mail/%u
}
service imap-login {
  inet_listener ${tls ? 'imaps' : 'imap'} {
    address = 127.0.0.1
    port = ${port}${tls ? '\n    ssl = yes' : ''}
  }
}
`;
}

async function logTail(dir: string, extra: string): Promise<string> {
  const log = await readFile(join(dir, 'dovecot.log'), 'utf8').catch(() => '');
  return [log, extra].filter(Boolean).join('\n').split('\n').slice(-20).join('\n');
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (!(await waitExit(child, 5000))) {
    child.kill('SIGKILL');
    await waitExit(child, 2000);
  }
}

/**
 * Starts dovecot as root with one passwd-file entry per user; resolves once the IMAP port accepts
 * connections. `tls`: implicit TLS (IMAPS) with a fresh self-signed certificate for 127.0.0.1 (`cert`);
 * `starttls`: a plain port that offers STARTTLS with such a certificate. Neither: plain, no STARTTLS.
 * `oauth2`: also an oauth2 passdb (XOAUTH2 and OAUTHBEARER) that checks each access token at this
 * introspection URL (a local stand-in for the identity provider); the users' passwords still work too.
 */
export async function startDovecot(users: Record<string, string>, opts: { tls?: boolean; starttls?: boolean; oauth2?: { introspectionUrl: string } } = {}): Promise<Dovecot> {
  if (!hasDovecot || !dovecotBin) throw new Error('dovecot not installed or not root (apt-get install dovecot-imapd)');
  const host = '127.0.0.1';
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-dovecot-'));
  try {
    await chmod(dir, 0o755); // mkdtemp makes 0700; the mail processes (uid 65534) must traverse it
    await mkdir(join(dir, 'mail'));
    await chown(join(dir, 'mail'), MAIL_UID, MAIL_GID);
    const usersFile = join(dir, 'users');
    await writeFile(usersFile, Object.entries(users).map(([u, p]) => `${u}:{PLAIN}${p}\n`).join(''), { mode: 0o640 });
    await chown(usersFile, 0, dovecotGid());
    await chmod(usersFile, 0o640);
    let cert: string | undefined;
    if (opts.tls || opts.starttls) {
      const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1',
        '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`openssl could not make a test certificate: ${r.stderr}`);
      cert = await readFile(join(dir, 'cert.pem'), 'utf8');
    }

    // The port is picked free then handed to dovecot, so another process can grab it in between:
    // retry a couple of times if dovecot dies before it listens.
    let lastError: Error | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      const confFile = join(dir, 'dovecot.conf');
      await writeFile(confFile, config(dir, port, opts.tls === true, opts.starttls === true, opts.oauth2 !== undefined));
      if (opts.oauth2) await writeFile(join(dir, 'dovecot-oauth2.conf.ext'), oauth2Config(opts.oauth2.introspectionUrl));
      await rm(join(dir, 'dovecot.log'), { force: true });
      const child = spawn(dovecotBin, ['-F', '-c', confFile], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      let spawnError: Error | undefined;
      child.once('error', (e) => (spawnError = e));

      const deadline = Date.now() + 5000;
      let up = false;
      while (Date.now() < deadline && child.exitCode === null && child.signalCode === null && !spawnError) {
        if (await canConnect(host, port)) {
          up = true;
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      // The port may answer for another process that took it first (parallel test files each start a
      // dovecot); ours then dies on bind soon after. Only a process still alive a moment later is ours.
      if (up) await new Promise((r) => setTimeout(r, 300));
      if (up && child.exitCode === null && child.signalCode === null) return handle(dir, host, port, users, child, cert, opts.tls === true);
      if (up) lastError = new Error(`dovecot exited after its port answered (taken by another process?) on port ${port}:\n${await logTail(dir, stderr)}`);
      if (up) continue;

      const exited = child.exitCode !== null || child.signalCode !== null || spawnError !== undefined;
      await kill(child);
      lastError = new Error(
        `dovecot ${exited ? `exited (${spawnError?.message ?? child.exitCode ?? child.signalCode})` : 'did not listen within 5 s'} on port ${port}:\n${await logTail(dir, stderr)}`,
      );
      if (!exited) break; // a hang is not a port race; don't retry
    }
    throw lastError!;
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

async function ensureFolder(c: ImapFlow, folder: string): Promise<void> {
  if (folder.toUpperCase() === 'INBOX') return;
  try {
    await c.mailboxCreate(folder); // imapflow answers created:false on [ALREADYEXISTS]
  } catch (err) {
    const e = err as { message?: string; responseText?: string };
    if (!/already exists/i.test(`${e.responseText ?? ''} ${e.message ?? ''}`)) throw err;
  }
}

/** Client sockets to `port` that are still open, from /proc/net/tcp (IPv4; dovecot listens on 127.0.0.1). */
async function clientConnections(port: number): Promise<number> {
  const OPEN = new Set(['01', '08']); // ESTABLISHED, CLOSE_WAIT
  const lines = (await readFile('/proc/net/tcp', 'utf8')).split('\n').slice(1);
  return lines.filter((l) => {
    const [, , remote, state] = l.trim().split(/\s+/);
    return remote !== undefined && parseInt(remote.split(':')[1]!, 16) === port && OPEN.has(state!);
  }).length;
}

function handle(dir: string, host: string, port: number, users: Record<string, string>, child: ChildProcess, cert: string | undefined, implicitTls: boolean): Dovecot {
  async function connect(user: string): Promise<ImapFlow> {
    const pass = users[user];
    if (pass === undefined) throw new Error(`unknown dovecot test user ${user}`);
    const client = new ImapFlow({ host, port, secure: implicitTls, tls: cert ? { ca: [cert] } : undefined, auth: { user, pass }, logger: false });
    await client.connect();
    return client;
  }

  async function withClient<T>(user: string, fn: (c: ImapFlow) => Promise<T>): Promise<T> {
    const client = await connect(user);
    try {
      return await fn(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  return {
    host,
    port,
    users,
    dir,
    cert,
    certFile: cert === undefined ? undefined : join(dir, 'cert.pem'),
    clientConnections: () => clientConnections(port),
    append: (user, raw, folder = 'INBOX', flags = [], received) =>
      withClient(user, async (c) => {
        await ensureFolder(c, folder);
        const res = await c.append(folder, raw, flags, received);
        if (!res) throw new Error(`APPEND to ${folder} failed for ${user}`);
      }),
    list: (user, folder = 'INBOX') =>
      withClient(user, async (c) => {
        await ensureFolder(c, folder);
        const lock = await c.getMailboxLock(folder);
        const out: DovecotMessage[] = [];
        try {
          const exists = c.mailbox ? c.mailbox.exists : 0;
          if (exists > 0) {
            for await (const m of c.fetch('1:*', { uid: true, flags: true, envelope: true })) {
              out.push({ uid: m.uid, flags: [...(m.flags ?? [])].filter((f) => f !== '\\Recent').sort(), subject: m.envelope?.subject });
            }
          }
        } finally {
          lock.release();
        }
        return out.sort((a, b) => a.uid - b.uid);
      }),
    kick: async (user) => {
      const r = spawnSync('doveadm', ['-c', join(dir, 'dovecot.conf'), 'kick', user], { encoding: 'utf8' });
      // Exit 68 (EX_NOUSER): no session to kick, which is fine.
      if (r.status !== 0 && r.status !== 68) throw new Error(`doveadm kick ${user} failed (${r.status}): ${r.stderr}`);
    },
    stop: async () => {
      await kill(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

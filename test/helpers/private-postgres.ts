// A PostgreSQL server of a test's own (a fresh cluster in a temp dir, the Debian binaries), for tests that
// must really restart or stop the server: the shared one on 127.0.0.1:5432 serves other test files in
// parallel and cannot be restarted under them.
import { execFile } from 'node:child_process';
import { chown, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PG_LIB = '/usr/lib/postgresql';

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres, trust auth. */
  url: string;
  /** `pg_ctl restart -m fast -w`: every connection dropped, connections refused until the server is up again. */
  restart(): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await newestPgBin();
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'docdrop-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  // initdb refuses to run as root: then the cluster belongs to the `postgres` OS user.
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args);
  const ctl = (args: string[]) => pg('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', ...args]);

  try {
    await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    // postgresql.auto.conf is read last: settings appended there win over postgresql.conf.
    const settings = [
      `listen_addresses = '127.0.0.1'`,
      `port = ${port}`,
      `unix_socket_directories = '${dir}'`,
      `shared_buffers = 16MB`,
      `max_connections = 60`,
      `fsync = off`,
      `synchronous_commit = off`,
      `full_page_writes = off`,
    ];
    await writeFile(join(data, 'postgresql.auto.conf'), settings.join('\n') + '\n', { flag: 'a' });
    await ctl(['start']);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`could not start a private PostgreSQL in ${dir}: ${(err as { stderr?: string }).stderr ?? String(err)}`);
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async restart() {
      await ctl(['restart', '-m', 'fast']);
    },
    async stop() {
      await ctl(['stop', '-m', 'immediate']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** /usr/lib/postgresql/<version>/bin of the highest version installed. */
async function newestPgBin(): Promise<string> {
  const versions = (await readdir(PG_LIB).catch(() => [] as string[])).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error(`no PostgreSQL server binaries under ${PG_LIB}/<version>/bin (apt-get install postgresql)`);
  return join(PG_LIB, versions[0]!, 'bin');
}

/** A port nobody listens on now: bind port 0, read what the kernel gave, close. */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve, reject) => srv.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

// A real Maildir on disk for tests: delivery as an MTA does it (write into tmp/, rename into new/), a
// message already in cur/ with flags (moved in whole, as a mail client does), and a listing of every folder.
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface TestMaildir {
  dir: string;
  /** Delivers into new/ (through tmp/); returns the message's unique name. */
  deliver(raw: Buffer): Promise<string>;
  /** Puts a message straight into cur/ as "<name>:2,<flags>" (read or flagged by a mail client). */
  putInCur(raw: Buffer, flags: string): Promise<string>;
  /** File names per folder: new, cur, tmp, and those of a Maildir++ subfolder (".Name/cur"). */
  list(sub: string): Promise<string[]>;
}

let counter = 0;

export async function createMaildir(dir: string): Promise<TestMaildir> {
  for (const sub of ['new', 'cur', 'tmp']) await mkdir(join(dir, sub), { recursive: true });
  // Unique names in delivery order, like "<time>.M<n>P<pid>.<host>".
  const nextName = () => `${1_700_000_000 + ++counter}.M${counter}P${process.pid}.test,S=1`;
  return {
    dir,
    async deliver(raw) {
      const name = nextName();
      await writeFile(join(dir, 'tmp', name), raw);
      await rename(join(dir, 'tmp', name), join(dir, 'new', name));
      return name;
    },
    async putInCur(raw, flags) {
      // Through tmp/ as well: a message written in place could be read half-written by a check already running.
      const name = nextName();
      await writeFile(join(dir, 'tmp', name), raw);
      await rename(join(dir, 'tmp', name), join(dir, 'cur', `${name}:2,${flags}`));
      return name;
    },
    list: async (sub) => (await readdir(join(dir, sub)).catch(() => [])).sort(),
  };
}

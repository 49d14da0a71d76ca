// `docdrop mail login NAME`: the first refresh token of an OAuth2 mailbox, by the device-code flow. It
// prints the provider's page and the code to enter there, waits for the sign-in, and stores the refresh
// token in the mailbox's refresh_token_file (mode 600). Tokens are never printed.
import type { Argv, CommandModule } from 'yargs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { loadConfig } from '../daemon/config/config.js';
import { deviceLogin } from '../daemon/intake/mail/oauth2-device-login.js';
import { DEFAULT_CONFIG, reportingErrors } from './run-command.js';

interface LoginArgs {
  name: string;
  config: string;
}

const loginCommand: CommandModule<object, LoginArgs> = {
  command: 'login <name>',
  describe: 'Sign an OAuth2 mailbox in with a device code (a URL and a code for any browser) and store its refresh token',
  builder: (y) =>
    (y as Argv<object>)
      .positional('name', { type: 'string', demandOption: true, describe: 'the mailbox (mailboxes[].name)' })
      .option('config', { type: 'string', default: DEFAULT_CONFIG, describe: 'daemon config file (YAML)' }) as Argv<LoginArgs>,
  handler: reportingErrors('mail login', async (args) => {
    const config = await loadConfig(args.config);
    const mb = config.mailboxes.find((m) => m.name === args.name);
    if (!mb) throw new Error(`no mailbox is named "${args.name}" in ${args.config}; expected one of ${config.mailboxes.map((m) => `"${m.name}"`).join(', ') || '(none)'}`);
    if (mb.maildir !== undefined) throw new Error(`mailbox ${mb.name} is a local Maildir (${mb.maildir}): it has no login, there is nothing to sign in`);
    if (mb.auth.type !== 'oauth2') throw new Error(`mailbox ${mb.name} logs in with a password (auth.type: password): there is nothing to sign in`);
    if (mb.auth.refresh_token_file) await mkdir(dirname(mb.auth.refresh_token_file), { recursive: true, mode: 0o700 });
    const file = await deviceLogin(mb.auth, {
      mailbox: mb.name,
      prompt: (d) => {
        const lines = [
          `To sign in mailbox ${mb.name} (${mb.user}), open ${d.verification_uri} in any browser and enter the code ${d.user_code}`,
          ...(d.verification_uri_complete ? [`(or open ${d.verification_uri_complete}, which carries the code)`] : []),
          `The code is valid for ${Math.round(d.expires_in / 60)} minutes; waiting for the sign-in...`,
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
      },
    });
    process.stdout.write(`Signed in. The refresh token is stored in ${file} (mode 600); \`docdrop doctor\` checks the login.\n`);
  }),
};

export const mailCommand: CommandModule = {
  command: 'mail <command>',
  describe: 'Mailbox commands: login NAME (OAuth2 device-code sign-in)',
  builder: (y) => y.command(loginCommand).demandCommand(1, 'Name a mail command: login.'),
  handler: () => undefined,
};

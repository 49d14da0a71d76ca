#!/usr/bin/env node
// The one `docdrop` command. Each subcommand lives in its own module; this file only assembles them.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { serveCommand } from './serve-command.js';
import { runCommand } from './run-command.js';
import { processCommand } from './process-command.js';
import { statusCommand } from './status-command.js';
import { retryCommand } from './retry-command.js';
import { classifiersCommand, workflowsCommand } from './definitions-command.js';
import { tryCommand } from './try-command.js';
import { doctorCommand } from './doctor-command.js';
import { mcpCommand } from './mcp-command.js';
import { mailCommand } from './mail-command.js';

await yargs(hideBin(process.argv))
  .scriptName('docdrop')
  .usage('$0 <command> [options]')
  .command(serveCommand)
  .command(runCommand)
  .command(processCommand)
  .command(statusCommand)
  .command(retryCommand)
  .command(tryCommand)
  .command(workflowsCommand)
  .command(classifiersCommand)
  .command(doctorCommand)
  .command(mailCommand)
  .command(mcpCommand)
  .demandCommand(1, 'Name a command: serve, run, process, try, status, retry, workflows, classifiers, doctor, mail or mcp.')
  .strict()
  .recommendCommands()
  // A wrong or missing option is one line naming it and where the help is, not the whole help text.
  .fail((msg, err) => {
    const command = hideBin(process.argv).find((a) => !a.startsWith('-'));
    const name = command ? `docdrop ${command}` : 'docdrop';
    process.stderr.write(msg ? `${name}: ${msg} (see ${name} --help)\n` : `${name}: ${err?.message ?? String(err)}\n`);
    process.exit(1);
  })
  .help()
  .version()
  .parseAsync();

#!/usr/bin/env node
// The one `docdrop` command. Each subcommand lives in its own module; this file only assembles them.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { serveCommand } from './serve-command.js';
import { runCommand } from './run-command.js';
import { processCommand } from './process-command.js';
import { statusCommand } from './status-command.js';
import { retryCommand } from './retry-command.js';

await yargs(hideBin(process.argv))
  .scriptName('docdrop')
  .usage('$0 <command> [options]')
  .command(serveCommand)
  .command(runCommand)
  .command(processCommand)
  .command(statusCommand)
  .command(retryCommand)
  .demandCommand(1, 'Name a command: serve, run, process, status or retry.')
  .strict()
  .recommendCommands()
  .help()
  .version()
  .parseAsync();

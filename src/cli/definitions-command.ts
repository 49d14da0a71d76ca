// `docdrop workflows|classifiers list|show|export|apply|delete`: the account's Workflows and Classifiers
// against the configured service (embedded included) or --base-url/--api-key. `export` writes the config's
// section shape, which `apply --file` takes back; `apply` without --file applies the config's section.
import { writeFile } from 'node:fs/promises';
import type { Argv, CommandModule } from 'yargs';
import { loadConfig, type DaemonConfig } from '../daemon/config/config.js';
import { loadDefinitionsFile, type DefinitionsFile } from '../daemon/config/definitions-file.js';
import { syncDefinitions } from '../daemon/definitions/apply.js';
import { definitionsYaml } from '../daemon/definitions/export.js';
import { formatPlan } from '../daemon/definitions/format-plan.js';
import { classifierKind, findDefinition, workflowKind, type DefinitionKind } from '../daemon/definitions/kinds.js';
import type { DesiredDefinitions } from '../daemon/definitions/plan.js';
import { createLogger } from '../shared/logger.js';
import { DEFAULT_CONFIG, reportingErrors } from './run-command.js';
import { connectFromArgs, serviceOptions, type ServiceArgs, type ServiceConnection } from './service-connection.js';

interface CommonArgs extends ServiceArgs {
  config: string;
  json?: boolean;
}

export const workflowsCommand = definitionsCommand(workflowKind);
export const classifiersCommand = definitionsCommand(classifierKind);

function definitionsCommand<Item>(kind: DefinitionKind<Item>): CommandModule {
  const s = kind.section;
  const common = <T>(y: Argv<T>) =>
    serviceOptions(y).option('config', { type: 'string', default: DEFAULT_CONFIG, describe: "daemon config: its service (unless --base-url) and its definitions" });
  /** Runs `fn` with a client, closing an embedded service after. */
  const withService = <A extends CommonArgs>(name: string, fn: (args: A, conn: ServiceConnection) => Promise<void>) =>
    reportingErrors<A>(`${s} ${name}`, async (args) => {
      const conn = await connectFromArgs(args, createLogger({ level: process.env.DOCDROP_LOG_LEVEL ?? 'error' }));
      try {
        await fn(args, conn);
      } finally {
        await conn.close();
      }
    });

  const list: CommandModule<object, CommonArgs> = {
    command: 'list',
    describe: `List the account's ${kind.noun}s`,
    builder: (y) => common(y).option('json', { type: 'boolean', describe: 'print JSON' }),
    handler: withService('list', async (args, { client }) => {
      const rows = (await kind.list(client)).map(kind.summary);
      process.stdout.write(args.json ? `${JSON.stringify(rows, null, 2)}\n` : table(rows));
    }),
  };

  const show: CommandModule<object, CommonArgs & { name: string }> = {
    command: 'show <name>',
    describe: `Show one ${kind.noun} (by name or id) as a definition`,
    builder: (y) => common(y).positional('name', { type: 'string', demandOption: true }).option('json', { type: 'boolean', describe: "print the service's JSON" }),
    handler: withService('show', async (args, { client }) => {
      const item = findDefinition(kind, await kind.list(client), args.name);
      if (args.json) return void process.stdout.write(`${JSON.stringify(item, null, 2)}\n`);
      const [definition] = await kind.definitions(client, [item]);
      process.stdout.write(`# ${kind.noun} ${kind.id(item)}\n${definitionsYaml({ [s]: [definition] })}`);
    }),
  };

  const exportCmd: CommandModule<object, CommonArgs & { names?: string[]; out?: string }> = {
    command: 'export [names..]',
    describe: `Write ${kind.noun}s (all, or the named ones) as YAML that apply --file takes back`,
    builder: (y) =>
      common(y)
        .positional('names', { type: 'string', array: true, describe: 'names or ids; all when none' })
        .option('out', { type: 'string', describe: 'write to this file instead of stdout' }),
    handler: withService('export', async (args, { client }) => {
      const all = await kind.list(client);
      const items = args.names && args.names.length > 0 ? args.names.map((n) => findDefinition(kind, all, n)) : all;
      const yaml = definitionsYaml({ [s]: await kind.definitions(client, items) });
      if (args.out === undefined) process.stdout.write(yaml);
      else {
        await writeFile(args.out, yaml);
        process.stderr.write(`wrote ${items.length} ${kind.noun}(s) to ${args.out}\n`);
      }
    }),
  };

  const apply: CommandModule<object, CommonArgs & { dryRun?: boolean; prune?: boolean; file?: string }> = {
    command: 'apply',
    describe: `Make the account's ${kind.noun}s match the config's ${s}: section (or --file)`,
    builder: (y) =>
      common(y)
        .option('dry-run', { type: 'boolean', describe: 'show the difference; send nothing' })
        .option('prune', { type: 'boolean', describe: `also delete ${kind.noun}s not defined` })
        .option('file', { type: 'string', describe: `a YAML file with a ${s}: section (e.g. from export)` }),
    handler: withService('apply', async (args, conn) => {
      const source = args.file ?? args.config;
      const section = (await definitionsFrom(args, conn.config))[s];
      if (section === undefined) throw new Error(`${source} has no ${s}: section`);
      if (args.prune && section.length === 0) {
        throw new Error(`--prune with no ${s} defined in ${source} would delete every ${kind.noun} of the account; refusing`);
      }
      const desired: DesiredDefinitions = { [s]: section };
      const { plan, applied } = await syncDefinitions(conn.client, desired, { prune: args.prune === true, dryRun: args.dryRun === true });
      process.stdout.write(formatPlan(plan));
      if (args.dryRun) return void process.stdout.write('dry run: nothing was sent\n');
      const count = (action: string) => applied.filter((a) => a.action === action).length;
      process.stdout.write(
        applied.length === 0 ? 'nothing to do: the account matches\n' : `${count('create')} created, ${count('update')} updated, ${count('delete')} deleted\n`,
      );
    }),
  };

  const remove: CommandModule<object, CommonArgs & { name: string }> = {
    command: 'delete <name>',
    describe: `Delete one ${kind.noun} (by name or id)`,
    builder: (y) => common(y).positional('name', { type: 'string', demandOption: true }),
    handler: withService('delete', async (args, { client }) => {
      const item = findDefinition(kind, await kind.list(client), args.name);
      await kind.remove(client, kind.id(item));
      process.stdout.write(`deleted ${kind.noun} "${kind.name(item)}" (${kind.id(item)})\n`);
    }),
  };

  return {
    command: s,
    describe: `List, show, export, apply or delete ${kind.noun}s`,
    builder: (y) =>
      y
        .command(list)
        .command(show)
        .command(exportCmd)
        .command(apply)
        .command(remove)
        .demandCommand(1, `Name what to do: list, show, export, apply or delete.`),
    handler: () => {},
  };
}

/** --file, else the config's sections (read without secrets when the service came from --base-url). */
async function definitionsFrom(args: CommonArgs & { file?: string }, config: DaemonConfig | null): Promise<DefinitionsFile> {
  if (args.file !== undefined) return loadDefinitionsFile(args.file);
  const c = config ?? (await loadConfig(args.config, process.env, { secrets: 'skip' }));
  return { workflows: c.workflows as DefinitionsFile['workflows'], classifiers: c.classifiers as DefinitionsFile['classifiers'] };
}

function table(rows: Record<string, string | number>[]): string {
  if (rows.length === 0) return '(none)\n';
  const head = Object.keys(rows[0]!);
  const cells = [head.map((h) => h.toUpperCase()), ...rows.map((r) => head.map((h) => String(r[h])))];
  const widths = head.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)));
  return cells.map((c) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}

// `docdrop mcp`: the MCP tool set (src/mcp) over stdio for desktop agents, forwarding every call through
// ServiceClient to any server of the interface: `--base-url URL --api-key KEY` (or DOCDROP_API_KEY), or a
// daemon config's service (`--config`, embedded included: offline, no account). stdout is the protocol
// channel, so logs go to stderr only. With --config, tools over the daemon's ledger are added (mcp-ledger-tools.ts).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CommandModule } from 'yargs';
import { clientCaller } from '../mcp/client-caller.js';
import { buildMcpServer } from '../mcp/tools.js';
import { openLedger } from '../daemon/ledger/open-ledger.js';
import { createLogger } from '../shared/logger.js';
import { addLedgerTools } from './mcp-ledger-tools.js';
import { reportingErrors } from './run-command.js';
import { connectFromArgs, serviceOptions, type ServiceArgs } from './service-connection.js';

export const mcpCommand: CommandModule<object, ServiceArgs> = {
  command: 'mcp',
  describe: 'Serve the MCP tools (extract_document, check_extraction_status, ...) over stdio for agents, forwarding to a service',
  builder: (y) =>
    serviceOptions(y)
      .option('config', { type: 'string', describe: "use this daemon config's service (embedded: the running daemon's, or one started here)" })
      .check((a) => {
        if (a.config === undefined && a.baseUrl === undefined) throw new Error('give --config FILE, or --base-url URL with --api-key KEY');
        return true;
      }),
  handler: reportingErrors('mcp', async (args) => {
    const logger = createLogger({ level: process.env.DOCDROP_LOG_LEVEL ?? 'error' });
    // With --config the account first gets the config's workflows: and classifiers:, as `docdrop try` does.
    const conn = await connectFromArgs(args, logger, { applyDefinitions: true });
    const ledger = conn.config ? await openLedger(conn.config.state).catch(async (err: unknown) => {
      await conn.close();
      throw err;
    }) : null;
    const server = buildMcpServer(clientCaller(conn.client, conn.url), (err, tool) => logger.error({ err, tool }, 'MCP tool failed'));
    // With a daemon config, the tools over its ledger too (list_inputs, get_input, retry_input).
    if (ledger) addLedgerTools(server, ledger, (err, tool) => logger.error({ err, tool }, 'MCP tool failed'));
    // The agent ends the session by closing our stdin (or by a signal): then stop a service started here.
    const ended = new Promise<void>((resolve) => {
      process.stdin.once('end', resolve);
      process.stdin.once('close', resolve);
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    try {
      await server.connect(new StdioServerTransport());
      logger.info({ url: conn.url, via: conn.via }, 'MCP on stdio');
      await ended;
    } finally {
      await server.close();
      await ledger?.close();
      await conn.close();
    }
  }),
};

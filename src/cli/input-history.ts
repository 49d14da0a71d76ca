// `docdrop status ID`: one input and its full history from the ledger's events, the durable audit trail
// (log lines may be lost when the process is killed; the events were committed with each change).
import type { InputRecord, LedgerEvent } from '../daemon/ledger/ledger.js';

/** An event as printed: ISO time, kind, from/to state and the rest of its detail. */
export function eventView(e: LedgerEvent) {
  return { at: new Date(e.at).toISOString(), kind: e.kind, from: e.from, to: e.to, detail: otherDetail(e) };
}

/** The history as a table: time, event, from, to, details (key=value). */
export function historyTable(r: InputRecord, events: LedgerEvent[]): string {
  const lines = [
    `input #${r.id}  ${r.state}  rule ${r.rule}  ${r.finalPath ?? r.path}`,
    ...(r.lastError ? [`last error: ${r.lastError}`] : []),
    ...(r.result?.outputs?.length ? [`outputs: ${r.result.outputs.join(', ')}`] : []),
    '',
  ];
  const head = ['AT', 'EVENT', 'FROM', 'TO', 'DETAILS'];
  const body = events.map((e) => {
    const detail = otherDetail(e);
    return [
      new Date(e.at).toISOString().replace('T', ' ').slice(0, 23),
      e.kind,
      e.from ?? '',
      e.to ?? '',
      detail ? Object.entries(detail).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ') : '',
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [...lines, fmt(head), ...body.map(fmt), ''].join('\n');
}

/** The detail without the from/to a transition stored, which have their own columns. */
function otherDetail(e: LedgerEvent): Record<string, unknown> | null {
  if (!e.detail) return null;
  const rest = { ...e.detail };
  if (e.from !== null) delete rest.from;
  if (e.to !== null) delete rest.to;
  return Object.keys(rest).length ? rest : null;
}

/** An input as `docdrop status --json` and the MCP ledger tools show it. */
export function inputView(r: InputRecord) {
  return {
    id: r.id,
    rule: r.rule,
    state: r.state,
    path: r.path,
    final_path: r.finalPath,
    size: r.size,
    sha256: r.sha256,
    document_id: r.documentId,
    request_id: r.requestId,
    attempts: r.attempts,
    last_error: r.lastError,
    outputs: r.result?.outputs ?? [],
    created_at: new Date(r.createdAt).toISOString(),
    updated_at: new Date(r.updatedAt).toISOString(),
  };
}

// /v1/templates: Workflow create, list (50 a page, string key), get, merging update, delete.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ErrorCodes } from '../../api/error-codes.js';
import type { SuccessResponse, TemplateList, Workflow } from '../../api/types.js';
import { specTimestamp } from '../../shared/time.js';
import { ServiceError } from '../service-error.js';
import { seqAfterKey } from '../http/paging.js';
import { toWorkflow, type TemplatesRepo } from '../store/templates-repo.js';
import { requireTemplate } from '../usecases/owned-rows.js';
import { createTemplateBody, defaultParserConfig, mergeParserConfig, updateTemplateBody, workflowEmail } from '../template-config.js';
import { parseInput, pathId, queryInt, uuid } from '../validate.js';

export const TEMPLATE_PAGE_MAX = 50;

const listQuery = z.object({
  limit: queryInt(1, TEMPLATE_PAGE_MAX).default(TEMPLATE_PAGE_MAX),
  pagination_key: uuid().optional(),
});

export interface TemplateRoutesDeps {
  templates: TemplatesRepo;
  /** Domain of each Workflow's email_id (--inbound-domain). */
  inboundDomain: string;
}

export function templateRoutes(app: FastifyInstance, deps: TemplateRoutesDeps): void {
  const { templates } = deps;

  app.post('/v1/templates', async (req): Promise<Workflow> => {
    const body = parseInput(createTemplateBody, req.body, 'body');
    if (await templates.titleTaken(req.account.id, body.template_title)) {
      throw new ServiceError(400, ErrorCodes.duplicateTitle, `template_title: "${body.template_title}" is already used by another Workflow in this account`);
    }
    const id = randomUUID();
    await templates.insert({
      template_id: id,
      account_id: req.account.id,
      template_title: body.template_title,
      template_type: body.template_type,
      template_category: 'other',
      template_schema: body.template_schema,
      email_id: workflowEmail(body.template_title, id, deps.inboundDomain),
      webhook_url: body.webhook_url ?? null,
      parser_config: mergeParserConfig(defaultParserConfig(), body.parser_config),
      now: specTimestamp(),
    });
    return toWorkflow((await templates.get(id))!);
  });

  app.get('/v1/templates', async (req): Promise<TemplateList> => {
    const q = parseInput(listQuery, req.query, 'query');
    const afterSeq = await seqAfterKey(q.pagination_key, req.account.id, (id) => templates.getAny(id));
    const { rows, more } = await templates.list(req.account.id, afterSeq, q.limit);
    return { success: true, items: rows.map(toWorkflow), pagination_key: more ? rows.at(-1)!.template_id : null };
  });

  app.get('/v1/templates/:template_id', async (req): Promise<Workflow> => {
    const id = pathId('template_id', (req.params as Record<string, string>).template_id);
    return toWorkflow(await requireTemplate(deps, req.account, id));
  });

  app.put('/v1/templates/:template_id', async (req): Promise<Workflow> => {
    const id = pathId('template_id', (req.params as Record<string, string>).template_id);
    const body = parseInput(updateTemplateBody, req.body, 'body');
    const current = toWorkflow(await requireTemplate(deps, req.account, id));
    await templates.update(
      id,
      {
        template_type: body.template_type ?? current.template_type,
        template_schema: body.template_schema ?? current.template_schema,
        webhook_url: body.webhook_url !== undefined ? body.webhook_url : current.webhook_url,
        parser_config: mergeParserConfig(current.parser_config, body.parser_config),
      },
      specTimestamp(),
    );
    return toWorkflow((await templates.get(id))!);
  });

  app.delete('/v1/templates/:template_id', async (req): Promise<SuccessResponse> => {
    const id = pathId('template_id', (req.params as Record<string, string>).template_id);
    await requireTemplate(deps, req.account, id);
    await templates.delete(id, specTimestamp());
    return { success: true };
  });
}

import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { billingPaths, usageReportQuerySchema, usageReportSchema } from '#shared/api/billing.ts';
import type { AppContext } from '../../context.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { ledgerPeriod, usageReport } from './ledger.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The credit ledger of the signed-in user's firm: every member may read it, another firm never. */
export function registerUsageReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  const reportSchema = routeSchema({ tag: 'billing', summary: 'The credit ledger of a period (default: the current one), newest first', querystring: usageReportQuerySchema, response: { 200: usageReportSchema } });
  app.get(billingPaths.usageReport, { schema: reportSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    return usageReport(ctx.db, session.groupId, parseInput(usageReportQuerySchema, request.query));
  });

  const exportSchema = routeSchema({ tag: 'billing', summary: 'The whole ledger of a period as an .xlsx', querystring: usageReportQuerySchema });
  app.get(billingPaths.usageReportExport, { schema: exportSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const query = parseInput(usageReportQuerySchema, request.query);
    const period = await ledgerPeriod(ctx.db, session.groupId, query);
    // The workbook writer (and fflate under it) loads with the first export, not at start.
    const { ExportAbandoned, exportFilename, writableSink, writeLedgerWorkbook } = await import('./ledger-export.ts');
    // Streamed as it is written (a million lines never sit in memory, nor their workbook); an export
    // that fails half-way cuts the download short rather than answering a workbook without its end.
    const body = new PassThrough();
    writeLedgerWorkbook(ctx.db, session.groupId, period, writableSink(body)).catch((error: unknown) => {
      if (!(error instanceof ExportAbandoned)) request.log.error({ err: error }, 'No se ha podido exportar el consumo');
      body.destroy(error instanceof Error ? error : new Error(String(error)));
    });
    return reply.header('content-type', XLSX_TYPE).header('content-disposition', `attachment; filename="${exportFilename(period)}"`).send(body);
  });
}

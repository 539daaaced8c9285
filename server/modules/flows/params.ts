import { z } from 'zod/mini';
import { flowIdParamsSchema } from '#shared/api/flows.ts';

/**
 * The `:flowId` of the paths that act on one flow of the catalogue: launching it (runs) and scheduling
 * it (schedules). The id is checked as GET /api/browserflow/:id checks it.
 */
export const flowParamsSchema = z.object({ flowId: flowIdParamsSchema.shape.id });

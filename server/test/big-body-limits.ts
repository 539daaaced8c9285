import { TEMPLATE_BODY_LIMIT } from '#shared/api/documents.ts';
import { MAX_IMAGE_DATA_URL } from '#shared/documents/blocks.ts';
import { ALTAS_MAX_IDS_PER_REQUEST, ALTAS_RESULTS_BODY_LIMIT } from '#shared/api/altas.ts';
import { DEVICE_FINISH_BODY_LIMIT, DEVICE_FINISH_OUTPUTS_MAX_BYTES } from '#shared/api/devices.ts';
import {
  FIE_ENTRIES_BODY_LIMIT, FIE_ENTRIES_PER_PAGE, FIE_MAX_ENTRIES_PER_REQUEST, FIE_RESULTS_BODY_LIMIT, FIE_RESULTS_PER_PAGE, FIE_SELECTION_BODY_LIMIT,
} from '#shared/api/fie.ts';
import { NOTIFICATIONS_MAX_UPSERT, NOTIFICATIONS_UPSERT_BODY_LIMIT } from '#shared/api/notifications.ts';
import type { BigBodyLimits } from './big-bodies.ts';

/** The limits of the code as it is now (server/test/big-bodies.ts builds the bodies within them). */
export const BIG_BODY_LIMITS: BigBodyLimits = {
  fieEntries: FIE_ENTRIES_BODY_LIMIT,
  fieEntriesPerRequest: FIE_ENTRIES_PER_PAGE,
  fieResults: FIE_RESULTS_BODY_LIMIT,
  fieResultsPerRequest: FIE_RESULTS_PER_PAGE,
  fieSelection: FIE_SELECTION_BODY_LIMIT,
  fieSelectionPerRequest: FIE_MAX_ENTRIES_PER_REQUEST,
  notificationsUpsert: NOTIFICATIONS_UPSERT_BODY_LIMIT,
  notificationsPerRequest: NOTIFICATIONS_MAX_UPSERT,
  altasResults: ALTAS_RESULTS_BODY_LIMIT,
  altasPerRequest: ALTAS_MAX_IDS_PER_REQUEST,
  deviceFinish: DEVICE_FINISH_BODY_LIMIT,
  deviceFinishFiles: DEVICE_FINISH_OUTPUTS_MAX_BYTES,
  fieAppend: true,
  documentTemplates: TEMPLATE_BODY_LIMIT,
  documentTemplateImage: MAX_IMAGE_DATA_URL,
};

import { altasPaths, receivedSummarySchema, type ReceivedSummary } from '#shared/api/altas.ts';
import { baseApi } from './baseApi.ts';

/**
 * Home's count of the altas the companies sent that wait for RED (issue 44, 3). Apart from the altas
 * screen's own calls (features/altasybajas/altasApi.ts), so Home loads nothing else of that screen.
 */
export const altasReceivedApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    altasReceived: build.query<ReceivedSummary, void>({
      query: () => altasPaths.received,
      transformResponse: (response: unknown) => receivedSummarySchema.parse(response),
    }),
  }),
});

export const { useAltasReceivedQuery } = altasReceivedApi;

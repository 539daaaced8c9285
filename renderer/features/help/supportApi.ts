import { supportInfoSchema, supportPath } from '#shared/api/support.ts';
import type { SupportInfo } from '#shared/api/support.ts';
import { baseApi } from '../../api/baseApi.ts';

/** The support address the server is configured with (SUPPORT_EMAIL); it rarely changes, so it is kept for the session. */
export const supportApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    supportInfo: build.query<SupportInfo, void>({
      query: () => supportPath,
      transformResponse: (response: unknown) => supportInfoSchema.parse(response),
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { useSupportInfoQuery } = supportApi;

import { okResponseSchema } from '#shared/api/auth.ts';
import { authPaths } from '#shared/api/auth-paths.ts';
import { baseApi } from './baseApi.ts';

const toOk = (response: unknown) => okResponseSchema.parse(response);

/** POST /api/auth/emailvalidation/:email — a signed-in user asks for the link (session.ts spends it). */
export const emailValidationApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    sendEmailValidation: build.mutation<{ ok: true }, string>({
      query: (email) => ({ url: authPaths.emailValidation(email), method: 'POST' }),
      transformResponse: toOk,
    }),
  }),
});

export const { useSendEmailValidationMutation } = emailValidationApi;

import { authPaths, okResponseSchema } from '#shared/api/auth.ts';
import type { RootState } from '../app/store.ts';
import { userUpdated } from '../app/session.ts';
import { baseApi } from './baseApi.ts';
import { sessionApi } from './session.ts';

const toOk = (response: unknown) => okResponseSchema.parse(response);

/** POST /api/auth/emailvalidation/:email — ask for the link (signed in), or spend the link's token (no session needed). */
export const emailValidationApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    sendEmailValidation: build.mutation<{ ok: true }, string>({
      query: (email) => ({ url: authPaths.emailValidation(email), method: 'POST' }),
      transformResponse: toOk,
    }),
    validateEmail: build.mutation<{ ok: true }, { email: string; token: string }>({
      query: ({ email, token }) => ({ url: authPaths.emailValidation(email), method: 'POST', body: { token } }),
      transformResponse: toOk,
      // A signed-in user reloads their data, so "Email validado" shows without signing in again.
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const validated = await queryFulfilled.then(() => true, () => false);
        if (!validated || (getState() as RootState).session.status !== 'authenticated') return;
        const request = dispatch(sessionApi.endpoints.me.initiate(undefined, { forceRefetch: true }));
        const { data } = await request;
        request.unsubscribe();
        if (data) dispatch(userUpdated(data));
      },
    }),
  }),
});

export const { useSendEmailValidationMutation, useValidateEmailMutation } = emailValidationApi;

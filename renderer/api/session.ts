import { authPaths, okResponseSchema, sessionResponseSchema } from '#shared/api/auth.ts';
import type { LoginRequest, ResetPassCheckRequest, ResetPassRequest } from '#shared/api/auth.ts';
import { emailCheckResponseSchema, usersPaths } from '#shared/api/users.ts';
import type { RegisterRequest, UpdateProfileRequest } from '#shared/api/users.ts';
import type { UserData } from '#shared/domain/user.ts';
import type { AppDispatch, RootState } from '../app/store.ts';
import { restoreStarted, signedIn, signedOut, userUpdated } from '../app/session.ts';
import { baseApi } from './baseApi.ts';

const toUserData = (response: unknown): UserData => sessionResponseSchema.parse(response).userData;
const toOk = (response: unknown) => okResponseSchema.parse(response);

/** Session and account endpoints; each successful one keeps the session slice in step. */
export const sessionApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    me: build.query<UserData, void>({
      query: () => usersPaths.me,
      transformResponse: toUserData,
      providesTags: ['Me'],
    }),
    login: build.mutation<UserData, LoginRequest>({
      query: (body) => ({ url: authPaths.login, method: 'POST', body }),
      transformResponse: toUserData,
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(signedIn(data));
      },
    }),
    register: build.mutation<UserData, RegisterRequest>({
      query: (body) => ({ url: usersPaths.register, method: 'POST', body }),
      transformResponse: toUserData,
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(signedIn(data));
      },
    }),
    logout: build.mutation<void, void>({
      query: () => ({ url: authPaths.logout, method: 'POST' }),
      transformResponse: () => undefined,
      // Signed out locally even if the server could not be told: the user asked to leave.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        await queryFulfilled.catch(() => undefined);
        dispatch(signedOut());
        dispatch(baseApi.util.resetApiState());
      },
    }),
    resetPassword: build.mutation<{ ok: true }, ResetPassRequest>({
      query: (body) => ({ url: authPaths.resetPass, method: 'POST', body }),
      transformResponse: toOk,
    }),
    /** Without a password it only checks the link; with one it sets the new password. */
    resetPasswordCheck: build.mutation<{ ok: true }, ResetPassCheckRequest>({
      query: (body) => ({ url: authPaths.resetPassCheck, method: 'POST', body }),
      transformResponse: toOk,
    }),
    emailCheck: build.query<boolean, string>({
      query: (email) => usersPaths.emailCheck(email),
      transformResponse: (response: unknown) => emailCheckResponseSchema.parse(response).exists,
    }),
    updateProfile: build.mutation<UserData, UpdateProfileRequest>({
      query: (body) => ({ url: usersPaths.update, method: 'PUT', body }),
      transformResponse: toUserData,
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(userUpdated(data));
      },
    }),
  }),
});

export const {
  useLoginMutation, useRegisterMutation, useLogoutMutation, useResetPasswordMutation,
  useResetPasswordCheckMutation, useUpdateProfileMutation, useLazyEmailCheckQuery,
} = sessionApi;

/**
 * Asks the server who we are (GET /api/users/me). A 401 there already went through one refresh
 * attempt in the base query; whatever the outcome, the session ends up authenticated or anonymous.
 */
export function restoreSession() {
  return async (dispatch: AppDispatch, getState: () => RootState): Promise<void> => {
    if (getState().session.status === 'restoring') return;
    dispatch(restoreStarted());
    const request = dispatch(sessionApi.endpoints.me.initiate(undefined, { forceRefetch: true }));
    const result = await request;
    request.unsubscribe();
    dispatch(result.data ? signedIn(result.data) : signedOut());
  };
}

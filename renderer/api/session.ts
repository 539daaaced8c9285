import { useCallback, useState } from 'react';
import { authPaths } from '#shared/api/auth-paths.ts';
import type { AcceptInvitation } from '#shared/api/colleagues.ts';
import type { LoginRequest, ResetPassCheckRequest, ResetPassRequest, SessionStateResponse } from '#shared/api/auth.ts';
import { usersPaths } from '#shared/api/users-paths.ts';
import type { RegisterRequest } from '#shared/api/users.ts';
import type { UserData } from '#shared/domain/user.ts';
import { useAppDispatch } from '../app/hooks.ts';
import { restoreStarted, signedIn, signedOut, userUpdated } from '../app/session.ts';
import { toastShown } from '../app/toasts.ts';
import type { AppDispatch, RootState } from '../app/store.ts';
import { callApi } from './baseQuery.ts';
import type { HttpError, HttpRequest } from './http.ts';

/*
 * The session's calls, as plain thunks over callApi rather than RTK Query endpoints: the sign-in
 * screen is most visitors' first page, and it needs only these. Each successful call keeps the
 * session slice in step; that slice is what the route guard and every screen read.
 */

export type CallResult<Data> = { data: Data; error?: undefined } | { error: HttpError; data?: undefined };
type Thunk<Data> = (dispatch: AppDispatch, getState: () => RootState) => Promise<CallResult<Data>>;

/** A 2xx whose body breaks the contract: shown like any unexpected failure. */
const unreadableAnswer: HttpError = { status: 502, message: 'Ha ocurrido un error inesperado' };

function call<Data>(request: HttpRequest, read: (body: unknown) => Promise<Data | undefined>, onSuccess?: (data: Data, dispatch: AppDispatch) => void): Thunk<Data> {
  return async (dispatch, getState) => {
    const result = await callApi(request, { dispatch, getState });
    if (result.error) return { error: result.error };
    const data = await read(result.data);
    if (data === undefined) return { error: unreadableAnswer };
    onSuccess?.(data, dispatch);
    return { data };
  };
}

const userData = async (body: unknown): Promise<UserData | undefined> => (await import('./session-readers.ts')).readUserData(body);
const ok = async (body: unknown): Promise<{ ok: true } | undefined> => (await import('./session-readers.ts')).readOk(body);

export const login = (body: LoginRequest) => call({ url: authPaths.login, method: 'POST', body }, userData, (user, dispatch) => dispatch(signedIn(user)));

/** Registration signs the new user in straight away (the server sets the session cookies). */
export const register = (body: RegisterRequest) => call({ url: usersPaths.register, method: 'POST', body }, userData, (user, dispatch) => dispatch(signedIn(user)));

/**
 * Joins the firm the emailed invitation names; like registration, the server sets the session
 * cookies. The path is built by hand: importing colleaguesPaths would bring zod into this module.
 */
export const acceptInvitation = (token: string, body: AcceptInvitation) =>
  call({ url: `/api/invitations/${encodeURIComponent(token)}/accept`, method: 'POST', body }, userData, (user, dispatch) => dispatch(signedIn(user)));

export const resetPassword = (body: ResetPassRequest) => call({ url: authPaths.resetPass, method: 'POST', body }, ok);

/** Without a password it only checks the link; with one it sets the new password. */
export const resetPasswordCheck = (body: ResetPassCheckRequest) => call({ url: authPaths.resetPassCheck, method: 'POST', body }, ok);

const me = () => call({ url: usersPaths.me }, userData);
/** The restore's answer. Signed out is read without the schemas, so zod stays out of /auth's first load. */
const sessionState = async (body: unknown): Promise<SessionStateResponse | undefined> => {
  if (typeof body === 'object' && body !== null && 'userData' in body && body.userData === null) {
    const reason = 'logoutReason' in body && typeof body.logoutReason === 'string' ? body.logoutReason : undefined;
    return reason === undefined ? { userData: null } : { userData: null, logoutReason: reason };
  }
  return (await import('./session-readers.ts')).readSessionState(body);
};

/**
 * Spends the emailed validation link's token (no session needed). A signed-in user then reloads
 * their data, so "Email validado" shows without signing in again.
 */
export function validateEmail({ email, token }: { email: string; token: string }): Thunk<{ ok: true }> {
  return async (dispatch, getState) => {
    const result = await call({ url: authPaths.emailValidation(email), method: 'POST', body: { token } }, ok)(dispatch, getState);
    if (result.data && getState().session.status === 'authenticated') {
      const refreshed = await me()(dispatch, getState);
      if (refreshed.data) dispatch(userUpdated(refreshed.data));
    }
    return result;
  };
}

/**
 * Asks the server who we are (GET /api/auth/session, which renews an expired access cookie itself).
 * Signed out is a 200 with no user, not a 401, so a first visit logs no failed request in the console;
 * whatever the outcome, the session ends up authenticated or anonymous.
 */
export function restoreSession() {
  return async (dispatch: AppDispatch, getState: () => RootState): Promise<void> => {
    if (getState().session.status === 'restoring') return;
    dispatch(restoreStarted());
    const result = await call({ url: authPaths.session }, sessionState)(dispatch, getState);
    const user = result.data?.userData;
    if (result.data?.logoutReason) dispatch(toastShown('error', result.data.logoutReason));
    dispatch(user ? signedIn(user) : signedOut());
  };
}

/** `[send, { isLoading }]` for one of the calls above, the shape RTK Query's mutation hooks have. */
export function useSessionCall<Args, Data>(action: (args: Args) => Thunk<Data>) {
  const dispatch = useAppDispatch();
  const [pending, setPending] = useState(0);
  const send = useCallback(
    async (args: Args): Promise<CallResult<Data>> => {
      setPending((count) => count + 1);
      try {
        return await dispatch(action(args));
      } finally {
        setPending((count) => count - 1);
      }
    },
    [dispatch, action],
  );
  return [send, { isLoading: pending > 0 }] as const;
}

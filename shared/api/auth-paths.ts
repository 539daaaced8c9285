/*
 * The auth routes' paths, apart from their schemas: the renderer's entry bundle needs the paths
 * (session restore, refresh) but not zod, which a module of schemas would bring along.
 */
export const authPaths = {
  login: '/api/auth/login',
  /** The session restore on start-up: 200 with the user, or with null when signed out (no 401 to log). */
  session: '/api/auth/session',
  logout: '/api/auth/logout',
  newToken: '/api/auth/newtoken',
  resetPass: '/api/auth/resetpass',
  resetPassCheck: '/api/auth/resetpasscheck',
  emailValidation: (email: string) => `/api/auth/emailvalidation/${encodeURIComponent(email)}`,
} as const;

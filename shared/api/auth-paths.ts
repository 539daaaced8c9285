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
  /** GET -> { enabled }: whether 'Continuar con Google' is offered (GOOGLE_SIGNIN_* configured). */
  googleStatus: '/api/auth/google',
  /** GET ?redirect=/path -> 302 to Google (OpenID Connect, PKCE); 404 with a Spanish message when not configured. */
  googleStart: '/api/auth/google/start',
  /** GET ?code&state -> signs in and 302s to the saved path, or 302s to /auth?google=<reason> when refused. */
  googleCallback: '/api/auth/google/callback',
} as const;

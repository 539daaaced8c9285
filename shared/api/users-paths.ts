/* The users routes' paths, apart from their schemas (see auth-paths.ts). */
export const usersPaths = {
  register: '/api/users',
  update: '/api/users',
  me: '/api/users/me',
  emailCheck: (email: string) => `/api/users/emailcheck/${encodeURIComponent(email)}`,
} as const;

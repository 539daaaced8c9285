/* The client error report's path, apart from its schema (see auth-paths.ts): the entry posts there. */
export const applogsPath = '/api/applogs';

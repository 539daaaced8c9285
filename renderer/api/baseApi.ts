import { createApi } from '@reduxjs/toolkit/query/react';
import { apiLoaded } from '../app/store.ts';
import { baseQuery } from './baseQuery.ts';

export type { HttpError, HttpRequest } from './http.ts';
export { clientHeaders } from './baseQuery.ts';

/** The one RTK Query api; every feature adds its endpoints with baseApi.injectEndpoints. */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Preferences', 'Notes', 'Subscription'],
  endpoints: () => ({}),
});

// RTK Query is not part of the first download (the sign-in screen works without it): the app's
// store takes its reducer and middleware now, when the first screen that uses it is loaded.
apiLoaded(baseApi);

import {
  notificationDetailSchema, notificationsPageSchema, notificationsPaths, notificationsSummarySchema, watchedCertificatesResponseSchema,
} from '#shared/api/notifications.ts';
import type {
  NotificationDetail, NotificationsPage, NotificationsQuery, NotificationsSummary, WatchedCertificate, WatchedCertificatesUpdate,
} from '#shared/api/notifications.ts';
import { pathFor } from '#shared/api/flows.ts';
import { baseApi } from './baseApi.ts';

/** The list query as the URL of GET notifications: only the parameters that are set. */
export function notificationsListUrl(query: NotificationsQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${notificationsPaths.list}?${text}` : notificationsPaths.list;
}

/**
 * The notifications module's calls (shared/api/notifications.ts). 'Notifications' covers the list, a
 * notification and the summary; 'WatchedCertificates' the configuration and its update progress.
 */
export const notificationsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Notifications', 'WatchedCertificates'] }).injectEndpoints({
  endpoints: (build) => ({
    notifications: build.query<NotificationsPage, NotificationsQuery>({
      query: (query) => notificationsListUrl(query),
      transformResponse: (response: unknown) => notificationsPageSchema.parse(response),
      providesTags: ['Notifications'],
    }),
    notification: build.query<NotificationDetail, string>({
      query: (id) => pathFor(notificationsPaths.one, { id }),
      transformResponse: (response: unknown) => notificationDetailSchema.parse(response),
      providesTags: ['Notifications'],
    }),
    notificationsSummary: build.query<NotificationsSummary, void>({
      query: () => notificationsPaths.summary,
      transformResponse: (response: unknown) => notificationsSummarySchema.parse(response),
      providesTags: ['Notifications'],
    }),
    watchedCertificates: build.query<WatchedCertificate[], void>({
      query: () => notificationsPaths.certificates,
      transformResponse: (response: unknown) => watchedCertificatesResponseSchema.parse(response).items,
      providesTags: ['WatchedCertificates'],
    }),
    saveWatchedCertificates: build.mutation<WatchedCertificate[], WatchedCertificatesUpdate>({
      query: (body) => ({ url: notificationsPaths.certificates, method: 'PUT', body }),
      transformResponse: (response: unknown) => watchedCertificatesResponseSchema.parse(response).items,
      invalidatesTags: ['WatchedCertificates', 'Notifications'],
    }),
  }),
});

export const {
  useNotificationsQuery, useNotificationQuery, useNotificationsSummaryQuery, useWatchedCertificatesQuery, useSaveWatchedCertificatesMutation,
} = notificationsApi;

/** After an update or an opening, what the server holds changed: refetch the list, the summary and the certificates. */
export const notificationsChanged = () => notificationsApi.util.invalidateTags(['Notifications', 'WatchedCertificates']);

/** The URL of one stored document (same origin, inline), for the viewer's iframe and the download links. */
export const documentUrl = (id: string, documentId: string) => pathFor(notificationsPaths.document, { id, documentId });

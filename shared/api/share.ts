import { z } from 'zod/mini';

/**
 * Sharing of objects with colleagues of the same firm (issue 40 §3; spec API 'share: own, me, object,
 * clone, edit'). The owner of an object grants a colleague 'view' (see and clone) or 'edit' (change it
 * too); only the owner deletes it or changes who it is shared with. The server enforces it in every
 * module that owns such objects; a colleague of another firm can never be named (404, as unknown).
 */
export const sharePaths = {
  /** GET ?kind= -> { items: SharedObject[] }: the caller's objects that are shared with someone. */
  own: '/api/share/own',
  /** GET ?kind= -> { items: SharedObject[] }: objects colleagues shared with the caller. */
  me: '/api/share/me',
  /** GET -> ObjectShares (owner only); PUT ShareGrantsBody -> ObjectShares (owner only; replaces the grants). */
  object: '/api/share/object/:kind/:id',
  /** POST -> { kind, id } (201): the caller's own copy of an object they may see ('view' or more). */
  clone: '/api/share/clone/:kind/:id',
  /** PATCH ShareEditBody -> ObjectShares: one colleague's access changed or removed (access null), owner only. */
  edit: '/api/share/edit/:kind/:id',
} as const;

export const SHARE_KINDS = ['template', 'form', 'schedule', 'flow-settings', 'macro'] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];
export const SHARE_KIND_LABELS: Record<ShareKind, string> = {
  template: 'Plantilla',
  form: 'Formulario',
  schedule: 'Programación',
  'flow-settings': 'Configuración de robot',
  macro: 'Robot propio',
};

export const SHARE_ACCESS = ['view', 'edit'] as const;
export type ShareAccess = (typeof SHARE_ACCESS)[number];
export const SHARE_ACCESS_LABELS: Record<ShareAccess, string> = { view: 'Puede ver y copiar', edit: 'Puede editar' };

export const SHARED_OBJECT_NOT_FOUND_MESSAGE = 'No encontramos ese elemento';
export const OWNER_ONLY_SHARE_MESSAGE = 'Solo quien lo creó puede cambiar con quién se comparte';
export const NOT_A_COLLEAGUE_MESSAGE = 'Solo puedes compartir con compañeros de tu asesoría';

export const shareParamsSchema = z.object({ kind: z.enum(SHARE_KINDS), id: z.string().check(z.maxLength(64)) });

export const shareGrantSchema = z.object({ userId: z.string().check(z.maxLength(64)), access: z.enum(SHARE_ACCESS) });
export type ShareGrant = z.infer<typeof shareGrantSchema>;
export const shareGrantsBodySchema = z.object({ grants: z.array(shareGrantSchema).check(z.maxLength(200)) });
export type ShareGrantsBody = z.infer<typeof shareGrantsBodySchema>;
export const shareEditBodySchema = z.object({ userId: z.string().check(z.maxLength(64)), access: z.nullable(z.enum(SHARE_ACCESS)) });
export type ShareEditBody = z.infer<typeof shareEditBodySchema>;

export const objectSharesSchema = z.object({
  kind: z.enum(SHARE_KINDS),
  id: z.string(),
  grants: z.array(z.object({ userId: z.string(), name: z.string(), email: z.string(), access: z.enum(SHARE_ACCESS) })),
  /** The firm's other members, who it could be shared with. */
  colleagues: z.array(z.object({ userId: z.string(), name: z.string(), email: z.string() })),
});
export type ObjectShares = z.infer<typeof objectSharesSchema>;

export const sharedObjectSchema = z.object({
  kind: z.enum(SHARE_KINDS),
  id: z.string(),
  name: z.string(),
  ownerName: z.string(),
  /** For 'own': how many colleagues it is shared with; for 'me': the caller's access. */
  sharedWith: z.number(),
  access: z.enum(['owner', 'edit', 'view']),
});
export type SharedObject = z.infer<typeof sharedObjectSchema>;

/**
 * Why a file was not read. `cap`: it is over one of the limits in limits.ts (the upload answers 413
 * and names the limit); `unreadable`: it is damaged or not what it claims to be inside (422);
 * `type`: its content is another type than its name says (415). The message is Spanish and shown to
 * the user as it is.
 */
export type FileRefusalKind = 'cap' | 'unreadable' | 'type';

export class FileRefusal extends Error {
  constructor(
    readonly kind: FileRefusalKind,
    message: string,
  ) {
    super(message);
    this.name = 'FileRefusal';
  }
}

export const capExceeded = (message: string) => new FileRefusal('cap', message);
export const unreadable = (message: string) => new FileRefusal('unreadable', message);
export const wrongType = (message: string) => new FileRefusal('type', message);

/** Thousands with the es-ES dot: 1.000.000 (Intl leaves 4-digit numbers ungrouped, as es-ES writes them). */
export function formatCount(value: number): string {
  return new Intl.NumberFormat('es-ES', { useGrouping: true }).format(value);
}

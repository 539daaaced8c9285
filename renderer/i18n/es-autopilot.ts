import { AUTOPILOT_TEXT } from '#shared/autopilot/state.ts';
import { areas } from './es-screens.ts';

/**
 * The autopilot panel (spec §2 Autopilot panel): the floating button, its modal, the scheduled robots
 * and the apps' switches. The spec's own sentences come from AUTOPILOT_TEXT, shared with the desktop.
 */
export const autopilot = {
  ...AUTOPILOT_TEXT,
  /** Read after the button's label: what its badge counts. */
  pendingTasks: (count: number) => (count === 1 ? '1 tarea pendiente' : `${count} tareas pendientes`),
  close: 'Cerrar',
  panelFailed: 'No se ha podido abrir el piloto automático. Vuelve a cargar la aplicación para intentarlo de nuevo.',
  retry: 'Reintentar',
  loading: 'Cargando el piloto automático…',
  loadingSchedules: 'Cargando tus robots programados…',
  schedulesFailed: 'No se han podido cargar tus robots programados.',
  /** The list of one day's tasks, for screen readers: 'Robots para hoy' or 'Robots del 03/02/2025'. */
  dayLabel: (title: string, today: boolean) => (today ? title : `Robots del ${title}`),
  done: 'Hecho',
  running: 'En ejecución',
  removing: 'Eliminando…',
  remove: 'Eliminar',
  removeLabel: (title: string) => `Eliminar ${title}`,
  confirmTitle: 'Eliminar tarea',
  confirmText: (title: string, when: string, repeats: boolean) =>
    `«${title}» no se lanzará el ${when}${repeats ? ' ni en sus repeticiones' : ''}. Esta acción no se puede deshacer.`,
  /** '03/02/2025 a las 09:30'. */
  when: (date: string, time: string) => `${date} a las ${time}`,
  onMachine: (name: string) => `En ${name}`,
  itemsLabel: (title: string) => `Elementos de ${title}`,
  notLinkedTitle: 'Este dispositivo no está conectado a tu cuenta',
  notLinkedText: `No puede lanzar tus robots programados hasta que lo conectes: ve a ${areas.workspace.title} (tu entorno de trabajo) y pulsa «Conectar este dispositivo».`,
  notLinkedLink: `Ir a ${areas.workspace.title}`,
  workspacePath: areas.workspace.path,
  /** The countdown ring of an active app. */
  refreshIn: (seconds: number) => `Se actualiza en ${seconds} s`,
  refreshing: 'Actualizando…',
  certificatesOf: (app: string) => `Certificados de ${app}`,
  removeCertificate: (commonName: string) => `Quitar ${commonName}`,
  picker: {
    title: (app: string) => `Añadir certificado a ${app}`,
    back: 'Volver',
    add: 'Añadir',
    loading: 'Buscando los certificados de este equipo…',
    empty: 'No hay certificados en este equipo',
    allChosen: 'Todos los certificados de este equipo ya están añadidos',
    chooseOne: 'Elige un certificado',
    chooseSome: 'Elige uno o más certificados',
    problems: 'Algunos certificados no se han podido leer:',
  },
  logs: {
    title: (robot: string) => `Últimas ejecuciones de ${robot}`,
    loading: 'Cargando sus ejecuciones…',
    failed: 'No se han podido cargar sus ejecuciones.',
    none: 'Todavía no se ha lanzado',
    running: 'En ejecución',
    queued: 'En cola',
    history: 'Ver en el historial',
  },
  historyPath: areas.flows.path,
} as const;

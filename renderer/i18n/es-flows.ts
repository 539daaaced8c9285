import type { FlowRuntime } from '#shared/flows/definition.ts';
import { doneOfTotal } from './figures.ts';

/** Where a robot runs, as the flows screen and the Roboteka say it. */
const runsOn: Record<FlowRuntime, string> = {
  server: 'En el servidor',
  desktop: 'En el escritorio',
};

/** Shared by the flows screen (/flows/:id?) and the Roboteka: how a robot is described. */
const robot = {
  runsOn,
  runsOnLabel: 'Dónde se ejecuta',
  /** '1 slan por bloque de 100 filas'. */
  usageBadge: (credits: string, unit: string) => `${credits} por ${unit}`,
  usageBadgeLabel: 'Coste',
  beta: 'BETA',
  betaLabel: 'Versión beta',
  limits: 'Límites',
  instructions: 'Ver instrucciones',
  close: 'Cerrar',
  retry: 'Reintentar',
} as const;

/** The flows screen: the robot list, one robot's page and the run history. */
export const flows = {
  robot,
  catalogue: {
    title: 'Catálogo de robots',
    search: 'Buscar robots',
    loading: 'Cargando los robots…',
    failed: 'No se ha podido cargar la lista de robots.',
    empty: 'Todavía no hay robots disponibles para tu asesoría.',
    noMatches: 'Ningún robot coincide con tu búsqueda.',
  },
  detail: {
    loading: 'Cargando el robot…',
    failed: 'No se han podido cargar los datos de entrada de este robot.',
    openLauncher: 'Abrir asistente',
    downloadTemplate: 'Descargar plantilla',
    inputsTitle: 'Qué te pedirá',
    noInputs: 'Este robot no necesita datos de entrada.',
    required: 'Obligatorio',
    optional: 'Opcional',
    desktopOnlyInput: 'Solo en la aplicación de escritorio',
  },
  schedules: {
    title: 'Programaciones',
    loading: 'Cargando las programaciones…',
    failed: 'No se han podido cargar las programaciones.',
    empty: 'Este robot no tiene ninguna programación. Para programarlo, abre el asistente y pulsa Programar.',
    listLabel: 'Programaciones de este robot',
    /** '03/02/2025 a las 09:30'. */
    when: (date: string, time: string) => `${date} a las ${time}`,
    once: 'Una sola vez',
    onMachine: (name: string) => `En el dispositivo ${name}`,
    remove: 'Eliminar',
    removeLabel: (when: string) => `Eliminar la programación del ${when}`,
    confirmTitle: 'Eliminar programación',
    confirmText: (when: string) => `El robot ya no se lanzará el ${when} ni en sus repeticiones. Esta acción no se puede deshacer.`,
    removed: 'Programación eliminada',
    removeFailed: 'No se ha podido eliminar la programación',
  },
  history: {
    title: 'Historial de robots',
    filterLabel: 'Tipo de lanzamiento',
    filters: { all: 'Todos', manual: 'Manuales', scheduled: 'Programados y remotos' },
    columns: {
      robot: 'Robot y tipo de lanzamiento',
      date: 'Fecha y hora',
      result: 'Resultado',
      cost: 'Coste',
      iterations: 'Sin errores',
      duration: 'Duración',
      actions: 'Acciones',
    },
    /** A run not yet ended has no duration. */
    noDuration: '—',
    search: 'Buscar por robot',
    robotFilter: 'Robot',
    allRobots: 'Todos los robots',
    from: 'Desde',
    to: 'Hasta',
    clearFilters: 'Quitar filtros',
    badRange: '«Hasta» es anterior a «Desde»: no se aplica hasta que lo corrijas.',
    /** A queued run (for the server or a machine) is cancelled; a running one is stopped. */
    cancel: 'Cancelar',
    stop: 'Detener',
    cancelLabel: (robot: string) => `Cancelar la ejecución de ${robot}`,
    stopLabel: (robot: string) => `Detener la ejecución de ${robot}`,
    confirmCancel: {
      title: '¿Cancelar esta ejecución?',
      text: 'La ejecución aún no ha empezado: se cancela sin cobrarte nada y se libera el saldo que tenía reservado.',
      confirm: 'Cancelar ejecución',
    },
    confirmStop: {
      title: '¿Detener este robot?',
      text: 'El robot se detendrá en cuanto sea posible. No se cobra una ejecución detenida.',
      confirm: 'Detener robot',
    },
    cancelled: 'Ejecución cancelada. No se ha cobrado nada.',
    stopped: 'Robot detenido',
    stopFailed: 'No se ha podido detener la ejecución. Inténtalo de nuevo.',
    /** Spec §8. */
    empty: 'No se han encontrado registros',
    unknownRobot: 'Este robot ya no forma parte de nuestra familia',
    running: 'En ejecución',
    queued: 'En cola',
    /** A desktop flow's run: the machine it ran on. */
    onMachine: (name: string) => `En ${name}`,
    loading: 'Cargando el historial…',
    failed: 'No se ha podido cargar el historial de robots.',
    noIterations: '—',
    /** '8 de 10': rows, entries or workers without errors of those the robot went through, and the percentage. */
    iterations: doneOfTotal,
    lowRatio: 'Menos del 75 % sin errores',
    report: 'Descargar informe',
    reportFailed: 'No se ha podido generar el informe',
    /** A filtered view is counted up to a limit: 'Más de 1.000 ejecuciones'. */
    moreThan: (count: number) => `Más de ${new Intl.NumberFormat('es-ES').format(count)} ejecuciones`,
    total: (count: number) => (count === 1 ? '1 ejecución' : `${new Intl.NumberFormat('es-ES').format(count)} ejecuciones`),
  },
  log: {
    loading: 'Cargando el registro…',
    failed: 'No se ha podido cargar el registro de esta ejecución.',
    linesTitle: 'Registro',
    noLines: 'Esta ejecución no dejó líneas en el registro.',
    /** A long log comes a page at a time: 'Mostrando 200 de 5001 líneas'. */
    shownOf: (shown: string, total: string) => `Mostrando ${shown} de ${total} líneas`,
    loadMore: 'Cargar más líneas',
    loadingMore: 'Cargando más líneas…',
    loadMoreFailed: 'No se han podido cargar más líneas. Inténtalo de nuevo.',
    levels: { info: 'Información', warn: 'Aviso', error: 'Error' },
    filesTitle: 'Archivos de resultado',
    noFiles: 'Esta ejecución no generó archivos.',
    download: (name: string) => `Descargar ${name}`,
    /** The server keeps a run's files for a while (30 days by default), then deletes them. */
    availableUntil: (date: string) => `Disponible hasta el ${date}`,
    expired: 'Caducado',
    expiredNote: 'Los archivos caducados ya no se pueden descargar: el servidor los borra cuando termina su plazo de conservación.',
    /** A desktop run launched on its own PC: the files stayed there, in the run's folder. */
    onDevice: (machine: string) => `Los archivos se guardaron en ${machine}, en la carpeta de esta ejecución; no se enviaron al servidor.`,
    openFolder: 'Abrir carpeta',
    openFolderFailed: 'No se ha podido abrir la carpeta',
  },
  /** The mails a run caused (its result, a failure notice), in its detail. */
  deliveries: {
    title: 'Correos de esta ejecución',
    failed: 'No se han podido cargar los correos de esta ejecución.',
    retry: 'Reintentar',
    kinds: { result: 'Resultado por email', notice: 'Aviso de fallo', account: 'Cuenta de correo' },
    to: 'Para',
    subject: 'Asunto',
    from: 'Desde',
    /** Sent through the server's own SMTP rather than a linked mailbox. */
    server: 'Servidor de AutoAsesor',
    attachments: 'Adjuntos',
    /** 'resultado.xlsx (2 kB)'. */
    attachment: (name: string, size: string) => `${name} (${size})`,
    state: 'Estado',
    /** 'a las 09:05', or 'el 15/07/2025 a las 09:05' on another day than the run's. */
    at: (date: string | null, time: string) => (date === null ? `a las ${time}` : `el ${date} a las ${time}`),
    pending: 'Pendiente',
    retryAt: (when: string) => `Pendiente · reintento ${when}`,
    sending: 'Enviando',
    sent: (when: string) => `Enviado ${when}`,
    providerId: (id: string) => `(id del proveedor: ${id})`,
    notSent: (error: string) => `No enviado: ${error}`,
    unknown: (error: string) => `Desconocido: ${error}`,
    /** A state without a recorded error. */
    noReason: 'sin motivo registrado',
    attempts: (count: number) => `${count} intentos`,
  },
} as const;

/** /roboteka: the catalogue as a library. */
export const roboteka = {
  robot,
  subtitle: 'Los robots que puedes usar en tu asesoría, qué hace cada uno y cuánto cuesta.',
  search: 'Buscar robots',
  groupFilter: 'Grupo',
  allGroups: 'Todos los grupos',
  loading: 'Cargando los robots…',
  failed: 'No se ha podido cargar el catálogo de robots.',
  empty: 'Todavía no hay robots disponibles para tu asesoría.',
  noMatches: 'Ningún robot coincide con tu búsqueda.',
  listLabel: 'Robots del catálogo',
  count: (count: number) => (count === 1 ? '1 robot' : `${count} robots`),
  open: 'Abrir',
  openLabel: (name: string) => `Abrir ${name}`,
  instructionsLabel: (name: string) => `Ver instrucciones de ${name}`,
} as const;

import type { A3SyncState } from '#shared/api/fie.ts';

/**
 * The FIE screen (/fie). The §8 texts (processing toast, 'Eliminar FIE', SILTRA without results) are
 * not here: they come from shared/fie/messages.ts, the one place the server and the desktop read too.
 */
const a3States: Record<A3SyncState, string> = {
  pending: 'Pendiente',
  synced: 'En A3',
  error: 'Error',
  excluded: 'No aplica',
};

const numberFormat = new Intl.NumberFormat('es-ES');
/** 10.000, not 10000: counts read the Spanish way. */
const n = (value: number) => numberFormat.format(value);

export const fie = {
  views: { label: 'Vista', list: 'FIE', reconciliation: 'Conciliación con A3' },
  upload: {
    title: 'Subir FIE',
    dropHint: 'Arrastra aquí los FIE de SILTRA (texto FIE3 o FIE4, .fie o Excel)',
    choose: 'Elegir archivos',
    accept: '.fie,.txt,.msj,.xlsx,.xls',
    /** 'Subiendo 3 archivos…' while the request runs. */
    sending: (count: number) => (count === 1 ? 'Subiendo 1 archivo…' : `Subiendo ${count} archivos…`),
    failedTitle: 'Archivos no procesados',
    dismissFailed: 'Ocultar la lista de archivos no procesados',
    requestFailed: 'No se han podido subir los archivos. Inténtalo de nuevo.',
    sessionExpired: 'Tu sesión ha caducado. Vuelve a iniciar sesión y sube los archivos otra vez.',
  },
  filters: {
    title: 'Filtros',
    search: 'Buscar por nombre, NIF o empresa',
    searchPlaceholder: 'Nombre, NIF o empresa',
    type: 'Tipo de parte',
    allTypes: 'Todos los tipos',
    typesChosen: (count: number) => (count === 1 ? '1 tipo' : `${count} tipos`),
    from: 'Desde',
    to: 'Hasta',
    a3: 'Estado en A3',
    allA3: 'Todos',
    clear: 'Quitar filtros',
    badRange: '«Hasta» es anterior a «Desde»: no se aplica.',
    /** What 'Desde' and 'Hasta' compare (the server's entry_date: the leave's start, else the registration). */
    datesHint: '«Desde» y «Hasta» filtran por la fecha de baja (o la de registro, si el parte no tiene baja).',
  },
  a3States,
  list: {
    caption: 'FIE subidos',
    loading: 'Cargando los FIE…',
    failed: 'No se han podido cargar los FIE.',
    retry: 'Reintentar',
    emptyTitle: 'Todavía no has subido ningún FIE',
    emptyText: 'Arrastra aquí los ficheros FIE que descargas de SILTRA, o pulsa «Elegir archivos». En la aplicación de escritorio también puedes traerlos con «Obtener de SILTRA».',
    noMatchesTitle: 'Ningún parte coincide con los filtros',
    noMatchesText: 'Cambia la búsqueda o quita los filtros para ver todos los FIE.',
    documents: (total: number) => (total === 1 ? '1 FIE' : `${n(total)} FIE`),
    /** The toolbar's count: partes (an entry two files carry counts once), then files. */
    partsInFiles: (parts: number, files: number) => `${parts === 1 ? '1 parte' : `${n(parts)} partes`} en ${files === 1 ? '1 FIE' : `${n(files)} FIE`}`,
    entries: (total: number) => (total === 1 ? '1 parte' : `${n(total)} partes`),
    /** After the count while the list is loaded in pages (issue 43, 6) and not all of it is yet. */
    loadedOf: (loaded: number) => ` · ${n(loaded)} cargados`,
    /** The row after an open document's loaded entries: the rest load as it comes into view, or with its button. */
    missing: (missing: number) => (missing === 1 ? 'Falta 1 parte de este FIE' : `Faltan ${n(missing)} partes de este FIE`),
    loadMore: 'Cargar más partes',
    loadingMore: 'Cargando más partes…',
    loadMoreFailed: 'No se han podido cargar más partes.',
    /** When filters hide some of a document's entries. */
    entriesShown: (shown: number, total: number) => `${n(shown)} de ${n(total)} partes`,
    noFileName: 'FIE sin archivo',
    /** The document header's name for screen readers: '03/02/2025 · FIE_20250203.txt · 3 partes'. */
    documentLabel: (date: string, name: string, count: string) => `${date} · ${name} · ${count}`,
    delete: 'Eliminar',
    deleteLabel: (name: string) => `Eliminar ${name}`,
    deleting: 'Eliminando…',
    deleteConfirm: 'Eliminar',
    deleted: 'FIE eliminado',
    deleteFailed: 'No se ha podido eliminar el FIE. Inténtalo de nuevo.',
    select: (name: string) => `Seleccionar el parte de ${name}`,
    selectAll: 'Seleccionar todos los partes cargados',
    /** With pages not loaded yet: every parte the filters match (issue 43, 6). */
    selectMatching: 'Seleccionar todos los que coinciden',
    matchingCapped: (count: number) => `Se han seleccionado los ${n(count)} primeros: es lo máximo que se exporta o sincroniza de una vez.`,
    matchingFailed: 'No se han podido seleccionar los partes. Inténtalo de nuevo.',
    selected: (total: number) => (total === 1 ? '1 parte seleccionado' : `${n(total)} partes seleccionados`),
    disabledType: 'Este tipo de parte no se sincroniza con A3',
    canceledHint: 'Parte anulado: no se pasa a A3',
    /** 'Eliminar FIE' names the file it deletes. */
    deleteTitle: (title: string, name: string) => `${title} «${name}»`,
    canceled: 'Anulado',
    shortDuration: 'Corta',
    shortDurationHint: '(2 días o menos)',
    days: (total: number) => (total === 1 ? '1 día' : `${n(total)} días`),
    nif: 'NIF',
    company: 'Empresa',
    ccc: 'CCC',
    leave: 'Baja',
    leaveEnd: 'Alta',
    registration: 'Registro',
    duration: 'Duración',
    contingency: 'Contingencia',
    incidence: 'Incidencia',
    a3: 'A3',
    lastError: 'Último error',
    /** A parte the INSS confirmed again in later FIE: each confirmation, the latest first. */
    confirmations: (total: number) => (total === 1 ? 'Confirmación' : 'Confirmaciones'),
    confirmation: (number: number | null, date: string) => (number === null ? date : `n.º ${number} · ${date}`),
    none: '—',
  },
  actions: {
    exportA3: 'Exportar a A3',
    exportFile: 'incidencias-a3.xlsx',
    exportFailed: 'No se ha podido generar el Excel de incidencias. Inténtalo de nuevo.',
    syncA3: 'Sincronizar con A3',
    syncNeedsDesktop: 'La sincronización con A3 necesita la aplicación de escritorio instalada en el PC donde está A3.',
    syncFailed: 'No se ha podido sincronizar con A3.',
    syncDone: (synced: number, failed: number) =>
      failed === 0
        ? synced === 1 ? 'Se ha sincronizado 1 parte con A3.' : `Se han sincronizado ${synced} partes con A3.`
        : `A3 ha aceptado ${synced} y rechazado ${failed} ${failed === 1 ? 'parte' : 'partes'}. Revisa el error de cada uno.`,
    siltra: 'Obtener de SILTRA',
    siltraNeedsDesktop: 'Traer los FIE de SILTRA necesita la aplicación de escritorio con tu certificado.',
    siltraFailed: 'No se han podido obtener los FIE de SILTRA.',
  },
  siltra: {
    title: 'Obtener de SILTRA',
    certificate: 'Certificado',
    noCertificates: 'No tienes certificados en este equipo',
    loadingCertificates: 'Cargando los certificados…',
    from: 'Día (o desde)',
    to: 'Hasta (opcional)',
    submit: 'Obtener',
    cancel: 'Cancelar',
    badRange: '«Hasta» es anterior al día elegido.',
  },
  reconciliation: {
    caption: 'Bajas abiertas y su estado en A3',
    intro: 'Cada trabajador con una baja abierta según los FIE, y si A3 ya la tiene. Las bajas que no llegan a A3 son las que acaban costando dinero.',
    loading: 'Cargando la conciliación…',
    failed: 'No se ha podido cargar la conciliación con A3.',
    empty: 'No hay bajas abiertas en tus FIE.',
    search: 'Buscar en la conciliación por nombre, NIF, empresa o CCC',
    noMatches: 'Ninguna baja abierta coincide con la búsqueda.',
    worker: 'Trabajador/a',
    company: 'Empresa',
    since: 'De baja desde',
    daysOpen: 'Días abierta',
    inA3: 'En A3',
    pending: 'Partes sin pasar a A3',
    yes: 'Sí',
    no: 'No',
  },
} as const;

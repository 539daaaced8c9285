/** Spanish text of the shared widgets in renderer/ui/ (re-exported by es-screens.ts). */
export const widgets = {
  loading: 'Cargando…',
  back: 'Volver',
  close: 'Cerrar',
  search: 'Buscar',
  clearSearch: 'Borrar búsqueda',
  pagination: 'Paginación',
  previousPage: 'Anterior',
  nextPage: 'Siguiente',
  pageOf: (page: number, count: number) => `Página ${page} de ${count}`,
  rowDetail: 'Detalle',
  showDetail: 'Mostrar detalle',
  hideDetail: 'Ocultar detalle',
  stepper: {
    decrease: 'Disminuir',
    increase: 'Aumentar',
  },
  calendar: {
    label: 'Calendario',
    month: 'Mes',
    year: 'Año',
    previousMonth: 'Mes anterior',
    nextMonth: 'Mes siguiente',
    months: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
    /** Monday first (ISO week). */
    weekdayInitials: ['L', 'M', 'X', 'J', 'V', 'S', 'D'],
    weekdayNames: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'],
    events: (count: number) => (count === 1 ? '1 evento' : `${count} eventos`),
    repeatDay: 'se repite',
    untitledEvent: '(Sin título)',
  },
  filePicker: {
    dropZone: 'Arrastra aquí tus archivos o',
    chooseFiles: 'elige archivos',
    folderPath: 'Ruta de la carpeta',
    folderPathHint: 'Por ejemplo C:\\Documentos\\Nóminas',
    selected: (count: number) => (count === 1 ? '1 archivo seleccionado' : `${count} archivos seleccionados`),
    removeFile: (name: string) => `Quitar ${name}`,
    /** The 'filesizeexceeded' error: the selection is larger than the limit. */
    fileSizeExceeded: (actual: string, limit: string) => `Los archivos ocupan ${actual} y el máximo permitido es ${limit}.`,
  },
} as const;

/*
 * Issue 40's renderer strings: the document manager (/documanager), the firm's screen settings in
 * Mi cuenta, and 'Continuar con Google' on the sign-in screen. No imports: the sign-in screen's first
 * download reads `googleSignIn` and must not bring zod along with the shared schemas.
 */

/** /documanager: every document the firm holds, by client company and kind. */
export const documanager = {
  subtitle: 'Todos los documentos de tu asesoría en un sitio, por empresa cliente y tipo, con cuánto tiempo se conservan.',
  filtersLabel: 'Filtrar documentos',
  kind: 'Tipo',
  allKinds: 'Todos los tipos',
  company: 'Empresa cliente',
  allCompanies: 'Todas las empresas',
  search: 'Buscar documentos',
  /** Whole in the box at 360 px (e2e/screens.spec.ts); the label says what it searches in full. */
  searchPlaceholder: 'Nombre, empresa u origen',
  clear: 'Quitar filtros',
  caption: 'Documentos de la asesoría',
  loading: 'Cargando documentos…',
  loadFailed: 'No se han podido cargar los documentos.',
  retry: 'Reintentar',
  companiesFailed: 'No se han podido cargar las empresas para el filtro.',
  total: (count: number) => (count === 1 ? '1 documento' : `${new Intl.NumberFormat('es-ES').format(count)} documentos`),
  columns: {
    name: 'Nombre',
    kind: 'Tipo',
    company: 'Empresa',
    source: 'Origen',
    size: 'Tamaño',
    createdAt: 'Fecha',
    retention: 'Conservación',
    download: 'Descargar',
  },
  noCompany: 'Sin empresa',
  noSize: '—',
  companyOption: (company: string, documents: number) => `${company} (${documents})`,
  keptUntil: (day: string) => `Se conserva hasta ${day}`,
  keptForever: 'Se conserva hasta que lo borres',
  download: 'Descargar',
  downloadLabel: (name: string) => `Descargar ${name}`,
  notDownloadable: 'No descargable',
  empty: {
    title: 'Aún no hay documentos en tu asesoría.',
    text: 'Aquí aparecerán los documentos generados, los formularios firmados por tus clientes, los resultados de los robots, los adjuntos de las altas, los ficheros FIE y las notificaciones DEHÚ.',
    noResults: 'No hay documentos con estos filtros',
    noResultsText: 'Prueba con otro tipo, otra empresa u otra búsqueda.',
  },
  notEnabledTitle: 'Gestor documental desactivado',
  toSettings: 'Ir a Mi cuenta',
};

/** Mi cuenta › Pantallas de la asesoría: hidden_routes, allowed_routes and defaultRoute. */
export const routeSettings = {
  title: 'Pantallas de la asesoría',
  intro: 'Elige qué pantallas ve tu equipo en el menú y en cuál se abre la aplicación al entrar.',
  readOnly: 'Solo el propietario puede cambiarlo.',
  loading: 'Cargando la configuración de pantallas…',
  loadFailed: 'No se ha podido cargar la configuración de pantallas.',
  retry: 'Reintentar',
  hiddenTitle: 'Ocultar pantallas',
  hiddenHint: 'Las pantallas marcadas desaparecen del menú para todos los miembros de la asesoría.',
  hide: (screen: string) => `Ocultar ${screen}`,
  optInTitle: 'Pantallas opcionales',
  optInHint: 'Solo se muestran si las activas.',
  optInDescriptions: {
    '/documanager': 'Todos los documentos de la asesoría en un sitio, con su conservación y descarga.',
    '/frumecar': 'La gestión de pedidos de Frumecar.',
  } as Record<string, string>,
  defaultRoute: 'Pantalla de inicio',
  defaultRouteHint: 'La pantalla que se abre al iniciar sesión.',
  defaultRouteUnavailable: 'La pantalla de inicio elegida está oculta o desactivada: elige otra.',
  save: 'Guardar pantallas',
  saved: 'Configuración de pantallas guardada',
  saveFailed: 'No se ha podido guardar la configuración de pantallas. Inténtalo de nuevo.',
};

/** The sign-in screen's 'Continuar con Google' and why /auth?google=<reason> came back refused. */
export const googleSignIn = {
  button: 'Continuar con Google',
  or: 'o con tu email',
  reasons: {
    'not-configured': 'El acceso con Google no está disponible en este servidor. Entra con tu email y contraseña.',
    denied: 'Has cancelado el acceso con Google. Puedes volver a intentarlo o entrar con tu contraseña.',
    unverified: 'Tu cuenta de Google no tiene el correo verificado. Verifícalo en Google o entra con tu contraseña.',
    'no-account': 'No hay ninguna cuenta de AutoAsesor con ese correo. Regístrate primero o entra con tu contraseña.',
    disabled: 'Esta cuenta de AutoAsesor está desactivada. Habla con el propietario de tu asesoría o con soporte.',
    failed: 'No se ha podido completar el acceso con Google. Inténtalo de nuevo o entra con tu contraseña.',
  } as Record<string, string>,
  unknownReason: 'No se ha podido completar el acceso con Google. Inténtalo de nuevo o entra con tu contraseña.',
};

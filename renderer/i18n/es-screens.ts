import { widgets } from './es-widgets.ts';

export { widgets };

/** The honest closing line of every area that this version does not provide yet. */
const notAvailableYet = 'Esta sección aún no está disponible en esta versión.';

/**
 * What each area of the app is for, and its one name: the menu (es.nav), the page title, the home
 * tiles and the help page all read it from here, so an area is never called two things.
 */
export const areas = {
  flows: { title: 'Robots', path: '/flows', summary: 'Aquí verás los robots de tu asesoría agrupados por grupo, con sus datos de entrada, plantillas, instrucciones y programación.' },
  launcher: { title: 'Lanzador de robots', path: '/launcher', summary: 'Aquí podrás lanzar un robot paso a paso: rellenar sus datos, elegir certificado y máquina, y lanzarlo al momento o programarlo.' },
  roboteka: { title: 'Roboteka', path: '/roboteka', summary: 'Aquí encontrarás el catálogo de robots que puedes usar en tu asesoría y lo que hace cada uno.' },
  recorder: { title: 'Grabador de tareas', path: '/recorder', summary: 'Aquí podrás grabar una tarea repetitiva en tu equipo para convertirla en un robot. Necesita la aplicación de escritorio.' },
  notifications: { title: 'Notificaciones DEHÚ', path: '/notifications', summary: 'Aquí verás las notificaciones electrónicas oficiales de la DEHÚ de cada certificado, con búsqueda y filtros por fecha.' },
  workspace: { title: 'Mis recursos', path: '/workspace', summary: 'Aquí verás los certificados, máquinas y configuraciones que se comparten en tu entorno de trabajo.' },
  altasybajas: { title: 'Altas y bajas', dashboard: 'Altas | Historial y Pendientes', path: '/altasybajas', summary: 'Aquí llevarás el registro de empresas y grupos de tus clientes, capturarás altas de trabajadores, las sincronizarás con A3 y lanzarás altas automáticas en el Sistema RED.' },
  fie: { title: 'Procesador FIE', path: '/fie', summary: 'Aquí verás los ficheros FIE de SILTRA decodificados y podrás sincronizarlos con A3.' },
  smartbuilder: { title: 'Smart Builder', path: '/smartbuilder', summary: 'Aquí podrás crear tus propios robots a partir de bloques, sin programar.' },
  documentcreator: { title: 'Documentos', path: '/documentcreator', summary: 'Crea plantillas de contratos, autorizaciones y consentimientos, genera documentos en PDF y Word y recoge datos y firmas de tus clientes con formularios online.' },
  documanager: { title: 'Gestor documental', path: '/documanager', summary: 'Todos los documentos de tu asesoría en un sitio: generados, firmados, resultados de robots, adjuntos de altas, FIE y DEHÚ.' },
  frumecar: { title: 'Frumecar', path: '/frumecar', summary: 'Aquí podrás gestionar los pedidos de Frumecar.' },
  scraper: { title: 'Extractor web', path: '/scraper', summary: 'Aquí podrás extraer datos de páginas web y descargarlos en una hoja de cálculo.' },
  onlineform: { title: 'Formulario online', path: '/online-form', summary: 'Aquí podrás rellenar los formularios online que te comparta tu asesoría.' },
} as const;

export type AreaKey = keyof typeof areas;

/** The areas above that this version already provides; the others say "aún no está disponible". */
export const readyAreas: readonly AreaKey[] = ['flows', 'launcher', 'roboteka', 'workspace', 'altasybajas', 'fie', 'notifications', 'documentcreator', 'documanager', 'onlineform', 'recorder', 'smartbuilder', 'scraper'];

/** The areas this version already provides (built with the app shell). */
export const availableAreas = [
  { key: 'home', title: 'Inicio', path: '/home', summary: 'La página de entrada, con el estado de tu suscripción y los accesos a cada sección.' },
  { key: 'userprofile', title: 'Mi cuenta', path: '/userprofile', summary: 'Tus datos de usuario y tus preferencias.' },
  { key: 'payments', title: 'Pagos', path: '/payments', summary: 'Tu plan, tu saldo de créditos y tus pagos.' },
] as const;

export const screens = {
  widgets,
  notAvailableYet,
  /** Title of the honest empty state of an area that is not built yet. */
  comingSoonTitle: 'Próximamente',
  notifications: {
    empty: 'Todavía no has actualizado ninguna notificación...',
  },
  workspace: {
    empty: 'No hay compartidos en tu entorno de trabajo',
  },
  help: {
    title: 'Ayuda',
    subtitle: 'Cómo pedir ayuda y qué encontrarás en cada sección.',
    supportTitle: 'Cómo contactar con soporte',
    writeTo: 'Escríbenos a',
    supportLoading: 'Cargando la dirección de soporte…',
    supportFailed: 'No se ha podido cargar la dirección de soporte. Vuelve a intentarlo más tarde o avisa al administrador de tu asesoría.',
    supportSteps: [
      'Para contratar o cambiar un plan, comprar créditos, o si algo no funciona, escribe a soporte desde tu email de acceso.',
      'Cuéntanos qué estabas haciendo, en qué pantalla y, si aparece, el mensaje de error exacto. Una captura de pantalla ayuda mucho.',
      'Si usas la aplicación de escritorio, indica también su versión: aparece al final del menú lateral.',
    ],
    ticketsNotAvailable: 'El envío de incidencias desde la propia aplicación aún no está disponible en esta versión.',
    areasTitle: 'Qué hay en cada sección',
    available: 'Disponible',
    notAvailable: 'Aún no disponible',
  },
  onboarding: {
    title: 'Primeros pasos',
    subtitle: 'Lo que conviene preparar para empezar a trabajar con AutoAsesor.',
    checklistLabel: 'Lista de primeros pasos',
    available: 'Disponible',
    notAvailable: 'Aún no disponible en esta versión',
    go: 'Ir',
    steps: [
      { key: 'profile', title: 'Revisa tus datos de usuario', text: 'Comprueba tu nombre, tu email y tus preferencias en tu perfil.', path: '/userprofile', available: true },
      { key: 'plan', title: 'Consulta tu plan y tus créditos', text: 'Cada ejecución de un robot consume créditos. Revisa tu saldo y tu plan en Pagos.', path: '/payments', available: true },
      { key: 'desktop', title: 'Instala la aplicación de escritorio', text: 'Permite usar los certificados digitales de tu equipo y ejecutar los robots en local. Pide el instalador al administrador de tu asesoría.', path: null, available: true },
      { key: 'certificates', title: 'Comparte tus certificados digitales', text: 'Desde la aplicación de escritorio, en Mis recursos, elige qué certificados sincronizas y qué dispositivos compartes con tu despacho.', path: '/workspace', available: true },
      { key: 'email', title: 'Conecta una cuenta de correo', text: 'Vincula una cuenta de Google o Microsoft para recibir por email los resultados de los robots.', path: null, available: false },
      { key: 'companies', title: 'Registra las empresas de tus clientes', text: 'En Altas y bajas darás de alta las empresas y sus grupos para capturar altas de trabajadores.', path: null, available: false },
      { key: 'firstRobot', title: 'Lanza tu primer robot', text: 'Elige un robot, rellena sus datos y lánzalo o prográmalo.', path: null, available: false },
    ],
  },
  oauth: {
    title: 'Conexión de la cuenta',
    successTitle: 'Autorización recibida',
    successText: 'Hemos recibido la autorización de tu cuenta.',
    errorTitle: 'No se ha podido conectar la cuenta',
    errorText: (reason: string) => `El proveedor ha devuelto este error: ${reason}.`,
    missingTitle: 'No hay respuesta de autorización',
    missingText: 'Esta página no ha recibido ningún código ni error de autorización.',
    closeWindow: 'Puedes cerrar esta ventana.',
  },
  info: {
    title: 'Información',
    subtitle: 'Qué es AutoAsesor',
    intro: 'AutoAsesor es una plataforma de automatización para asesorías, gestorías y despachos contables. Permite lanzar robots que hacen por ti tareas repetitivas con las administraciones públicas.',
    points: [
      'Lanza robots guiados paso a paso, prográmalos en tu equipo o en una máquina compartida y revisa el historial de ejecuciones.',
      'Gestiona los certificados digitales y las máquinas que compartes desde la aplicación de escritorio.',
      'Consulta las notificaciones electrónicas oficiales (DEHÚ) de cada certificado.',
      'Lleva el registro de empresas y altas de trabajadores, sincronízalo con A3 y lanza altas automáticas en el Sistema RED.',
      'Procesa los ficheros FIE de SILTRA y sincronízalos con A3.',
    ],
    modesTitle: 'Web y escritorio',
    modes: 'Puedes usar AutoAsesor desde el navegador o dentro de la aplicación de escritorio. En el navegador no están disponibles los certificados locales ni las acciones de escritorio; los robots se ejecutan en una máquina compartida.',
    credits: 'El uso se mide en créditos (slans).',
  },
  form: {
    title: 'Formulario',
    missing: 'Este formulario no existe o ya no está disponible.',
  },
} as const;

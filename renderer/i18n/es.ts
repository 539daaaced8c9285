/** Every user-facing string of the app shell, auth, home, profile and payments. Screens add theirs in es-screens.ts. */
import { areas, availableAreas, screens } from './es-screens.ts';
import { es as core } from './es-core.ts';

export { screens };

export const validationMessages = {
  required: 'Este campo es obligatorio',
  email: 'Introduce una dirección de correo electrónico válida',
  password: 'La contraseña debe incluir al menos 8 caracteres, un número, una mayúscula y un símbolo especial',
} as const;

export const es = {
  ...core,
  nav: {
    // The areas' names come from es-screens' areas: one name per area in menu, titles and tiles.
    Home: availableAreas[0].title,
    Roboteka: areas.roboteka.title,
    FlowsPanel: areas.flows.title,
    MacroRecorder: areas.recorder.title,
    NotificationsDashboard: areas.notifications.title,
    WorkEnvironmentSetup: areas.workspace.title,
    AltasBajasDashboard: areas.altasybajas.title,
    FIE: areas.fie.title,
    SmartBuilder: areas.smartbuilder.title,
    DocumentCreator: areas.documentcreator.title,
    DocumentManager: areas.documanager.title,
    Frumecar: areas.frumecar.title,
    Help: screens.help.title,
    mainNavigation: 'Navegación principal',
  },
  topBar: {
    menu: 'Menú',
    greeting: (name: string) => `Hola, ${name}`,
    creditChip: (credits: string) => `Saldo: ${credits}. Ir a pagos`,
    minimize: 'Minimizar',
    maximize: 'Maximizar',
    close: 'Cerrar',
    windowFailed: 'No se ha podido completar la acción de la ventana',
    /** After the count: '3 certificados caducan pronto'. */
    expiringSoon: (count: number) => (count === 1 ? 'certificado caduca pronto' : 'certificados caducan pronto'),
    expiringSoonLink: (count: number) => `${count} ${count === 1 ? 'certificado caduca pronto' : 'certificados caducan pronto'}. Ver caducidades`,
  },
  sideMenu: {
    title: 'Menú de usuario',
    account: 'Mi cuenta',
    payments: 'Pagos',
    releaseNotes: 'Novedades',
    noReleaseNotes: 'No hay novedades por ahora.',
    logout: 'Cerrar sesión',
    appVersion: (version: string) => `Versión ${version}`,
    hostVersion: (version: string) => `Escritorio ${version}`,
    web: 'Web',
    machine: 'Equipo: ',
  },
  /** Public pages (/oauth-response, /online-form, /info, /form): the way back into the app. */
  publicPage: { backToApp: 'Ir al inicio de AutoAsesor' },
  paymentRequired: {
    title: 'Necesitas una suscripción activa',
    body: 'Esta sección forma parte de los planes de pago. Elige un plan para seguir.',
  },
  creditBanner: {
    warning: (percentage: number) => `Has consumido el ${percentage} % de tus créditos de este periodo.`,
    exceeded: 'Has agotado los créditos de tu plan. Los nuevos usos se cobrarán como consumo extra.',
  },
  subscription: {
    title: 'Tu suscripción',
    plan: 'Plan',
    noPlan: 'Sin plan activo',
    trialing: 'En periodo de prueba',
    cancelled: 'Cancelada',
    usage: 'Consumo del periodo',
    usageValue: (used: string, limit: string) => `${used} de ${limit}`,
    balance: 'Saldo disponible',
    nextPayment: 'Próximo pago',
    noNextPayment: 'Sin pagos programados',
    extra: 'Consumo extra',
    goToPayments: 'Ir a pagos',
    loadFailed: 'No se ha podido cargar tu suscripción.',
  },
  prompt: {
    certificates: 'Certificados',
    noCertificates: 'No tienes certificados',
    chooseCertificate: 'Elige un certificado',
    chooseCertificates: 'Elige uno o más certificados',
    searchCertificates: 'Buscar por certificado o dispositivo',
    /** Certificates without a machine (local ones) when the list is grouped by machine. */
    otherCertificates: 'Otros certificados',
  },
  home: {
    subtitle: '¿Qué quieres hacer hoy?',
    areas: 'Áreas',
  },
  profile: {
    title: 'Mi cuenta',
    personal: 'Datos personales',
    language: 'Idioma',
    /** Only Spanish has translations, so it is the only language offered (the stored value may still be en/ca). */
    spanish: 'Español',
    spanishOnly: 'Por ahora AutoAsesor está disponible solo en español.',
    saved: 'Datos guardados',
    passwordTitle: 'Cambiar contraseña',
    currentPassword: 'Contraseña actual',
    newPassword: 'Nueva contraseña',
    changePassword: 'Cambiar contraseña',
    passwordChanged: 'Contraseña cambiada',
    emailValidated: 'Email validado',
    emailNotValidated: 'Email sin validar',
    sendValidation: 'Enviar enlace de validación',
    validationSent: (email: string) => `Te hemos enviado un enlace de validación a ${email}.`,
    firm: {
      title: 'Tu asesoría',
      name: 'Nombre de la asesoría',
      hint: 'Es el nombre que ven tus compañeros al recibir una invitación, tus empresas en los correos y formularios, y el equipo de soporte.',
      stillYourName: 'Ahora la asesoría lleva tu nombre. Escribe el de tu despacho para que tus compañeros y tus empresas la reconozcan.',
      readOnly: 'Solo el propietario puede cambiar el nombre de la asesoría.',
      save: 'Guardar nombre',
      saved: 'Nombre de la asesoría guardado',
      saveFailed: 'No se ha podido guardar el nombre de la asesoría. Inténtalo de nuevo.',
    },
  },
  payments: {
    title: 'Pagos',
    notAvailable: 'El pago en línea no está activado en este servidor.',
    contactSupport: 'Para contratar un plan, cambiarlo o comprar más créditos, escribe a soporte y lo gestionaremos contigo.',
    supportLink: 'Cómo contactar con soporte',
  },
  update: {
    forcedTitle: 'Actualización obligatoria',
    forcedVersions: (current: string, latest: string) =>
      `Tienes la versión ${current} y es necesario actualizar a la ${latest} para seguir usando AutoAsesor.`,
    forcedHowTo: 'Cierra la aplicación y descarga la nueva versión desde la web de AutoAsesor o pide a tu responsable que la instale.',
    available: (latest: string) => `Hay una nueva versión de AutoAsesor (${latest}).`,
    later: 'Más tarde',
    /** The window is frameless and the dialog covers its own close button, so it offers one. */
    closeApp: 'Cerrar la aplicación',
  },
} as const;

/**
 * The company's public form (/form/:context/:id, issue 23): a client company signs in with the
 * credentials its asesoría emailed it and sends a worker's alta. Nothing here speaks to an advisor.
 */
export const form = {
  title: 'Formulario',
  missing: 'Este formulario no existe o ya no está disponible.',
  loading: 'Cargando el formulario…',
  loadFailed: 'No se ha podido cargar el formulario. Comprueba tu conexión y vuelve a intentarlo.',
  retry: 'Reintentar',
  logoAlt: (title: string) => `Logotipo de ${title}`,
  signIn: {
    title: 'Accede al formulario',
    explanation: 'Usa el email y la contraseña que te ha enviado tu asesoría por correo electrónico.',
    email: 'Email',
    password: 'Contraseña',
    submit: 'Entrar',
    tooManyAttempts: 'Has hecho demasiados intentos. Espera unos minutos y vuelve a intentarlo.',
    failed: 'No se ha podido iniciar la sesión. Inténtalo de nuevo.',
  },
  session: {
    signedInAs: (email: string) => `Has entrado como ${email}`,
    signOut: 'Salir',
    expired: 'Tu sesión ha terminado. Vuelve a entrar para enviar el alta.',
  },
  fill: {
    title: 'Nueva alta',
    onePage: 'Datos del trabajador',
    requiredHint: 'Los campos marcados con * son obligatorios.',
    company: 'Empresa',
    profile: 'Perfil del puesto',
    choose: 'Elige una opción',
    noProfiles: 'Tu asesoría todavía no ha creado perfiles de puesto para esta empresa. Ponte en contacto con ella.',
    noCompanies: 'Tu usuario no tiene ninguna empresa activa en este formulario. Ponte en contacto con tu asesoría.',
    dependsOn: (title: string) => `Elige antes ${title}.`,
    noCcc: 'Tu asesoría no ha registrado códigos de cuenta de cotización para esta empresa.',
    phonePrefix: (title: string) => `Prefijo de ${title}`,
    submit: 'Enviar alta',
    checkFields: 'Revisa los campos marcados antes de enviar el alta.',
    sendFailed: 'No se ha podido enviar el alta. Inténtalo de nuevo.',
  },
  file: {
    accept: 'image/png,image/jpeg,image/webp,application/pdf',
    choose: (field: string) => `Adjuntar ${field}`,
    hint: 'Imagen (PNG, JPG o WEBP) o PDF.',
    uploading: (name: string) => `Subiendo ${name}…`,
    remove: (name: string) => `Quitar ${name}`,
    tooLarge: (size: string, limit: string) => `El archivo ocupa ${size} y el máximo permitido es ${limit}.`,
    wrongType: 'Solo se admiten imágenes (PNG, JPG o WEBP) y archivos PDF.',
    failed: 'No se ha podido subir el archivo. Inténtalo de nuevo.',
  },
  done: {
    title: 'Alta enviada',
    message: (worker: string) => `Hemos recibido el alta de ${worker}. Tu asesoría la tramitará en la Seguridad Social.`,
    someone: 'tu trabajador',
    another: 'Enviar otra alta',
  },
  submissions: {
    title: 'Altas enviadas',
    empty: 'Todavía no has enviado ninguna alta.',
    received: 'Recibida',
    registered: 'Registrada en la Seguridad Social',
    /** RED refused it (issue 44, 5): the company hears it is being looked at, never RED's own error. */
    attention: 'En revisión por tu asesoría',
    attentionHint: 'Tu asesoría está revisando los datos de esta alta; si necesita algo, se pondrá en contacto contigo.',
    sentOn: (date: string) => `Enviada el ${date}`,
  },
} as const;

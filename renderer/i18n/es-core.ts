/**
 * The strings of what a first visit shows (the sign-in screen, the splash, the error and not-found
 * pages, the common words): the screens on that path import them from here, so the first download
 * carries neither the other areas' strings nor es-screens. es.ts spreads them into `es`, so
 * `es.auth.signin` reads the same from either file.
 */
export const es = {
  appName: 'AutoAsesor',
  common: {
    loading: 'Cargando…',
    cancel: 'Cancelar',
    accept: 'Aceptar',
    close: 'Cerrar',
    save: 'Guardar',
    seePlans: 'Ver planes',
    unexpectedError: 'Ha ocurrido un error inesperado',
  },
  splash: { restoring: 'Recuperando tu sesión…' },
  notFound: {
    title: 'Página no encontrada',
    body: 'La dirección que has abierto no existe o ya no está disponible.',
    goHome: 'Volver al inicio',
  },
  routeError: {
    title: 'Algo ha fallado',
    body: 'No se ha podido mostrar esta pantalla. Vuelve a cargar la aplicación para intentarlo de nuevo.',
    reload: 'Volver a cargar',
  },
  auth: {
    signinTitle: 'Inicia sesión',
    signupTitle: 'Crea tu cuenta',
    resetTitle: 'Recupera tu contraseña',
    newPasswordTitle: 'Elige una nueva contraseña',
    email: 'Email',
    password: 'Contraseña',
    newPassword: 'Nueva contraseña',
    name: 'Nombre',
    signin: 'Iniciar sesión',
    signup: 'Crear cuenta',
    sendLink: 'Enviar enlace',
    savePassword: 'Guardar contraseña',
    toSignup: '¿No tienes cuenta? Crea una',
    toSignin: '¿Ya tienes cuenta? Inicia sesión',
    toReset: '¿Has olvidado tu contraseña?',
    resetSent: (email: string) => `Si existe una cuenta para ${email}, te hemos enviado un enlace para restablecer la contraseña.`,
    passwordChanged: 'Contraseña actualizada. Ya puedes iniciar sesión.',
    invalidLink: 'El enlace no es válido o ha caducado. Pide uno nuevo.',
    checkFields: 'Revisa los campos marcados.',
    emailValidationTitle: 'Validación del email',
    validatingEmail: 'Validando tu email…',
    emailValidated: (email: string) => `Tu email ${email} está validado.`,
    goHome: 'Ir al inicio',
    backToSignin: 'Volver a iniciar sesión',
  },
} as const;

import { INVITATION_TTL_DAYS } from '#shared/api/colleagues.ts';

/** Colleagues (issue 26): the section in Mi cuenta and the emailed invitation's page (/invitacion/:token). */
export const colleagues = {
  section: {
    title: 'Compañeros de tu empresa',
    shares: 'Compartís robots, historial, equipos y saldo de slans.',
    readOnly: 'Solo el titular de la cuenta puede invitar o quitar compañeros.',
    loading: 'Cargando compañeros…',
    loadFailed: 'No se han podido cargar los compañeros de tu empresa.',
    retry: 'Reintentar',
    membersTitle: 'Miembros',
    invitationsTitle: 'Invitaciones pendientes',
    you: 'Tú',
    invitedBy: (name: string) => `Invitado por ${name}`,
    expiresOn: (date: string) => `Caduca el ${date}`,
  },
  invite: {
    title: 'Invitar a un compañero',
    hint: `Le enviaremos un enlace para crear su cuenta dentro de tu empresa. El enlace caduca en ${INVITATION_TTL_DAYS} días.`,
    email: 'Email del compañero',
    send: 'Enviar invitación',
    sent: (email: string) => `Hemos enviado la invitación a ${email}`,
    failed: 'No se ha podido enviar la invitación. Inténtalo de nuevo.',
  },
  revoke: {
    action: 'Retirar',
    label: (email: string) => `Retirar la invitación de ${email}`,
    done: (email: string) => `Has retirado la invitación de ${email}`,
    failed: 'No se ha podido retirar la invitación. Inténtalo de nuevo.',
  },
  remove: {
    action: 'Quitar',
    label: (name: string) => `Quitar a ${name}`,
    title: (name: string) => `¿Quitar a ${name}?`,
    /** `mailboxes`: the addresses they linked, which are theirs: unlinked, and AutoAsesor's permission revoked. */
    text: (name: string, mailboxes: readonly string[]) => {
      const base = `${name} dejará de poder entrar en AutoAsesor. Sus ejecuciones seguirán en el historial de la empresa y sus programaciones se eliminarán.`;
      if (mailboxes.length === 0) return base;
      const list = new Intl.ListFormat('es', { type: 'conjunction' }).format(mailboxes);
      return mailboxes.length === 1
        ? `${base} La cuenta de correo que vinculó (${list}) se desconectará y AutoAsesor perderá el permiso para enviar desde ella: los robots que envían resultados desde esa cuenta dejarán de hacerlo hasta que elijáis otra.`
        : `${base} Las cuentas de correo que vinculó (${list}) se desconectarán y AutoAsesor perderá el permiso para enviar desde ellas: los robots que envían resultados desde esas cuentas dejarán de hacerlo hasta que elijáis otra.`;
    },
    confirm: 'Quitar',
    done: (name: string) => `${name} ya no forma parte de tu empresa`,
    failed: 'No se ha podido quitar a ese compañero. Inténtalo de nuevo.',
  },
  invitation: {
    loading: 'Cargando la invitación…',
    title: (invitedBy: string | null, firmName: string) =>
      invitedBy ? `${invitedBy} te invita a unirte a ${firmName} en AutoAsesor` : `Te invitan a unirte a ${firmName} en AutoAsesor`,
    email: 'Email',
    name: 'Nombre',
    password: 'Contraseña',
    join: (firmName: string) => `Unirme a ${firmName}`,
    goneTitle: 'Invitación no disponible',
    notFoundTitle: 'Invitación no encontrada',
    elsewhereTitle: 'No puedes unirte con este email',
    toSignin: 'Ir a iniciar sesión',
    loadFailed: 'No se ha podido cargar la invitación',
    retry: 'Reintentar',
  },
};

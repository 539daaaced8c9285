import { DEVICE_NAME_REQUIRED_MESSAGE, MACHINE_DELETE_FAILED_MESSAGE } from '#shared/api/machines.ts';
import { screens } from './es-screens.ts';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** /workspace 'Mis recursos': the certificates and machines selector and the expiry radar. */
export const workspace = {
  tabsLabel: 'Secciones de Mis recursos',
  tabs: { devices: 'Dispositivos', expiry: 'Caducidades' },
  retry: 'Reintentar',

  search: {
    label: 'Buscar por dispositivo o certificado',
    /** Whole in the box at 360 px (e2e/screens.spec.ts); the label reads in full. */
    placeholder: 'Dispositivo o certificado',
    noResults: (query: string) => `No hay resultados para «${query}»`,
    noResultsHint: 'Prueba con otra parte del nombre del certificado o del dispositivo.',
  },

  sections: {
    local: 'Este dispositivo',
    mine: 'Mis dispositivos',
    shared: 'Compartidos en tu despacho',
    cardsLabel: (section: string) => `Dispositivos: ${section}`,
  },
  machines: {
    loading: 'Cargando los dispositivos…',
    failed: 'No se han podido cargar los dispositivos.',
    /** Spec §8: the firm shares no machine. */
    noneShared: screens.workspace.empty,
    noneSelected: 'Elige un dispositivo para ver sus certificados y configuraciones.',
  },

  card: {
    localTitle: 'Mis certificados en este dispositivo',
    owner: (name: string) => `De ${name}`,
    shared: 'Compartido',
    certificates: (count: number) => plural(count, 'certificado', 'certificados'),
    matching: (shown: number, total: number) => `${shown} de ${plural(total, 'certificado', 'certificados')}`,
    lastSync: (when: string) => `Última sincronización: ${when}`,
    neverSynced: 'Sin sincronizar',
    reading: 'Leyendo certificados…',
    open: (name: string) => `Ver ${name}`,
  },

  detail: {
    subTabsLabel: (name: string) => `Contenido de ${name}`,
    certificates: 'Certificados',
    configs: 'Configuraciones',
    /** Spec §8 empty states. */
    noSharedCertificates: 'Este dispositivo no tiene certificados compartidos',
    noConfigs: 'Este dispositivo no tiene configuraciones',
    noLocalCertificates: 'No tienes certificados',
    noLocalCertificatesHint: 'Instala tu certificado en el almacén del sistema o elige una carpeta con archivos .p12/.pfx.',
    synced: 'Sincronizado',
    listLabel: (name: string) => `Certificados de ${name}`,
    syncFirst: 'Sincroniza este dispositivo para poder añadirle configuraciones.',
  },

  local: {
    reading: 'Leyendo los certificados de este dispositivo…',
    readFailed: 'No se han podido leer los certificados de este dispositivo.',
    deviceName: 'Nombre del dispositivo',
    deviceNameRequired: DEVICE_NAME_REQUIRED_MESSAGE,
    selectAll: 'Seleccionar todos',
    listLabel: 'Certificados de este dispositivo',
    selectedCount: (count: number) => (count === 1 ? '1 seleccionado' : `${count} seleccionados`),
    sync: 'Sincronizar',
    unsync: 'Dejar de sincronizar',
    chooseFirst: 'Selecciona al menos un certificado.',
    synced: (count: number) => (count === 1 ? 'Se ha sincronizado 1 certificado' : `Se han sincronizado ${count} certificados`),
    unsynced: (count: number) =>
      count === 1 ? 'Se ha dejado de sincronizar 1 certificado' : `Se han dejado de sincronizar ${count} certificados`,
    syncFailed: 'No se han podido sincronizar los certificados',
    syncExplained: 'Al sincronizar, solo se envían al servidor los datos públicos del certificado. La clave privada nunca sale de este equipo.',
    problemsTitle: 'Certificados que no se han podido leer',
    unlock: 'Desbloquear',
    unlockLabel: (file: string) => `Desbloquear ${file}`,
    unlockTitle: 'Desbloquear certificado',
    unlockPassword: (file: string) => `Contraseña de ${file}`,
    unlocked: (file: string, count: number) =>
      count === 1 ? `${file}: se ha leído 1 certificado` : `${file}: se han leído ${count} certificados`,
    unlockFailed: 'No se ha podido desbloquear el archivo',
  },

  folder: {
    title: 'Carpeta de certificados .p12/.pfx',
    label: 'Ruta de la carpeta',
    hint: 'Escribe la ruta de una carpeta de este equipo con archivos .p12 o .pfx. Se leerán junto con el almacén del sistema.',
    save: 'Guardar',
    remove: 'Quitar',
    current: (folder: string) => `Carpeta en uso: ${folder}`,
    none: 'No hay ninguna carpeta elegida.',
    required: 'Escribe la ruta de la carpeta',
    saved: 'Carpeta guardada',
    removed: 'Carpeta quitada',
    failed: 'No se ha podido cambiar la carpeta',
  },

  owner: {
    title: 'Ajustes del dispositivo',
    rename: 'Nombre con el que lo ves',
    saveName: 'Guardar nombre',
    renamed: 'Nombre guardado',
    renameFailed: 'No se ha podido cambiar el nombre',
    share: 'Compartir con mi despacho',
    shareHint: 'Todos en tu despacho verán sus certificados sincronizados y podrán lanzar robots en él.',
    shareFailed: 'No se ha podido cambiar si se comparte',
    sharedOn: 'Dispositivo compartido con tu despacho',
    sharedOff: 'Dispositivo ya no compartido',
    remove: 'Eliminar dispositivo',
    confirmTitle: 'Eliminar dispositivo',
    confirmText: (name: string) =>
      `Se eliminará «${name}» con sus certificados sincronizados y sus configuraciones. Los certificados siguen instalados en el equipo.`,
    confirm: 'Eliminar',
    removed: 'Dispositivo eliminado',
    removeFailed: MACHINE_DELETE_FAILED_MESSAGE,
  },

  /** Whether a machine's desktop app or agent can receive robots (issue 7: device link, revoke). */
  connection: {
    title: 'Conexión',
    online: 'Conectado',
    offline: 'Sin conexión',
    offlineSince: (when: string) => `Sin conexión desde ${when}`,
    unlinked: 'No conectado',
    explainUnlinked: 'Conecta este dispositivo a tu cuenta para ejecutar en él los robots de escritorio y recibir lanzamientos remotos.',
    link: 'Conectar este dispositivo',
    linked: 'Dispositivo conectado',
    linkFailed: (reason: string) => `No se ha podido conectar este dispositivo: ${reason}`,
    serverUnreachable: 'el servidor no ha respondido. Inténtalo de nuevo en unos minutos.',
    revoke: 'Revocar acceso',
    revokeTitle: 'Revocar acceso',
    revokeText: (name: string) =>
      `«${name}» dejará de ejecutar robots de escritorio y de recibir lanzamientos remotos hasta que se vuelva a conectar desde su aplicación.`,
    revokeConfirm: 'Revocar',
    revoked: 'Acceso revocado',
    revokeFailed: 'No se ha podido revocar el acceso',
  },

  configs: {
    listLabel: 'Configuraciones del dispositivo',
    ccc: (list: readonly string[]) => (list.length === 0 ? 'Todos los CCC' : `CCC: ${list.join(', ')}`),
    email: (provider: string, email: string) => `Correo: ${email} (${provider})`,
    noEmail: 'Sin correo configurado',
    providers: { google: 'Google', microsoft: 'Microsoft' },
    flagged: 'Esta configuración está dañada y no se puede usar',
    remove: 'Eliminar',
    removeLabel: (name: string) => `Eliminar la configuración ${name}`,
    confirmTitle: 'Eliminar configuración',
    confirmText: (name: string) => `Se eliminará la configuración «${name}».`,
    removed: 'Configuración eliminada',
    removeFailed: 'No se ha podido eliminar la configuración',
    newTitle: 'Nueva configuración',
    name: 'Nombre',
    cccList: 'CCC (uno por línea)',
    cccHint: 'Déjalo vacío para no filtrar por código de cuenta de cotización.',
    invalidCcc: (ccc: string) => `Introduce un CCC válido: ${ccc}`,
    nameRequired: 'Pon un nombre a la configuración',
    /** The email wizard (/email?machine=): a config with the message robots send and the linked account it goes from. */
    emailSetup: 'Configurar correo',
    emailSetupHint: 'Crea una configuración con el mensaje que envían los robots de este dispositivo y la cuenta de correo desde la que sale.',
    create: 'Crear configuración',
    created: 'Configuración creada',
    createFailed: 'No se ha podido crear la configuración',
    edit: 'Editar',
    editLabel: (name: string) => `Editar la configuración ${name}`,
  },

  /** The firm's own email configs, on no device (issue 43): any robot of the firm, the server's too, sends with them. */
  firmConfigs: {
    title: 'Configuraciones de correo de la asesoría',
    intro: 'Las usan todos los robots de tu asesoría, también los que se ejecutan en el servidor. No necesitan ningún dispositivo.',
    listLabel: 'Configuraciones de correo de la asesoría',
    empty: 'Aún no hay configuraciones de correo de la asesoría.',
    loading: 'Cargando las configuraciones de correo…',
    failed: 'No se han podido cargar las configuraciones de correo.',
    create: 'Nueva configuración de correo',
  },

  web: {
    title: 'Certificados locales no disponibles',
    intro: 'En el navegador no se pueden leer los certificados de tu equipo. Para usar uno, compártelo desde un equipo de tu despacho:',
    steps: [
      'Instala la aplicación de escritorio de AutoAsesor en el ordenador de la oficina que tiene los certificados.',
      'Ábrela, entra en Mis recursos y sincroniza los certificados de ese equipo.',
      'Activa «Compartir con mi despacho» en ese dispositivo.',
      'Al lanzar un robot, elige ese dispositivo compartido.',
    ],
  },

  radar: {
    title: 'Certificados que caducan en los próximos 60 días',
    caption: 'Certificados por caducar',
    loading: 'Cargando las caducidades…',
    failed: 'No se han podido cargar las caducidades.',
    empty: 'Ningún certificado caduca en los próximos 60 días',
    emptyHint: 'Aquí aparecerán los certificados sincronizados que caduquen pronto o hayan caducado hace poco.',
    summaryLabel: 'Resumen por plazo',
    columns: { name: 'Certificado', nif: 'NIF', machine: 'Dispositivo', expires: 'Caduca', daysLeft: 'Días restantes', threshold: 'Aviso' },
    noNif: 'Sin NIF',
    daysLeft: (days: number) => (days < 0 ? `Hace ${plural(-days, 'día', 'días')}` : plural(days, 'día', 'días')),
    thresholds: {
      0: 'Caducado',
      1: '≤ 1 día',
      7: '≤ 7 días',
      14: '≤ 14 días',
      30: '≤ 30 días',
      60: '≤ 60 días',
    } as Record<number, string>,
    summary: (label: string, count: number) => `${label}: ${count}`,
  },
} as const;

import { doneOfTotal, figures } from './figures.ts';

/** The flow launcher (/launcher/:id), its inputs, the scheduler and the floating run notification. */
export const launcher = {
  pageTitle: 'Lanzador de robots',
  loadingFlow: 'Cargando el robot…',
  loadFailed: 'No se ha podido cargar el robot. Inténtalo de nuevo en unos minutos.',
  /** Spec §8: an unknown robot. */
  notFound: 'Este robot ya no forma parte de nuestra familia',
  backToFlows: 'Volver a Robots',
  back: 'Volver',
  /** '1 slan por 100 filas'. */
  usageBadge: (credits: string, unit: string) => `${credits} por ${unit}`,
  usageBadgeLabel: 'Coste del robot',
  /** Spec §2: when no step component exists (two spaces, as the spec writes it). */
  fallback: 'Oops!  Something went wrong.',
  stepsLabel: 'Pasos del robot',
  stepOf: (current: number, total: number) => `Paso ${current} de ${total}`,
  buttons: {
    next: 'Siguiente',
    launch: 'Lanzar tarea',
    back: 'Atrás',
    repeat: 'Repetir',
    showConsole: 'Ver consola',
    hideConsole: 'Ocultar consola',
    schedule: 'Programar',
    instructions: 'Ver instrucciones',
    stop: 'Detener',
    retry: 'Reintentar',
  },
  instructionsTitle: 'Instrucciones',
  instructionsLink: 'Abrir las instrucciones completas',
  cost: {
    estimated: (credits: string) => `Coste estimado: ${credits}`,
    /** Units the robot only knows once it runs (entries of a file...): one unit is the least it costs. */
    atLeast: (credits: string) => `Coste estimado: desde ${credits}`,
    basis: (units: string) => `Calculado sobre ${units}.`,
    unknownUntilUpload: 'El coste estimado aparecerá al subir el archivo.',
    balance: (credits: string) => `Saldo disponible: ${credits}`,
    overBalance: 'El coste estimado supera tu saldo.',
    rows: (rows: number) => `${new Intl.NumberFormat('es-ES').format(rows)} ${rows === 1 ? 'fila' : 'filas'}`,
  },
  inputs: {
    choose: 'Elige una opción',
    uploading: (percent: number) => `Subiendo el archivo… ${percent} %`,
    uploadingLabel: 'Progreso de la subida',
    uploaded: (count: number) => (count === 1 ? 'Archivo subido' : `${count} archivos subidos`),
    uploadFailed: 'No se ha podido subir el archivo. Inténtalo de nuevo.',
    sessionExpired: 'Tu sesión ha caducado. Vuelve a iniciar sesión para subir el archivo.',
    waitForUpload: 'Espera a que termine la subida del archivo.',
    unassigned: 'Sin asignar',
    downloadTemplate: 'Descargar plantilla',
    templateHint: 'con las columnas que espera el robot.',
    mappingWaiting: 'Sube primero el archivo para elegir sus columnas.',
    mappingLoading: 'Leyendo las columnas del archivo…',
    mappingFailed: 'No se han podido leer las columnas del archivo.',
    mappingSheet: (sheet: string, rows: string) => `Hoja «${sheet}»: ${rows} de datos.`,
    certificatesUnavailable: 'Certificados locales no disponibles',
    /** The web app: inputs only the desktop app can fill (a native file dialog, a certificate of this PC). */
    onlyInDesktop: {
      selection: 'Solo se puede elegir desde la aplicación de escritorio de AutoAsesor, en el equipo donde están los archivos.',
      certificate: 'Solo se puede elegir desde la aplicación de escritorio de AutoAsesor, en el equipo que tiene el certificado.',
    },
    /** A SelectionDialog input in the desktop app (the system's own file or folder dialog). */
    selection: {
      choose: (directory: boolean, multiple: boolean) =>
        directory ? (multiple ? 'Elegir carpetas' : 'Elegir carpeta') : multiple ? 'Elegir archivos' : 'Elegir archivo',
      none: (directory: boolean) => (directory ? 'Ninguna carpeta elegida.' : 'Ningún archivo elegido.'),
      chosenLabel: (label: string) => `${label}: elegidos`,
      remove: 'Quitar',
      removeLabel: (path: string) => `Quitar ${path}`,
      /** A desktop flow set to run on another machine: paths of this PC mean nothing there. */
      thisDeviceOnly: 'Solo se puede elegir si el robot se ejecuta en este dispositivo.',
    },
    certificate: {
      choose: 'Elegir certificado',
      change: 'Cambiar certificado',
      loading: 'Buscando certificados…',
      none: 'Ningún certificado elegido.',
      pickerTitle: (label: string) => `Elige ${label.toLocaleLowerCase('es')}`,
      chosen: (name: string, nif: string | null) => (nif ? `${name} · ${nif}` : name),
      onMachine: (machine: string) => `En el dispositivo «${machine}»`,
      /** Web mode: the picker offers the certificates of the firm's shared machines. */
      sharedNote: 'Certificados sincronizados en los dispositivos compartidos de tu asesoría: el robot se ejecutará en el dispositivo del certificado que elijas.',
      /** Spec §8 empty state for shared machines. */
      noShared: 'No hay compartidos en tu entorno de trabajo',
      sharedFailed: 'No se han podido cargar los dispositivos compartidos. Inténtalo de nuevo.',
      unreadable: (problems: string) => `Algunos certificados no se han podido leer: ${problems}`,
      /** A desktop flow: its certificates are the chosen device's. */
      chooseDeviceFirst: 'Elige primero el dispositivo en el que se ejecutará el robot.',
      machineNote: (machine: string) => `Certificados sincronizados en «${machine}»: el robot los usará allí.`,
      /** Spec §8 empty state of a machine's synced certificates. */
      noneOnMachine: 'Este dispositivo no tiene certificados compartidos',
      /** config.embedded: this PC's own certificates only, so the robot has to run here. */
      thisDeviceOnly: 'Este certificado tiene que estar en este dispositivo: elige «Este dispositivo» para que el robot se ejecute aquí.',
      /** Within 30 days of expiry: said in words next to the chosen one, not by colour alone. */
      expiresSoon: (days: number, date: string) =>
        `Atención: este certificado caduca ${days === 0 ? 'hoy' : days === 1 ? 'mañana' : `en ${days} días`} (${date}). Renuévalo antes de que deje de servir.`,
    },
    /** 'Enviar resultado por email' (template EmailResult): the config it goes with and who gets it. */
    emailResult: {
      config: 'Configuración de correo',
      chooseConfig: 'Elige una configuración',
      /** A disabled choice: its label, then why it cannot be used. */
      unusable: (label: string, reason: string) => `${label} · ${reason}`,
      needsRelink: 'La cuenta de correo necesita volver a conectarse',
      notLinked: 'La cuenta de correo no está conectada',
      loading: 'Cargando las configuraciones de correo…',
      failed: 'No se han podido cargar las configuraciones de correo.',
      retry: 'Reintentar',
      noConfigs: 'Aún no tienes ninguna configuración de correo.',
      configure: 'Configurar correo',
      recipients: 'Destinatarios',
      recipientsHelp: (max: number) => `Separa las direcciones con comas, punto y coma o saltos de línea (hasta ${max}).`,
      recipientsList: 'Destinatarios añadidos',
      remove: (address: string) => `Quitar ${address}`,
      invalidAddress: 'dirección no válida',
      tooMany: (max: number) => `Hasta ${max} destinatarios`,
      count: (count: number, max: number) => `${count} de ${max} destinatarios`,
    },
  },
  /** The 'Dispositivo' choice of a desktop flow (spec §6: this PC, or a machine of yours or of your firm). */
  device: {
    label: 'Dispositivo',
    help: 'El equipo en el que se ejecutará el robot.',
    thisDevice: 'Este dispositivo',
    thisDeviceStatus: 'Se ejecuta aquí',
    owner: (name: string) => `De ${name}`,
    connection: { online: 'Conectado', offline: 'Sin conexión', unlinked: 'No conectado' },
    loading: 'Cargando los dispositivos…',
    failed: 'No se han podido cargar los dispositivos.',
    retry: 'Reintentar',
    emptyTitle: 'No tienes ningún dispositivo conectado',
    emptyIntro: 'Este robot se ejecuta en un ordenador con la aplicación de AutoAsesor. Para conectar uno:',
    emptySteps: [
      'Instala la aplicación de escritorio de AutoAsesor, o el agente, en el ordenador de la oficina.',
      'Ábrela con tu cuenta, entra en Mis recursos y pulsa «Conectar este dispositivo».',
      'Si lo va a usar tu despacho, activa «Compartir con mi despacho» en ese dispositivo.',
    ],
    linking: 'Conectando este dispositivo…',
    linkFailed: (reason: string) => `No se ha podido conectar este dispositivo: ${reason}`,
  },
  intrastatTitle: 'Configuración Intrastat',
  running: {
    starting: 'Lanzando el robot…',
    queued: 'El robot está en cola y empezará en breve.',
    running: 'El robot está trabajando.',
    progressLabel: 'Progreso del robot',
    progress: (done: number, total: number) => `${doneOfTotal(done, total)} completadas`,
    stopping: 'Deteniendo el robot…',
    reconnecting: 'Se ha perdido la conexión con el servidor; reintentando…',
    /** A run queued for a machine, until its desktop takes it. */
    waitingFor: (machine: string) => `Esperando a que ${machine} empiece el robot…`,
  },
  consoleTitle: 'Consola',
  consoleEmpty: 'El robot aún no ha escrito nada.',
  output: {
    title: 'Resultado',
    summary: 'Resumen',
    files: 'Archivos generados',
    noFiles: 'Este robot no ha generado archivos.',
    download: (name: string) => `Descargar ${name}`,
    /** A desktop run's files stay in its folder on the PC: their names, and the folder to open. */
    onDevice: 'Los archivos se han guardado en la carpeta de esta ejecución, en el equipo que ha ejecutado el robot.',
    openFolder: 'Abrir carpeta',
    openFolderFailed: 'No se ha podido abrir la carpeta',
    charged: (credits: string) => `Coste: ${credits}`,
    chargedBasis: (units: string, ratio: string) => `${units} × ${ratio}`,
  },
  errors: {
    resultTitle: 'El robot ha terminado con errores en los datos',
    resultText: 'Revisa los datos de entrada: el robot no ha podido procesarlos.',
    timeoutTitle: 'El robot ha superado el tiempo límite',
    timeoutText: 'El robot ha tardado más de lo permitido y se ha detenido. Prueba con menos datos o inténtalo más tarde.',
    defaultTitle: 'El robot no se ha lanzado correctamente',
    inputsTitle: 'Entradas incorrectas',
    sessionTitle: 'Tu sesión ha caducado',
    stoppedTitle: 'Robot detenido',
    stoppedText: 'Has detenido el robot antes de que terminara.',
    abortedTitle: 'Robot interrumpido',
    connection: 'No se ha podido conectar con el servidor. Comprueba tu conexión y pulsa Reintentar.',
    launchFailed: 'No se ha podido lanzar el robot.',
    stopFailed: 'No se ha podido detener el robot.',
  },
  credits: {
    title: (plural: string) => `No tienes suficientes ${plural}`,
    body: (cost: string, balance: string) => `Coste estimado de este robot: ${cost}. Tu saldo: ${balance}.`,
    bodyWithoutFigures: 'Tu saldo no alcanza para lanzar este robot.',
    continueHint: 'Si continúas, lo que supere tu saldo se cobrará como uso adicional de tu plan.',
    /** The same, with the plan's price of the extra: '… uso adicional de tu plan, a 0,03 € por slan.' */
    continueHintPriced: (price: string) => `Si continúas, lo que supere tu saldo se cobrará como uso adicional de tu plan, a ${price}.`,
    continue: 'Continuar',
    plans: 'Ver planes',
    cancel: 'Cancelar',
  },
  scheduler: {
    title: 'Elige fecha y hora',
    submit: 'Programar tarea',
    cancel: 'Cancelar',
    date: 'Fecha',
    hour: 'Hora (0-23)',
    minute: 'Minutos (0-59)',
    repeat: 'Repetir',
    every: 'Cada',
    interval: 'Intervalo',
    intervals: { hours: 'horas', days: 'días', months: 'meses' },
    pastDate: 'Elige una fecha y hora posteriores a este momento',
    summary: (when: string) => `Se lanzará el ${when} (hora de Madrid).`,
    success: (when: string) => `Robot programado para el ${when}`,
  },
  /** A launch status as spec §4 names its outcome (the run log status mapping, plus 242 and 504). */
  statusLabel: (status: number, creditsPlural: string): string => {
    switch (status) {
      case 200: return 'Finalizado';
      case 202: return 'Robot detenido';
      case 242: return 'Entradas incorrectas';
      case 299: return 'Robot interrumpido';
      case 400: return 'Entradas incorrectas';
      case 401: return 'Tu sesión ha caducado';
      case 402: return `Insuficientes ${creditsPlural}`;
      case 500: return 'El robot no se ha lanzado correctamente';
      case 504: return 'Tiempo límite superado';
      default: return 'Error inesperado';
    }
  },
  notification: {
    region: 'Último robot ejecutado',
    title: (flowName: string, label: string) => `${flowName}: ${label}`,
    charged: (credits: string) => `Coste: ${credits}`,
    expand: 'Ver los mensajes del robot',
    collapse: 'Ocultar los mensajes del robot',
    messages: 'Mensajes del robot',
    close: 'Cerrar aviso',
    paused: 'Aviso en pausa: pulsa para que se oculte solo',
    /** Issue 19: a run still going that the launcher no longer shows. */
    runningRegion: 'Robot en curso',
    runningLabel: 'En curso',
    progressLabel: (flowName: string) => `Progreso de ${flowName}`,
    progress: (done: number, total: number) => `${doneOfTotal(done, total)} completadas`,
    noFigures: 'Sin cifras de progreso todavía',
    othersRunning: (count: number) => `y ${figures.format(count)} más en curso`,
  },
} as const;

import { DEFAULT_DOCUMENT_STYLES, templatePlaceholders, type TemplateContent } from '#shared/documents/blocks.ts';
import type { Starter } from '#shared/api/documents.ts';

/**
 * The starter templates an asesoría uses every week (issue 40 §1): the authorisation to act in the
 * Sistema RED for a company, the request of a new worker's data for their alta, and the GDPR information
 * and consent. A firm takes its own copy (POST starters/:key) and edits it; the placeholders are what a
 * form made from it asks.
 */
export interface StarterTemplate {
  key: string;
  name: string;
  description: string;
  content: TemplateContent;
}

const autorizacionRed: StarterTemplate = {
  key: 'autorizacion-red',
  name: 'Autorización RED',
  description: 'Autorización de la empresa para que la asesoría actúe en su nombre en el Sistema RED de la Seguridad Social.',
  content: {
    styles: DEFAULT_DOCUMENT_STYLES,
    blocks: [
      { type: 'heading', level: 1, text: 'Autorización para actuar en el Sistema RED' },
      {
        type: 'paragraph',
        align: 'justify',
        text:
          'D./Dña. [[Representante]], con NIF [[NIF Representante]], en nombre y representación de la empresa [[Razón social]], ' +
          'con CIF [[CIF]], en su condición de representante legal con poderes suficientes para este acto,',
      },
      { type: 'heading', level: 2, text: 'Autoriza' },
      {
        type: 'paragraph',
        align: 'justify',
        text:
          'A [[Autorizado]], como usuario autorizado del Sistema de Remisión Electrónica de Documentos (Sistema RED) de la ' +
          'Tesorería General de la Seguridad Social, para que, en nombre de la empresa, realice los trámites de afiliación, ' +
          'cotización y recaudación, y de comunicación de datos de los trabajadores, respecto de los códigos de cuenta de cotización siguientes:',
      },
      {
        type: 'table',
        header: true,
        rows: [
          ['Razón social', 'CIF', 'Código de cuenta de cotización (CCC)'],
          ['[[Razón social]]', '[[CIF]]', '[[CCC]]'],
        ],
      },
      { type: 'paragraph', align: 'justify', text: 'La presente autorización comprende, en particular:' },
      {
        type: 'list',
        ordered: false,
        items: [
          'Las altas, bajas y variaciones de datos de los trabajadores.',
          'La presentación de las liquidaciones de cuotas y la consulta de los recibos y de la relación nominal de trabajadores.',
          'La recepción de las notificaciones y comunicaciones que la Tesorería General de la Seguridad Social dirija a la empresa por este medio.',
          'La obtención de informes, duplicados y certificados relativos a los códigos de cuenta de cotización indicados.',
        ],
      },
      {
        type: 'paragraph',
        align: 'justify',
        text:
          'La empresa declara conocer que las actuaciones realizadas por el autorizado en el Sistema RED surtirán plenos efectos ' +
          'frente a la Seguridad Social, conforme a la Orden ESS/484/2013, de 26 de marzo, por la que se regula el Sistema de ' +
          'remisión electrónica de documentos en el ámbito de la Seguridad Social. Esta autorización estará vigente hasta su revocación expresa, ' +
          'que deberá comunicarse por escrito al autorizado y a la Tesorería General de la Seguridad Social.',
      },
      { type: 'paragraph', text: 'En [[Localidad]], a [[Fecha]].' },
      { type: 'signature', label: 'Firma del representante legal de [[Razón social]]' },
      { type: 'paragraph', text: '[[SIGNATURE]]' },
    ],
  },
};

const solicitudAlta: StarterTemplate = {
  key: 'solicitud-datos-alta',
  name: 'Solicitud de datos de alta',
  description: 'Los datos del trabajador que la asesoría necesita para tramitar su alta en la Seguridad Social y su contrato.',
  content: {
    styles: DEFAULT_DOCUMENT_STYLES,
    blocks: [
      { type: 'heading', level: 1, text: 'Solicitud de datos para el alta del trabajador' },
      {
        type: 'paragraph',
        align: 'justify',
        text:
          'Para tramitar el alta en la Seguridad Social y preparar el contrato de trabajo, la empresa [[Empresa]] comunica a su ' +
          'asesoría los siguientes datos del trabajador, que este confirma como ciertos:',
      },
      { type: 'heading', level: 2, text: 'Datos personales' },
      {
        type: 'table',
        header: true,
        rows: [
          ['Dato', 'Valor'],
          ['Nombre', '[[Nombre]]'],
          ['Apellidos', '[[Apellidos]]'],
          ['NIF / NIE', '[[NIF]]'],
          ['Número de afiliación a la Seguridad Social (NAF)', '[[NAF]]'],
          ['Fecha de nacimiento', '[[Fecha de nacimiento]]'],
          ['Domicilio', '[[Domicilio]]'],
          ['Cuenta para el abono de la nómina (IBAN)', '[[IBAN]]'],
        ],
      },
      { type: 'heading', level: 2, text: 'Datos del puesto' },
      {
        type: 'table',
        header: true,
        rows: [
          ['Dato', 'Valor'],
          ['Fecha de alta', '[[Fecha de alta]]'],
          ['Puesto de trabajo', '[[Puesto]]'],
        ],
      },
      { type: 'paragraph', text: 'Junto a esta solicitud, el trabajador aporta:' },
      {
        type: 'list',
        ordered: true,
        items: ['Copia de su documento de identidad (NIF o NIE) en vigor.', 'Documento acreditativo del número de afiliación a la Seguridad Social.', 'Certificado de titularidad de la cuenta bancaria indicada.'],
      },
      {
        type: 'paragraph',
        align: 'justify',
        text:
          'El trabajador declara que los datos facilitados son veraces y se compromete a comunicar cualquier variación. Sus datos ' +
          'se tratarán únicamente para la gestión de la relación laboral y de sus obligaciones con la Seguridad Social y la Agencia Tributaria.',
      },
      { type: 'paragraph', text: 'Fecha de la solicitud: [[DATESTAMP]]' },
      { type: 'signature', label: 'Firma del trabajador: [[Nombre]] [[Apellidos]]' },
      { type: 'paragraph', text: '[[SIGNATURE]]' },
    ],
  },
};

const consentimientoRgpd: StarterTemplate = {
  key: 'consentimiento-rgpd',
  name: 'Consentimiento RGPD',
  description: 'Información sobre el tratamiento de datos personales y consentimiento del interesado (RGPD y LOPDGDD).',
  content: {
    styles: { ...DEFAULT_DOCUMENT_STYLES, font: 'serif' },
    blocks: [
      { type: 'heading', level: 1, text: 'Información y consentimiento para el tratamiento de datos personales' },
      {
        type: 'paragraph',
        align: 'justify',
        text:
          'En cumplimiento del Reglamento (UE) 2016/679, General de Protección de Datos (RGPD), y de la Ley Orgánica 3/2018, de 5 de ' +
          'diciembre, de Protección de Datos Personales y garantía de los derechos digitales (LOPDGDD), le informamos de lo siguiente:',
      },
      {
        type: 'table',
        header: false,
        rows: [
          ['Responsable', '[[Responsable]], con CIF [[CIF Responsable]] y domicilio en [[Domicilio Responsable]]. Contacto: [[Email Responsable]].'],
          ['Finalidad', 'Prestar los servicios de asesoramiento laboral, fiscal y contable contratados, y cumplir las obligaciones legales que de ellos se derivan.'],
          ['Legitimación', 'La ejecución del contrato de servicios, el cumplimiento de obligaciones legales y, en su caso, su consentimiento.'],
          ['Destinatarios', 'Las Administraciones Públicas competentes (Agencia Tributaria, Seguridad Social, Servicio Público de Empleo) cuando la ley lo exija. No se harán transferencias internacionales.'],
          ['Conservación', 'Mientras dure la relación contractual y, después, durante los plazos de prescripción de las obligaciones legales.'],
          ['Derechos', 'Acceso, rectificación, supresión, oposición, limitación del tratamiento y portabilidad, dirigiéndose al responsable. Puede reclamar ante la Agencia Española de Protección de Datos (www.aepd.es).'],
        ],
      },
      { type: 'heading', level: 2, text: 'Consentimiento' },
      {
        type: 'paragraph',
        align: 'justify',
        text:
          'D./Dña. [[Nombre]], con NIF [[NIF]], declara haber sido informado/a del tratamiento de sus datos personales en los términos ' +
          'anteriores y consiente dicho tratamiento para las finalidades indicadas.',
      },
      {
        type: 'paragraph',
        align: 'justify',
        text:
          '[[IF Comunicaciones comerciales]]Asimismo, consiente expresamente recibir comunicaciones comerciales de [[Responsable]] sobre ' +
          'novedades normativas y servicios de la asesoría por correo electrónico, consentimiento que podrá retirar en cualquier momento.[[/IF]]',
      },
      { type: 'paragraph', text: 'En [[Localidad]], a [[DATESTAMP]].' },
      { type: 'signature', label: 'Firma del interesado: [[Nombre]]' },
      { type: 'paragraph', text: '[[SIGNATURE]]' },
    ],
  },
};

export const STARTER_TEMPLATES: readonly StarterTemplate[] = [autorizacionRed, solicitudAlta, consentimientoRgpd];

export const starterByKey = (key: string): StarterTemplate | undefined => STARTER_TEMPLATES.find((starter) => starter.key === key);

export const starterSummaries = (): Starter[] =>
  STARTER_TEMPLATES.map((starter) => ({ key: starter.key, name: starter.name, description: starter.description, placeholders: templatePlaceholders(starter.content) }));

export { isTruthyTemplateValue, renderDocumentTemplate } from './template.ts';
export type { TemplateValues } from './template.ts';

import { describe, expect, it } from 'vitest';
import { isAllowedExternalUrl, isAllowedPermission } from './security.ts';

const server = 'https://app.autoasesor.es';

describe('isAllowedExternalUrl', () => {
  it.each([
    'https://app.autoasesor.es/ayuda',
    'https://www.autoasesor.es/',
    'https://portal.seg-social.gob.es/',
    'https://sede.agenciatributaria.gob.es/Sede/inicio.html',
    'https://www.google.com/calendar/event?eid=abc',
    'https://outlook.office.com/calendar/item/1',
    'mailto:soporte@autoasesor.es',
    'mailto:soporte@autoasesor.es?subject=Ayuda',
  ])('opens %s', (url) => expect(isAllowedExternalUrl(url, server)).toBe(true));

  it.each([
    'https://phishing.example/',
    'https://autoasesor.es.evil.example/',
    'https://evilautoasesor.es/',
    'https://app.autoasesor.es@evil.example/',
    'http://www.seg-social.es/',
    'file:///C:/Windows/System32/calc.exe',
    'smb://server/share',
    'ms-msdt:/id PCWDiagnostic',
    'javascript:alert(1)',
    'mailto:',
    'mailto:a@b@c',
    'no es una url',
  ])('refuses %s', (url) => expect(isAllowedExternalUrl(url, server)).toBe(false));
});

describe('isAllowedPermission', () => {
  it('grants only clipboard writes, only to our server', () => {
    expect(isAllowedPermission('clipboard-sanitized-write', 'https://app.autoasesor.es/flows', server)).toBe(true);
    expect(isAllowedPermission('clipboard-sanitized-write', 'https://evil.example/', server)).toBe(false);
    expect(isAllowedPermission('clipboard-sanitized-write', undefined, server)).toBe(false);
    expect(isAllowedPermission('media', 'https://app.autoasesor.es/', server)).toBe(false);
    expect(isAllowedPermission('notifications', 'https://app.autoasesor.es/', server)).toBe(false);
  });
});

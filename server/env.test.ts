import { describe, expect, it } from 'vitest';
import { configFromEnv, parseTrustProxy } from './env.ts';

describe('configFromEnv', () => {
  it('defaults to SQLite in ./data on 127.0.0.1:8081', () => {
    const { server, listen, dataDir } = configFromEnv({});
    expect(listen).toEqual({ port: 8081, host: '127.0.0.1' });
    expect(dataDir).toBe('./data');
    expect(server.database).toEqual({ kind: 'sqlite', file: 'data/autoasesor.sqlite' });
    expect(server).toMatchObject({ publicUrl: 'http://localhost:8081', cookieSecure: false, allowedOrigins: [] });
    expect(server.smtp).toBeUndefined();
  });

  it('switches to Postgres with DATABASE_URL and reads the rest', () => {
    const { server, listen, dataDir } = configFromEnv({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db/autoasesor',
      SMTP_URL: 'smtp://mail:25',
      PUBLIC_URL: 'https://asesoria.example',
      ALLOWED_ORIGINS: 'http://localhost:5173, https://otra.example',
    });
    expect(listen).toEqual({ port: 9000, host: '0.0.0.0' });
    expect(dataDir).toBeNull();
    expect(server.database).toEqual({ kind: 'postgres', url: 'postgres://u:p@db/autoasesor' });
    expect(server.smtp).toEqual({ url: 'smtp://mail:25', from: 'AutoAsesor <no-reply@autoasesor.es>' });
    expect(server.cookieSecure).toBe(true);
    expect(server.allowedOrigins).toEqual(['http://localhost:5173', 'https://otra.example']);
  });

  it('lets COOKIE_SECURE override and rejects a bad PORT', () => {
    expect(configFromEnv({ PUBLIC_URL: 'https://a.example', COOKIE_SECURE: '0' }).server.cookieSecure).toBe(false);
    expect(configFromEnv({ COOKIE_SECURE: '1' }).server.cookieSecure).toBe(true);
    expect(() => configFromEnv({ PORT: 'ochenta' })).toThrow('PORT no válido');
  });

  it('trusts X-Forwarded-For only from the configured proxies or hop count', () => {
    expect(configFromEnv({}).server.trustProxy).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy(' 127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8,loopback')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
    // The old meaning of "true" (trust anyone) is refused with a clear message, as are typos.
    expect(() => parseTrustProxy('true')).toThrow('TRUST_PROXY no válido: "true" confiaría en cualquier cliente');
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow('TRUST_PROXY no válido: 10.0.0.0/33 no es una IP ni una red CIDR');
    expect(() => parseTrustProxy('proxy.local')).toThrow('no es una IP ni una red CIDR');
    expect(() => parseTrustProxy('99')).toThrow('saltos son demasiados');
    expect(() => configFromEnv({ TRUST_PROXY: '1.2.3' })).toThrow('TRUST_PROXY no válido');
  });

  it('reads LOG_LEVEL and LOG_FILE', () => {
    expect(configFromEnv({}).server.logLevel).toBe('info');
    expect(configFromEnv({}).logFile).toBeNull();
    const config = configFromEnv({ LOG_LEVEL: 'WARN', LOG_FILE: '/var/log/autoasesor/server.log' });
    expect(config.server.logLevel).toBe('warn');
    expect(config.logFile).toBe('/var/log/autoasesor/server.log');
    expect(() => configFromEnv({ LOG_LEVEL: 'verbose' })).toThrow('LOG_LEVEL no válido: verbose');
  });

  it('reads STORAGE_DIR (beside the database by default) and RUN_CONCURRENCY', () => {
    expect(configFromEnv({}).server.storageDir).toBe('data/storage');
    expect(configFromEnv({ DATA_DIR: '/srv/aa' }).server.storageDir).toBe('/srv/aa/storage');
    expect(configFromEnv({ STORAGE_DIR: '/mnt/compartido' }).server.storageDir).toBe('/mnt/compartido');
    expect(configFromEnv({}).server.runs).toEqual({ concurrency: 2 });
    expect(configFromEnv({ RUN_CONCURRENCY: '4' }).server.runs).toEqual({ concurrency: 4 });
    expect(() => configFromEnv({ RUN_CONCURRENCY: '0' })).toThrow('RUN_CONCURRENCY no válido: 0');
    expect(() => configFromEnv({ RUN_CONCURRENCY: 'muchos' })).toThrow('RUN_CONCURRENCY no válido');
    expect(configFromEnv({ RUN_FIRM_CONCURRENCY: '3', RUN_FIRM_QUEUE: '50' }).server.runs).toEqual({ concurrency: 2, runningPerFirm: 3, queuedPerFirm: 50 });
    expect(() => configFromEnv({ RUN_FIRM_CONCURRENCY: '0' })).toThrow('RUN_FIRM_CONCURRENCY no válido: 0');
    expect(() => configFromEnv({ RUN_FIRM_QUEUE: '1e3' })).toThrow('RUN_FIRM_QUEUE no válido: 1e3');
  });

  it('reads SIGNUPS_PER_IP_HOUR as a whole number, 50 by default', () => {
    expect(configFromEnv({}).server.signupsPerIpHour).toBe(50);
    expect(configFromEnv({ SIGNUPS_PER_IP_HOUR: '500' }).server.signupsPerIpHour).toBe(500);
    expect(() => configFromEnv({ SIGNUPS_PER_IP_HOUR: '0' })).toThrow('SIGNUPS_PER_IP_HOUR no válido: 0');
    expect(() => configFromEnv({ SIGNUPS_PER_IP_HOUR: 'sin límite' })).toThrow('SIGNUPS_PER_IP_HOUR no válido');
  });

  it('reads FILE_RETENTION_DAYS strictly: whole days above 0, 30 by default; anything else stops the server naming it', () => {
    expect(configFromEnv({}).server.fileRetention).toEqual({ days: 30 });
    expect(configFromEnv({ FILE_RETENTION_DAYS: '7' }).server.fileRetention).toEqual({ days: 7 });
    expect(configFromEnv({ FILE_RETENTION_DAYS: ' 90 ' }).server.fileRetention).toEqual({ days: 90 });
    for (const bad of ['0', '-1', '1.5', '30d', '1e2', 'treinta', '0x1e', '36501']) {
      expect(() => configFromEnv({ FILE_RETENTION_DAYS: bad }), bad).toThrow(`FILE_RETENTION_DAYS no válido: ${bad} (un número entero entre 1 y 36.500)`);
    }
  });

  it('reads RUN_LEASE_MS, the lease of a run on a server process or a machine', () => {
    expect(configFromEnv({ RUN_LEASE_MS: '3000' }).server.runs).toEqual({ concurrency: 2, leaseMs: 3_000 });
    expect(() => configFromEnv({ RUN_LEASE_MS: '500' })).toThrow('RUN_LEASE_MS no válido: 500');
    expect(() => configFromEnv({ RUN_LEASE_MS: '1 min' })).toThrow('RUN_LEASE_MS no válido');
  });
});

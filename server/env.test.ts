import { describe, expect, it } from 'vitest';
import { configFromEnv } from './env.ts';

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
});

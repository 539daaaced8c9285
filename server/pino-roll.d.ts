// pino-roll ships no types; this covers the part server/log-file.ts uses.
declare module 'pino-roll' {
  interface RollStream {
    write(line: string): boolean;
    end(): void;
    once(event: 'close' | 'error', listener: (...args: unknown[]) => void): void;
  }
  interface RollOptions {
    file: string;
    size?: string | number;
    frequency?: 'daily' | 'hourly' | number;
    extension?: string;
    mkdir?: boolean;
    symlink?: boolean;
    limit?: { count: number; removeOtherLogFiles?: boolean };
  }
  export default function pinoRoll(options: RollOptions): Promise<RollStream>;
}

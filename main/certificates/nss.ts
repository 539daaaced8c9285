/**
 * The Linux certificate store: the NSS database Chrome and Chromium use (~/.pki/nssdb; Firefox keeps one
 * per profile). A certificate is the user's when NSS holds a private key with the same CKA_ID (what
 * certutil shows as the 'u' trust flag).
 *
 * Fast way (the usual one): an 'sql:' database is two SQLite files, and the facts needed here are stored
 * in the clear: cert9.db's nssPublic rows (CKA_CLASS a0, CKA_LABEL a3 = the nickname, CKA_VALUE a11 = the
 * DER, CKA_ID a102) and key4.db's nssPrivate rows (class and CKA_ID; the key itself is encrypted and is
 * never read). Both are opened read-only: ~30 ms for 200 certificates, without a password even when the
 * database has one, and without NSS's tools installed.
 *
 * Fallback (a legacy 'dbm:' database, a layout this code does not know, or SQLite not loadable): NSS's own
 * certutil (package libnss3-tools). `certutil -L` lists nicknames with trust flags, but it prints a PEM
 * only for a named certificate, and one process per certificate costs ~8 ms each (1.6 s for 200); so the
 * user nicknames are asked for in two certutil processes in batch mode (`-B -i`, one command per line):
 * one for their full listings (each certificate's 'Fingerprint (SHA-256)' and 'User' trust lines), one
 * for their PEMs. A nickname finds every certificate with its subject, keyless copies included, so the
 * fingerprints decide which PEMs hold a key.
 */
import { spawn } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import { CertificateReadError, describeClientCertificate, type StoreListing } from './x509.ts';

export interface NssStoreOptions {
  /** The database, as certutil takes it: 'sql:/home/ana/.pki/nssdb' (a bare folder is read as sql:). */
  database: string;
  /** The certutil program (a path in tests); 'certutil' from PATH by default. */
  certutil?: string;
  /** 'certutil' skips the direct SQLite read (tests of the fallback). */
  via?: 'auto' | 'certutil';
  timeoutMs?: number;
}

/** A certificate NSS holds a key for, and the nickname it goes by. */
interface UserCertificate {
  der: Uint8Array;
  nickname: string;
}

const STORE_NAME = 'Almacén NSS';
/** certutil writes a nickname with ':' in it (a representative's '(R: B...)') after its token's name. */
const INTERNAL_TOKEN_PREFIX = 'NSS Certificate DB:';

/** What one certificate's bytes gave, kept by fingerprint (where it lives is added on each listing). */
type Reading = { kind: 'usable'; certificate: LocalCertificate } | { kind: 'not-for-client-authentication' } | { kind: 'unreadable'; message: string };

/**
 * The NSS store of one database. Describing a certificate is the costly part of a listing (~1.5 ms
 * each), so what each one gave is kept by its fingerprint from one listing to the next (and only for
 * the certificates still there): listing 200 again costs the database read alone.
 */
export class NssStore {
  private readings = new Map<string, Reading>();

  constructor(private readonly options: NssStoreOptions) {}

  async list(): Promise<StoreListing> {
    const found = await findUserCertificates(this.options);
    if (!Array.isArray(found)) return { certificates: [], problems: [{ code: 'STORE_UNAVAILABLE', store: 'nss', source: STORE_NAME, message: found.unavailable }] };

    const listing: StoreListing = { certificates: [], problems: [] };
    const readings = new Map<string, Reading>();
    for (const { der, nickname } of found) {
      const fingerprint = sha256(der);
      const reading = readings.get(fingerprint) ?? this.readings.get(fingerprint) ?? read(der);
      readings.set(fingerprint, reading);
      if (reading.kind === 'usable') listing.certificates.push({ ...reading.certificate, location: nickname });
      else if (reading.kind === 'unreadable') listing.problems.push({ code: 'UNREADABLE', store: 'nss', source: nickname, message: reading.message });
    }
    this.readings = readings;
    return listing;
  }
}

/** One listing with nothing kept (tests, scripts). */
export function listNssCertificates(options: NssStoreOptions): Promise<StoreListing> {
  return new NssStore(options).list();
}

async function findUserCertificates(options: NssStoreOptions): Promise<UserCertificate[] | { unavailable: string }> {
  const { kind, folder } = databaseLocation(options.database);
  if (folder !== null && !(await isFolder(folder))) {
    return { unavailable: `No hay almacén de certificados NSS en ${folder} (Chrome o Firefox lo crean la primera vez que se usan).` };
  }
  if (kind === 'sql' && folder !== null && options.via !== 'certutil') {
    const found = await readSqlDatabase(folder);
    if (found !== null) return found;
  }
  const outcome = await readWithCertutil(options);
  if (outcome.kind === 'missing') {
    return { unavailable: 'No se encuentra certutil: instala el paquete libnss3-tools para leer los certificados de Chrome y Firefox en Linux.' };
  }
  if (outcome.kind === 'failed') return { unavailable: `No se puede leer el almacén NSS ${options.database}: ${firstLine(outcome.stderr)}` };
  return outcome.certificates;
}

function read(der: Uint8Array): Reading {
  try {
    const certificate = describeClientCertificate(der, 'nss', '');
    return certificate ? { kind: 'usable', certificate } : { kind: 'not-for-client-authentication' };
  } catch (error) {
    if (!(error instanceof CertificateReadError)) throw error;
    return { kind: 'unreadable', message: error.message };
  }
}

// ---------------------------------------------------------------------------------------------------
// The direct read of an sql: database

const CKO_CERTIFICATE = 1;
const CKO_PRIVATE_KEY = 3;
/** How NSS's sqlite layer writes an attribute that is present but empty. */
const EXPLICIT_NULL = Buffer.from([0xa5, 0x00, 0x5a]);

interface PublicRow {
  a0: unknown;
  a3: unknown;
  a11: unknown;
  a102: unknown;
}

/** The user certificates of an sql: database; null when it cannot be read this way (then certutil is asked). */
async function readSqlDatabase(folder: string): Promise<UserCertificate[] | null> {
  // Loaded here, not at the top: if the native module cannot load (an Electron build without it), certutil still can.
  let Database: typeof BetterSqlite3;
  try {
    Database = (await import('better-sqlite3')).default;
  } catch {
    return null;
  }
  const open = (file: string) => new Database(join(folder, file), { readonly: true, fileMustExist: true, timeout: 2000 });
  let certificates: PublicRow[];
  const keyIds = new Set<string>();
  try {
    const certificateDb = open('cert9.db');
    try {
      certificates = certificateDb.prepare('select a0, a3, a11, a102 from nssPublic').all() as PublicRow[];
    } finally {
      certificateDb.close();
    }
    let keyDb: BetterSqlite3.Database | null = null;
    try {
      keyDb = open('key4.db');
    } catch {
      return []; // no key database: no key, so no certificate of the user's
    }
    try {
      for (const row of keyDb.prepare('select a0, a102 from nssPrivate').all() as Array<Pick<PublicRow, 'a0' | 'a102'>>) {
        if (classOf(row.a0) === CKO_PRIVATE_KEY && isValue(row.a102)) keyIds.add(row.a102.toString('hex'));
      }
    } finally {
      keyDb.close();
    }
  } catch {
    return null;
  }
  const found: UserCertificate[] = [];
  for (const row of certificates) {
    if (classOf(row.a0) !== CKO_CERTIFICATE || !isValue(row.a11) || !isValue(row.a102) || !keyIds.has(row.a102.toString('hex'))) continue;
    found.push({ der: new Uint8Array(row.a11), nickname: isValue(row.a3) ? row.a3.toString('utf8') : '' });
  }
  return found;
}

/** CK_ULONG attributes are stored as 4 bytes, most significant first. */
function classOf(value: unknown): number | null {
  return Buffer.isBuffer(value) && value.length === 4 ? value.readUInt32BE(0) : null;
}

function isValue(value: unknown): value is Buffer {
  return Buffer.isBuffer(value) && value.length > 0 && !value.equals(EXPLICIT_NULL);
}

// ---------------------------------------------------------------------------------------------------
// The certutil fallback

interface ListedCertificate {
  nickname: string;
  /** SSL,S/MIME,JAR/XPI trust flags, e.g. 'u,u,u' or 'CT,C,C'. */
  trust: string;
}

type RunOutcome = { kind: 'ok'; stdout: string } | { kind: 'failed'; stderr: string } | { kind: 'missing' };
type CertutilReading = { kind: 'ok'; certificates: UserCertificate[] } | { kind: 'failed'; stderr: string } | { kind: 'missing' };

async function readWithCertutil(options: NssStoreOptions): Promise<CertutilReading> {
  const run = (args: string[]) => runCertutil(options, args);
  const listing = await run(['-L']);
  if (listing.kind !== 'ok') return listing;
  const nicknames = [...new Set(parseListing(listing.stdout).filter((entry) => entry.trust.includes('u')).map((entry) => entry.nickname))];
  if (nicknames.length === 0) return { kind: 'ok', certificates: [] };

  // Two batches, because certutil's full listing and its PEMs reach stdout through different buffers
  // and come out of one batch in no reliable order.
  const [details, pems] = await Promise.all([askEach(run, nicknames, []), askEach(run, nicknames, ['-a'])]);
  const userFingerprints = new Set<string>();
  for (const output of [details.batched ?? '', ...details.single.values()]) for (const fingerprint of userFingerprintsIn(output)) userFingerprints.add(fingerprint);

  const bySegment = pems.batched === null ? [] : segmentPems(pemBlocks(pems.batched), pems.batchedNicknames);
  const answers = [...bySegment, ...[...pems.single].map(([nickname, output]) => ({ nickname, pems: pemBlocks(output) }))];
  const seen = new Set<string>();
  const certificates: UserCertificate[] = [];
  for (const answer of answers) {
    for (const der of answer.pems) {
      const fingerprint = sha256(der);
      if (!userFingerprints.has(fingerprint) || seen.has(fingerprint)) continue;
      seen.add(fingerprint);
      const nickname = answer.nickname.startsWith(INTERNAL_TOKEN_PREFIX) ? answer.nickname.slice(INTERNAL_TOKEN_PREFIX.length) : answer.nickname;
      certificates.push({ der, nickname });
    }
  }
  return { kind: 'ok', certificates };
}

interface Answers {
  /** The output of one batch for `batchedNicknames`, in order; null when there was no batch or it failed. */
  batched: string | null;
  batchedNicknames: string[];
  /** Nicknames asked one by one: with a double quote (it cannot be written in a batch line) or after a failed batch. */
  single: Map<string, string>;
}

/** `certutil -L -n NICK ...extra` for every nickname: one batch process, one by one only when it must. */
async function askEach(run: (args: string[]) => Promise<RunOutcome>, nicknames: string[], extra: string[]): Promise<Answers> {
  const batchedNicknames = nicknames.filter((nickname) => !/["\r\n]/.test(nickname));
  const lines = batchedNicknames.map((nickname) => `-L -n "${nickname}" ${extra.join(' ')}\n`).join('');
  const batch = batchedNicknames.length > 0 ? await runBatch(run, lines) : null;
  // certutil stops a batch at its first failing line (a certificate removed since the listing).
  const batched = batch?.kind === 'ok' ? batch.stdout : null;
  const single = new Map<string, string>();
  for (const nickname of nicknames) {
    if (batched !== null && batchedNicknames.includes(nickname)) continue;
    const outcome = await run(['-L', '-n', nickname, ...extra]);
    if (outcome.kind === 'ok') single.set(nickname, outcome.stdout);
  }
  return { batched, batchedNicknames: batched === null ? [] : batchedNicknames, single };
}

/** certutil needs the batch in a file it can open: /dev/stdin is a socket under Node, which it cannot. */
async function runBatch(run: (args: string[]) => Promise<RunOutcome>, lines: string): Promise<RunOutcome> {
  const folder = await mkdtemp(join(tmpdir(), 'autoasesor-certutil-'));
  try {
    const file = join(folder, 'batch.txt');
    await writeFile(file, lines, { mode: 0o600 });
    return await run(['-B', '-i', file]);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** SHA-256 (lowercase hex) of every certificate a full listing marks 'User' (NSS holds its key). */
export function userFingerprintsIn(output: string): string[] {
  const fingerprints: string[] = [];
  for (const block of output.split(/^Certificate:[ \t]*$/m).slice(1)) {
    const fingerprint = /Fingerprint \(SHA-256\):[ \t]*\n((?:[ \t]+[0-9A-F:]+[ \t]*(?:\n|$))+)/.exec(block)?.[1];
    const trust = block.split('Certificate Trust Flags:')[1] ?? '';
    if (fingerprint && /^\s+User\s*$/m.test(trust)) fingerprints.push(fingerprint.replace(/[\s:]/g, '').toLowerCase());
  }
  return fingerprints;
}

/**
 * Which PEMs of a batch came from which nickname. `-L -n NICK -a` prints every certificate with NICK's
 * subject, each once; so a command's output ends where the subject changes or a certificate repeats.
 */
export function segmentPems(pems: Uint8Array[], nicknames: string[]): Array<{ nickname: string; pems: Uint8Array[] }> {
  const segments: Array<{ nickname: string; pems: Uint8Array[] }> = [];
  let subject: string | null = null;
  let fingerprints = new Set<string>();
  for (const der of pems) {
    const thisSubject = subjectOf(der);
    const fingerprint = sha256(der);
    if (segments.length === 0 || thisSubject !== subject || fingerprints.has(fingerprint)) {
      const nickname = nicknames[segments.length];
      if (nickname === undefined) break; // more output than commands: leave the rest rather than guess
      segments.push({ nickname, pems: [] });
      subject = thisSubject;
      fingerprints = new Set();
    }
    fingerprints.add(fingerprint);
    segments.at(-1)?.pems.push(der);
  }
  return segments;
}

function subjectOf(der: Uint8Array): string {
  try {
    return new X509Certificate(der).subject;
  } catch {
    return sha256(der);
  }
}

/** The DER of every PEM certificate block in a text, in order. */
export function pemBlocks(text: string): Uint8Array[] {
  return [...text.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map(
    (match) => new Uint8Array(Buffer.from((match[1] as string).replace(/\s+/g, ''), 'base64')),
  );
}

/**
 * certutil's listing: a header, a blank line, then '<nickname><spaces><trust>'. Nicknames may hold spaces
 * and commas; the trust flags are the last word, always three comma-separated groups (maybe empty).
 */
export function parseListing(output: string): ListedCertificate[] {
  const entries: ListedCertificate[] = [];
  for (const line of output.split('\n')) {
    const match = /^(\S.*?)\s+([A-Za-z]*,[A-Za-z]*,[A-Za-z]*)\s*$/.exec(line);
    if (!match || line.startsWith('Certificate Nickname')) continue;
    entries.push({ nickname: match[1] as string, trust: match[2] as string });
  }
  return entries;
}

function runCertutil(options: NssStoreOptions, args: string[]): Promise<RunOutcome> {
  return new Promise((resolve) => {
    // No stdin: certutil must never sit waiting for a password on a terminal.
    const child = spawn(options.certutil ?? 'certutil', [...args, '-d', options.database], { stdio: ['ignore', 'pipe', 'pipe'], timeout: options.timeoutMs ?? 15_000 });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ENOENT' ? { kind: 'missing' } : { kind: 'failed', stderr: error.message }));
    child.on('close', (code, signal) => {
      if (code === 0) resolve({ kind: 'ok', stdout: Buffer.concat(stdout).toString('utf8') });
      else resolve({ kind: 'failed', stderr: signal ? `certutil no ha respondido a tiempo (${signal})` : Buffer.concat(stderr).toString('utf8') });
    });
  });
}

// ---------------------------------------------------------------------------------------------------

/** 'sql:/path' -> sql; '/path' -> sql (NSS's default since 3.35); 'dbm:/path' and others -> left to certutil. */
function databaseLocation(database: string): { kind: 'sql' | 'other'; folder: string | null } {
  if (database.startsWith('sql:')) return { kind: 'sql', folder: database.slice(4) };
  if (/^[a-z]+:/i.test(database)) return { kind: 'other', folder: null };
  return { kind: 'sql', folder: database };
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) || 'certutil ha fallado';
}

function sha256(der: Uint8Array): string {
  return createHash('sha256').update(der).digest('hex');
}

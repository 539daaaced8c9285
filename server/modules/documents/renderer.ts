import { fork, type ChildProcess } from 'node:child_process';
import { formatBytes } from '#shared/files/size.ts';
import { childCommand } from '../../child-command.ts';
import type { RenderJob, RenderMessage } from './render-protocol.ts';

export interface DocumentRendererOptions {
  /** One document's whole render (both files); past it the process is killed. */
  timeLimitMs: number;
  /** V8 heap of each rendering process. */
  memoryMb: number;
  /** A process left without work this long ends (its memory goes back). */
  idleMs: number;
  /** Documents one process renders before a fresh one takes over (what a long life could leak stays bounded). */
  jobsPerProcess: number;
}

export const DEFAULT_RENDERER_OPTIONS: DocumentRendererOptions = { timeLimitMs: 60_000, memoryMb: 512, idleMs: 60_000, jobsPerProcess: 200 };

/** Why a document could not be made (the reason is Spanish: it is the document's error). */
export class RenderFailure extends Error {}

export interface RenderedFiles {
  pdf: Uint8Array;
  docx: Uint8Array;
}

const STDERR_TAIL_CHARS = 4_096;

/** How the rendering process starts (dist/server/document-render-child.js compiled; see childCommand). */
export function documentRenderCommand(memoryMb: number, from = import.meta.url, bundles?: string): { entry: string; execArgv: string[] } {
  return childCommand('document-render-child', memoryMb, from, bundles);
}

/** One rendering process and what it is doing. */
interface Worker {
  child: ChildProcess;
  jobs: number;
  stderrTail: string;
  /** The job under way: how it ends. */
  current: { jobId: number; settle: (outcome: { files: RenderedFiles } | { error: Error }) => void } | null;
  idleTimer: NodeJS.Timeout | null;
  /** Settles once the process has loaded its libraries and warmed up (or is gone). */
  ready: Promise<void>;
  markReady: () => void;
}

/**
 * Renders documents in child processes with a heap and a time limit, off the server's event loop. A
 * process stays for the next document once it has answered (starting one and loading pdfkit and docx
 * costs more than a page), and ends after `idleMs` without work or `jobsPerProcess` documents; a render
 * past its time, a crash or a heap overflow ends that process only and rejects that render. The caller
 * limits how many render at once: at most that many processes live.
 */
export class DocumentRenderer {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private nextJobId = 1;
  private stopped = false;

  constructor(
    readonly options: DocumentRendererOptions = DEFAULT_RENDERER_OPTIONS,
    private readonly command: (memoryMb: number) => { entry: string; execArgv: string[] } = documentRenderCommand,
  ) {}

  render(job: Omit<RenderJob, 'type' | 'jobId'>): Promise<RenderedFiles> {
    if (this.stopped) return Promise.reject(new RenderFailure('El servidor se está cerrando'));
    const worker = this.take();
    const jobId = this.nextJobId++;
    const { timeLimitMs } = this.options;
    return new Promise<RenderedFiles>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.end(worker);
        settle({ error: new RenderFailure(`Generar el documento lleva más de ${Math.ceil(timeLimitMs / 1000)} s, el máximo. Revisa que la plantilla no sea demasiado grande.`) });
      }, timeLimitMs);
      const settle = (outcome: { files: RenderedFiles } | { error: Error }) => {
        if (worker.current?.jobId !== jobId) return;
        worker.current = null;
        clearTimeout(timer);
        // A process that answered (a document, or why it could not make it) takes the next; a dead one is gone already.
        this.release(worker);
        if ('files' in outcome) resolve(outcome.files);
        else reject(outcome.error);
      };
      worker.current = { jobId, settle };
      worker.jobs += 1;
      worker.child.send({ type: 'render', jobId, ...job } satisfies RenderJob, (error) => {
        if (!error) return;
        this.end(worker);
        settle({ error: new RenderFailure(`No se ha podido generar el documento: ${error.message}`) });
      });
    });
  }

  /** Ends every rendering process (the server is closing): renders under way reject. */
  stopAll(): void {
    this.stopped = true;
    for (const worker of [...this.all]) this.end(worker);
  }

  /**
   * Starts a process ahead of need (someone opened the document creator): it loads the libraries and
   * warms up while they fill in the values, then waits `idleMs` for a document. Resolves once it is ready.
   */
  warmUp(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.idle[0]) return this.idle[0].ready;
    if (this.all.size > 0) return Promise.resolve();
    const worker = this.spawn(true);
    this.release(worker);
    return worker.ready;
  }

  /** Processes alive (tests). */
  get processes(): number {
    return this.all.size;
  }

  private take(): Worker {
    const worker = this.idle.pop();
    if (worker) {
      if (worker.idleTimer) clearTimeout(worker.idleTimer);
      worker.idleTimer = null;
      return worker;
    }
    return this.spawn();
  }

  private release(worker: Worker): void {
    if (this.stopped || worker.jobs >= this.options.jobsPerProcess || !this.all.has(worker)) return this.end(worker);
    worker.idleTimer = setTimeout(() => this.end(worker), this.options.idleMs);
    worker.idleTimer.unref();
    this.idle.push(worker);
  }

  private end(worker: Worker): void {
    this.all.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    if (worker.idleTimer) clearTimeout(worker.idleTimer);
    const { child } = worker;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private spawn(warmUp = false): Worker {
    const { memoryMb } = this.options;
    const { entry, execArgv } = this.command(memoryMb);
    const child = fork(entry, warmUp ? ['--warm-up'] : [], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' });
    let markReady = () => undefined as void;
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const worker: Worker = { child, jobs: 0, stderrTail: '', current: null, idleTimer: null, ready, markReady };
    this.all.add(worker);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (worker.stderrTail = (worker.stderrTail + chunk).slice(-STDERR_TAIL_CHARS)));
    child.on('message', (message: RenderMessage) => {
      if (message.type === 'ready') return worker.markReady();
      if (worker.current?.jobId !== message.jobId) return;
      if (message.type === 'done') worker.current.settle({ files: { pdf: new Uint8Array(message.pdf), docx: new Uint8Array(message.docx) } });
      else worker.current.settle({ error: new RenderFailure(message.reason) });
    });
    // Kept for the child's whole life: an 'error' event without a listener would throw in the server.
    child.on('error', (error) => {
      if (child.pid !== undefined) return;
      this.end(worker);
      worker.current?.settle({ error: new RenderFailure(`No se ha podido generar el documento: ${error.message}`) });
    });
    child.once('close', (code, signal) => {
      this.end(worker);
      worker.markReady();
      const outOfMemory = /heap out of memory|Reached heap limit|Allocation failed/i.test(worker.stderrTail);
      worker.current?.settle({
        error: new RenderFailure(
          outOfMemory
            ? `Generar el documento necesita más de ${formatBytes(memoryMb * 1_000_000)} de memoria, el máximo. Reduce las imágenes o el tamaño de la plantilla.`
            : `No se ha podido generar el documento (${signal ?? `código ${code}`})`,
        ),
      });
    });
    return worker;
  }
}

// A small worker_threads pool. Reading a PDF is CPU-bound JavaScript/WASM that would block the
// service's event loop, so it runs here. A worker that crashes, runs out of memory or hangs only
// fails its own task: it is replaced and the pool keeps serving.
import { Worker, type TransferListItem } from 'node:worker_threads';
import { DocumentError } from '../types.js';

/** What a pool worker posts back for one task. */
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; message: string; document: boolean };

interface Task {
  id: number;
  request: unknown;
  transfer: TransferListItem[];
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  timer: NodeJS.Timeout | null;
  /** This worker runs the pool's `oneWorker` tasks. */
  holder: boolean;
}

export interface WorkerPoolOptions {
  size: number;
  /** A task running longer fails and its worker is replaced (a PDF that sends pdf.js into a loop). */
  taskTimeoutMs: number;
  /** Heap cap per worker, so one hostile file cannot take the whole process down. */
  maxHeapMb: number;
  /** A worker idle this long is ended, giving back its memory (OCR models); the next task starts one. */
  idleMs?: number;
  /**
   * Tasks for which this is true all run on one worker (another takes over if it ends): for work
   * whose memory a worker keeps, such as a WASM heap that never shrinks, so that only one worker
   * holds it. Other tasks prefer the other workers.
   */
  oneWorker?: (request: unknown) => boolean;
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly script: URL,
    private readonly options: WorkerPoolOptions,
  ) {}

  /** Workers alive now (busy or idle). */
  get workers(): number {
    return this.slots.length;
  }

  run<T>(request: unknown, transfer: TransferListItem[] = []): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the document reader is closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, request, transfer, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('the document reader is closed'));
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.task?.reject(new Error('the document reader is closed'));
      slot.task = null;
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    // In queue order, each task to a worker that may run it now; a task that must wait for the
    // one-worker does not hold up the tasks behind it.
    for (let i = 0; i < this.queue.length; ) {
      const slot = this.slotFor(this.queue[i]);
      if (!slot) {
        i++;
        continue;
      }
      const [task] = this.queue.splice(i, 1);
      if (slot.timer) clearTimeout(slot.timer); // its idle timer
      slot.task = task;
      slot.worker.ref();
      slot.timer = setTimeout(() => this.fail(slot, new DocumentError('reading the document took too long')), this.options.taskTimeoutMs);
      slot.worker.postMessage({ id: task.id, request: task.request }, task.transfer);
    }
  }

  /** A free (or new) worker for the task, or none while it has to wait. */
  private slotFor(task: Task): Slot | undefined {
    const holder = this.slots.find((s) => s.holder);
    const free = this.slots.filter((s) => s.task === null);
    const spare = () => (this.slots.length < this.options.size ? this.spawn() : undefined);
    if (this.options.oneWorker?.(task.request)) {
      if (holder) return holder.task === null ? holder : undefined;
      const slot = free[0] ?? spare();
      if (slot) slot.holder = true;
      return slot;
    }
    return free.find((s) => !s.holder) ?? spare() ?? free[0];
  }

  private spawn(): Slot {
    // A small young generation: tasks make short-lived objects page by page, and Node's default for a
    // worker (48 MB) let a PDF worker's heap reach 65 MB on the corpus where 42 MB do, at the same speed.
    const resourceLimits = { maxOldGenerationSizeMb: this.options.maxHeapMb, maxYoungGenerationSizeMb: 8 };
    const worker = this.script.pathname.endsWith('.ts')
      ? // Running from sources under tsx: a worker does not inherit its loader, so register it first.
        new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(this.script.href)}); })`,
          { eval: true, resourceLimits },
        )
      : new Worker(this.script, { resourceLimits });
    const slot: Slot = { worker, task: null, timer: null, holder: false };
    worker.on('message', (reply: WorkerReply) => {
      const task = slot.task;
      if (!task || task.id !== reply.id) return;
      this.settle(slot);
      if (reply.ok) task.resolve(reply.value);
      else task.reject(reply.document ? new DocumentError(reply.message) : new Error(reply.message));
      this.dispatch();
      if (slot.task === null && this.options.idleMs !== undefined) {
        slot.timer = setTimeout(() => this.retire(slot), this.options.idleMs);
        slot.timer.unref();
      }
    });
    worker.on('error', (err) => this.fail(slot, new DocumentError(`the document could not be read: ${err.message}`)));
    worker.on('exit', () => this.fail(slot, new DocumentError('the document could not be read: the reader stopped')));
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private settle(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
    // An idle worker must not keep the process alive.
    slot.worker.unref();
  }

  /** Ends every idle worker now (a busy one finishes its task and stays). */
  endIdle(): void {
    for (const slot of this.slots.filter((s) => s.task === null)) this.retire(slot);
  }

  /** Ends an idle worker. */
  private retire(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0 || slot.task) return;
    this.slots.splice(index, 1);
    void slot.worker.terminate();
  }

  /** Fails the slot's task and replaces its worker. */
  private fail(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    const task = slot.task;
    this.settle(slot);
    void slot.worker.terminate();
    task?.reject(error);
    if (!this.closed) this.dispatch();
  }
}

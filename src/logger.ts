import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

const OPTIONS = { base: { service: 'ledger' }, timestamp: pino.stdTimeFunctions.isoTime };

/** How many bytes of log lines the service gathers into one write of stdout, and how long a line waits at most. */
export const LOG_BUFFER = { bytes: 8_192, flushMs: 100 };

export function createLogger(level: string): Logger {
  return pino({ level, ...OPTIONS });
}

/** The service's logger, and `print` for the lines it writes to stdout beside the log (in order with it, sent at once). */
export interface ServiceOutput {
  logger: Logger;
  print(text: string): void;
  /** Settles once every line written so far is out (await it before process.exit). */
  drained(): Promise<void>;
}

/**
 * The service process's output. pino's default stream sends each line on its own (an fs.write
 * through libuv's thread pool per request line); under load that cost ~50 µs of CPU per request
 * (bench/results/2026-11-27-node-transfers.txt). Here lines gather into writes of LOG_BUFFER.bytes,
 * flushed at least every LOG_BUFFER.flushMs and at exit (pino flushes an asynchronous
 * destination synchronously on `exit`); `print` goes through the same stream, so stdout keeps
 * its order, and is flushed at once (the start-up line a supervisor waits for). The service awaits
 * `drained` before it exits: pino's exit hook writes the queued lines but not a write still in
 * flight in libuv's thread pool, which process.exit may cut short.
 */
export function createServiceOutput(level: string): ServiceOutput {
  const stream = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER.bytes, periodicFlush: LOG_BUFFER.flushMs });
  return {
    logger: pino({ level, ...OPTIONS }, stream),
    print(text) {
      stream.write(text);
      stream.flush();
    },
    drained: () => new Promise((resolve) => stream.flush(() => resolve())),
  };
}

// Peak resident memory of a server process during one run: Linux keeps the high-water mark
// (VmHWM) per process, and writing 5 to clear_refs resets it to the current RSS.

import { readFileSync, writeFileSync } from 'node:fs';

/** Starts a new peak for `pid`; false if the kernel refused (the peak is then the lifetime one). */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** MiB; NaN if the process is gone. */
export function peakRssMiB(pid) {
  try {
    const kib = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kib / 1024;
  } catch {
    return NaN;
  }
}

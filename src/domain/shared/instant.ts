/**
 * An instant written as an ISO 8601 timestamp with its offset (`Z`, `±HH:MM`, `±HHMM` or `±HH`),
 * e.g. `2026-12-31T23:59:59.999+01:00`. Ledger dates are stored to the millisecond, so digits
 * finer than a millisecond are truncated (never rounded up into the next millisecond). A
 * timestamp without an offset names no instant (it depends on a time zone) and is refused, as
 * are impossible dates (`2026-02-30`), hour 24 and leap seconds, which `Date` would silently move.
 */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

export function parseInstant(text: string): Date | null {
  const match = ISO_INSTANT.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '0', fraction = '', zulu, sign, offsetHours, offsetMinutes = '0'] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return null;
  const [oh, om] = [Number(offsetHours ?? 0), Number(offsetMinutes)];
  if (oh > 23 || om > 59) return null;
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d); // not Date.UTC, which reads years 0–99 as 1900–1999
  utc.setUTCHours(h, mi, s, Number(fraction.slice(0, 3).padEnd(3, '0')));
  const offset = zulu ? 0 : (sign === '-' ? -1 : 1) * (oh * 60 + om);
  return new Date(utc.getTime() - offset * 60_000);
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
}

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

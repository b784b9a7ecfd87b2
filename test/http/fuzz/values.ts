import fc from 'fast-check';

/**
 * Building blocks of the fuzz cases: hostile strings and, per field kind, values that are
 * certainly wrong (another JSON type, or the right type outside the rule). A generated case
 * always carries at least one certainly-wrong part, so no 2xx is ever legitimate.
 */
export const HOSTILE_STRINGS = [
  "' OR 1=1 --",
  "'; DROP TABLE transactions; --",
  '" OR ""="',
  "1; SELECT pg_sleep(5)",
  "$1",
  "%s%s%s%n",
  "${7*7}",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "\u0000",
  "\u0000abc",
  "\u202eRTL",
  "\ufeffBOM",
  "\ud800",
  "💸💰🏦",
  "𝕏𝕐ℤ",
  "Ω≈ç√∫",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-Infinity",
  "-0",
  "1e309",
  "0x1F",
  "__proto__",
  "constructor",
  "@mint",
  "\r\n\t",
  " ",
];

const controlChar = fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: controlChar, minLength: 1, maxLength: 10 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

const finiteDouble = fc.double({ noNaN: true, noDefaultInfinity: true });
const smallObject = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.boolean()), { maxKeys: 3 });
const smallArray = fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 6 })), { maxLength: 3 });
const numericText = fc.constantFrom('1', '10', '1.5', '0', '-1', 'NaN', 'Infinity', '1e3', '0x10', '1,5', ' 1 ', '١');

/** JSON values whose type is not `type` (null only where the field is not nullable). */
export function wrongType(type: 'string' | 'number' | 'integer' | 'boolean' | 'object', nullable = false): fc.Arbitrary<unknown> {
  const others: fc.Arbitrary<unknown>[] = [smallArray];
  if (!nullable) others.push(fc.constant(null));
  if (type !== 'string') others.push(hostileString, numericText);
  if (type !== 'number' && type !== 'integer') others.push(finiteDouble, fc.integer());
  if (type !== 'boolean') others.push(fc.boolean());
  if (type !== 'object') others.push(smallObject);
  return fc.oneof(...others);
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const WHITESPACE = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u3000', '\u2003'), maxLength: 8 });
const tooLong = (min: number) => fc.integer({ min, max: min * 3 }).map((n) => 'x'.repeat(n));

/** Right type, wrong value: each is outside the field's rule in every context. */
export const invalidValues = {
  name: fc.oneof(WHITESPACE, tooLong(201)),
  projectType: hostileString.filter((s) => s !== 'loyalty'),
  exchangeRate: fc.oneof(fc.constantFrom(0, -0, -1, -1e308, -Number.MIN_VALUE), fc.double({ max: 0, noNaN: true, noDefaultInfinity: true })),
  metadata: fc.constant({ big: 'x'.repeat(17 * 1024) }),
  uuid: hostileString.filter((s) => !UUID.test(s)),
  symbol: fc.oneof(hostileString, fc.string({ maxLength: 20 })).filter((s) => !/^[A-Z0-9_-]{1,12}$/.test(s)),
  fractions: fc.oneof(fc.integer({ min: 19 }), fc.integer({ max: -1 }), fc.constantFrom(0.5, 2.25, 1e300, -1e-300)),
  projectId: fc.oneof(
    fc.integer({ max: 0 }),
    fc.maxSafeInteger().filter((n) => n > 2_147_483_647),
    fc.constantFrom(1.5, -0.5, 1e20, 2 ** 53, Number.MAX_SAFE_INTEGER, 2_147_483_648, -0),
  ),
  address: fc
    .oneof(hostileString, fc.constant(''), tooLong(129), fc.string({ maxLength: 10 }).map((s) => `@${s}`))
    .filter((s) => !/^[A-Za-z0-9._:-][A-Za-z0-9._:@-]{0,127}$/.test(s)),
  status: hostileString.filter((s) => !['active', 'suspended', 'closed'].includes(s)),
  /** For a 2-fraction asset. */
  amount: fc.oneof(
    fc.constantFrom(0, -0, -1, -0.01, 1e-7, 5e-324, 1.005, 0.001, 1e14, 1e16, 2 ** 53, 1e300, 92233720368547758.07),
    fc.integer({ max: 0 }),
    fc.integer({ min: 1, max: 1e9 }).filter((n) => n % 10 !== 0).map((n) => n / 1000),
  ),
  flowId: fc.oneof(fc.constant(''), tooLong(201)),
  /** Seconds a lot lives: an integer 1–315,360,000 (or null). */
  expiresAfterSeconds: fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 315_360_001, max: 2 ** 31 - 1 }), fc.constantFrom(1.5, 0.5, -0, 1e300, 2 ** 53)),
};

/** A string that is certainly not an address, id or symbol of the fuzzed project (so: not found, or invalid). */
export function unknownReference(known: string[]): fc.Arbitrary<string> {
  return fc.oneof(hostileString, fc.string({ minLength: 1, maxLength: 40 }), fc.uuid()).filter((s) => !known.includes(s));
}

/** Text that JSON.parse refuses. */
export const malformedJson = fc.oneof(
  fc.constantFrom('{', '{"amount": }', '{"a":1,}', "{'a': 1}", '{"a": NaN}', '{"a": Infinity}', '{"a": undefined}', 'nul', '[1, 2', '{"a": 01}', '{"a": "\u0001"}', '\u0000', '{"a":1}}', '// {}', '{"a": 1e}'),
  fc.string({ maxLength: 40 }).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return s.length > 0;
    }
  }),
);

/** Well-formed JSON that is not an object. */
export const nonObjectJson = fc.constantFrom('[]', '[{}]', '1', '"text"', 'true', '0', '-1', '"{}"');

export const wrongContentTypes = fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/jsonx', 'multipart/form-data', 'json', null);

/** Unknown body keys: hostile names included (__proto__, constructor, …). */
export function unknownKey(known: string[]): fc.Arbitrary<string> {
  return fc.oneof(fc.constantFrom('__proto__', 'constructor', 'owner', 'id', 'balance', 'admin', 'amount_minor', 'Amount', ' name'), hostileString).filter((k) => !known.includes(k));
}

/** Path segments that are not a positive int4 project id. */
export const badProjectIdSegment = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', 'abc', '2147483648', '99999999999999999999', ' 1', '1e3', '0x1', '+1', 'null', "1' OR '1'='1", '١'),
  hostileString.filter((s) => !/^\d+$/.test(s) && s.length > 0),
);

/** Path segments that are not a UUID. */
export const badUuidSegment = fc.oneof(
  fc.constantFrom('00000000-0000-0000-0000-00000000000g', '123', 'not-a-uuid', '00000000000000000000000000000000', "' OR 1=1 --"),
  hostileString.filter((s) => !UUID.test(s) && s.length > 0),
);

/** Printable text with a NUL or an unpaired surrogate inside: text no column can store as sent. */
export const unstorableString = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff'), fc.string({ maxLength: 8 }))
  .map(([a, bad, b]) => a + bad + b);

/** JSON nested deeper than any request may be (arrays and objects). */
export const deepJson = fc.tuple(fc.integer({ min: 65, max: 400 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
});

/** 40–95 KiB of text, some of it multi-byte: within the body limit, beyond every string field's rule. */
export const giantString = fc
  .tuple(fc.integer({ min: 40 * 1024, max: 90 * 1024 }), fc.constantFrom('x', 'é', '💸', '\u202e', 'a b'))
  .map(([size, unit]) => unit.repeat(Math.floor(size / Buffer.byteLength(unit))));

/**
 * Text with a NUL inside, for query strings and paths: a lone surrogate cannot travel in a URL
 * (URLSearchParams sends U+FFFD instead, which is storable), a NUL can (%00).
 */
export const nulString = fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([a, b]) => `${a}\u0000${b}`);

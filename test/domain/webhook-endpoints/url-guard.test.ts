import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { judgeAddress } from '../../../src/domain/webhook-endpoints/ip-ranges.js';
import { UrlGuard, type Resolver } from '../../../src/domain/webhook-endpoints/url-guard.js';
import { WebhookSender } from '../../../src/domain/webhook-endpoints/webhook-sender.js';
import { LedgerError } from '../../../src/domain/errors.js';

/** Names a test resolver knows; anything else does not resolve. */
const NAMES: Record<string, { address: string; family: number }[]> = {
  'public.example': [{ address: '93.184.215.14', family: 4 }],
  'public6.example': [{ address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }],
  'loopback.example': [{ address: '127.0.0.1', family: 4 }],
  'private.example': [{ address: '10.1.2.3', family: 4 }],
  'mixed.example': [{ address: '93.184.215.14', family: 4 }, { address: '192.168.1.1', family: 4 }],
  'mapped.example': [{ address: '::ffff:169.254.169.254', family: 6 }],
};
const resolver: Resolver = async (host) => {
  const found = NAMES[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
};

const guard = new UrlGuard(false, resolver);

async function refusal(url: string): Promise<LedgerError> {
  try {
    await guard.check(url);
  } catch (error) {
    return error as LedgerError;
  }
  throw new Error(`${url} was accepted`);
}

describe('URL guard (CONTRACT §16)', () => {
  it.each([
    ['http://localhost/', 'localhost'],
    ['http://LOCALHOST./hook', 'localhost'],
    ['http://api.localhost:8080/', 'localhost'],
    ['http://127.0.0.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://017700000001/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://[64:ff9b::7f00:1]/', 'loopback'],
    ['http://[2002:7f00:1::]/', 'loopback'],
    ['http://10.0.0.1', 'private'],
    ['http://172.16.5.4/', 'private'],
    ['http://192.168.0.10/', 'private'],
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://169.254.169.254', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://100.64.0.1', 'carrier-grade NAT'],
    ['http://100.127.255.254/', 'carrier-grade NAT'],
    ['http://[fd00::1]', 'unique-local'],
    ['http://[fc12:3456::1]/', 'unique-local'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://255.255.255.255/', 'reserved'],
    ['http://loopback.example/', 'loopback'],
    ['http://private.example/', 'private'],
    ['http://mixed.example/', 'private'],
    ['http://mapped.example/', 'link-local'],
  ])('refuses %s (%s)', async (url, reason) => {
    const error = await refusal(url);
    expect(error).toBeInstanceOf(LedgerError);
    expect(error.code).toBe('validation_error');
    expect(error.details.field).toBe('url');
    expect(error.message).toContain(reason);
  });

  it.each(['loopback.example', 'private.example', 'mixed.example', 'mapped.example'])(
    'names the rule %s broke and how to lift it, never an address it resolved to',
    async (host) => {
      const error = await refusal(`http://${host}/`);
      expect(error.message).toContain('LEDGER_WEBHOOK_ALLOW_PRIVATE=true');
      for (const { address } of NAMES[host]) expect(JSON.stringify(error.toBody())).not.toContain(address);
    },
  );

  it.each([
    ['ftp://93.184.215.14/', 'http or https'],
    ['file:///etc/passwd', 'http or https'],
    ['javascript:alert(1)', 'http or https'],
    ['not a url', 'absolute'],
    ['/relative/path', 'absolute'],
    ['http://unknown.example/', 'does not resolve'],
  ])('refuses %s (%s)', async (url, problem) => {
    const error = await refusal(url);
    expect(error.code).toBe('validation_error');
    expect(error.message).toContain(problem);
  });

  it.each([
    ['http://93.184.215.14/', 'http://93.184.215.14/'],
    ['https://1.1.1.1:8443/hooks?x=1', 'https://1.1.1.1:8443/hooks?x=1'],
    ['http://[2606:4700:4700::1111]/', 'http://[2606:4700:4700::1111]/'],
    ['https://PUBLIC.example/in', 'https://public.example/in'],
    ['http://public6.example/', 'http://public6.example/'],
    ['http://100.128.0.1/', 'http://100.128.0.1/'],
    ['http://172.32.0.1/', 'http://172.32.0.1/'],
  ])('accepts %s, normalised to %s', async (url, normalised) => {
    await expect(guard.check(url)).resolves.toBe(normalised);
  });

  it('accepts private targets when LEDGER_WEBHOOK_ALLOW_PRIVATE is set, without resolving', async () => {
    const open = new UrlGuard(true, resolver);
    await expect(open.check('http://2130706433:8080/hook')).resolves.toBe('http://127.0.0.1:8080/hook');
    await expect(open.check('http://localhost/')).resolves.toBe('http://localhost/');
    await expect(open.check('ftp://localhost/')).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('classifies the IPv6 forms that carry an IPv4 address by that address', () => {
    expect(judgeAddress('::ffff:8.8.8.8')).toEqual({ allowed: true });
    expect(judgeAddress('::ffff:192.168.1.1')).toEqual({ allowed: false, reason: 'private' });
    expect(judgeAddress('::10.0.0.1')).toEqual({ allowed: false, reason: 'private' });
    expect(judgeAddress('::ffff:0:127.0.0.1')).toEqual({ allowed: false, reason: 'loopback' });
    expect(judgeAddress('64:ff9b::8.8.8.8')).toEqual({ allowed: true });
    expect(judgeAddress('2002:0a00:0001::1')).toEqual({ allowed: false, reason: 'private' });
    expect(judgeAddress('fe80::1%eth0')).toEqual({ allowed: false, reason: 'link-local' });
    expect(judgeAddress('example.com')).toBeNull();
  });
});

describe('URL guard at delivery time (DNS rebinding)', () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits += 1;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('checks the addresses the connection uses: a name that now resolves to loopback is refused, nothing is sent', async () => {
    // accepted at creation (it resolved to a public address then) ...
    let answer = '93.184.215.14';
    const rebinding = new UrlGuard(false, async () => [{ address: answer, family: 4 }]);
    await expect(rebinding.check(`http://rebind.example:${port}/`)).resolves.toBeDefined();
    // ... re-pointed at the service's own machine afterwards
    answer = '127.0.0.1';
    const sender = new WebhookSender(rebinding, 2_000);
    const before = hits;
    const result = await sender.send(`http://rebind.example:${port}/`, {}, '{}');
    sender.close();
    expect(result).toEqual({ ok: false, responseStatus: null, error: expect.stringContaining('loopback') });
    expect(result.error).not.toContain('127.0.0.1'); // the delivery log shows it: no address there either
    expect(hits).toBe(before);
  });

  it('connects to exactly the address it resolved and checked (no second resolution)', async () => {
    // the name exists only for this resolver: reaching the server proves the checked address was used
    const pinned = new UrlGuard(true, async () => [{ address: '127.0.0.1', family: 4 }]);
    const sender = new WebhookSender(pinned, 2_000);
    const result = await sender.send(`http://only-this-resolver.invalid:${port}/`, {}, '{}');
    sender.close();
    expect(result).toEqual({ ok: true, responseStatus: 200, error: null });
  });

  it('refuses a stored literal address that is not public', async () => {
    const sender = new WebhookSender(new UrlGuard(false, resolver), 2_000);
    const before = hits;
    const result = await sender.send(`http://127.0.0.1:${port}/`, {}, '{}');
    sender.close();
    expect(result.ok).toBe(false);
    expect(result.error).toContain('loopback');
    expect(hits).toBe(before);
  });
});

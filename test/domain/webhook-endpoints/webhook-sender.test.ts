import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { UrlGuard } from '../../../src/domain/webhook-endpoints/url-guard.js';
import { WebhookSender } from '../../../src/domain/webhook-endpoints/webhook-sender.js';

/**
 * Webhooks to an https URL go over TLS with a kept-alive agent of their own (node:https is loaded
 * on the first such send, not at start-up). The receiver's certificate is made here with openssl
 * and trusted for this process only.
 */
let server: Server;
let port: number;
let defaultCAs: string[];
const received: { method?: string; url?: string; contentType?: string; body: string }[] = [];
let connections = 0;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'webhook-tls-'));
  try {
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    expect(made.status).toBe(0);
    const cert = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
    server = createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert }, (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        received.push({ method: req.method, url: req.url, contentType: req.headers['content-type'], body });
        res.end('ok');
      });
    });
    server.on('secureConnection', () => connections++);
    defaultCAs = tls.getCACertificates('default');
    tls.setDefaultCACertificates([...defaultCAs, cert]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  tls.setDefaultCACertificates(defaultCAs);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('WebhookSender over https', () => {
  it('POSTs over TLS, and reuses the kept-alive connection for the next webhook to the host', async () => {
    const sender = new WebhookSender(new UrlGuard(true, async () => [{ address: '127.0.0.1', family: 4 }]), 2_000);
    try {
      expect(await sender.send(`https://127.0.0.1:${port}/hooks`, { 'x-signature': 'a' }, '{"n":1}')).toEqual({ ok: true, responseStatus: 200, error: null });
      expect(await sender.send(`https://127.0.0.1:${port}/hooks`, { 'x-signature': 'b' }, '{"n":2}')).toEqual({ ok: true, responseStatus: 200, error: null });
    } finally {
      sender.close();
    }
    expect(received).toEqual([
      { method: 'POST', url: '/hooks', contentType: 'application/json', body: '{"n":1}' },
      { method: 'POST', url: '/hooks', contentType: 'application/json', body: '{"n":2}' },
    ]);
    expect(connections).toBe(1);
  });

  it('refuses a receiver whose certificate is not trusted (a failed attempt, nothing delivered)', async () => {
    tls.setDefaultCACertificates(defaultCAs);
    const sender = new WebhookSender(new UrlGuard(true, async () => [{ address: '127.0.0.1', family: 4 }]), 2_000);
    const before = received.length;
    const result = await sender.send(`https://127.0.0.1:${port}/hooks`, {}, '{}');
    sender.close();
    expect(result).toEqual({ ok: false, responseStatus: null, error: expect.stringContaining('self-signed certificate') });
    expect(received.length).toBe(before);
  });
});

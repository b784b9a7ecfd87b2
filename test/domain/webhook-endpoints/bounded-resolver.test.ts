import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { boundedResolver } from '../../../src/domain/webhook-endpoints/bounded-resolver.js';

/**
 * A real DNS server on 127.0.0.1 (UDP) answering what `answer` says to each question: an A
 * record's address, `nxdomain`, `nodata`, or `silent` (never answers, like a dead server).
 */
type Answer = { a: string } | 'nxdomain' | 'nodata' | 'silent';

async function dnsServer(answer: (name: string, type: number) => Answer): Promise<{ server: string; questions: string[]; close(): Promise<void> }> {
  const socket: Socket = createSocket('udp4');
  const questions: string[] = [];
  socket.on('message', (query, from) => {
    // the question: labels from byte 12 up to a zero byte, then its type and class
    let at = 12;
    const labels: string[] = [];
    while (query[at] !== 0) {
      labels.push(query.subarray(at + 1, at + 1 + query[at]).toString('ascii'));
      at += query[at] + 1;
    }
    const questionEnd = at + 5;
    const type = query.readUInt16BE(at + 1);
    const name = labels.join('.');
    questions.push(name);
    const reply = answer(name, type);
    if (reply === 'silent') return;
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the id
    const withRecord = typeof reply === 'object' && type === 1;
    header.writeUInt16BE(0x8180 | (reply === 'nxdomain' ? 3 : 0), 2); // a response, recursion available, NOERROR or NXDOMAIN
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(withRecord ? 1 : 0, 6);
    const parts = [header, query.subarray(12, questionEnd)];
    if (withRecord) {
      const record = Buffer.alloc(16);
      record.writeUInt16BE(0xc00c, 0); // the question's name
      record.writeUInt16BE(1, 2); // A
      record.writeUInt16BE(1, 4); // IN
      record.writeUInt32BE(60, 6);
      record.writeUInt16BE(4, 10);
      reply.a.split('.').forEach((octet, i) => record.writeUInt8(Number(octet), 12 + i));
      parts.push(record);
    }
    socket.send(Buffer.concat(parts), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { server: `127.0.0.1:${(socket.address() as AddressInfo).port}`, questions, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}

describe('bounded DNS resolution (url-guard default)', () => {
  it('answers what DNS answers', async () => {
    const dns = await dnsServer((name) => (name === 'hooks.example' ? { a: '93.184.215.14' } : 'nxdomain'));
    try {
      await expect(boundedResolver({ servers: [dns.server] })('hooks.example')).resolves.toEqual([{ address: '93.184.215.14', family: 4 }]);
    } finally {
      await dns.close();
    }
  });

  it('gives up at its deadline when the name server never answers', async () => {
    const dns = await dnsServer(() => 'silent');
    try {
      const started = Date.now();
      const resolve = boundedResolver({ servers: [dns.server], queryTimeoutMs: 5_000, tries: 4, deadlineMs: 300 });
      await expect(resolve('hangs.example')).rejects.toMatchObject({ code: 'ETIMEOUT', message: 'hangs.example did not resolve within 300 ms' });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(dns.questions).toContain('hangs.example');
    } finally {
      await dns.close();
    }
  });

  it('asks the hosts file for a name DNS says does not exist (localhost)', async () => {
    const dns = await dnsServer(() => 'nxdomain');
    try {
      const addresses = await boundedResolver({ servers: [dns.server] })('localhost');
      expect(addresses.map((a) => a.address)).toContain('127.0.0.1');
      expect(dns.questions).toContain('localhost');
    } finally {
      await dns.close();
    }
  });

  it('fails a name neither DNS nor the hosts file knows', async () => {
    const dns = await dnsServer(() => 'nxdomain');
    try {
      await expect(boundedResolver({ servers: [dns.server] })('nowhere.invalid')).rejects.toMatchObject({ code: expect.stringMatching(/ENOTFOUND|EAI_AGAIN|ETIMEOUT/) });
    } finally {
      await dns.close();
    }
  });
});

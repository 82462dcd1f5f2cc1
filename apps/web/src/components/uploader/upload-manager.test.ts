import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseMultipart, sendJson, startTestServer } from '../../test/http-server';
import { createUploadManager, type UploadManager } from './upload-manager';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

const file = (name: string, size = 64, type = 'text/plain') =>
  new File([new Uint8Array(size).fill(65)], name, { type });

function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const check = () => {
      if (condition()) {
        resolve();
      } else if (Date.now() - started > timeoutMs) {
        reject(new Error('Timed out'));
      } else {
        setTimeout(check, 5);
      }
    };
    check();
  });
}

describe('upload manager against a real HTTP server', () => {
  let server: TestServer;
  let active = 0;
  let maxActive = 0;
  let failuresLeft = 0;
  const closedBeforeAnswer: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(async (request, response, raw) => {
      const name = parseMultipart(request).get('file')?.filename ?? '?';
      if (request.url.startsWith('/slow')) {
        active += 1;
        maxActive = Math.max(maxActive, active);
        const wasClosed = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), 150);
          raw.socket.once('close', () => {
            clearTimeout(timer);
            resolve(true);
          });
        });
        active -= 1;
        if (wasClosed) {
          closedBeforeAnswer.push(name);
          return;
        }
      }
      if (request.url.startsWith('/flaky') && failuresLeft > 0) {
        failuresLeft -= 1;
        sendJson(response, 503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'Try later' } });
        return;
      }
      sendJson(response, 201, { stored: name });
    });
    jsdom.reconfigure({ url: `${server.origin}/admin/components` });
  });

  afterAll(async () => {
    await server.close();
  });

  beforeEach(() => {
    active = 0;
    maxActive = 0;
    failuresLeft = 0;
    closedBeforeAnswer.length = 0;
  });

  const statuses = (manager: UploadManager) => manager.getItems().map((item) => item.status);

  it('never has more uploads in flight than the concurrency limit, and finishes them all in order', async () => {
    const uploaded: string[] = [];
    const manager = createUploadManager({
      url: '/slow',
      concurrency: 2,
      onUploaded: (item) => uploaded.push(item.file.name),
    });
    manager.add([file('1.txt'), file('2.txt'), file('3.txt'), file('4.txt'), file('5.txt')]);
    expect(statuses(manager)).toEqual(['uploading', 'uploading', 'queued', 'queued', 'queued']);
    await manager.whenIdle();
    expect(maxActive).toBe(2);
    expect(statuses(manager)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(manager.getItems().map((item) => item.reply?.body)).toEqual(
      ['1', '2', '3', '4', '5'].map((name) => ({ stored: `${name}.txt` })),
    );
    expect(uploaded).toHaveLength(5);
  });

  it('sends everything at once when concurrency is unlimited (the default)', async () => {
    const manager = createUploadManager({ url: '/slow' });
    manager.add([file('a.txt'), file('b.txt'), file('c.txt'), file('d.txt')]);
    await manager.whenIdle();
    expect(maxActive).toBe(4);
  });

  it('cancels an upload in flight: the request is aborted and the next file starts', async () => {
    const manager = createUploadManager({ url: '/slow', concurrency: 1 });
    const [first] = manager.add([file('first.txt'), file('second.txt')]);
    await waitFor(() => active === 1);
    manager.cancel(first!.id);
    expect(statuses(manager)).toEqual(['cancelled', 'uploading']);
    await manager.whenIdle();
    await waitFor(() => closedBeforeAnswer.length === 1);
    expect(closedBeforeAnswer).toEqual(['first.txt']);
    expect(statuses(manager)).toEqual(['cancelled', 'done']);
  });

  it('cancels a queued file before it is sent', async () => {
    const manager = createUploadManager({ url: '/slow', concurrency: 1 });
    const [, queued] = manager.add([file('one.txt'), file('two.txt')]);
    manager.cancel(queued!.id);
    await manager.whenIdle();
    expect(statuses(manager)).toEqual(['done', 'cancelled']);
    expect(server.requests.filter((request) => request.body.includes('two.txt'))).toHaveLength(0);
  });

  it('retries a failed upload', async () => {
    failuresLeft = 1;
    const manager = createUploadManager({ url: '/flaky' });
    const [item] = manager.add([file('lab.pdf', 64, 'application/pdf')]);
    await manager.whenIdle();
    expect(manager.getItems()[0]).toMatchObject({ status: 'failed', failure: { kind: 'http', status: 503 } });
    manager.retry(item!.id);
    await manager.whenIdle();
    expect(manager.getItems()[0]).toMatchObject({
      status: 'done',
      reply: { status: 201, body: { stored: 'lab.pdf' } },
    });
  });

  it('keeps refused files listed with their reason and never sends them', async () => {
    const manager = createUploadManager({ url: '/fast', accept: ['image/*'], maxFileSize: 100, maxFiles: 1 });
    const before = server.requests.length;
    manager.add([
      file('notes.txt', 10),
      file('big.png', 500, 'image/png'),
      file('ok.png', 10, 'image/png'),
      file('extra.png', 10, 'image/png'),
    ]);
    await manager.whenIdle();
    expect(
      manager.getItems().map((item) => [item.file.name, item.status, item.rejection?.reason ?? null]),
    ).toEqual([
      ['notes.txt', 'rejected', 'type'],
      ['big.png', 'rejected', 'size'],
      ['ok.png', 'done', null],
      ['extra.png', 'rejected', 'count'],
    ]);
    expect(server.requests.length - before).toBe(1);
  });

  it('frees a place when a file is removed', async () => {
    const manager = createUploadManager({ url: '/fast', maxFiles: 1 });
    const [first] = manager.add([file('a.txt')]);
    await manager.whenIdle();
    expect(manager.add([file('b.txt')])[0]?.status).toBe('rejected');
    manager.remove(first!.id);
    expect(manager.add([file('c.txt')])[0]?.status).toBe('uploading');
    await manager.whenIdle();
  });

  it('notifies subscribers of progress and status changes', async () => {
    const manager = createUploadManager({ url: '/fast' });
    let notifications = 0;
    const unsubscribe = manager.subscribe(() => {
      notifications += 1;
    });
    manager.add([file('x.txt')]);
    await manager.whenIdle();
    unsubscribe();
    expect(notifications).toBeGreaterThanOrEqual(2);
  });
});

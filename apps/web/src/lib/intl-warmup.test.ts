import { describe, expect, it } from 'vitest';
import { buildFirstFormatters } from './intl-formatters';
import { warmIntl } from './intl-warmup';

/** A stand-in for the worker: records what the page sends and whether it was stopped. */
class FakeWorker extends EventTarget {
  sent: unknown[] = [];
  isTerminated = false;
  postMessage(message: unknown): void {
    this.sent.push(message);
  }
  terminate(): void {
    this.isTerminated = true;
  }
}

describe('warmIntl', () => {
  it('sends the language to the worker and stops it once it has answered', () => {
    const worker = new FakeWorker();
    warmIntl('es', () => worker as unknown as Worker);
    expect(worker.sent).toEqual([{ language: 'es' }]);
    expect(worker.isTerminated).toBe(false);
    worker.dispatchEvent(new MessageEvent('message', { data: { built: 3 } }));
    expect(worker.isTerminated).toBe(true);
  });

  it('stops the worker when it fails', () => {
    const worker = new FakeWorker();
    warmIntl('en', () => worker as unknown as Worker);
    worker.dispatchEvent(new Event('error'));
    expect(worker.isTerminated).toBe(true);
  });

  it('changes nothing when no worker can start', () => {
    expect(() => warmIntl('es', () => null)).not.toThrow();
    expect(() =>
      warmIntl('es', () => {
        throw new DOMException('blocked by the content security policy', 'SecurityError');
      }),
    ).not.toThrow();
  });
});

describe('buildFirstFormatters', () => {
  it('builds the number, date-time and relative-time formatters', () => {
    expect(buildFirstFormatters('es')).toBe(3);
    expect(buildFirstFormatters('en', 'America/Bogota')).toBe(3);
  });

  it('skips the steps an unknown language or zone makes throw, without throwing itself', () => {
    expect(buildFirstFormatters('not a language tag')).toBe(0);
    expect(buildFirstFormatters('es', 'Mars/Olympus')).toBe(2);
  });
});

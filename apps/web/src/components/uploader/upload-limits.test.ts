import { describe, expect, it } from 'vitest';
import { checkFiles, limitValue, matchesAccept } from './upload-limits';

const file = (name: string, type: string, size = 10) => new File([new Uint8Array(size)], name, { type });

describe('matchesAccept', () => {
  it.each([
    [['image/*'], 'scan.png', 'image/png', true],
    [['image/*'], 'scan.PNG', 'image/png', true],
    [['image/*'], 'notes.pdf', 'application/pdf', false],
    [['application/pdf'], 'notes.pdf', 'application/pdf', true],
    [['APPLICATION/PDF'], 'notes.pdf', 'application/pdf', true],
    [['.pdf'], 'NOTES.PDF', '', true],
    [['.pdf'], 'notes.pdf.exe', 'application/x-msdownload', false],
    [['.pdf'], '.pdf', '', false],
    [['image/*'], 'mystery', '', false],
    [['image/*', '.pdf'], 'report.pdf', 'application/octet-stream', true],
    [['*/*'], 'anything.bin', '', true],
    [[], 'anything.bin', '', true],
    [['  ', ''], 'anything.bin', '', true],
  ])('%j accepts %s (%s) → %s', (accept, name, type, expected) => {
    expect(matchesAccept({ name, type }, accept)).toBe(expected);
  });

  it('accepts everything when no list is given (unlimited by default)', () => {
    expect(matchesAccept({ name: 'x.exe', type: 'application/x-msdownload' }, undefined)).toBe(true);
  });
});

describe('limitValue', () => {
  it.each([
    [undefined, null],
    [0, null],
    [-1, null],
    [Number.POSITIVE_INFINITY, null],
    [Number.NaN, null],
    [3, 3],
  ])('%s → %s', (value, expected) => {
    expect(limitValue(value)).toBe(expected);
  });
});

describe('checkFiles', () => {
  it('accepts every file when no limit is set', () => {
    const files = [
      file('a.exe', 'application/x-msdownload', 50_000_000),
      file('b', ''),
      file('c.png', 'image/png'),
    ];
    expect(checkFiles(files, {}).map((result) => result.rejection)).toEqual([null, null, null]);
  });

  it('rejects by type, then size, then count, with the limit in the reason', () => {
    const results = checkFiles(
      [
        file('ok-1.png', 'image/png', 100),
        file('virus.exe', 'application/x-msdownload', 100),
        file('huge.png', 'image/png', 2_000),
        file('ok-2.pdf', 'application/pdf', 100),
        file('third.png', 'image/png', 100),
      ],
      { accept: ['image/*', '.pdf'], maxFileSize: 1_000, maxFiles: 2 },
    );
    expect(results.map((result) => result.rejection)).toEqual([
      null,
      { reason: 'type', accept: ['image/*', '.pdf'] },
      { reason: 'size', maxFileSize: 1_000 },
      null,
      { reason: 'count', maxFiles: 2 },
    ]);
  });

  it('counts files the uploader already holds', () => {
    const results = checkFiles([file('a.png', 'image/png'), file('b.png', 'image/png')], { maxFiles: 3 }, 2);
    expect(results.map((result) => result.rejection?.reason ?? null)).toEqual([null, 'count']);
  });

  it('lets a file exactly at the size limit through', () => {
    expect(checkFiles([file('a.png', 'image/png', 1_000)], { maxFileSize: 1_000 })[0]?.rejection).toBeNull();
    expect(checkFiles([file('a.png', 'image/png', 1_001)], { maxFileSize: 1_000 })[0]?.rejection).toEqual({
      reason: 'size',
      maxFileSize: 1_000,
    });
  });
});

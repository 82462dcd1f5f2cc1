import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readZip } from '../test/zip-reader.js';
import { writeZip, ZipLimitError, zipMaxEntries, type ZipEntry } from './zip.js';

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) {
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += size) {
    await Promise.resolve();
    yield bytes.subarray(start, start + size);
  }
}

const at = new Date('2026-05-04T09:30:12Z');

describe('writeZip', () => {
  it('writes entries from memory and from streams that an independent reader reads back', async () => {
    const big = Buffer.alloc(300_000);
    for (let index = 0; index < big.length; index += 1) {
      big[index] = (index * 31 + (index >> 7)) & 255;
    }
    const entries: ZipEntry[] = [
      { name: 'record.json', modifiedAt: at, bytes: Buffer.from('{"a":1}') },
      { name: 'LÉAME — historia.txt', modifiedAt: at, bytes: Buffer.from('Hola, señora Núñez ✓') },
      { name: 'empty.txt', modifiedAt: at, bytes: Buffer.alloc(0) },
      { name: 'documents/scan.bin', modifiedAt: at, stream: () => chunksOf(big, 64 * 1024) },
      { name: 'documents/empty-stream.bin', modifiedAt: at, stream: () => chunksOf(Buffer.alloc(0), 1) },
    ];
    const zip = await collect(writeZip(entries));
    const read = readZip(zip);
    expect(read.map((entry) => entry.name)).toEqual(entries.map((entry) => entry.name));
    expect(read.map((entry) => entry.isUtf8)).toEqual([true, true, true, true, true]);
    expect(read[1]?.data.toString('utf8')).toBe('Hola, señora Núñez ✓');
    expect(read[2]?.data.length).toBe(0);
    expect(read[3]?.data.equals(big)).toBe(true);
    expect(read[3]?.hasDataDescriptor).toBe(true);
    expect(read[0]?.hasDataDescriptor).toBe(false);
    for (const entry of read) {
      expect(entry.crc, entry.name).toBe(crc32(entry.data));
      expect(entry.modifiedAt.toISOString()).toBe('2026-05-04T09:30:12.000Z');
      expect(entry.unixModifiedAt?.toISOString()).toBe('2026-05-04T09:30:12.000Z');
    }
  });

  it('writes an empty archive as a bare end record', async () => {
    const zip = await collect(writeZip([]));
    expect(zip.length).toBe(22);
    expect(readZip(zip)).toEqual([]);
  });

  it('refuses unusable and duplicate names before writing them', async () => {
    for (const name of [
      '',
      '/etc/passwd',
      '../up.txt',
      'a/../b',
      'a//b',
      'C:/x',
      'back\\slash',
      'nul\u0000',
    ]) {
      await expect(
        collect(writeZip([{ name, modifiedAt: at, bytes: Buffer.from('x') }])),
        name,
      ).rejects.toThrow(ZipLimitError);
    }
    await expect(
      collect(
        writeZip([
          { name: 'a.txt', modifiedAt: at, bytes: Buffer.from('1') },
          { name: 'a.txt', modifiedAt: at, bytes: Buffer.from('2') },
        ]),
      ),
    ).rejects.toThrow(/Duplicate/);
  });

  it('refuses more entries than the format counts, at the real limit', async () => {
    function* many(count: number): Generator<ZipEntry> {
      const empty = Buffer.alloc(0);
      for (let index = 0; index < count; index += 1) {
        yield { name: `f${index}`, modifiedAt: at, bytes: empty };
      }
    }
    await expect(collect(writeZip(many(zipMaxEntries + 1)))).rejects.toThrow(/65535 entries/);
    const full = readZip(await collect(writeZip(many(zipMaxEntries))));
    expect(full).toHaveLength(zipMaxEntries);
    expect(full.at(-1)?.name).toBe(`f${zipMaxEntries - 1}`);
  });

  it('stops before a size or offset would pass the ceiling instead of writing a broken file', async () => {
    const chunk = Buffer.alloc(1000, 7);
    const written: Buffer[] = [];
    const stream = writeZip(
      [
        { name: 'a.bin', modifiedAt: at, bytes: chunk },
        { name: 'b.bin', modifiedAt: at, stream: () => chunksOf(Buffer.alloc(5000, 1), 1000) },
      ],
      { maxBytes: 4000 },
    );
    await expect(
      (async () => {
        for await (const part of stream) {
          written.push(part);
        }
      })(),
    ).rejects.toThrow(ZipLimitError);
    expect(Buffer.concat(written).length).toBeLessThanOrEqual(4000);
    // Within the ceiling the same entries make a valid file.
    const ok = await collect(writeZip([{ name: 'a.bin', modifiedAt: at, bytes: chunk }], { maxBytes: 4000 }));
    expect(readZip(ok)[0]?.data.equals(chunk)).toBe(true);
  });

  it('is read by Python’s zipfile too, when python3 is installed', async () => {
    const probe = spawnSync('python3', ['--version']);
    if (probe.error !== undefined || probe.status !== 0) {
      // CI machines have python3; the independent reader above already checks everything.
      expect(probe.status === 0).toBe(false);
      return;
    }
    const dir = await mkdtemp(path.join(tmpdir(), 'zip-test-'));
    try {
      const file = path.join(dir, 'test.zip');
      await writeFile(
        file,
        await collect(
          writeZip([
            { name: 'ñandú/récord.json', modifiedAt: at, bytes: Buffer.from('{"ok":true}') },
            { name: 'streamed.bin', modifiedAt: at, stream: () => chunksOf(Buffer.alloc(70_000, 9), 8192) },
          ]),
        ),
      );
      const script = [
        'import sys, zipfile',
        'z = zipfile.ZipFile(sys.argv[1])',
        'bad = z.testzip()',
        'print("BAD" if bad else "OK")',
        'for i in z.infolist(): print(i.filename, i.file_size, i.date_time)',
      ].join('\n');
      const result = spawnSync('python3', ['-c', script, file], { encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout.split('\n')).toEqual([
        'OK',
        'ñandú/récord.json 11 (2026, 5, 4, 9, 30, 12)',
        'streamed.bin 70000 (2026, 5, 4, 9, 30, 12)',
        '',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { crc32 } from 'node:zlib';

/**
 * A small streaming ZIP writer (PKWARE APPNOTE 6.3, no Zip64): entries are stored (method 0),
 * names are UTF-8 (general purpose bit 11), modification times are written as DOS times in UTC
 * plus the "extended timestamp" field (0x5455) that unzip, 7-Zip and Python read as UTC.
 *
 * An entry is either bytes already in memory (CRC and sizes go in its local header) or a stream
 * (bit 3: CRC and sizes follow the data in a data descriptor, and in the central directory), so
 * a large file passes through in chunks and is never held whole. Without Zip64 a ZIP file holds
 * at most 65,535 entries and every size and offset stays below 4 GiB: past either limit the
 * writer throws `ZipLimitError` instead of writing a file readers would misread.
 */

/** An entry whose bytes are in memory, or whose bytes arrive as a stream of chunks. */
export type ZipEntry =
  | { name: string; modifiedAt: Date; bytes: Uint8Array }
  | { name: string; modifiedAt: Date; stream: () => AsyncIterable<Uint8Array> };

/** The ZIP file would go past what the format holds without Zip64 (or an entry name is unusable). */
export class ZipLimitError extends Error {
  override readonly name = 'ZipLimitError';
}

/** At most this many entries (the 16-bit counts of the end record). */
export const zipMaxEntries = 65_535;
/** Sizes and offsets are 32-bit; 0xFFFFFFFF itself means "see Zip64". */
export const zipMaxBytes = 0xffff_fffe;
const maxNameBytes = 0xffff;

const signatures = {
  localHeader: 0x04034b50,
  dataDescriptor: 0x08074b50,
  centralHeader: 0x02014b50,
  endOfCentralDirectory: 0x06054b50,
} as const;

const versionNeeded = 20; // 2.0: folders, data descriptors
const versionMadeBy = (3 << 8) | 20; // Unix, 2.0: external attributes are Unix modes
const flagDataDescriptor = 1 << 3;
const flagUtf8 = 1 << 11;
const regularFileMode = 0o100644;
const extendedTimestampTag = 0x5455;

interface CentralRecord {
  name: Buffer;
  flags: number;
  dosTime: number;
  dosDate: number;
  unixSeconds: number;
  crc: number;
  size: number;
  offset: number;
}

/**
 * Checks an entry name: a relative path with `/` separators, no empty, `.` or `..` segment, no
 * backslash, drive letter or control character. The caller builds names; this guards the format.
 */
export function assertZipEntryName(name: string): Buffer {
  const bytes = Buffer.from(name, 'utf8');
  const segments = name.split('/');
  const isBad =
    name === '' ||
    bytes.length > maxNameBytes ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f\\]/.test(name) ||
    /^[A-Za-z]:/.test(name) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..');
  if (isBad) {
    throw new ZipLimitError(`Unusable ZIP entry name: ${JSON.stringify(name.slice(0, 80))}`);
  }
  return bytes;
}

/** DOS date and time (2-second resolution, years 1980–2107) of an instant, in UTC. */
function dosDateTime(at: Date): { dosDate: number; dosTime: number } {
  const year = Math.min(Math.max(at.getUTCFullYear(), 1980), 2107);
  const isClamped = year !== at.getUTCFullYear();
  const month = isClamped ? 1 : at.getUTCMonth() + 1;
  const day = isClamped ? 1 : at.getUTCDate();
  const hours = isClamped ? 0 : at.getUTCHours();
  const minutes = isClamped ? 0 : at.getUTCMinutes();
  const seconds = isClamped ? 0 : at.getUTCSeconds();
  return {
    dosDate: ((year - 1980) << 9) | (month << 5) | day,
    dosTime: (hours << 11) | (minutes << 5) | (seconds >> 1),
  };
}

function unixSecondsOf(at: Date): number {
  return Math.min(Math.max(Math.floor(at.getTime() / 1000), 0), 0xffff_ffff);
}

function extendedTimestamp(unixSeconds: number): Buffer {
  const field = Buffer.alloc(9);
  field.writeUInt16LE(extendedTimestampTag, 0);
  field.writeUInt16LE(5, 2);
  field.writeUInt8(1, 4); // modification time present
  field.writeUInt32LE(unixSeconds, 5);
  return field;
}

function localHeader(record: Omit<CentralRecord, 'offset'>, isStreamed: boolean): Buffer {
  const extra = extendedTimestamp(record.unixSeconds);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(signatures.localHeader, 0);
  header.writeUInt16LE(versionNeeded, 4);
  header.writeUInt16LE(record.flags, 6);
  header.writeUInt16LE(0, 8); // stored
  header.writeUInt16LE(record.dosTime, 10);
  header.writeUInt16LE(record.dosDate, 12);
  header.writeUInt32LE(isStreamed ? 0 : record.crc, 14);
  header.writeUInt32LE(isStreamed ? 0 : record.size, 18);
  header.writeUInt32LE(isStreamed ? 0 : record.size, 22);
  header.writeUInt16LE(record.name.length, 26);
  header.writeUInt16LE(extra.length, 28);
  return Buffer.concat([header, record.name, extra]);
}

function dataDescriptor(crc: number, size: number): Buffer {
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(signatures.dataDescriptor, 0);
  descriptor.writeUInt32LE(crc, 4);
  descriptor.writeUInt32LE(size, 8);
  descriptor.writeUInt32LE(size, 12);
  return descriptor;
}

function centralHeader(record: CentralRecord): Buffer {
  const extra = extendedTimestamp(record.unixSeconds);
  const header = Buffer.alloc(46);
  header.writeUInt32LE(signatures.centralHeader, 0);
  header.writeUInt16LE(versionMadeBy, 4);
  header.writeUInt16LE(versionNeeded, 6);
  header.writeUInt16LE(record.flags, 8);
  header.writeUInt16LE(0, 10);
  header.writeUInt16LE(record.dosTime, 12);
  header.writeUInt16LE(record.dosDate, 14);
  header.writeUInt32LE(record.crc, 16);
  header.writeUInt32LE(record.size, 20);
  header.writeUInt32LE(record.size, 24);
  header.writeUInt16LE(record.name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  header.writeUInt16LE(0, 32); // comment
  header.writeUInt16LE(0, 34); // disk
  header.writeUInt16LE(0, 36); // internal attributes
  header.writeUInt32LE((regularFileMode << 16) >>> 0, 38);
  header.writeUInt32LE(record.offset, 42);
  return Buffer.concat([header, record.name, extra]);
}

function endOfCentralDirectory(count: number, size: number, offset: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(signatures.endOfCentralDirectory, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20);
  return end;
}

/** Lower limits than the format's, for callers that want a smaller ceiling (and for tests). */
export interface ZipLimits {
  maxEntries?: number;
  maxBytes?: number;
}

/**
 * Writes a ZIP file from entries pulled one at a time, yielding its bytes as they are ready
 * (pipe through `Readable.from`: backpressure pauses the pull). Duplicate names are refused.
 * Throws `ZipLimitError` before yielding the bytes that would break a limit.
 */
export async function* writeZip(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  limits: ZipLimits = {},
): AsyncGenerator<Buffer> {
  const maxEntries = Math.min(limits.maxEntries ?? zipMaxEntries, zipMaxEntries);
  const maxBytes = Math.min(limits.maxBytes ?? zipMaxBytes, zipMaxBytes);
  const checkBytes = (total: number, what: string): void => {
    if (total > maxBytes) {
      throw new ZipLimitError(`The ZIP file would exceed ${maxBytes} bytes (${what}).`);
    }
  };
  const records: CentralRecord[] = [];
  const names = new Set<string>();
  let offset = 0;
  for await (const entry of entries) {
    if (records.length >= maxEntries) {
      throw new ZipLimitError(`A ZIP file holds at most ${maxEntries} entries.`);
    }
    const name = assertZipEntryName(entry.name);
    if (names.has(entry.name)) {
      throw new ZipLimitError(`Duplicate ZIP entry name: ${JSON.stringify(entry.name.slice(0, 80))}`);
    }
    names.add(entry.name);
    const { dosDate, dosTime } = dosDateTime(entry.modifiedAt);
    const unixSeconds = unixSecondsOf(entry.modifiedAt);
    const entryOffset = offset;
    if ('bytes' in entry) {
      const record = {
        name,
        flags: flagUtf8,
        dosDate,
        dosTime,
        unixSeconds,
        crc: crc32(entry.bytes),
        size: entry.bytes.length,
      };
      const header = localHeader(record, false);
      checkBytes(offset + header.length + entry.bytes.length, entry.name);
      offset += header.length + entry.bytes.length;
      records.push({ ...record, offset: entryOffset });
      yield header;
      if (entry.bytes.length > 0) {
        yield Buffer.from(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.length);
      }
      continue;
    }
    const flags = flagUtf8 | flagDataDescriptor;
    const header = localHeader({ name, flags, dosDate, dosTime, unixSeconds, crc: 0, size: 0 }, true);
    checkBytes(offset + header.length, entry.name);
    offset += header.length;
    yield header;
    let crc = 0;
    let size = 0;
    for await (const chunk of entry.stream()) {
      if (chunk.length === 0) {
        continue;
      }
      checkBytes(offset + chunk.length, entry.name);
      crc = crc32(chunk, crc);
      size += chunk.length;
      offset += chunk.length;
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    }
    const descriptor = dataDescriptor(crc, size);
    checkBytes(offset + descriptor.length, entry.name);
    offset += descriptor.length;
    records.push({ name, flags, dosDate, dosTime, unixSeconds, crc, size, offset: entryOffset });
    yield descriptor;
  }
  const directoryOffset = offset;
  const directory = Buffer.concat(records.map(centralHeader));
  checkBytes(directoryOffset + directory.length + 22, 'central directory');
  yield directory;
  yield endOfCentralDirectory(records.length, directory.length, directoryOffset);
}

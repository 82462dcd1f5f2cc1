import { crc32 } from 'node:zlib';

/** One entry of a ZIP file as `readZip` found it (after checking it thoroughly). */
export interface ReadZipEntry {
  name: string;
  data: Buffer;
  crc: number;
  isUtf8: boolean;
  hasDataDescriptor: boolean;
  /** The DOS time, read as UTC. */
  modifiedAt: Date;
  /** The extended timestamp field (0x5455), when present. */
  unixModifiedAt: Date | null;
}

/**
 * An independent reader for tests (it shares no code with `lib/zip.ts`): finds the end record,
 * walks the central directory, and for each entry checks the local header against it, the data
 * descriptor when bit 3 is set, and the CRC-32 of the stored bytes. Throws on any mismatch, on
 * compressed entries, and on bytes not accounted for between the entries and the directory.
 */
export function readZip(zip: Buffer): ReadZipEntry[] {
  const endOffset = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endOffset < 0 || endOffset + 22 > zip.length) {
    throw new Error('no end of central directory record');
  }
  const count = zip.readUInt16LE(endOffset + 10);
  if (zip.readUInt16LE(endOffset + 8) !== count) {
    throw new Error('entry counts disagree');
  }
  const directorySize = zip.readUInt32LE(endOffset + 12);
  const directoryOffset = zip.readUInt32LE(endOffset + 16);
  if (directoryOffset + directorySize !== endOffset) {
    throw new Error('central directory does not end where the end record starts');
  }
  if (endOffset + 22 + zip.readUInt16LE(endOffset + 20) !== zip.length) {
    throw new Error('trailing bytes after the end record');
  }
  const entries: ReadZipEntry[] = [];
  let cursor = directoryOffset;
  let expectedLocal = 0;
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(cursor) !== 0x02014b50) {
      throw new Error(`bad central header signature at ${cursor}`);
    }
    const flags = zip.readUInt16LE(cursor + 8);
    const method = zip.readUInt16LE(cursor + 10);
    const time = zip.readUInt16LE(cursor + 12);
    const date = zip.readUInt16LE(cursor + 14);
    const crc = zip.readUInt32LE(cursor + 16);
    const compressedSize = zip.readUInt32LE(cursor + 20);
    const size = zip.readUInt32LE(cursor + 24);
    const nameLength = zip.readUInt16LE(cursor + 28);
    const extraLength = zip.readUInt16LE(cursor + 30);
    const commentLength = zip.readUInt16LE(cursor + 32);
    const localOffset = zip.readUInt32LE(cursor + 42);
    const nameBytes = zip.subarray(cursor + 46, cursor + 46 + nameLength);
    const extra = zip.subarray(cursor + 46 + nameLength, cursor + 46 + nameLength + extraLength);
    cursor += 46 + nameLength + extraLength + commentLength;
    if (method !== 0 || compressedSize !== size) {
      throw new Error('only stored entries are expected');
    }
    if (localOffset !== expectedLocal) {
      throw new Error(`entry ${index} starts at ${localOffset}, expected ${expectedLocal}`);
    }
    if (zip.readUInt32LE(localOffset) !== 0x04034b50) {
      throw new Error(`bad local header signature at ${localOffset}`);
    }
    const localFlags = zip.readUInt16LE(localOffset + 6);
    const localNameLength = zip.readUInt16LE(localOffset + 26);
    const localExtraLength = zip.readUInt16LE(localOffset + 28);
    const localName = zip.subarray(localOffset + 30, localOffset + 30 + localNameLength);
    if (localFlags !== flags || !localName.equals(nameBytes)) {
      throw new Error(`local header of entry ${index} disagrees with the central directory`);
    }
    const hasDataDescriptor = (flags & 8) !== 0;
    if (!hasDataDescriptor) {
      if (zip.readUInt32LE(localOffset + 14) !== crc || zip.readUInt32LE(localOffset + 22) !== size) {
        throw new Error(`local CRC or size of entry ${index} disagrees`);
      }
    }
    const dataStart = localOffset + 30 + localNameLength + localExtraLength;
    const data = zip.subarray(dataStart, dataStart + size);
    if (data.length !== size) {
      throw new Error(`entry ${index} is truncated`);
    }
    if (crc32(data) !== crc) {
      throw new Error(`CRC mismatch in entry ${index}`);
    }
    expectedLocal = dataStart + size;
    if (hasDataDescriptor) {
      if (
        zip.readUInt32LE(expectedLocal) !== 0x08074b50 ||
        zip.readUInt32LE(expectedLocal + 4) !== crc ||
        zip.readUInt32LE(expectedLocal + 8) !== size ||
        zip.readUInt32LE(expectedLocal + 12) !== size
      ) {
        throw new Error(`bad data descriptor after entry ${index}`);
      }
      expectedLocal += 16;
    }
    const modifiedAt = new Date(
      Date.UTC(
        (date >> 9) + 1980,
        ((date >> 5) & 15) - 1,
        date & 31,
        time >> 11,
        (time >> 5) & 63,
        (time & 31) * 2,
      ),
    );
    let unixModifiedAt: Date | null = null;
    for (let position = 0; position + 4 <= extra.length;) {
      const tag = extra.readUInt16LE(position);
      const length = extra.readUInt16LE(position + 2);
      if (tag === 0x5455 && length >= 5 && (extra.readUInt8(position + 4) & 1) === 1) {
        unixModifiedAt = new Date(extra.readUInt32LE(position + 5) * 1000);
      }
      position += 4 + length;
    }
    entries.push({
      name: nameBytes.toString((flags & 0x800) !== 0 ? 'utf8' : 'latin1'),
      data: Buffer.from(data),
      crc,
      isUtf8: (flags & 0x800) !== 0,
      hasDataDescriptor,
      modifiedAt,
      unixModifiedAt,
    });
  }
  if (expectedLocal !== directoryOffset || cursor !== endOffset) {
    throw new Error('bytes unaccounted for between the entries and the central directory');
  }
  return entries;
}

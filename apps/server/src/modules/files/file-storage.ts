import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Bytes of uploads on disk under one root folder. Names are generated here
 * (`<area>/<uuid>.<ext>`); nothing a client sent ever becomes part of a path,
 * and every resolved path is checked to stay inside the root.
 */
export interface FileStorage {
  /** Writes new bytes and resolves with the relative storage path. */
  write(area: string, extension: string, bytes: Buffer): Promise<string>;
  read(storagePath: string): Promise<Buffer>;
  /** Removes a stored file; a missing file is not an error. */
  remove(storagePath: string): Promise<void>;
}

export function createFileStorage(root: string): FileStorage {
  const absoluteRoot = path.resolve(root);
  const resolve = (storagePath: string): string => {
    const absolute = path.resolve(absoluteRoot, storagePath);
    if (!absolute.startsWith(`${absoluteRoot}${path.sep}`)) {
      throw new Error(`Storage path escapes the uploads folder: ${storagePath}`);
    }
    return absolute;
  };
  return {
    write: async (area, extension, bytes) => {
      if (!/^[a-z0-9-]+$/.test(area) || !/^[a-z0-9]+$/.test(extension)) {
        throw new Error('Invalid storage area or extension.');
      }
      const storagePath = `${area}/${randomUUID()}.${extension}`;
      const absolute = resolve(storagePath);
      await mkdir(path.dirname(absolute), { recursive: true, mode: 0o700 });
      await writeFile(absolute, bytes, { flag: 'wx', mode: 0o600 });
      return storagePath;
    },
    read: (storagePath) => readFile(resolve(storagePath)),
    remove: (storagePath) => rm(resolve(storagePath), { force: true }),
  };
}

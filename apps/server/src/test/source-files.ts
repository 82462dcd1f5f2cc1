import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The server's own source files below `directory`: no tests, no declarations, nothing under test/. */
export function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) {
      return name === 'test' ? [] : sourceFiles(path);
    }
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

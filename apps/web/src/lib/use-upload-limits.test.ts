import { describe, expect, it } from 'vitest';
import { checkFiles } from '../components/uploader/upload-limits';
import { readPublicConfig } from './public-config';
import { bytesPerMegabyte, toUploadLimits } from './use-upload-limits';

const uploads = {
  maxFileSizeMb: 2,
  allowedKinds: ['pdf', 'jpeg'] as ('pdf' | 'jpeg')[],
  maxFilesPerUpload: 2,
};

describe('upload limits from the clinic settings', () => {
  it('turns kinds into MIME types and endings, megabytes into bytes and the count into maxFiles', () => {
    expect(toUploadLimits(uploads)).toEqual({
      accept: ['application/pdf', '.pdf', 'image/jpeg', '.jpg', '.jpeg'],
      maxFileSize: 2 * bytesPerMegabyte,
      maxFiles: 2,
    });
  });

  it('makes the uploader refuse what the server would refuse', () => {
    const file = (name: string, type: string, size: number) =>
      new File([new Uint8Array(size)], name, { type });
    const checked = checkFiles(
      [
        file('informe.pdf', 'application/pdf', 1000),
        file('foto.png', 'image/png', 1000),
        file('grande.jpg', '', 2 * bytesPerMegabyte + 1),
        file('otra.jpeg', 'image/jpeg', 10),
        file('tercera.pdf', 'application/pdf', 10),
      ],
      toUploadLimits(uploads),
    );
    expect(checked.map(({ rejection }) => rejection?.reason ?? 'ok')).toEqual([
      'ok',
      'type',
      'size',
      'ok',
      'count',
    ]);
  });
});

describe('readPublicConfig', () => {
  it('keeps the clinic block when it has the shared shape, and nothing otherwise', () => {
    const clinic = {
      name: 'Clínica Sol',
      logoUrl: null,
      timeZone: 'Europe/Madrid',
      language: 'es',
      uploads,
      visitLengths: [20, 30],
    };
    expect(readPublicConfig({ version: '1', clinic }).clinic).toEqual(clinic);
    expect(readPublicConfig({ version: '1' }).clinic).toBeNull();
    expect(
      readPublicConfig({ clinic: { ...clinic, uploads: { ...uploads, maxFileSizeMb: 'x' } } }).clinic,
    ).toBeNull();
    expect(readPublicConfig('<html>').clinic).toBeNull();
  });
});

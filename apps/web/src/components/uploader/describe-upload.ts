import { errorCodes } from '@telemedicina/shared/errors';
import type { TFunction } from 'i18next';
import { formatAcceptedTypes, formatBytes } from '../../lib/format';
import type { UploadRejection } from './upload-limits';
import type { UploadFailure } from './upload-request';

/** The translated reason a file was refused before sending. */
export function describeRejection(rejection: UploadRejection, t: TFunction, language: string): string {
  switch (rejection.reason) {
    case 'type':
      return t('uploader.rejected.type', { accept: formatAcceptedTypes(rejection.accept) });
    case 'size':
      return t('uploader.rejected.size', { max: formatBytes(rejection.maxFileSize, language) });
    case 'count':
      return t('uploader.rejected.count', { count: rejection.maxFiles });
  }
}

/** The translated reason an upload did not finish: the server's error code when it sent one. */
export function describeFailure(failure: UploadFailure, t: TFunction): string {
  switch (failure.kind) {
    case 'aborted':
      return t('uploader.status.cancelled');
    case 'network':
      return t('errors.network');
    case 'http': {
      const body = failure.body;
      const code =
        typeof body === 'object' &&
        body !== null &&
        'error' in body &&
        typeof body.error === 'object' &&
        body.error !== null &&
        'code' in body.error
          ? body.error.code
          : null;
      if (typeof code === 'string' && (errorCodes as readonly string[]).includes(code)) {
        return t(`errors.codes.${code as (typeof errorCodes)[number]}`);
      }
      return t('uploader.failed.http', { status: failure.status });
    }
  }
}

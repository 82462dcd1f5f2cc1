import {
  Alert,
  Button,
  Center,
  FileButton,
  Group,
  Image,
  Input,
  Loader,
  Progress,
  Stack,
  Text,
} from '@mantine/core';
import { IconCircleCheck, IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../../components/brand/BrandMark';
import { croppableAccept, LazyImageCropper, type CroppedImage } from '../../../components/image-cropper';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useLanguage } from '../../../lib/ui-state';
import { bytesPerMegabyte, useUploadLimits } from '../../../lib/use-upload-limits';
import { maxLogoBytes, uploadLogo, useDeleteLogo, useRefreshAfterLogo } from '../api/logo';
import classes from './ClinicSettings.module.css';

type Stage =
  | { kind: 'idle' }
  | { kind: 'cropping'; file: File }
  | { kind: 'uploading'; percent: number }
  | { kind: 'done' }
  | { kind: 'failed'; error: unknown };

/**
 * The clinic's logo: choose an image, crop it, upload it (`PUT /settings/logo`) — or remove it
 * (`DELETE /settings/logo`). Saved at once, apart from the section's other fields.
 */
export function LogoField({ logoUrl, clinicName }: { logoUrl: string | null; clinicName: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const refresh = useRefreshAfterLogo();
  const remove = useDeleteLogo();
  const uploadLimits = useUploadLimits();
  // The server takes the smaller of its 2 MB cap and the clinic's upload size limit.
  const maxBytes = Math.min(maxLogoBytes, uploadLimits?.maxFileSize ?? maxLogoBytes);
  const maxText = `${new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(maxBytes / bytesPerMegabyte)} MB`;
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const abortRef = useRef<(() => void) | null>(null);
  useEffect(() => () => abortRef.current?.(), []);

  const handleCropped = async (result: CroppedImage) => {
    if (result.file.size > maxBytes) {
      setStage({ kind: 'failed', error: new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Too large') });
      return;
    }
    setStage({ kind: 'uploading', percent: 0 });
    const upload = uploadLogo(result.file, ({ loaded, total }) =>
      setStage({ kind: 'uploading', percent: total > 0 ? Math.round((loaded / total) * 100) : 0 }),
    );
    abortRef.current = upload.abort;
    try {
      await upload.promise;
      await refresh();
      setStage({ kind: 'done' });
    } catch (error) {
      setStage({ kind: 'failed', error });
    } finally {
      abortRef.current = null;
    }
  };

  const handleRemove = async () => {
    setStage({ kind: 'idle' });
    try {
      await remove.mutateAsync();
    } catch {
      // The API client has shown the error.
    }
  };

  return (
    <Stack gap="sm" data-testid="settings-logo">
      <Input.Label component="div">{t('clinicSettings.clinic.logo')}</Input.Label>
      <Group gap="lg" align="center" wrap="wrap">
        <div
          className={classes.logoPreview}
          data-testid="settings-logo-current"
          data-has-logo={logoUrl ? 'true' : 'false'}
        >
          {logoUrl ? (
            <Image
              src={logoUrl}
              alt={t('clinicSettings.clinic.logoAlt', { name: clinicName })}
              fit="contain"
              h={72}
              w="auto"
              maw={200}
            />
          ) : (
            <BrandMark size={56} title={t('clinicSettings.clinic.noLogo')} />
          )}
        </div>
        <Stack gap="xs" maw={420}>
          <Text size="sm" c="gray.7">
            {t('clinicSettings.clinic.logoHint', { max: maxText })}
          </Text>
          <Group gap="sm">
            <FileButton
              onChange={(file) => setStage(file ? { kind: 'cropping', file } : { kind: 'idle' })}
              accept={croppableAccept.join(',')}
              inputProps={
                { 'data-testid': 'settings-logo-input' } as React.InputHTMLAttributes<HTMLInputElement>
              }
            >
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  leftSection={<IconPhotoUp size={18} />}
                  disabled={stage.kind === 'uploading'}
                  data-testid="settings-logo-choose"
                >
                  {logoUrl ? t('clinicSettings.clinic.logoChange') : t('clinicSettings.clinic.logoChoose')}
                </Button>
              )}
            </FileButton>
            {logoUrl ? (
              <Button
                variant="default"
                color="red"
                leftSection={<IconTrash size={18} />}
                loading={remove.isPending}
                disabled={stage.kind === 'uploading'}
                onClick={() => void handleRemove()}
                data-testid="settings-logo-remove"
              >
                {t('clinicSettings.clinic.logoRemove')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Group>
      {stage.kind === 'cropping' ? (
        <Suspense
          fallback={
            <Center mih={160}>
              <Loader aria-label={t('cropper.loading')} />
            </Center>
          }
        >
          <LazyImageCropper
            file={stage.file}
            onCropped={(result) => void handleCropped(result)}
            onCancel={() => setStage({ kind: 'idle' })}
          />
        </Suspense>
      ) : null}
      {stage.kind === 'uploading' ? (
        <Progress
          value={stage.percent}
          striped
          animated
          aria-label={t('clinicSettings.clinic.logoUploading')}
          data-testid="settings-logo-progress"
        />
      ) : null}
      {stage.kind === 'done' ? (
        <Alert
          color="teal"
          variant="light"
          icon={<IconCircleCheck />}
          role="status"
          data-testid="settings-logo-saved"
        >
          {t('clinicSettings.clinic.logoSaved')}
        </Alert>
      ) : null}
      {stage.kind === 'failed' ? (
        <Alert color="red" variant="light" role="alert" data-testid="settings-logo-error">
          {errorText(stage.error)}
        </Alert>
      ) : null}
    </Stack>
  );
}

import {
  Alert,
  Avatar,
  Button,
  Center,
  FileButton,
  Group,
  Loader,
  Paper,
  Progress,
  Stack,
  Text,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconCircleCheck, IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { croppableAccept, LazyImageCropper, type CroppedImage } from '../../../components/image-cropper';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { formatBytes } from '../../../lib/format';
import { storeMe, useMe } from '../../../lib/session';
import { useLanguage } from '../../../lib/ui-state';
import { maxPhotoBytes, uploadPhoto, useDeletePhoto } from '../api/photo';
import classes from './Profile.module.css';

type Stage =
  | { kind: 'idle' }
  | { kind: 'cropping'; file: File }
  | { kind: 'uploading'; percent: number }
  | { kind: 'done' }
  | { kind: 'failed'; error: unknown };

/** The profile photo: choose, crop square, upload (`PUT /me/photo`); or remove it. */
export function ProfilePhotoPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const queryClient = useQueryClient();
  const me = useMe().data;
  const remove = useDeletePhoto();
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const abortRef = useRef<(() => void) | null>(null);
  useEffect(() => () => abortRef.current?.(), []);

  if (!me) {
    return null;
  }
  const { user } = me;

  const handleCropped = async (result: CroppedImage) => {
    if (result.file.size > maxPhotoBytes) {
      setStage({
        kind: 'failed',
        error: new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Too large'),
      });
      return;
    }
    setStage({ kind: 'uploading', percent: 0 });
    const upload = uploadPhoto(result.file, ({ loaded, total }) =>
      setStage({ kind: 'uploading', percent: total > 0 ? Math.round((loaded / total) * 100) : 0 }),
    );
    abortRef.current = upload.abort;
    try {
      storeMe(queryClient, await upload.promise);
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
    <Paper withBorder radius="lg" className={classes.card} data-testid="profile-photo">
      <Stack gap="lg">
        <Group gap="lg" wrap="wrap" align="center">
          <Avatar
            src={user.photoUrl}
            name={user.name}
            color="initials"
            size={112}
            className={classes.photoPreview}
            alt={t('admin.userMenu.photoAlt', { name: user.name })}
            data-testid="profile-photo-current"
            data-has-photo={user.photoUrl ? 'true' : 'false'}
          />
          <Stack gap="xs" maw={420}>
            <Text size="sm" c="gray.7">
              {t('profile.photo.hint', { max: formatBytes(maxPhotoBytes, language) })}
            </Text>
            <Group gap="sm">
              <FileButton
                onChange={(file) => setStage(file ? { kind: 'cropping', file } : { kind: 'idle' })}
                accept={croppableAccept.join(',')}
                inputProps={
                  { 'data-testid': 'profile-photo-input' } as React.InputHTMLAttributes<HTMLInputElement>
                }
              >
                {(props) => (
                  <Button
                    {...props}
                    leftSection={<IconPhotoUp size={18} />}
                    disabled={stage.kind === 'uploading'}
                    data-testid="profile-photo-choose"
                  >
                    {user.photoUrl ? t('profile.photo.change') : t('profile.photo.choose')}
                  </Button>
                )}
              </FileButton>
              {user.photoUrl ? (
                <Button
                  variant="default"
                  color="red"
                  leftSection={<IconTrash size={18} />}
                  loading={remove.isPending}
                  disabled={stage.kind === 'uploading'}
                  onClick={() => void handleRemove()}
                  data-testid="profile-photo-remove"
                >
                  {t('profile.photo.remove')}
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
              aspect={1}
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
            aria-label={t('profile.photo.uploading')}
            data-testid="profile-photo-progress"
          />
        ) : null}
        {stage.kind === 'done' ? (
          <Alert
            color="teal"
            variant="light"
            icon={<IconCircleCheck />}
            role="status"
            data-testid="profile-photo-saved"
          >
            {t('profile.photo.saved')}
          </Alert>
        ) : null}
        {stage.kind === 'failed' ? (
          <Alert color="red" variant="light" role="alert" data-testid="profile-photo-error">
            {errorText(stage.error)}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}

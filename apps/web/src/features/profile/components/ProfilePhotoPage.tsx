import { Avatar, Group, Paper, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ImageUploadButtons, ImageUploadSteps, useImageUpload } from '../../../components/image-upload';
import { formatBytes } from '../../../lib/format';
import { storeMe, useMe } from '../../../lib/session';
import { useLanguage } from '../../../lib/ui-state';
import { maxPhotoBytes, uploadPhoto, useDeletePhoto } from '../api/photo';
import classes from './Profile.module.css';

/** The profile photo: choose, crop square, upload (`PUT /me/photo`); or remove it. */
export function ProfilePhotoPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const queryClient = useQueryClient();
  const me = useMe().data;
  const remove = useDeletePhoto();
  const flow = useImageUpload({
    maxBytes: maxPhotoBytes,
    upload: uploadPhoto,
    onUploaded: (updated) => storeMe(queryClient, updated),
    remove: () => remove.mutateAsync(),
  });

  if (!me) {
    return null;
  }
  const { user } = me;

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
              <ImageUploadButtons
                flow={flow}
                testId="profile-photo"
                chooseLabel={user.photoUrl ? t('profile.photo.change') : t('profile.photo.choose')}
                removeLabel={user.photoUrl ? t('profile.photo.remove') : null}
                isRemoving={remove.isPending}
              />
            </Group>
          </Stack>
        </Group>

        <ImageUploadSteps
          flow={flow}
          testId="profile-photo"
          aspect={1}
          uploadingLabel={t('profile.photo.uploading')}
          savedText={t('profile.photo.saved')}
        />
      </Stack>
    </Paper>
  );
}

import { Alert, Button, Center, FileButton, Loader, Progress, type ButtonProps } from '@mantine/core';
import { IconCircleCheck, IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiErrorText } from '../../lib/error-text';
import { croppableAccept, LazyImageCropper } from '../image-cropper';
import type { ImageUpload } from './use-image-upload';

export interface ImageUploadButtonsProps {
  flow: ImageUpload;
  /** Test ids are `<testId>-input`, `-choose` and `-remove`. */
  testId: string;
  chooseLabel: string;
  chooseVariant?: ButtonProps['variant'];
  /** Shown only while there is an image to remove. */
  removeLabel: string | null;
  isRemoving: boolean;
}

/** "Choose an image" (a file picker) and, when there is one, "Remove". */
export function ImageUploadButtons({
  flow,
  testId,
  chooseLabel,
  chooseVariant,
  removeLabel,
  isRemoving,
}: ImageUploadButtonsProps) {
  return (
    <>
      <FileButton
        onChange={flow.choose}
        accept={croppableAccept.join(',')}
        inputProps={{ 'data-testid': `${testId}-input` } as React.InputHTMLAttributes<HTMLInputElement>}
      >
        {(props) => (
          <Button
            {...props}
            variant={chooseVariant}
            leftSection={<IconPhotoUp size={18} />}
            disabled={flow.isUploading}
            data-testid={`${testId}-choose`}
          >
            {chooseLabel}
          </Button>
        )}
      </FileButton>
      {removeLabel !== null ? (
        <Button
          variant="default"
          color="red"
          leftSection={<IconTrash size={18} />}
          loading={isRemoving}
          disabled={flow.isUploading}
          onClick={() => void flow.handleRemove()}
          data-testid={`${testId}-remove`}
        >
          {removeLabel}
        </Button>
      ) : null}
    </>
  );
}

export interface ImageUploadStepsProps {
  flow: ImageUpload;
  /** Test ids are `<testId>-progress`, `-saved` and `-error`. */
  testId: string;
  /** The crop's width / height; free when absent. */
  aspect?: number;
  uploadingLabel: string;
  savedText: string;
}

/** The cropper, the upload's progress, then "saved" or the error. */
export function ImageUploadSteps({ flow, testId, aspect, uploadingLabel, savedText }: ImageUploadStepsProps) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const { stage } = flow;
  return (
    <>
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
            aspect={aspect}
            onCropped={(result) => void flow.handleCropped(result)}
            onCancel={flow.cancel}
          />
        </Suspense>
      ) : null}
      {stage.kind === 'uploading' ? (
        <Progress
          value={stage.percent}
          striped
          animated
          aria-label={uploadingLabel}
          data-testid={`${testId}-progress`}
        />
      ) : null}
      {stage.kind === 'done' ? (
        <Alert
          color="teal"
          variant="light"
          icon={<IconCircleCheck />}
          role="status"
          data-testid={`${testId}-saved`}
        >
          {savedText}
        </Alert>
      ) : null}
      {stage.kind === 'failed' ? (
        <Alert color="red" variant="light" role="alert" data-testid={`${testId}-error`}>
          {errorText(stage.error)}
        </Alert>
      ) : null}
    </>
  );
}

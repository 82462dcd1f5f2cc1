import '@mantine/core/styles/Grid.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/Image.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { Divider, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import classes from '../../../components/section-page/SectionPage.module.css';
import { CropperDemo } from './CropperDemo';
import { EditorDemo } from './EditorDemo';
import { MessagesDemo } from './MessagesDemo';
import { ShowcaseSection } from './ShowcaseSection';
import { UploaderDemo, useUploaderDemo } from './UploaderDemo';

/**
 * The shared components, live, on one settings-style page: used by the product's screens later and
 * exercised here by browser tests and screenshots.
 */
export function ComponentsShowcasePage() {
  const { t } = useTranslation();
  const uploader = useUploaderDemo();
  return (
    <div className={classes.page} data-testid="components-showcase">
      <SectionHeader title={t('showcase.title')} description={t('showcase.description')} />
      <Stack gap="xl">
        <ShowcaseSection
          id="messages"
          title={t('showcase.messages.title')}
          description={t('showcase.messages.description')}
        >
          <MessagesDemo />
        </ShowcaseSection>
        <Divider />
        <ShowcaseSection
          id="uploader"
          title={t('showcase.uploader.title')}
          description={t('showcase.uploader.description')}
        >
          <UploaderDemo uploader={uploader} />
        </ShowcaseSection>
        <Divider />
        <ShowcaseSection
          id="cropper"
          title={t('showcase.cropper.title')}
          description={t('showcase.cropper.description')}
        >
          <CropperDemo onSendToUploader={(file) => uploader.manager.add([file])} />
        </ShowcaseSection>
        <Divider />
        <ShowcaseSection
          id="editor"
          title={t('showcase.editor.title')}
          description={t('showcase.editor.description')}
        >
          <EditorDemo />
        </ShowcaseSection>
      </Stack>
    </div>
  );
}

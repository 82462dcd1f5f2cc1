import { Button, Center, Loader } from '@mantine/core';
import { IconBug } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyRichTextEditor } from '../../../components/rich-text-editor';

/** Where the demo keeps its note: this browser only. */
export const showcaseNoteStorageKey = 'telemedicina.showcase.note';

function readNote(): string {
  try {
    return localStorage.getItem(showcaseNoteStorageKey) ?? '';
  } catch {
    return '';
  }
}

/** A toolbar button that makes the editor crash on purpose (it throws while rendering). */
function SimulateCrashButton() {
  const { t } = useTranslation();
  const [shouldCrash, setShouldCrash] = useState(false);
  if (shouldCrash) {
    throw new Error('Simulated editor crash');
  }
  return (
    <Button
      size="compact-sm"
      variant="subtle"
      color="orange"
      leftSection={<IconBug size={16} />}
      onClick={() => setShouldCrash(true)}
      data-testid="editor-simulate-crash"
    >
      {t('showcase.editor.simulateCrash')}
    </Button>
  );
}

export function EditorDemo() {
  const { t } = useTranslation();
  const [initialContent] = useState(readNote);
  return (
    <Suspense
      fallback={
        <Center mih={220}>
          <Loader aria-label={t('editor.loading')} />
        </Center>
      }
    >
      <LazyRichTextEditor
        initialContent={initialContent}
        onSave={(html) => localStorage.setItem(showcaseNoteStorageKey, html)}
        placeholder={t('showcase.editor.placeholder')}
        labelledBy="editor-title"
        toolbarExtra={<SimulateCrashButton />}
      />
    </Suspense>
  );
}

import { ActionIcon, Button, Divider, Group, Popover, Stack, TextInput, Tooltip } from '@mantine/core';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconBlockquote,
  IconBold,
  IconH2,
  IconH3,
  IconItalic,
  IconLink,
  IconList,
  IconListNumbers,
  IconStrikethrough,
  IconUnderline,
} from '@tabler/icons-react';
import { useEditorState, type Editor } from '@tiptap/react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './RichTextEditor.module.css';

interface ToolbarButtonProps {
  label: string;
  isActive?: boolean;
  isDisabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}

function ToolbarButton({
  label,
  isActive = false,
  isDisabled = false,
  onClick,
  children,
}: ToolbarButtonProps) {
  return (
    <Tooltip label={label} openDelay={400}>
      <ActionIcon
        variant={isActive ? 'light' : 'subtle'}
        color={isActive ? 'clinic' : 'gray'}
        size={34}
        aria-label={label}
        aria-pressed={isActive}
        disabled={isDisabled}
        onClick={onClick}
        // Keep the editor's selection when a button is pressed.
        onMouseDown={(event) => event.preventDefault()}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/** Formatting toolbar: marks, headings, lists, quote, link, undo/redo. */
export function EditorToolbar({ editor, extra }: { editor: Editor; extra?: ReactNode }) {
  const { t } = useTranslation();
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      isBold: current.isActive('bold'),
      isItalic: current.isActive('italic'),
      isUnderline: current.isActive('underline'),
      isStrike: current.isActive('strike'),
      isH2: current.isActive('heading', { level: 2 }),
      isH3: current.isActive('heading', { level: 3 }),
      isBulletList: current.isActive('bulletList'),
      isOrderedList: current.isActive('orderedList'),
      isQuote: current.isActive('blockquote'),
      isLink: current.isActive('link'),
      linkHref: (current.getAttributes('link').href as string | undefined) ?? '',
      canUndo: current.can().undo(),
      canRedo: current.can().redo(),
    }),
  });
  const run = () => editor.chain().focus();

  return (
    <Group gap={2} className={classes.toolbar} role="toolbar" aria-label={t('editor.toolbar')} wrap="wrap">
      <ToolbarButton
        label={t('editor.bold')}
        isActive={state.isBold}
        onClick={() => run().toggleBold().run()}
      >
        <IconBold size={18} />
      </ToolbarButton>
      <ToolbarButton
        label={t('editor.italic')}
        isActive={state.isItalic}
        onClick={() => run().toggleItalic().run()}
      >
        <IconItalic size={18} />
      </ToolbarButton>
      <ToolbarButton
        label={t('editor.underline')}
        isActive={state.isUnderline}
        onClick={() => run().toggleUnderline().run()}
      >
        <IconUnderline size={18} />
      </ToolbarButton>
      <ToolbarButton
        label={t('editor.strike')}
        isActive={state.isStrike}
        onClick={() => run().toggleStrike().run()}
      >
        <IconStrikethrough size={18} />
      </ToolbarButton>
      <Divider orientation="vertical" mx={4} />
      <ToolbarButton
        label={t('editor.heading2')}
        isActive={state.isH2}
        onClick={() => run().toggleHeading({ level: 2 }).run()}
      >
        <IconH2 size={18} />
      </ToolbarButton>
      <ToolbarButton
        label={t('editor.heading3')}
        isActive={state.isH3}
        onClick={() => run().toggleHeading({ level: 3 }).run()}
      >
        <IconH3 size={18} />
      </ToolbarButton>
      <ToolbarButton
        label={t('editor.bulletList')}
        isActive={state.isBulletList}
        onClick={() => run().toggleBulletList().run()}
      >
        <IconList size={18} />
      </ToolbarButton>
      <ToolbarButton
        label={t('editor.orderedList')}
        isActive={state.isOrderedList}
        onClick={() => run().toggleOrderedList().run()}
      >
        <IconListNumbers size={18} />
      </ToolbarButton>
      <ToolbarButton
        label={t('editor.quote')}
        isActive={state.isQuote}
        onClick={() => run().toggleBlockquote().run()}
      >
        <IconBlockquote size={18} />
      </ToolbarButton>
      <LinkButton editor={editor} isActive={state.isLink} href={state.linkHref} />
      <Divider orientation="vertical" mx={4} />
      <ToolbarButton label={t('editor.undo')} isDisabled={!state.canUndo} onClick={() => run().undo().run()}>
        <IconArrowBackUp size={18} />
      </ToolbarButton>
      <ToolbarButton label={t('editor.redo')} isDisabled={!state.canRedo} onClick={() => run().redo().run()}>
        <IconArrowForwardUp size={18} />
      </ToolbarButton>
      {extra ? <div className={classes.toolbarExtra}>{extra}</div> : null}
    </Group>
  );
}

function LinkButton({ editor, isActive, href }: { editor: Editor; isActive: boolean; href: string }) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  const [value, setValue] = useState('');
  const [isInvalid, setIsInvalid] = useState(false);

  const handleOpen = () => {
    setValue(href);
    setIsInvalid(false);
    setIsOpen((open) => !open);
  };
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const url = value.trim();
    const normalized = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
    if (url === '' || !/^(https?:\/\/[^\s]+|mailto:[^\s]+|tel:[+\d\s()-]+)$/i.test(normalized)) {
      setIsInvalid(true);
      return;
    }
    editor.chain().focus().extendMarkRange('link').setLink({ href: normalized }).run();
    setIsOpen(false);
  };
  const handleRemove = () => {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    setIsOpen(false);
  };

  return (
    <Popover opened={isOpen} onChange={setIsOpen} position="bottom" withArrow shadow="md" trapFocus>
      <Popover.Target>
        <ActionIcon
          variant={isActive ? 'light' : 'subtle'}
          color={isActive ? 'clinic' : 'gray'}
          size={34}
          aria-label={t('editor.link')}
          aria-pressed={isActive}
          onMouseDown={(event) => event.preventDefault()}
          onClick={handleOpen}
        >
          <IconLink size={18} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <form onSubmit={handleSubmit}>
          <Stack gap="xs" w={260}>
            <TextInput
              label={t('editor.linkUrl')}
              placeholder={t('editor.linkPlaceholder')}
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              error={isInvalid ? t('editor.linkInvalid') : undefined}
              data-autofocus
            />
            <Group justify="flex-end" gap="xs">
              {isActive ? (
                <Button variant="subtle" color="red" size="xs" onClick={handleRemove}>
                  {t('editor.unlink')}
                </Button>
              ) : null}
              <Button type="submit" size="xs">
                {t('editor.applyLink')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}

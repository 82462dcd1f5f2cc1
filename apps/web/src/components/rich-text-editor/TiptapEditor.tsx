import { EditorContent, useEditor } from '@tiptap/react';
import { Placeholder } from '@tiptap/extension-placeholder';
import { StarterKit } from '@tiptap/starter-kit';
import type { ReactNode } from 'react';
import { EditorToolbar } from './EditorToolbar';
import classes from './RichTextEditor.module.css';

export interface TiptapEditorProps {
  initialContent: string;
  /** Called with the HTML after every change ('' when the document is empty). */
  onUpdate: (html: string) => void;
  placeholder?: string;
  labelledBy?: string;
  toolbarExtra?: ReactNode;
}

/** The Tiptap editor with its toolbar. Links are limited to http(s), mailto and tel. */
export function TiptapEditor({
  initialContent,
  onUpdate,
  placeholder,
  labelledBy,
  toolbarExtra,
}: TiptapEditorProps) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        link: {
          openOnClick: false,
          autolink: true,
          defaultProtocol: 'https',
          protocols: ['http', 'https', 'mailto', 'tel'],
          isAllowedUri: (url) => /^(https?:|mailto:|tel:)/i.test(url.trim()),
          HTMLAttributes: { rel: 'noopener noreferrer nofollow', target: '_blank' },
        },
      }),
      Placeholder.configure({ placeholder: placeholder ?? '' }),
    ],
    content: initialContent,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        class: classes.content ?? '',
        role: 'textbox',
        'aria-multiline': 'true',
        ...(labelledBy ? { 'aria-labelledby': labelledBy } : {}),
        'data-testid': 'rich-text-editor-content',
      },
    },
    onUpdate: ({ editor: current }) => onUpdate(current.isEmpty ? '' : current.getHTML()),
  });

  return (
    <div className={classes.frame}>
      <EditorToolbar editor={editor} extra={toolbarExtra} />
      <EditorContent editor={editor} />
    </div>
  );
}

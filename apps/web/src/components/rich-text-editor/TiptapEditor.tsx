import { EditorContent, useEditor } from '@tiptap/react';
import { Placeholder } from '@tiptap/extension-placeholder';
import { StarterKit } from '@tiptap/starter-kit';
import { useEffect, useRef, type ReactNode } from 'react';
import { EditorToolbar } from './EditorToolbar';
import classes from './RichTextEditor.module.css';

export interface TiptapEditorProps {
  initialContent: string;
  /** Called with the HTML after every change ('' when the document is empty). */
  onUpdate: (html: string) => void;
  placeholder?: string;
  labelledBy?: string;
  toolbarExtra?: ReactNode;
  /** Text to put in (a new `id` each time): at the cursor once the editor was used, else at the end. */
  insertion?: EditorInsertion | null;
}

/** HTML (already escaped) to insert into the editor; a new id asks for one more insertion. */
export interface EditorInsertion {
  id: number;
  html: string;
}

/** The Tiptap editor with its toolbar. Links are limited to http(s), mailto and tel. */
export function TiptapEditor({
  initialContent,
  onUpdate,
  placeholder,
  labelledBy,
  toolbarExtra,
  insertion = null,
}: TiptapEditorProps) {
  const hasFocusedRef = useRef(false);
  const insertedRef = useRef<number | null>(null);
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
    onFocus: () => {
      hasFocusedRef.current = true;
    },
  });

  useEffect(() => {
    if (insertion === null || insertedRef.current === insertion.id) {
      return;
    }
    insertedRef.current = insertion.id;
    // Where the doctor left the cursor; an editor never used takes it at the end.
    editor
      .chain()
      .focus(hasFocusedRef.current ? null : 'end', { scrollIntoView: false })
      .insertContent(insertion.html)
      .run();
  }, [editor, insertion]);

  return (
    <div className={classes.frame}>
      <EditorToolbar editor={editor} extra={toolbarExtra} />
      <EditorContent editor={editor} />
    </div>
  );
}

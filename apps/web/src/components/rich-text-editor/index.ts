import { lazy } from 'react';

/** The editor (Tiptap and ProseMirror) loads only when a screen shows it. */
export const LazyRichTextEditor = lazy(() => import('./RichTextEditor'));
export type { RichTextEditorProps } from './RichTextEditor';
export type { EditorInsertion } from './TiptapEditor';

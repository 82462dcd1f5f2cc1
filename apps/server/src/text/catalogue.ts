import type { Language } from '@telemedicina/shared/i18n';
import { en } from './en.js';
import { es } from './es.js';

/**
 * The server's text catalogue: every word it writes for people (emails, PDFs, calendar files, CSV
 * headers, file names), kept like the web's translation files: one tree per language with the same
 * dotted keys, `{{name}}` parameters, Spanish as the reference. Builders call `t` and only lay the
 * texts out, so a wording is changed (or a language added) in one place.
 */

/** A language's tree: the shape of the Spanish one, any text in its leaves. */
export type Catalogue = TextTree<typeof es>;
type TextTree<T> = { readonly [K in keyof T]: T[K] extends string ? string : TextTree<T[K]> };

/** Every dotted key that leads to a text, e.g. `email.verifyEmail.subject`. */
export type TextKey = KeysOf<typeof es>;
type KeysOf<T> = {
  [K in keyof T & string]: T[K] extends string ? K : `${K}.${KeysOf<T[K]>}`;
}[keyof T & string];

type TextAt<T, K extends string> = K extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? TextAt<T[Head], Rest>
    : never
  : K extends keyof T
    ? T[K]
    : never;

/** The names of the `{{name}}` parameters a text asks for (read from its Spanish wording). */
type ParameterNames<S> = S extends `${string}{{${infer Name}}}${infer Rest}`
  ? Name | ParameterNames<Rest>
  : never;

/** The values a text's parameters take: exactly its names, each a string or a number. */
export type TextParams<K extends TextKey> = Record<ParameterNames<TextAt<typeof es, K>>, string | number>;

type ParamsArgument<K extends TextKey> = [ParameterNames<TextAt<typeof es, K>>] extends [never]
  ? []
  : [params: TextParams<K>];

const catalogues: Record<Language, Catalogue> = { es, en };

/** `{{name}}`, spaces inside the braces allowed, as in the web's translation files. */
export const parameterPattern = /{{\s*(\w+)\s*}}/g;

/**
 * The text under `key` in `language`, its parameters filled in. A key or parameter that is not
 * there is a programming error (the types prevent it for literal keys): it throws rather than
 * sending someone a message with a hole in it.
 */
export function t<K extends TextKey>(language: Language, key: K, ...params: ParamsArgument<K>): string {
  const text = lookUp(catalogues[language], key);
  if (text === undefined) {
    throw new Error(`No server text "${key}" in ${language}`);
  }
  const values: Partial<Record<string, string | number>> = params[0] ?? {};
  return text.replace(parameterPattern, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) {
      throw new Error(`Server text "${key}" needs the parameter "${name}"`);
    }
    return String(value);
  });
}

/** Every text of a language by its dotted key (for the catalogue's own tests). */
export function flattenCatalogue(language: Language): Map<string, string> {
  const entries = new Map<string, string>();
  const walk = (tree: Subtree, prefix: string): void => {
    for (const [key, value] of Object.entries(tree)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      if (typeof value === 'string') {
        entries.set(path, value);
      } else if (isSubtree(value)) {
        walk(value, path);
      }
    }
  };
  walk(catalogues[language], '');
  return entries;
}

type Subtree = { readonly [key: string]: unknown };

function isSubtree(value: unknown): value is Subtree {
  return typeof value === 'object' && value !== null;
}

function lookUp(tree: Catalogue, key: string): string | undefined {
  let node: unknown = tree;
  for (const part of key.split('.')) {
    if (!isSubtree(node) || !Object.hasOwn(node, part)) {
      return undefined;
    }
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

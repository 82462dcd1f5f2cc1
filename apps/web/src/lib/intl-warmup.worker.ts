import { buildFirstFormatters } from './intl-formatters';

/** The part of a dedicated worker's global scope this file uses (the app's types are the DOM's). */
interface WarmupScope {
  onmessage: ((event: MessageEvent<unknown>) => void) | null;
  postMessage: (message: unknown) => void;
  close: () => void;
}

const scope = self as unknown as WarmupScope;

scope.onmessage = (event) => {
  const data = event.data as { language?: unknown } | null;
  const language = typeof data?.language === 'string' ? data.language : 'en';
  const built = buildFirstFormatters(language);
  scope.postMessage({ built });
  scope.close();
};

export * from './errors.js';
export * from './i18n.js';

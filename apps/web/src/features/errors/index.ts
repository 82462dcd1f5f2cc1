export { NotFoundPage } from './NotFoundPage';
export { ServerErrorPage } from './ServerErrorPage';
export { NotFoundContent } from './NotFoundContent';

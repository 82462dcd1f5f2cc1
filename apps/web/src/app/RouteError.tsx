import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundPage, ServerErrorPage } from '../features/errors';

/**
 * What a route shows when it fails: a 404 answer from a loader is the "not found" page; anything
 * else — a lazy area that cannot be downloaded, a render crash — is the server error page.
 */
export function RouteError() {
  const error = useRouteError();
  return isRouteErrorResponse(error) && error.status === 404 ? <NotFoundPage /> : <ServerErrorPage />;
}

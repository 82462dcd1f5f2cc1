import './app/mantine-styles';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/AppProviders';
import { routes } from './app/routes';
import { startI18n } from './lib/i18n';
import { installTestHooks } from './lib/test-hooks';

const container = document.getElementById('root');
if (!container) {
  throw new Error('The page has no #root element');
}

installTestHooks();
// Render once the start language's texts are loaded, so no untranslated key ever flashes.
void startI18n().then((i18n) => {
  const router = createBrowserRouter(routes);
  createRoot(container).render(
    <StrictMode>
      <AppProviders i18n={i18n}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
});

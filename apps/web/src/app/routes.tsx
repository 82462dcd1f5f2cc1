import { Center, Loader } from '@mantine/core';
import type { RouteObject } from 'react-router';
import { NotFoundPage, ServerErrorPage } from '../features/errors';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';

/**
 * The application's routes (specification §2). The authentication area (empty path) and the admin
 * area are separate chunks loaded on demand; the two error pages are part of the first download so
 * they always show.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: (
      <Center h="100dvh">
        <Loader />
      </Center>
    ),
    children: [
      {
        path: '',
        lazy: async () => ({ Component: (await import('../features/auth')).AuthLanding }),
      },
      {
        path: 'admin',
        lazy: async () => ({ Component: (await import('../features/admin')).AdminLayout }),
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import('../features/admin')).DashboardPage }),
          },
          {
            path: 'components',
            lazy: async () => ({
              Component: (await import('../features/admin/showcase')).ComponentsShowcasePage,
            }),
          },
          {
            path: ':section',
            lazy: async () => {
              const admin = await import('../features/admin');
              return { Component: admin.ListSectionPage, loader: admin.listSectionLoader };
            },
          },
        ],
      },
      { path: 'error-500', Component: ServerErrorPage },
      { path: '*', Component: NotFoundPage },
    ],
  },
];
